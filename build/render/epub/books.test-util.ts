/**
 * Test support: the books the EPUB tests build — the sample editions and the
 * real corpus texts in ../shared/corpora/ (each as a lone source file) — with
 * the page list a build gives them, and the checks every EPUB must pass for
 * readers: no Private Use Area character, every character drawn by an
 * embedded font, no footnote in the running text, every footnote linked
 * back, a page list with a marker for each page.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Element } from 'domhandler';
import { loadEdition } from '../../engine/load.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import { REPO, SAMPLES, loadSample } from '../../engine/samples.js';
import { cmapRanges } from '../../fonts/sfnt.js';
import type { LoadedFont } from '../../fonts/types.js';
import type { EditionConfig } from '../../tree/edition.js';
import type { Root } from '../../tree/types.js';
import { epubSeals, printPageList, renderEpub, sourcePageList, type PageList } from './index.js';
import { VFile } from 'vfile';
import { visit } from 'unist-util-visit';
import { applyCorrections, parseCorrections } from '../../transform/corrections.js';
import type { Paragraph } from '../../tree/types.js';
import { findAll, parseXhtml, textOf, unzip } from './read-epub.test-util.js';

export const CORPUS_DIR = path.join(REPO, '..', 'shared', 'corpora');

/** The corpus texts, by file name (the tests read them in place, never copy them). */
export const CORPUS_TEXTS: readonly string[] = readdirSync(CORPUS_DIR)
  .filter((f) => f.endsWith('.txt'))
  .sort();

export interface Book {
  name: string;
  tree: Root;
  config: EditionConfig;
}

export async function loadBook(name: string): Promise<Book> {
  // The samples, and the other editions under manuscript/ (儀禮注疏 三家, 評點岳陽樓記).
  if ((SAMPLES as readonly string[]).includes(name) || existsSync(path.join(REPO, 'manuscript', name))) return { name, ...(await loadSample(name)) };
  const { tree, config } = await loadEdition(path.join(CORPUS_DIR, name));
  assert.ok(config, `${name} loads`);
  return { name, tree, config };
}

/** What `diaoban build` gives the EPUB: the PDF's pages (四庫 leaves for siku, folios else), or the source's. */
export function pageListFor(book: Book, pages: 'print' | 'source' = 'print'): PageList {
  const source = pages === 'source' ? sourcePageList(book.tree) : undefined;
  if (source) return source;
  const layout = layoutBook(book.tree, pageSpecFor(book.config.meta.template, book.config.layout));
  return printPageList(book.tree, layout, { style: book.config.meta.template === 'modern' ? 'folio' : 'leaf', source: `${book.name}.pdf` });
}

/**
 * A sample with corrections (no sample has a corrections file): one at each
 * fraction of the first volume's main text, each a character changed in a run
 * of six found once in the book, applied as corrections.yaml would be.
 */
export function withCorrections(book: Book, at: readonly number[] = [0.05, 0.5, 0.95]): Book {
  const runs: string[] = [];
  visit(book.tree.children[0], 'paragraph', (p: Paragraph) => {
    if (p.role === 'text') for (const c of p.children) if (c.type === 'text' && /^\p{Script=Han}{6}/u.test(c.value)) runs.push(c.value.slice(0, 6));
  });
  const all: string[] = [];
  visit(book.tree, 'text', (t: { value: string }) => {
    all.push(t.value);
  });
  const text = all.join('\n');
  const once = runs.filter((r) => text.indexOf(r) === text.lastIndexOf(r));
  assert.ok(once.length >= at.length, `${book.name}: runs to correct`);
  const yaml = at
    .map((f) => once[Math.min(once.length - 1, Math.floor(once.length * f))])
    .map((r) => `- find: ${r}\n  replace: ${r.slice(0, 3)}${r[3] === '某' ? '甲' : '某'}${r.slice(4)}\n  note: 據某本改\n`)
    .join('');
  const file = new VFile({ path: 'corrections.yaml', value: yaml });
  applyCorrections(book.tree, parseCorrections(file));
  assert.deepEqual(file.messages.map(String), [], `${book.name}: corrections applied`);
  return book;
}

export async function bookEpub(book: Book, fonts: readonly LoadedFont[]): Promise<Uint8Array> {
  return renderEpub(book.tree, { fonts, popupLayers: book.config.popupLayers, pageList: pageListFor(book), seals: epubSeals(book.config.seals) });
}

const PUA = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/u;

