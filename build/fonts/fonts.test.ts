import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as hb from 'harfbuzzjs';
import { assignCharacters, coverage, fontChooser, subsetFace, subsetFonts, uncovered } from './index.js';
import { trimForText } from './trim.js';
import { loadFontTables, loadSystemFonts } from './load.js';
import { cmapRanges, extractFace, faceFamilies, isCollection, readDirectory, readNames } from './sfnt.js';
import { FONT_STACK, HANAMIN_A, NOTO_SERIF_CJK_TC, TW_KAI, TW_KAI_EXT_B, editionFonts, fontStackFor } from './stack.js';
import { mainFaces, otherRoleFaces } from './roles.js';
import type { LoadedFont } from './types.js';

let fonts: LoadedFont[];
before(async () => {
  fonts = await loadSystemFonts();
});

const cp = (s: string): number => s.codePointAt(0)!;

test('the stack: Noto Serif CJK TC, then HanaMinA, HanaMinB', () => {
  assert.deepEqual(
    FONT_STACK.map((f) => f.family),
    ['Noto Serif CJK TC', 'HanaMinA', 'HanaMinB'],
  );
  assert.deepEqual(
    fonts.map((f) => f.family),
    ['Noto Serif CJK TC', 'HanaMinA', 'HanaMinB'],
  );
});

test('a .ttc face is extracted as a stand-alone sfnt with its own name and tables', async () => {
  const ttc = new Uint8Array(await readFile(NOTO_SERIF_CJK_TC.file));
  assert.ok(isCollection(ttc));
  const families = faceFamilies(ttc).map((f) => f[0]);
  const tc = families.indexOf('Noto Serif CJK TC');
  assert.ok(tc >= 0, families.join(', '));
  const face = extractFace(ttc, tc);
  assert.ok(!isCollection(face));
  const dir = readDirectory(face);
  assert.equal(dir.sfntVersion, 0x4f54544f, 'CFF outlines (OTTO)');
  assert.ok(readNames(face, dir, 1).includes('Noto Serif CJK TC'));
  for (const t of ['cmap', 'CFF ', 'GSUB', 'head', 'vmtx']) assert.ok(dir.tables.some((x) => x.tag === t), t);
  // Every table lies inside the file, 4-byte aligned.
  for (const t of dir.tables) assert.ok(t.offset % 4 === 0 && t.offset + t.length <= face.byteLength, t.tag);
  // HarfBuzz opens it and finds the TC face's glyph for 禮.
  const font = new hb.Font(new hb.Face(new hb.Blob(face)));
  const buf = new hb.Buffer();
  buf.addText('禮');
  buf.guessSegmentProperties();
  hb.shape(font, buf);
  assert.notEqual(buf.getGlyphInfos()[0].codepoint, 0);
  assert.deepEqual(fonts[0].bytes.byteLength, face.byteLength, 'loadSystemFonts takes the same face');
});

test('loadFontTables reads just the tables asked for, of the face asked for: the same cmaps as the whole files', async () => {
  const tables = await loadFontTables(FONT_STACK, ['cmap', 'name']);
  assert.deepEqual(tables.map((f) => f.family), FONT_STACK.map((f) => f.family));
  tables.forEach((font, i) => {
    const dir = readDirectory(font.bytes);
    assert.deepEqual(dir.tables.map((t) => t.tag).sort(), ['cmap', 'name']);
    assert.ok(font.bytes.byteLength < 1_000_000, `${font.family}: ${font.bytes.byteLength} bytes`);
    assert.deepEqual(cmapRanges(font.bytes), cmapRanges(fonts[i].bytes), font.family);
    assert.deepEqual(readNames(font.bytes, dir, 1), readNames(fonts[i].bytes, readDirectory(fonts[i].bytes), 1), font.family);
  });
  // The collection's face by name: the TC face, not the first (JP).
  assert.ok(readNames(tables[0].bytes, readDirectory(tables[0].bytes), 1).includes('Noto Serif CJK TC'));
  const first = await loadFontTables([{ family: 'first face', file: NOTO_SERIF_CJK_TC.file }], ['name']);
  assert.ok(!readNames(first[0].bytes, readDirectory(first[0].bytes), 1).includes('Noto Serif CJK TC'));
  await assert.rejects(loadFontTables([{ ...NOTO_SERIF_CJK_TC, face: 'No Such Face' }], ['cmap']), /no face named "No Such Face"/);
});

test('coverage: basic, Extension A from Noto; Extension B from HanaMin; PUA and unassigned from none', () => {
  const covered = coverage(fonts);
  const choose = fontChooser(fonts);
  assert.equal(choose(cp('禮')), 0);
  assert.equal(choose(cp('㐀')), 0, 'U+3400 Extension A');
  assert.equal(choose(0x2a6d6) >= 1, true, 'U+2A6D6 Extension B (last) in HanaMin');
  assert.ok(covered(0x20000), 'U+20000 𠀀');
  assert.equal(covered(0xe000), false, 'Private Use Area');
  assert.equal(covered(0x10ffff), false);
  assert.deepEqual(uncovered(fonts, '禮\ue000𠀀\ue000 '), ['\ue000']);
});

