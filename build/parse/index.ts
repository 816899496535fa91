/**
 * parse: an edition's source files → one document tree. Each file is decoded,
 * its format detected (or forced) and imported; the volumes of all files are
 * joined in the order edition.yaml lists them. Problems are vfile messages on
 * the files; nothing here throws for a user's mistake.
 */
import type { VFile } from 'vfile';
import type { EditionConfig, SourceFormat } from '../tree/edition.js';
import type { Root, Volume } from '../tree/types.js';
import { decodeSource } from './decode.js';
import { detectFormat } from './detect.js';
import { importDaizhige, importWikisource, type ImportResult } from './importers/corpus.js';
import { importDocsify, importMarkdown } from './importers/markdown.js';
import { importVerse } from './importers/verse.js';
import { createSource, type Source } from './source.js';

export { detectFormat } from './detect.js';
export { defaultEdition, parseCharmap, parseEditionYaml } from './edition.js';

const IMPORTERS: Record<SourceFormat, (src: Source, fallbackTitle: string) => ImportResult> = {
  daizhige: importDaizhige,
  wikisource: importWikisource,
  docsify: importDocsify,
  verse: importVerse,
  markdown: importMarkdown,
};

export interface ParsedSource {
  file: VFile;
  format: SourceFormat;
  encoding: string;
  volumes: Volume[];
}

/** One source file (its `value` the raw bytes) → volumes. */
export function parseSource(file: VFile, fallbackTitle: string, format?: SourceFormat): ParsedSource {
  const bytes = typeof file.value === 'string' ? new TextEncoder().encode(file.value) : (file.value ?? new Uint8Array());
  const decoded = decodeSource(bytes);
  const src = createSource(file, decoded.text);
  for (const p of decoded.problems) src.report(p.severity, p.reason, 0, 0, p.ruleId);
  if (decoded.text.trim() === '') {
    if (decoded.encoding !== 'binary') src.report('warning', 'the file is empty: there is nothing to set', 0, 0, 'source-empty');
    return { file, format: format ?? 'daizhige', encoding: decoded.encoding, volumes: [] };
  }
  const chosen = format ?? detectFormat(file.path ?? '', decoded.text);
  const { volumes } = IMPORTERS[chosen](src, fallbackTitle);
  return { file, format: chosen, encoding: decoded.encoding, volumes };
}

/** All sources of an edition → the document tree. */
export function parseEdition(config: EditionConfig, files: VFile[], format?: SourceFormat): { tree: Root; sources: ParsedSource[] } {
  const sources = files.map((file) => parseSource(file, config.meta.title, format ?? config.format));
  const tree: Root = { type: 'root', edition: config.meta, children: sources.flatMap((s) => s.volumes) };
  return { tree, sources };
}
