/**
 * renderEpub end to end: package shape, fonts, reproducibility, fidelity,
 * and epubcheck over hand-made trees and the five sample works.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as hb from 'harfbuzzjs';
import { loadSystemFonts } from '../../fonts/load.js';
import { cmapRanges } from '../../fonts/sfnt.js';
import type { LoadedFont } from '../../fonts/types.js';
import type { Inline, LayerId, Root } from '../../tree/types.js';
import { renderEpub, editionIdentifier, packageLanguage, sourcePageList } from './index.js';
import { META, sampleTree, treeNotes, treeText } from './fixtures.test-util.js';
import { findAll, parseXhtml, readVolume, textOf, unzip } from './read-epub.test-util.js';
import JSZip from 'jszip';
import { SAMPLES } from '../../engine/samples.js';
import { DEFAULT_POPUP_LAYERS } from './notes-option.js';
import { CORPUS_TEXTS, assertReaderReady, bookEpub, loadBook, pageListFor, withCorrections } from './books.test-util.js';

const run = promisify(execFile);
const EPUBCHECK = '/usr/share/java/epubcheck.jar';

let fonts: LoadedFont[];
let tmp: string;
before(async () => {
  fonts = await loadSystemFonts();
  tmp = await mkdtemp(path.join(tmpdir(), 'diaoban-epub-'));
});
test.after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

interface CheckResult {
  fatals: number;
  errors: number;
  warnings: number;
  output: string;
}

/** Parses WriterReportImpl output sections ("=== <file>" … "=== counts <file> f e w"). */
function parseBatch(stdout: string): Map<string, CheckResult> {
  const out = new Map<string, CheckResult>();
  for (const section of stdout.split(/^=== (?=\/)/m).slice(1)) {
    const m = /^=== counts (\S+) (\d+) (\d+) (\d+)$/m.exec(section);
    if (!m) continue;
    const output = section.split('\n').filter((l) => /^(FATAL|ERROR|WARNING)/.test(l) && !/^WARNING: : /.test(l)).join('\n');
    out.set(path.basename(m[1], '.epub'), { fatals: Number(m[2]), errors: Number(m[3]), warnings: Number(m[4]), output });
  }
  return out;
}

