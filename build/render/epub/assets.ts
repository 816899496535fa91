/**
 * The EJS templates (templates/epub/), the stylesheet (styles/epub.css) and
 * the OFL's text (styles/OFL-1.1.txt) shipped with the code. They are program assets, read once when this module
 * is first imported, like a module; no other file reading happens here.
 */
import { readFileSync } from 'node:fs';

const root = new URL('../../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');

export interface EpubAssets {
  contentOPF: string;
  tocXHTML: string;
  tocNCX: string;
  chapterXHTML: string;
  css: string;
  /** The SIL Open Font License 1.1, shipped in a book whose fonts are under it. */
  ofl: string;
}

export const EPUB_ASSETS: EpubAssets = {
  contentOPF: read('templates/epub/content.opf.ejs'),
  tocXHTML: read('templates/epub/toc.xhtml.ejs'),
  tocNCX: read('templates/epub/toc.ncx.ejs'),
  chapterXHTML: read('templates/epub/chapter.xhtml.ejs'),
  css: read('styles/epub.css'),
  ofl: read('styles/OFL-1.1.txt'),
};