test('cmap ranges are sorted, merged and agree with HarfBuzz', () => {
  const ranges = cmapRanges(fonts[2].bytes);
  for (let i = 1; i < ranges.length; i++) assert.ok(ranges[i][0] > ranges[i - 1][1] + 1);
  const face = new hb.Face(new hb.Blob(fonts[2].bytes));
  const set = face.collectUnicodes();
  const count = ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
  assert.equal(count, set.length);
});

test('assignCharacters: each character to the first font that has it, once, white space dropped', () => {
  const parts = assignCharacters(fonts, '禮禮　經 𠀀\ue000');
  assert.equal(parts[0], '禮經', 'code point order');
  assert.equal([...parts[1], ...parts[2]].join(''), '𠀀');
});

test('subsetFonts: exactly the characters, sfnt (no WOFF2), vert/vrt2 kept, vertical forms of brackets work', async () => {
  const text = '禮經本義，「鄉射」（注）。𠀀';
  const subsets = await subsetFonts(fonts, text);
  assert.deepEqual(
    subsets.map((s) => [s.family, s.format, s.mediaType]),
    [
      ['Noto Serif CJK TC', 'otf', 'font/otf'],
      [fonts[1].family === 'HanaMinA' && subsets[1].family === 'HanaMinA' ? 'HanaMinA' : 'HanaMinB', 'ttf', 'font/ttf'],
    ],
  );
  const all = new Set<number>();
  for (const s of subsets) {
    const sig = new DataView(s.bytes.buffer, s.bytes.byteOffset, 4).getUint32(0);
    assert.ok(sig === 0x4f54544f || sig === 0x00010000, 'sfnt');
    for (const [a, b] of cmapRanges(s.bytes)) for (let c = a; c <= b; c++) all.add(c);
  }
  assert.deepEqual([...all].sort((a, b) => a - b), [...new Set([...text].map(cp))].sort((a, b) => a - b));
  // Vertical shaping in the subset substitutes the vertical comma and corner bracket.
  const noto = subsets[0];
  const face = new hb.Face(new hb.Blob(noto.bytes));
  const features = face.getTableFeatureTags('GSUB');
  assert.ok(features.includes('vert') && features.includes('vrt2'), features.join(' '));
  const font = new hb.Font(face);
  const glyph = (s: string, dir: number): number => {
    const buf = new hb.Buffer();
    buf.addText(s);
    buf.setDirection(dir as 4 | 6);
    buf.guessSegmentProperties();
    hb.shape(font, buf);
    return buf.getGlyphInfos()[0].codepoint;
  };
  // (The TC comma is centred already and has no vertical form.)
  assert.notEqual(glyph('（', hb.Direction.TTB), glyph('（', hb.Direction.LTR));
  assert.notEqual(glyph('「', hb.Direction.TTB), glyph('「', hb.Direction.LTR));
  assert.ok(noto.bytes.byteLength < 200_000, `small subset (${noto.bytes.byteLength} bytes)`);
});

test('subsetFonts: a whole book in one subset (locl left out, hb-subset does not overflow)', async () => {
  // Every CJK Unified Ideograph from U+4E00 for 3,500 code points: more than any sample uses.
  const text = String.fromCodePoint(...Array.from({ length: 3500 }, (_, i) => 0x4e00 + i)) + '，。「」『』〈〉《》：；、？！abcXYZ0123456789';
  const [noto] = await subsetFonts(fonts, text);
  assert.equal(noto.family, 'Noto Serif CJK TC');
  assert.ok(new hb.Face(new hb.Blob(noto.bytes)).getTableFeatureTags('GSUB').includes('vert'));
});

test('fontStackFor: edition fonts first, the default stack after; files, collections and known families', () => {
  assert.deepEqual(
    fontStackFor([]).map((f) => f.family),
    ['Noto Serif CJK TC', 'HanaMinA', 'HanaMinB'],
  );
  assert.deepEqual(
    fontStackFor(['HanaMinB', '/x/My Font.otf', '/y/Set.ttc#Foo Serif']).map((f) => [f.family, f.file, f.face]),
    [
      ['HanaMinB', '/usr/share/fonts/truetype/hanazono/HanaMinB.ttf', undefined],
      ['My Font', '/x/My Font.otf', undefined],
      ['Foo Serif', '/y/Set.ttc', 'Foo Serif'],
      ['Noto Serif CJK TC', NOTO_SERIF_CJK_TC.file, 'Noto Serif CJK TC'],
      ['HanaMinA', '/usr/share/fonts/truetype/hanazono/HanaMinA.ttf', undefined],
    ],
  );
  assert.throws(() => fontStackFor(['SimSun']), /give a font file path/);
});

