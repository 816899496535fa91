/**
 * Glyphs no encoding has: the KR-Gaiji data as shipped, CBETA's 組字式 read
 * as compositions (every form the Kanripo corpus uses; bracketed words and
 * citations not), what each glyph resolves to, GB 18030's later-encoded
 * Private Use Area characters, and the pictures drawn (no text in them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Glyph } from '../tree/types.js';
import { formulaIds, formulaText, parseFormula, parseIds } from './composition.js';
import { KR_GAIJI_DIR, krGaiji, krGaijiComposition, krGaijiImage } from './kr-gaiji.js';
import { gb18030Pua } from './pua.js';
import { resolveGlyph } from './resolve.js';
import { glyphArtMaker } from './art.js';
import { editionFonts } from '../fonts/index.js';
import { loadFontsOnce } from '../engine/fonts-memo.js';

const KANRIPO = path.join(KR_GAIJI_DIR, '..', '..', '..', 'shared', 'corpora', 'kanripo');
const glyph = (extra: Partial<Glyph>): Glyph => ({ type: 'glyph', value: '', position: { file: 't', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } }, ...extra });

test('the KR-Gaiji data: every code with an image has its PNG, black ink in alpha; the table as the list says', () => {
  const table = JSON.parse(readFileSync(path.join(KR_GAIJI_DIR, 'table.json'), 'utf8')) as { codes: Record<string, { image?: 1 }> };
  const codes = Object.entries(table.codes);
  assert.equal(codes.length, 5254);
  const images = new Set(readdirSync(path.join(KR_GAIJI_DIR, 'images')));
  assert.equal(images.size, codes.filter(([, e]) => e.image).length);
  for (const [code, e] of codes) if (e.image) assert.ok(images.has(`${code}.png`), code);
  // The list: KR0001 𫠦 (所), KR0002 no character, read 若; KR0146 an IDS; KR0359 an unsure reading (深?).
  assert.deepEqual(krGaiji('KR0001'), { u: '𫠦', n: '所', image: 1 });
  assert.deepEqual(krGaiji('KR0002'), { n: '若', image: 1 });
  assert.deepEqual(krGaiji('KR0146'), { ids: '⿺風軍', image: 1 });
  assert.deepEqual(krGaiji('KR0359'), { n: '深', unsure: true, image: 1 });
  assert.equal(krGaiji('KR9999'), undefined);
  assert.equal(krGaiji('constructor'), undefined);
  assert.equal(krGaijiComposition('[女*省]'), 'KR3126');
  // An image the list had black on white (KR5000) is ink in alpha like the rest: no opaque white left.
  for (const code of ['KR0433', 'KR5000']) {
    const png = PNG.sync.read(Buffer.from(krGaijiImage(code)!));
    let ink = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      assert.equal(png.data[i] + png.data[i + 1] + png.data[i + 2], 0, `${code}: black`);
      if (png.data[i + 3] > 128) ink++;
    }
    assert.ok(ink > 0.05 * png.width * png.height && ink < 0.7 * png.width * png.height, `${code}: ${ink} of ${png.width * png.height} pixels inked`);
  }
  assert.equal(krGaijiImage('../table'), undefined);
  const size = readdirSync(path.join(KR_GAIJI_DIR, 'images')).reduce((n, f) => n + statSync(path.join(KR_GAIJI_DIR, 'images', f)).size, 0);
  assert.ok(size < 4.5e6, `${size} bytes of images`);
});

test("CBETA's 組字式: every form the Kanripo works write reads as a formula; beside and above alone make an IDS; words in brackets do not", (t) => {
  if (!existsSync(KANRIPO)) return t.skip('no ../shared/corpora/kanripo');
  const forms = new Set<string>();
  for (const work of readdirSync(KANRIPO).filter((d) => statSync(path.join(KANRIPO, d)).isDirectory())) {
    for (const f of readdirSync(path.join(KANRIPO, work))) {
      for (const m of readFileSync(path.join(KANRIPO, work, f), 'utf8').matchAll(/\[([^[\]\n]{1,40})\]/gu)) forms.add(m[1]);
    }
  }
  const compositions = [...forms].filter((f) => /[*/@+\-]/u.test(f) && !/[A-Za-z0-9]/u.test(f));
  assert.ok(compositions.length >= 70, `${compositions.length} forms`);
  for (const f of compositions) assert.ok(parseFormula(f), f);
  // Negative controls: section labels, a citation, Latin, a lone operator, unbalanced parentheses.
  for (const f of ['提要', '自序', '卷上', '圖', 'cf. Nos. 1565-1567', 'a*b', '女*', '*省', '(女*省', '女**省']) assert.equal(parseFormula(f), undefined, f);
  assert.equal(formulaIds(parseFormula('女*省')!), '⿰女省');
  assert.equal(formulaIds(parseFormula('(ㄇ@人)/ㄙ/月')!), undefined);
  assert.equal(formulaIds(parseFormula('〦/(口*口)/(┌/┌/一)')!), '⿳〦⿰口口⿳┌┌一');
  assert.equal(formulaIds(parseFormula('口*((上/示)*聿)')!), '⿰口⿰⿱上示聿');
  assert.equal(formulaIds(parseFormula('臊-品+巳')!), undefined);
  // Written back: as written, but for parentheses a left-to-right reading does not need.
  for (const [f, back] of [['臊-品+巳', '臊-品+巳'], ['(厂@((既-旡)-日+口))*頁', '(厂@(既-旡-日+口))*頁'], ['竺-二+(尃*几)', '竺-二+(尃*几)'], ['(ㄇ@人)/ㄙ/月', '(ㄇ@人)/ㄙ/月']]) assert.equal(formulaText(parseFormula(f)!), back);
  assert.deepEqual(parseIds('⿰女省'), { idc: '⿰', parts: [{ char: '女' }, { char: '省' }] });
  assert.equal(parseIds('⿴囗玉'), undefined);
});