/** The checks of issue 14's "done when" that read the EPUB itself. */
export async function assertReaderReady(name: string, bytes: Uint8Array): Promise<{ pages: number; footnotes: number }> {
  const { text, zip } = await unzip(bytes);
  const opf = text.get('OEBPS/content.opf')!;
  // Every character shown has a glyph in an embedded subset, spaces included.
  const covered = new Set<number>();
  for (const m of opf.matchAll(/href="(fonts\/[^"]+)"/g)) {
    for (const [a, b] of cmapRanges(await zip.file(`OEBPS/${m[1]}`)!.async('uint8array'))) for (let c = a; c <= b; c++) covered.add(c);
  }
  const docs = new Map<string, ReturnType<typeof parseXhtml>>();
  for (const [file, s] of text) if (file.endsWith('.xhtml')) docs.set(file.replace(/^OEBPS\//, ''), parseXhtml(s));
  for (const [file, nodes] of docs) {
    const body = findAll(nodes, (e) => e.name === 'body');
    const shown = textOf(body).replace(/[\n\r\t]/g, '');
    assert.doesNotMatch(text.get(`OEBPS/${file}`)!, PUA, `${name} ${file}: no Private Use Area character`);
    const bare = [...new Set(shown)].filter((ch) => !covered.has(ch.codePointAt(0)!));
    assert.deepEqual(bare, [], `${name} ${file}: characters without a glyph in an embedded font`);
  }
  // Footnotes: a volume's in its notes document (out of the reading order: nothing left on a page when a
  // reader hides them), the legend's in the legend's; each linked back to its noteref, which points at it
  // and shows the note's label and number (附注一) in the volume, the same as the backlink.
  let footnotes = 0;
  const element = (href: string, from: string): Element | undefined => {
    const [f, id] = href.includes('#') ? [href.slice(0, href.indexOf('#')) || from, href.slice(href.indexOf('#') + 1)] : [from, ''];
    return findAll(docs.get(f) ?? [], (e) => e.attribs.id === id)[0];
  };
  for (const [file, nodes] of docs) {
    for (const aside of findAll(nodes, (e) => e.attribs['epub:type'] === 'footnote')) {
      footnotes++;
      const holder = findAll(nodes, (e) => e.name === 'section' && findAll(e.children, (x) => x === aside).length > 0).pop();
      const where = /^(vol\d+|legend)-notes\.xhtml$/.test(file) ? file : undefined;
      assert.ok(where && holder?.attribs.class === 'footnotes', `${name} ${file}#${aside.attribs.id}: in the volume's notes document`);
      assert.match(opf, new RegExp(`<itemref idref="${file.replace(/\.xhtml$/, '')}" linear="no"/>`), `${name} ${file}: out of the reading order`);
      const back = findAll(aside.children, (e) => e.attribs.role === 'doc-backlink')[0];
      assert.ok(back, `${name} ${file}#${aside.attribs.id}: links back`);
      const ref = element(back.attribs.href, file);
      assert.equal(ref?.attribs['epub:type'], 'noteref', `${name} ${file}#${aside.attribs.id}: back to a noteref`);
      assert.equal(element(ref!.attribs.href, back.attribs.href.split('#')[0] || file), aside, `${name} ${file}#${aside.attribs.id}: whose link is this note`);
      if (file !== 'legend-notes.xhtml') {
        const label = textOf(ref!.children);
        assert.match(label, /[一二三四五六七八九十百〇]$/u, `${name} ${file}#${aside.attribs.id}: the reference is numbered (${label})`);
        assert.equal(textOf(back.children), `〔${label}〕`, `${name} ${file}#${aside.attribs.id}: the backlink shows the reference's label and number`);
      }
    }
  }
  // No link of a content document lands in that document: epub.js 0.3 lands those off (reader.slow.ts, the 校勘記).
  for (const [file, nodes] of docs) {
    if (file === 'toc.xhtml') continue;
    for (const a of findAll(nodes, (e) => e.name === 'a' && e.attribs.href !== undefined)) {
      const target = a.attribs.href.split('#')[0];
      assert.ok(target !== '' && target !== file, `${name} ${file}: a link within its own document (${a.attribs.href})`);
      assert.ok(element(a.attribs.href, file) || !a.attribs.href.includes('#'), `${name} ${file}: the link ${a.attribs.href} reaches its target`);
    }
  }
  // Page list: every entry reaches a pagebreak marker, and every marker is listed.
  const nav = docs.get('toc.xhtml')!;
  const list = findAll(nav, (e) => e.name === 'nav' && e.attribs['epub:type'] === 'page-list')[0];
  assert.ok(list, `${name}: a page-list`);
  const targets = findAll(list.children, (e) => e.name === 'a').map((a) => a.attribs.href);
  const markers: string[] = [];
  for (const [file, nodes] of docs)
    for (const m of findAll(nodes, (e) => e.attribs['epub:type'] === 'pagebreak')) {
      assert.equal(m.attribs.role, 'doc-pagebreak');
      assert.ok(m.attribs['aria-label'], `${name} ${file}#${m.attribs.id}: labelled`);
      markers.push(`${file}#${m.attribs.id}`);
    }
  assert.ok(targets.length > 0, `${name}: pages listed`);
  assert.deepEqual(targets, markers, `${name}: page-list ↔ pagebreak markers, in order`);
  assert.match(opf, /<meta refines="#page-source" property="source-of">pagination<\/meta>/, `${name}: the page list's source`);
  assert.match(opf, /<meta property="dcterms:conformsTo">EPUB Accessibility 1\.1 - WCAG 2\.\d Level AA<\/meta>/, `${name}: conformance claim`);
  return { pages: targets.length, footnotes };
}