test('editionFonts: families without a file are kept by name, WOFF is refused, a stack font is not listed twice', () => {
  const { specs, byName } = editionFonts(['LXGW WenKai', '/opt/Kai.ttf', 'hanamina', '/usr/share/fonts/truetype/hanazono/HanaMinB.ttf']);
  assert.deepEqual(byName, ['LXGW WenKai']);
  assert.deepEqual(
    specs.map((f) => f.family),
    ['Kai', 'HanaMinA', 'HanaMinB', 'Noto Serif CJK TC'],
  );
  assert.throws(() => editionFonts(['/opt/Kai.woff2']), /give a \.ttf, \.otf or \.ttc#Family file/);
  assert.throws(() => fontStackFor(['LXGW WenKai']), /give a font file path/);
});

test('TW-Kai and its Ext-B and Plus faces are known by name: files of the tool, in the order given, then the stack', () => {
  const { specs, byName } = editionFonts(['TW-Kai', 'tw-kai-ext-b', 'TW-Kai-Plus', 'TW-Kai']);
  assert.deepEqual(byName, []);
  assert.deepEqual(specs.map((f) => f.family), ['TW-Kai', 'TW-Kai-Ext-B', 'TW-Kai-Plus', 'Noto Serif CJK TC', 'HanaMinA', 'HanaMinB']);
  assert.ok(specs.slice(0, 3).every((f) => f.file.startsWith('/usr/share/fonts/truetype/cns11643/') && f.package === 'fonts-cns11643-kai'));
});

test('font roles: the 四庫 template sets its text in TW-Kai, the modern one in the stack; an edition\'s role replaces the template\'s, other roles fall back on the main text', () => {
  assert.deepEqual(mainFaces({ meta: { template: 'siku' }, fonts: {} }), ['TW-Kai', 'TW-Kai-Ext-B', 'TW-Kai-Plus']);
  assert.deepEqual(mainFaces({ meta: { template: 'modern' }, fonts: {} }), []);
  assert.deepEqual(mainFaces({ meta: { template: 'no-such' }, fonts: {} }), ['TW-Kai', 'TW-Kai-Ext-B', 'TW-Kai-Plus'], 'an unknown template takes siku\'s');
  assert.deepEqual(mainFaces({ meta: { template: 'siku' }, fonts: { main: ['Noto Serif CJK TC'] } }), ['Noto Serif CJK TC']);
  assert.deepEqual(otherRoleFaces({ meta: { template: 'siku' }, fonts: {} }), []);
  assert.deepEqual(otherRoleFaces({ meta: { template: 'modern' }, fonts: { zhu: ['TW-Kai'], label: ['HanaMinA'], meipi: [] } }), [
    { role: 'label', faces: ['HanaMinA'] },
    { role: 'zhu', faces: ['TW-Kai'] },
  ]);
  assert.deepEqual(otherRoleFaces({ meta: { template: 'siku' }, fonts: { meipi: ['Noto Serif CJK TC'] } }), [{ role: 'meipi', faces: ['Noto Serif CJK TC', 'TW-Kai', 'TW-Kai-Ext-B', 'TW-Kai-Plus'] }]);
});

test('a face too large for HarfBuzz (TW-Kai, 52 MB; its Ext-B, 65 MB) is cut to the outlines the text needs: the same subset as of the whole face, and one where the whole face fails', async () => {
  const read = async (spec: { family: string; file: string }): Promise<LoadedFont> => ({ ...spec, bytes: new Uint8Array(await readFile(spec.file)) });
  const kai = await read(TW_KAI);
  let text = '「」，。、…';
  for (let cp = 0x4e00; Array.from(text).length < 400; cp++) text += String.fromCodePoint(cp);
  const cut = trimForText(kai.bytes, text);
  assert.ok(cut.byteLength < kai.bytes.byteLength / 4, `${cut.byteLength} bytes of ${kai.bytes.byteLength}`);
  const { default: subsetFont } = await import('subset-font');
  const opts = { targetFormat: 'sfnt' as const, keepFeatures: ['vert', 'vrt2'] };
  const whole = await subsetFont(Buffer.from(kai.bytes), text, opts);
  assert.deepEqual(await subsetFont(Buffer.from(cut), text, opts), whole, 'byte for byte the subset of the whole face');
  // 2,500 characters: the whole face fails in HarfBuzz's memory (the negative control), subsetFace cuts it first.
  let more = text;
  for (let cp = 0x5200; Array.from(more).length < 2500; cp++) more += String.fromCodePoint(cp);
  await assert.rejects(subsetFont(Buffer.from(kai.bytes), more, opts));
  const subset = await subsetFace(kai, more);
  assert.deepEqual(cmapRanges(subset).reduce((n, [a, b]) => n + b - a + 1, 0) >= 2500, true);
  // Ext-B: its characters subset (the whole face does not load).
  const extB = await read(TW_KAI_EXT_B);
  assert.deepEqual(cmapRanges(await subsetFace(extB, '𠀋𡈽')), [[0x2000b, 0x2000b], [0x2123d, 0x2123d]]);
  // A small face is left as it is.
  const hana = await read(HANAMIN_A);
  assert.equal(trimForText(hana.bytes, '一'), hana.bytes);
});
