/**
 * The PDF's fonts as TrueType: the CFF face (Noto Serif CJK TC) subset and
 * converted by scripts/cff2ttf.py (real fontTools), cached; and a printed
 * PDF with no Type 3 font in it (pdffonts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as hb from 'harfbuzzjs';
import { launchBrowser, type OfflineBrowser } from '../../engine/browser.js';
import { buildPdf, printFontSources } from '../../engine/pdf.js';
import { cmapRanges, defaultVerticalOrigin, hasCffOutlines, loadSystemFonts, truetypeSubsetKey, type LoadedFont } from '../../fonts/index.js';
import { readDirectory } from '../../fonts/sfnt.js';
import { pageSpecFor } from '../../layout/index.js';
import { defaultEdition } from '../../parse/edition.js';
import { originCorrectionCss, originDrop } from './html.js';
import { computeGeometry } from './geometry.js';
import { parseTemplateDefinition } from './template.js';
import { syntheticLayout } from './synthetic.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const work = mkdtempSync(join(tmpdir(), 'diaoban-ttf-test-'));
let fonts: LoadedFont[];
let browser: OfflineBrowser;
before(async () => {
  fonts = await loadSystemFonts();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

const TEXT = '禮經本義，「鄉射」（注）。〓𠀀';

test('Noto is CFF, HanaMin TrueType; the cache key changes with face, text and converter', () => {
  assert.deepEqual(fonts.map((f) => hasCffOutlines(f.bytes)), [true, false, false]);
  const key = truetypeSubsetKey(fonts[0].bytes, 'ab', 'v1');
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.equal(truetypeSubsetKey(fonts[0].bytes, 'ab', 'v1'), key);
  assert.notEqual(truetypeSubsetKey(fonts[0].bytes, 'abc', 'v1'), key);
  assert.notEqual(truetypeSubsetKey(fonts[0].bytes, 'ab', 'v2'), key);
  assert.notEqual(truetypeSubsetKey(fonts[1].bytes, 'ab', 'v1'), key);
  assert.equal(defaultVerticalOrigin(fonts[0].bytes), 0.88);
});

test('printFontSources: Noto becomes a TrueType subset with vert/vrt2 and pinned origins; HanaMin a subset; cached', async () => {
  const cache = join(work, 'cache');
  const sources = await printFontSources(undefined, fonts, TEXT, cache);
  assert.equal(sources.length, 2, 'Noto and HanaMinB (for 𠀀); HanaMinA draws nothing here');
  assert.equal(sources[0].verticalOrigin, 0.88);
  assert.ok(sources.every((s) => s.file?.startsWith(cache + '/')), 'served from the font cache');
  const ttf = new Uint8Array(readFileSync(sources[0].file!));
  const dir = readDirectory(ttf);
  assert.equal(dir.sfntVersion, 0x00010000, 'TrueType outlines');
  const tags = dir.tables.map((t) => t.tag);
  for (const t of ['glyf', 'loca', 'maxp', 'cmap', 'GSUB', 'vhea', 'vmtx']) assert.ok(tags.includes(t), t);
  assert.ok(!tags.includes('CFF '));
  // Exactly the characters Noto draws (𠀀 is HanaMin's).
  const cps = cmapRanges(ttf).flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i));
  assert.deepEqual(cps, [...new Set([...TEXT.replace('𠀀', '')].map((c) => c.codePointAt(0)!))].sort((a, b) => a - b));
  const hana = new Uint8Array(readFileSync(sources[1].file!));
  assert.deepEqual(cmapRanges(hana), [[0x20000, 0x20000]], 'HanaMinB holds only 𠀀');
  // Vertical forms still substitute, and every drawn glyph's vertical origin is at 880 (its top pinned there).
  const face = new hb.Face(new hb.Blob(ttf));
  assert.ok(face.getTableFeatureTags('GSUB').includes('vrt2'));
  const font = new hb.Font(face);
  const glyph = (s: string, dir: 'ttb' | 'ltr'): number => {
    const buf = new hb.Buffer();
    buf.addText(s);
    buf.setDirection(dir === 'ttb' ? hb.Direction.TTB : hb.Direction.LTR);
    buf.guessSegmentProperties();
    hb.shape(font, buf);
    return buf.getGlyphInfos()[0].codepoint;
  };
  assert.notEqual(glyph('「', 'ttb'), glyph('「', 'ltr'));
  for (const ch of '禮經本義鄉射注') {
    assert.equal(font.glyphExtents(glyph(ch, 'ltr'))?.yBearing, 880, `${ch}: top pinned at the vertical origin`);
  }
  // A second build with the same text uses the cached files: same bytes, not made again.
  const made = readdirSync(cache).filter((f) => f.endsWith('.ttf'));
  const before = statSync(sources[0].file!).mtimeMs;
  const second = await printFontSources(undefined, fonts, TEXT, cache);
  assert.deepEqual(second, sources);
  assert.equal(statSync(sources[0].file!).mtimeMs, before);
  assert.deepEqual(readdirSync(cache).filter((f) => f.endsWith('.ttf')), made);
  // Another text, another subset; the glyphs already converted come from the bank, the bytes are as made afresh.
  const more = await printFontSources(undefined, fonts, TEXT + '冠', cache);
  assert.equal(readdirSync(cache).filter((f) => f.endsWith('.ttf')).length, 3);
  const fresh = await printFontSources(undefined, fonts, TEXT + '冠', join(work, 'cache-fresh'));
  assert.deepEqual(readFileSync(more[0].file!), readFileSync(fresh[0].file!));
});

test('the grid CSS lifts pinned glyphs by what Chromium rounds off, only for a pinned main font', () => {
  // 8 mm at 0.88: 26.61 px → 27 px, 0.39 px = 0.104 mm.
  assert.ok(Math.abs(originDrop(8, 0.88) - (27 - (0.88 * 8 * 96) / 25.4) * (25.4 / 96)) < 1e-9);
  assert.ok(originDrop(8, 0.88) > 0 && originDrop(8, 0.88) < 25.4 / 96);
  const def = parseTemplateDefinition(JSON.parse(readFileSync(join(ROOT, 'templates', 'siku', 'template.json'), 'utf8')), 'siku');
  const g = computeGeometry(def, pageSpecFor('siku'));
  assert.equal(originCorrectionCss(g, [{ file: '/x.ttf' }]), '');
  const css = originCorrectionCss(g, [{ file: '/x.ttf', verticalOrigin: 0.88 }]);
  assert.match(css, /^\.col>i\{translate:0 -[\d.]+mm\}\n\.col>i\.n,\.col>i\.s\{translate:0 -[\d.]+mm\}$/);
});

test('a printed PDF has no Type 3 font: Noto is embedded as CID TrueType (pdffonts)', async () => {
  const config = defaultEdition('test-ttf', []);
  config.meta = { ...config.meta, title: '禮經本義', author: '蔡德晉', template: 'siku', date: '2026-01-01' };
  // The 四庫 template's own face is TW-Kai (TrueType already): Noto's CFF is what must be converted.
  config.fonts = { main: ['Noto Serif CJK TC'] };
  const { bytes } = await buildPdf(syntheticLayout(pageSpecFor('siku'), 2), config, { browser, fontCache: join(work, 'cache') });
  const path = join(work, 'book.pdf');
  writeFileSync(path, bytes);
  const rows = execFileSync('pdffonts', [path]).toString('utf8').trim().split('\n').slice(2);
  assert.ok(rows.length > 0);
  for (const row of rows) assert.doesNotMatch(row, /Type 3/, row);
  assert.ok(rows.some((r) => /NotoSerifCJK.*CID TrueType/.test(r)), rows.join('\n'));
});
