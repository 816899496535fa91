/**
 * The classical marks in the EPUB: 眉批 and 側批 as notes of their own
 * layers (note-meipi, note-cepi), ruby as HTML ruby, 圈點 as text-emphasis
 * classes, labels the source prints in the table's brackets, 抬頭 as a new
 * line — on the 評點本 sample, checked by epubcheck and the reader checks;
 * the same text without the marks has none of them.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { visit, SKIP } from 'unist-util-visit';
import { loadSystemFonts } from '../../fonts/load.js';
import type { LoadedFont } from '../../fonts/types.js';
import type { Inline, Parent, Root } from '../../tree/types.js';
import { loadEdition } from '../../engine/load.js';
import { REPO } from '../../engine/samples.js';
import { epubSeals, renderEpub, type EpubSeal } from './index.js';
import { assertReaderReady, pageListFor } from './books.test-util.js';
import { readVolume, unzip } from './read-epub.test-util.js';
import { treeText } from './fixtures.test-util.js';
import { cmapRanges } from '../../fonts/sfnt.js';
import { EMPHASIS_MARKS } from './marks.js';

const run = promisify(execFile);
let fonts: LoadedFont[];
before(async () => {
  fonts = await loadSystemFonts();
});

async function pingdian(): Promise<{ tree: Root; epub: (tree: Root, seals?: EpubSeal[]) => Promise<Uint8Array> }> {
  const { tree, config } = await loadEdition(path.join(REPO, 'manuscript', 'pingdian'));
  assert.ok(config);
  const epub = (t: Root, seals = epubSeals(config.seals)): Promise<Uint8Array> =>
    renderEpub(t, { fonts, popupLayers: config.popupLayers, pageList: pageListFor({ name: 'pingdian', tree: t, config }), seals });
  return { tree, epub };
}

const volumeXhtml = async (bytes: Uint8Array): Promise<string> => (await unzip(bytes)).text.get('OEBPS/vol01.xhtml')!;

test('評點本 sample: 眉批 and 側批 as their own layers, ruby, 圈點, printed labels and 抬頭 in the EPUB; epubcheck clean', async () => {
  const { tree, epub } = await pingdian();
  const bytes = await epub(tree);
  const xhtml = await volumeXhtml(bytes);
  assert.equal((xhtml.match(/<small class="note note-meipi"/gu) ?? []).length, 5);
  assert.equal((xhtml.match(/<small class="note note-cepi"/gu) ?? []).length, 3);
  assert.match(xhtml, /<ruby class="ruby">湯<rp>\(<\/rp><rt lang="zh-Bopo">ㄕㄤ<\/rt><rp>\)<\/rp>湯<rp>\(<\/rp><rt lang="zh-Bopo">ㄕㄤ<\/rt>/u);
  assert.match(xhtml, /<ruby class="ruby">岳陽樓<rp>\(<\/rp><rt lang="zh-Latn">Yueyang Tower<\/rt>/u);
  for (const kind of ['circle', 'double', 'sesame', 'heavy']) assert.match(xhtml, new RegExp(`class="mark mark-${kind}"`));
  assert.match(xhtml, /<span class="layer-label" aria-hidden="true">〔音義〕<\/span>/u);
  assert.match(xhtml, /〔案〕/u);
  // 抬頭: the raised words begin a line of their own, raised two cells above the paragraph's other lines.
  assert.match(xhtml, /<p class="[^"]*raise-room-2"[^>]*>[^]*?<span class="raised raised-2">皇上/u);
  // The stylesheet sets 圈點 with text-emphasis of the fonts' characters, and each layer's look from the style table.
  const css = (await unzip(bytes)).text.get('OEBPS/style.css')!;
  assert.match(css, /\.mark-double \{ text-emphasis: "◎"/);
  assert.match(css, /\.raised-2 \{ text-indent: -2em; \}/);
  // Ruby at a readable size: 注音 at 0.45 em was about 7 px.
  const rt = /ruby\.ruby rt \{ font-size: ([\d.]+)em; \}/.exec(css);
  assert.ok(rt && Number(rt[1]) >= 0.6, `ruby annotation size ${rt?.[1]}em`);
  assert.match(css, /\.note-meipi > \.layer-label, a\.noteref-meipi, \.note-meipi a\.backlink \{ color: #db3441; \}/);
  assert.match(css, /@media \(prefers-color-scheme: dark\) \{[^]*\.note-meipi > \.layer-label, a\.noteref-meipi, \.note-meipi a\.backlink \{ color: #e7a0a6; \}/);
  // The seal, where the print stamps it (page 1: after the paragraph in which page 2 begins), an image in the package named by its alt text.
  const { zip: z, text: t } = await unzip(bytes);
  const seal = /<div class="seal"><img src="images\/seal1\.png" alt="印：文淵閣寶"\/><\/div>/u;
  assert.match(xhtml, seal);
  assert.match(t.get('OEBPS/content.opf')!, /<item id="image-seal1" href="images\/seal1\.png" media-type="image\/png"\/>/);
  const png = await z.file('OEBPS/images/seal1.png')!.async('uint8array');
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'the seal is a PNG');
  const page2 = xhtml.indexOf('class="pagebreak"', xhtml.indexOf('class="pagebreak"') + 1);
  assert.ok(page2 > 0 && xhtml.search(seal) > page2, 'the seal follows the start of page 2');
  assert.ok(xhtml.slice(page2, xhtml.search(seal)).split('</p>').length <= 2, 'the seal follows the paragraph in which page 1 ends');
  assert.deepEqual(await epub(tree), bytes, 'a rebuild from remembered chapters keeps the seal, byte for byte');
  assert.doesNotMatch(await volumeXhtml(await epub(tree, [])), /class="seal"/u, 'no seal without seals:');
  // The legend lists every layer the book has, 眉批 and 側批 too.
  const legend = (await unzip(bytes)).text.get('OEBPS/legend.xhtml')!;
  for (const name of ['音義', '案', '眉批', '側批']) assert.match(legend, new RegExp(`<span class="legend-label">${name}</span>`), `legend lists ${name}`);
  // The 圈點 are drawn from the embedded fonts: their characters are in a subset's cmap, though the text has none of them.
  const { zip, text: files } = await unzip(bytes);
  const covered = new Set<number>();
  for (const m of files.get('OEBPS/content.opf')!.matchAll(/href="(fonts\/[^"]+)"/g))
    for (const [a, b] of cmapRanges(await zip.file(`OEBPS/${m[1]}`)!.async('uint8array'))) for (let c = a; c <= b; c++) covered.add(c);
  for (const kind of ['circle', 'double', 'sesame', 'heavy'] as const) {
    const ch = EMPHASIS_MARKS[kind]!;
    assert.ok(covered.has(ch.codePointAt(0)!), `${kind} ${ch} in the embedded fonts`);
    assert.ok(!treeText(tree).join('').includes(ch), `${ch} is not in the text: the marks put it in the fonts`);
  }
  // The fonts' page names each font with its licence records, and ships the OFL.
  const fontsPage = files.get('OEBPS/fonts.xhtml')!;
  assert.match(fontsPage, /<dt lang="en">Noto Serif CJK TC<\/dt>/);
  assert.match(fontsPage, /This Font Software is licensed under the SIL Open Font License, Version 1\.1/);
  assert.match(fontsPage, /<pre class="licence-text" lang="en">-+\nSIL OPEN FONT LICENSE Version 1\.1 - 26 February 2007/);
  // Every character of the tree once, in order; the ruby's annotation is apparatus.
  assert.equal(readVolume(xhtml).text, treeText(tree)[0]);
  await assertReaderReady('pingdian', bytes);
  const dir = await mkdtemp(path.join(tmpdir(), 'diaoban-epub-classical-'));
  try {
    const file = path.join(dir, 'pingdian.epub');
    await writeFile(file, bytes);
    const r = await run('java', ['-jar', '/usr/share/java/epubcheck.jar', file], { maxBuffer: 1 << 24 }).catch((e: { stdout: string; stderr: string }) => e);
    const m = /Messages: (\d+) fatals? \/ (\d+) errors? \/ (\d+) warnings?/.exec(`${r.stdout}\n${r.stderr}`);
    assert.ok(m, r.stdout + r.stderr);
    assert.deepEqual([m[1], m[2], m[3]], ['0', '0', '0'], r.stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  // Negative control: the same text without the marks has no annotation layer, ruby or 圈點.
  const bare = structuredClone(tree);
  visit(bare, (node, index, parent) => {
    const n = node as Inline;
    if (parent && index !== undefined && (n.type === 'mark' || n.type === 'annotation' || n.type === 'raise')) {
      (parent as Parent).children.splice(index, 1, ...((n.type === 'mark' ? n.children : []) as never[]));
      return [SKIP, index];
    }
    return undefined;
  });
  const plain = await volumeXhtml(await epub(bare));
  assert.doesNotMatch(plain, /note-meipi|note-cepi|<ruby|mark-circle|class="raise/u);
  const plainLegend = (await unzip(await epub(bare))).text.get('OEBPS/legend.xhtml')!;
  assert.doesNotMatch(plainLegend, /legend-label">(眉批|側批)</u);
});