/** One `java -jar epubcheck.jar` per book (the CLI's own summary line), two at a time. */
async function epubcheckOneByOne(files: string[]): Promise<Map<string, CheckResult>> {
  const out = new Map<string, CheckResult>();
  const queue = [...files];
  const worker = async (): Promise<void> => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const r = await run('java', ['-jar', EPUBCHECK, file], { maxBuffer: 1 << 26 }).catch((e: { stdout: string; stderr: string }) => e);
      const output = `${r.stdout}\n${r.stderr}`;
      const m = /Messages: (\d+) fatals? \/ (\d+) errors? \/ (\d+) warnings?/.exec(output);
      assert.ok(m, `epubcheck gave no summary for ${file}:\n${output}`);
      out.set(path.basename(file, '.epub'), { fatals: Number(m[1]), errors: Number(m[2]), warnings: Number(m[3]), output });
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

/**
 * epubcheck's counts per EPUB: all books in one JVM (EpubcheckBatch.java, run
 * as a source file, needs a JDK's compiler); one epubcheck run per book when
 * only a JRE is installed.
 */
async function epubcheck(books: ReadonlyArray<readonly [string, Uint8Array]>): Promise<Map<string, CheckResult>> {
  const files: string[] = [];
  for (const [name, bytes] of books) {
    const file = path.join(tmp, `${name}.epub`);
    await writeFile(file, bytes);
    files.push(file);
  }
  const batch = path.join(import.meta.dirname, 'EpubcheckBatch.java');
  const r = await run('java', ['-XX:TieredStopAtLevel=1', '-cp', EPUBCHECK, batch, ...files], { maxBuffer: 1 << 26 }).catch(
    (e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
  let out = parseBatch(r.stdout);
  if (out.size === 0) out = await epubcheckOneByOne(files);
  assert.equal(out.size, books.length, `epubcheck checked every book:\n${r.stdout.slice(-2000)}\n${r.stderr}`);
  return out;
}

/** Checks that every character and every note of the tree is in the EPUB, once, in order, with its layer. */
async function assertFidelity(tree: Root, bytes: Uint8Array): Promise<void> {
  const { text } = await unzip(bytes);
  const expected = treeText(tree);
  const notes: Array<[LayerId, string]> = [];
  tree.children.forEach((_, i) => {
    const name = `OEBPS/vol${String(i + 1).padStart(Math.max(2, String(tree.children.length).length), '0')}.xhtml`;
    const xhtml = text.get(name);
    assert.ok(xhtml, `${name} in the EPUB`);
    const r = readVolume(xhtml, text.get(name.replace(/\.xhtml$/, '-notes.xhtml')));
    assert.equal(r.text, expected[i], `text of volume ${i + 1}`);
    notes.push(...r.notes);
  });
  assert.deepEqual(notes, treeNotes(tree));
}

test('package: rtl spine, language, writing mode, metadata, accessibility, cover, nav roles', async () => {
  const bytes = await renderEpub(sampleTree(), { fonts, popupLayers: ['shu'] });
  const { text, names } = await unzip(bytes);
  // mimetype is the first entry, stored, with no extra field.
  assert.equal(Buffer.from(bytes.subarray(30, 38)).toString(), 'mimetype');
  assert.equal(bytes[8] | (bytes[9] << 8), 0, 'mimetype stored');
  assert.equal(Buffer.from(bytes.subarray(38, 58)).toString(), 'application/epub+zip');
  const opf = text.get('OEBPS/content.opf')!;
  assert.match(opf, /<spine toc="ncx" page-progression-direction="rtl">/);
  assert.match(opf, /<dc:language>zh-Hant<\/dc:language>/);
  assert.match(opf, /<meta name="primary-writing-mode" content="vertical-rl"\/>/);
  assert.match(opf, /<dc:title id="title">儀禮注疏<\/dc:title>/);
  assert.match(opf, /<dc:creator id="creator0">漢　鄭玄 注 賈公彦 疏<\/dc:creator>/);
  assert.match(opf, /<dc:description>測試用書。<\/dc:description>/);
  assert.match(opf, /<dc:identifier id="pub-id">urn:uuid:[0-9a-f-]{36}<\/dc:identifier>/);
  assert.match(opf, /<meta property="dcterms:modified">2026-01-01T00:00:00Z<\/meta>/);
  for (const p of ['accessMode', 'accessModeSufficient', 'accessibilityFeature', 'accessibilityHazard', 'accessibilitySummary'])
    assert.match(opf, new RegExp(`<meta property="schema:${p}"( xml:lang="en")?>[^<]+</meta>`), p);
  // Each volume's pop-up notes follow it, out of the reading order; the fonts' page ends the book.
  assert.match(opf, /<itemref idref="cover"\/>\s*<itemref idref="titlepage"\/>\s*<itemref idref="legend"\/>\s*<itemref idref="legend-notes" linear="no"\/>\s*<itemref idref="nav"\/>\s*<itemref idref="vol01"\/>\s*<itemref idref="vol01-notes" linear="no"\/>\s*<itemref idref="vol02"\/>\s*<itemref idref="fonts"\/>\s*<\/spine>/);
  // One XHTML per volume with ASCII names.
  assert.ok(names.includes('OEBPS/vol01.xhtml') && names.includes('OEBPS/vol02.xhtml'));
  assert.ok(names.every((n) => /^[\x21-\x7e]+$/.test(n)), 'ASCII file names');
  // Cover: a PNG with properties="cover-image" and a cover page showing it.
  assert.match(opf, /<item id="cover-image" href="cover.png" media-type="image\/png" properties="cover-image"\/>/);
  assert.match(text.get('OEBPS/cover.xhtml')!, /<img src="cover.png" alt="儀禮注疏　漢　鄭玄 注 賈公彦 疏"\/>/);
  // Nav: doc-toc, nested volumes → sections.
  const nav = parseXhtml(text.get('OEBPS/toc.xhtml')!);
  const toc = findAll(nav, (e) => e.name === 'nav' && e.attribs['epub:type'] === 'toc')[0];
  assert.equal(toc.attribs.role, 'doc-toc');
  const vol1 = findAll(toc.children, (e) => e.name === 'li')[0];
  assert.equal(textOf(findAll(vol1.children, (e) => e.name === 'a').slice(0, 1)[0].children), '儀禮注疏卷一');
  assert.ok(findAll(vol1.children, (e) => e.name === 'ol').length >= 1, 'sections nested under the volume');
  assert.match(text.get('OEBPS/toc.ncx')!, /<navPoint id="np1" playOrder="1"><navLabel><text>儀禮注疏卷一<\/text><\/navLabel><content src="vol01.xhtml"\/>\s*<navPoint id="np2"/);
  // Chapters: doc-chapter, vertical CSS in all three forms.
  assert.match(text.get('OEBPS/vol01.xhtml')!, /<section id="vol01" class="volume" epub:type="chapter" role="doc-chapter"/);
  const css = text.get('OEBPS/style.css')!;
  for (const prop of ['writing-mode', '-webkit-writing-mode', '-epub-writing-mode']) assert.match(css, new RegExp(`(^|[^-])${prop}: vertical-rl;`), prop);
  assert.ok(css.startsWith('@charset "UTF-8";'));
});

test('accessibility: a WCAG 2.1 AA claim, the evaluator, summaries in the book\'s language and in English, page navigation and its source', async () => {
  const book = await loadBook('yili-zhushu');
  const opf = (await unzip(await bookEpub(book, fonts))).text.get('OEBPS/content.opf')!;
  assert.match(opf, /<meta property="dcterms:conformsTo">EPUB Accessibility 1\.1 - WCAG 2\.1 Level AA<\/meta>/);
  assert.match(opf, /<meta property="a11y:certifiedBy">diaoban<\/meta>/);
  for (const f of ['structuralNavigation', 'tableOfContents', 'readingOrder', 'pageBreakMarkers', 'pageNavigation', 'alternativeText'])
    assert.match(opf, new RegExp(`<meta property="schema:accessibilityFeature">${f}</meta>`), f);
  assert.match(opf, /<meta property="schema:accessibilitySummary" xml:lang="zh-Hant">本書符合[^<]*疏為彈出注[^<]*<\/meta>/);
  assert.match(opf, /<meta property="schema:accessibilitySummary" xml:lang="en">This publication meets[^<]*pop-up footnotes[^<]*<\/meta>/);
  assert.match(opf, /<dc:source id="page-source">yili-zhushu\.pdf<\/dc:source>\s*<meta refines="#page-source" property="source-of">pagination<\/meta>/);
  // A simplified edition gets its summary in simplified characters.
  const hans = (await unzip(await renderEpub({ ...sampleTree(), edition: { ...META, language: 'zh', script: 'simplified' } }, {}))).text.get('OEBPS/content.opf')!;
  assert.match(hans, /xml:lang="zh-Hans">本书符合/);
  // No page list, no claim of page navigation.
  const none = (await unzip(await renderEpub(sampleTree(), {}))).text.get('OEBPS/content.opf')!;
  assert.doesNotMatch(none, /pageNavigation|page-source/);
});

test('language follows the target script', () => {
  assert.equal(packageLanguage({ ...META, language: 'zh', script: 'traditional' }), 'zh-Hant');
  assert.equal(packageLanguage({ ...META, language: 'zh-TW', script: 'traditional' }), 'zh-Hant-TW');
  assert.equal(packageLanguage({ ...META, language: 'zh', script: 'simplified' }), 'zh-Hans');
  assert.equal(packageLanguage({ ...META, language: 'zh-Hant', script: 'traditional' }), 'zh-Hant');
});

test('fonts: subsets embedded and declared, holding exactly the characters shown (spaces too), Extension B included, vert/vrt2 kept', async () => {
  const bytes = await renderEpub(sampleTree(), { fonts });
  const { text, zip } = await unzip(bytes);
  const css = text.get('OEBPS/style.css')!;
  const opf = text.get('OEBPS/content.opf')!;
  const fontFiles = [...opf.matchAll(/href="(fonts\/[^"]+)" media-type="(font\/(?:otf|ttf))"/g)].map((m) => m[1]);
  assert.ok(fontFiles.length >= 2, 'Noto and a HanaMin subset');
  const covered = new Set<number>();
  for (const f of fontFiles) {
    assert.ok(css.includes(`url("${f}")`), `${f} declared in the CSS`);
    const fb = await zip.file(`OEBPS/${f}`)!.async('uint8array');
    for (const [a, b] of cmapRanges(fb)) for (let c = a; c <= b; c++) covered.add(c);
    if (f.includes('Noto')) {
      const face = new hb.Face(new hb.Blob(fb));
      const features = face.getTableFeatureTags('GSUB');
      assert.ok(features.includes('vert') && features.includes('vrt2'), `vert/vrt2 in ${f}: ${features.join(' ')}`);
    }
  }
  // Every character the XHTML shows is in a subset; nothing else is.
  const shown = new Set<number>();
  for (const [name, s] of text)
    if (name.endsWith('.xhtml'))
      for (const ch of textOf(parseXhtml(s))) {
        const cp = ch.codePointAt(0)!;
        // Spaces take their width from the font (U+3000 in the credit line, U+0020 in the author's name); line ends do not.
        if (!/\s/.test(ch) || ch === ' ' || ch === '\u3000') shown.add(cp);
      }
  const hex = (s: Iterable<number>): string => [...s].map((c) => `U+${c.toString(16)} ${String.fromCodePoint(c)}`).join(', ');
  assert.equal(hex([...shown].filter((c) => !covered.has(c))), '', 'shown but not embedded');
  assert.equal(hex([...covered].filter((c) => !shown.has(c))), '', 'embedded but not shown');
  assert.ok(covered.has(0x20000), 'Extension B 𠀀 embedded');
  assert.ok(covered.has(0x3000) && shown.has(0x3000), 'the ideographic space is shown and embedded');
  assert.ok(![...shown].some((c) => (c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000), 'no Private Use Area character shown');
});

test('reproducible: same input → same bytes; the date and the edition reach the package', async () => {
  const a = await renderEpub(sampleTree(), { fonts, popupLayers: ['shu'] });
  const b = await renderEpub(sampleTree(), { fonts, popupLayers: ['shu'] });
  assert.ok(Buffer.from(a).equals(Buffer.from(b)), 'byte-identical');
  const { zip } = await unzip(a);
  for (const f of Object.values(zip.files)) assert.equal(f.date.toISOString(), '2026-01-01T00:00:00.000Z', `${f.name} date`);
  const c = await renderEpub(sampleTree(), { fonts, popupLayers: ['shu'], date: '2030-05-06' });
  assert.ok(!Buffer.from(a).equals(Buffer.from(c)));
  assert.match((await unzip(c)).text.get('OEBPS/content.opf')!, /dcterms:modified">2030-05-06T00:00:00Z/);
  // A real book with its page list and pop-ups, too.
  const book = await loadBook('liuyi-gangmu');
  assert.ok(Buffer.from(await bookEpub(book, fonts)).equals(Buffer.from(await bookEpub(book, fonts))), '六藝綱目 byte-identical');
  assert.equal(editionIdentifier(META), editionIdentifier({ ...META }));
  assert.notEqual(editionIdentifier(META), editionIdentifier({ ...META, id: 'other' }));
});

test('fidelity: every character of the tree once and in order, every note with its layer (inline and pop-up)', async () => {
  const tree = sampleTree();
  await assertFidelity(tree, await renderEpub(tree, {}));
  await assertFidelity(tree, await renderEpub(tree, { popupLayers: ['shu', 'fuzhu', 'yinyi'] }));
});

test('a tree without volumes still makes a valid book (checked with the others below)', async () => {
  const empty: Root = { type: 'root', edition: META, children: [] };
  const { text } = await unzip(await renderEpub(empty, {}));
  assert.match(text.get('OEBPS/toc.xhtml')!, /<li><a href="titlepage.xhtml">儀禮注疏<\/a><\/li>/);
});

test('progress per volume', async () => {
  const seen: string[] = [];
  await renderEpub(sampleTree(), { popupLayers: ['shu'], onVolume: (i, n) => seen.push(`${i}/${n}`) });
  assert.deepEqual(seen, ['1/2', '2/2']);
});

test('epubcheck: 0 errors, 0 warnings for hand-made trees, the five sample works and the corpus texts, each ready for readers (no PUA, every character drawn, footnotes after the text and linked back, a page list); samples keep every character and layer', async () => {
  const books: Array<readonly [string, Uint8Array]> = [
    ['hand-made', await renderEpub(sampleTree(), { fonts, popupLayers: ['shu', 'fuzhu'] })],
    ['hand-made-inline', await renderEpub(sampleTree(), {})],
    ['no-volumes', await renderEpub({ type: 'root', edition: META, children: [] }, { fonts })],
    ['no-author', await renderEpub({ ...sampleTree(), edition: { ...META, author: '', dynasty: undefined } }, { fonts })],
  ];
  // The source edition's pages (Kanripo <pb:>), from page anchors in a hand-made tree.
  const anchored = sampleTree();
  const pb = (leaf: string): Inline => ({ type: 'anchor', kind: 'page', value: `<pb:KR1d0028_WYG_001-${leaf}>`, edition: 'WYG', juan: 1, leaf, position: anchored.children[0].position });
  (anchored.children[0].children[1].children as Inline[]).unshift(pb('1a'));
  (anchored.children[0].children[2].children as Inline[]).splice(2, 0, pb('1b'));
  const sourcePages = sourcePageList(anchored)!;
  assert.equal(sourcePages.volumes[0].length, 2);
  const anchoredBytes = await renderEpub(anchored, { fonts, popupLayers: ['shu'], pageList: sourcePages });
  await assertReaderReady('source-pages', anchoredBytes);
  books.push(['source-pages', anchoredBytes]);
  for (const work of SAMPLES) {
    const book = await loadBook(work);
    const bytes = await bookEpub(book, fonts);
    await assertFidelity(book.tree, bytes);
    const xhtml = [...(await unzip(bytes)).text.entries()].filter(([n]) => /vol\d+(-notes)?\.xhtml$/.test(n)).map(([, s]) => s).join('');
    for (const [layer] of treeNotes(book.tree)) assert.ok(xhtml.includes(`note-${layer}`), `${work}: layer ${layer} in the EPUB`);
    for (const layer of book.config.popupLayers)
      if (treeNotes(book.tree).some(([l]) => l === layer)) assert.ok(xhtml.includes(`noteref-${layer}`), `${work}: ${layer} pops up`);
    await assertReaderReady(work, bytes);
    books.push([work, bytes]);
  }
  // A sample with corrections: its 校勘記 documents and the legend's notes document.
  const corrected = await bookEpub(withCorrections(await loadBook('yili-zhushu')), fonts);
  await assertReaderReady('yili-zhushu-corrected', corrected);
  books.push(['yili-zhushu-corrected', corrected]);
  for (const name of CORPUS_TEXTS) {
    const book = await loadBook(name);
    // Pop-up 疏 and 附注, as `--notes popup` makes them.
    const bytes = await renderEpub(book.tree, { fonts, popupLayers: DEFAULT_POPUP_LAYERS, pageList: pageListFor(book) });
    await assertReaderReady(name, bytes);
    books.push([name.replace(/\.txt$/, ''), bytes]);
  }
  const results = await epubcheck(books);
  for (const [name] of books) {
    const r = results.get(name)!;
    assert.deepEqual([r.fatals, r.errors, r.warnings], [0, 0, 0], `${name}:\n${r.output}`);
  }
});

test('the reader checks can fail: a footnote in the running text, a PUA character, a page without its marker, a link within a document', async () => {
  const good = await bookEpub(await loadBook('yili-zhushu'), fonts);
  await assertReaderReady('yili-zhushu', good);
  const zip = await JSZip.loadAsync(good);
  const vol = await zip.file('OEBPS/vol01.xhtml')!.async('string');
  const notes = await zip.file('OEBPS/vol01-notes.xhtml')!.async('string');
  const spoil = async (from: string | RegExp, to: string, file = 'OEBPS/vol01.xhtml'): Promise<Uint8Array> => {
    const z = await JSZip.loadAsync(good);
    z.file(file, (file === 'OEBPS/vol01.xhtml' ? vol : notes).replace(from, to));
    return z.generateAsync({ type: 'uint8array' });
  };
  const aside = /<aside id="fn1"[\s\S]*?<\/aside>/.exec(notes)![0];
  await assert.rejects(assertReaderReady('x', await spoil(aside, '', 'OEBPS/vol01-notes.xhtml').then(async (b) => {
    const z = await JSZip.loadAsync(b);
    z.file('OEBPS/vol01.xhtml', vol.replace('</p>', `</p>${aside}`));
    return z.generateAsync({ type: 'uint8array' });
  })), /in the volume's notes document/);
  await assert.rejects(assertReaderReady('x', await spoil('乃張侯', '乃\ue000侯')), /Private Use Area/);
  await assert.rejects(assertReaderReady('x', await spoil(/<span id="page-2"[^>]*\/>/, '')), /page-list ↔ pagebreak/);
  await assert.rejects(assertReaderReady('x', await spoil('role="doc-backlink"', '', 'OEBPS/vol01-notes.xhtml')), /links back/);
  await assert.rejects(assertReaderReady('x', await spoil(/(noteref-shu"[^>]*>)疏一</, '$1疏<')), /numbered/);
  await assert.rejects(assertReaderReady('x', await spoil('</p>', '<a href="#page-2">二</a></p>')), /within its own document/);
});