test('what a glyph resolves to: KR-Gaiji character or image, the list’s own compositions, parts, a formula; GB 18030-2022 for the Private Use Area; nothing for what no list has', () => {
  assert.deepEqual(resolveGlyph(glyph({ entity: 'KR0001', value: '&KR0001;' })), { replacement: '𫠦', drawing: { image: 'KR0001', text: '𫠦', from: 'kr-gaiji' }, how: 'kr-unicode' });
  assert.deepEqual(resolveGlyph(glyph({ entity: 'KR0002', value: '&KR0002;' })), { drawing: { image: 'KR0002', text: '若', from: 'kr-gaiji' }, how: 'kr-image' });
  // No reading, no IDS: the text layer carries the source's own writing.
  assert.deepEqual(resolveGlyph(glyph({ entity: 'KR0008', value: '&KR0008;' }))?.drawing?.text, '&KR0008;');
  assert.equal(resolveGlyph(glyph({ entity: 'KR9999', value: '&KR9999;' })), undefined);
  assert.deepEqual(resolveGlyph(glyph({ description: '女*省', value: '[女*省]' })), { drawing: { image: 'KR3126', text: '⿰女省', from: 'kr-gaiji' }, how: 'composition-list' });
  assert.deepEqual(resolveGlyph(glyph({ description: '兒*頁', value: '[兒*頁]' })), { drawing: { ids: '⿰兒頁', text: '⿰兒頁', from: 'composition' }, how: 'composition-parts' });
  assert.deepEqual(resolveGlyph(glyph({ description: '臊-品+巳', value: '[臊-品+巳]' })), { drawing: { formula: '臊-品+巳', text: '[臊-品+巳]', from: 'composition' }, how: 'composition-formula' });
  assert.deepEqual(resolveGlyph(glyph({ codePoint: 0xe81e, value: '\uE81E' })), { replacement: '龴', how: 'pua-gb18030' });
  assert.equal(resolveGlyph(glyph({ codePoint: 0xe000, value: '\uE000' })), undefined);
});

test('GB 18030: the Private Use Area code points of the 2005 table that Unicode encoded, as the 2022 table (ICU) and the six in Extension B; the GBK user-defined area and the rest stay unmapped', () => {
  const mapped = new Map<number, string>();
  for (let cp = 0xe000; cp <= 0xf8ff; cp++) {
    const ch = gb18030Pua(cp);
    if (ch !== undefined) mapped.set(cp, ch);
  }
  assert.equal(mapped.size, 24, [...mapped].map(([cp, ch]) => `${cp.toString(16)}→${ch}`).join(' '));
  assert.equal(mapped.get(0xe78d), '︐');
  assert.equal(mapped.get(0xe796), '︙');
  assert.equal(mapped.get(0xe864), '龻');
  assert.equal(mapped.get(0xe816), '\u{20087}');
  assert.equal(mapped.get(0xe855), '\u{241FE}');
  assert.equal(gb18030Pua(0xe000), undefined);
  assert.equal(gb18030Pua(0x4e00), undefined);
});

test('pictures: a composition is drawn from its parts’ outlines (paths, no text), a formula small in one cell; a KR image as the list has it; nothing where no font has a part', async () => {
  const fonts = await loadFontsOnce(editionFonts().specs);
  const art = glyphArtMaker(fonts.map((f) => f.bytes));
  const parts = art({ ids: '⿰女省', text: '⿰女省', from: 'composition' });
  assert.equal(parts?.type, 'svg');
  const svg = new TextDecoder().decode(parts!.bytes);
  assert.equal(svg.match(/<path /gu)?.length, 2);
  assert.doesNotMatch(svg, /<text/u);
  // Beside: the first part in the left half, the second in the right (translate x of each path).
  const xs = [...svg.matchAll(/matrix\(([-\d.]+) 0 0 [-\d.]+ ([-\d.]+) /gu)].map((m) => Number(m[2]));
  assert.ok(xs[0] < 500 && xs[1] >= 400, String(xs));
  const formula = art({ formula: '臊-品+巳', text: '[臊-品+巳]', from: 'composition' });
  assert.equal(new TextDecoder().decode(formula!.bytes).match(/<path /gu)?.length, 5);
  assert.notEqual(parts!.name, formula!.name);
  // Beside another part, a formula is written small in its share only: 頁 is drawn over the right half.
  const mixed = new TextDecoder().decode(art({ formula: '(厂@((既-旡)-日+口))*頁', text: 'x', from: 'composition' })!.bytes);
  const last = [...mixed.matchAll(/matrix\(([-\d.]+) 0 0 [-\d.]+ ([-\d.]+) /gu)].at(-1)!;
  assert.ok(Number(last[2]) > 450 && Number(last[1]) > 0.4, `頁: ${last[0]}`);
  assert.equal(art({ image: 'KR0433', text: '蓍', from: 'kr-gaiji' })?.type, 'png');
  assert.equal(art({ image: 'KR9999', text: '&KR9999;', from: 'kr-gaiji' }), undefined);
  assert.equal(art({ ids: '⿰女\u{F0000}', text: 'x', from: 'composition' }), undefined);
});
