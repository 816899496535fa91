/**
 * What a publisher refused in the samples (issue 31's table), read back from
 * their PDFs with pdf.js: the 四庫 samples in TW-Kai (a 宋 face in the
 * modern one, the control); the book's cover, title page and 牌記; 評點岳陽樓記's
 * 眉批 over their words in reading order, the 讀點 after 湯湯 by the main text
 * and not after its 音義 note; a 天頭 deeper than the 地腳 with room for a
 * raised column and 眉批 of seven characters a lane; the 版心 naming the part
 * (提要, 卷一), the title once; the 四庫 head's 經部四 low in its column; the
 * 提要's date starting its own column, no
 * blank column at a volume's opening; 六藝綱目's Private Use Area characters
 * printed as what they stand for and its verse stanza full size; 夾注 pairs
 * closer within than between. Each measure has its control: a case of the
 * same page it must tell apart. (Note tails of one character: golden.test,
 * on the layout every sample's PDF reads back as in samples.slow.ts.)
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import type { EditionConfig } from '../../tree/edition.js';
import { cellBox, type PageGeometry, type Side } from './geometry.js';
import type { PlannedPage } from './html.js';
import { centre, itemBox, readPdfText, type TextItem } from './readback.js';
import { chromiumForTests } from './test-chromium.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PT = 72 / 25.4;
const { browser } = chromiumForTests('diaoban-press-test-');

interface Printed {
  config: EditionConfig;
  planned: PlannedPage[];
  text: TextItem[][];
  g: PageGeometry;
}

/** A sample printed (its first `volumes` volumes) and read back. */
async function print(id: string, volumes = Infinity): Promise<Printed> {
  const { config, tree } = await loadEdition(join(ROOT, 'manuscript', id));
  assert.ok(config, `${id}: edition.yaml`);
  const layout = layoutBook({ ...tree, children: tree.children.slice(0, volumes) }, pageSpecFor(config.meta.template, config.layout));
  const { bytes, planned } = await buildPdf(layout, config, { browser: await browser() });
  const { options } = await renderOptionsFor(layout, config);
  return { config, planned, text: await readPdfText(bytes), g: options.geometry };
}

const samples: Record<string, Printed> = {};
before(async () => {
  // One at a time: the machine is shared.
  samples.pingdian = await print('pingdian');
  samples.lijing = await print('lijing-benyi', 1);
  samples.liuyi = await print('liuyi-gangmu');
});

const joined = (items: readonly TextItem[]): string => items.map((it) => it.str).join('');
const near = (a: number, b: number, within = 0.6): boolean => Math.abs(a - b) <= within;
/** Text set at the main size (pt), not a note's, a 眉批's or the 版心's. */
const mainItems = (p: Printed, index: number): TextItem[] => p.text[index].filter((it) => near(it.size, p.g.fontSize * PT));
/** The grid column (0 = first read) whose box holds an item's centre; -1 outside every column. */
function columnOf(p: Printed, index: number, item: TextItem): number {
  const side = p.planned[index].side;
  const m = p.g.margins[side];
  const x = centre(itemBox(item)).x / PT - m.left;
  for (let c = 0; c < p.g.columns; c++) {
    const box = cellBox(p.g, side, c, 0);
    if (x >= box.x && x <= box.x + box.w) return c;
  }
  return -1;
}
/** The 版心's text of a page, top to foot. */
function banxinText(p: Printed, index: number): string {
  const side = p.planned[index].side;
  const strip = p.g.banxin![side];
  const left = (p.g.margins[side].left + strip.left) * PT;
  return joined(p.text[index].filter((it) => centre(itemBox(it)).x >= left && centre(itemBox(it)).x <= left + strip.width * PT).sort((a, b) => a.y - b.y));
}
const textPages = (p: Printed): number[] => p.planned.flatMap((pl, i) => (pl.page ? [i] : []));

test('the 四庫 samples print in TW-Kai (高紫超曰 with a 曰 of its own); the modern sample in its 宋 face (control)', () => {
  for (const p of [samples.pingdian, samples.lijing]) {
    const fonts = textPages(p).flatMap((i) => mainItems(p, i).map((it) => it.font ?? ''));
    const kai = fonts.filter((f) => f.startsWith('TW-Kai')).length;
    assert.ok(kai / fonts.length > 0.98, `${p.config.meta.title}: ${kai} of ${fonts.length} main characters in TW-Kai`);
  }
  const yue = textPages(samples.lijing).flatMap((i) => mainItems(samples.lijing, i)).filter((it) => it.str === '曰');
  assert.ok(yue.length > 10 && yue.every((it) => it.font?.startsWith('TW-Kai')), `${yue.length} 曰 in TW-Kai`);
  const modern = textPages(samples.liuyi).flatMap((i) => mainItems(samples.liuyi, i).map((it) => it.font ?? ''));
  assert.equal(modern.filter((f) => f.startsWith('TW-Kai')).length, 0, 'control: the modern template has no TW-Kai');
});

test('every sample opens on its cover and title page and closes on its 牌記, from its edition.yaml', async () => {
  for (const p of Object.values(samples)) {
    const parts = p.planned.flatMap((pl, i) => (pl.part ? [{ part: pl.part, i }] : []));
    assert.deepEqual(parts.map((x) => x.part), ['cover', 'title', 'colophon'], p.config.meta.title);
    const title = parts.find((x) => x.part === 'title')!.i;
    const colophon = parts.find((x) => x.part === 'colophon')!.i;
    assert.ok(joined(p.text[title]).includes(p.config.meta.title), `${p.config.meta.title}: its title page names it`);
    assert.ok(joined(p.text[title]).includes(p.config.meta.author ?? ''), `${p.config.meta.title}: and its author`);
    assert.match(joined(p.text[colophon]), /底本/u, `${p.config.meta.title}: the 牌記 names its source`);
    // Control: the text's own pages say none of it.
    assert.ok(textPages(p).every((i) => !joined(p.text[i]).includes('底本')));
  }
  // The nine samples, not only these three: each keeps the parts on (book-parts.test prints one with them off).
  const { readdirSync, existsSync } = await import('node:fs');
  for (const id of readdirSync(join(ROOT, 'manuscript')).filter((d) => existsSync(join(ROOT, 'manuscript', d, 'edition.yaml')))) {
    const { config } = await loadEdition(join(ROOT, 'manuscript', id));
    assert.ok(config?.book && config.book.cover !== false && config.book.titlePage !== false && config.book.colophon !== false, `${id}: book parts on`);
  }
});

test('評點岳陽樓記: the 眉批 over their words in reading order, never over the 提要; the 讀點 after 湯湯 by 湯, not after its 音義', () => {
  const p = samples.pingdian;
  const top = (i: number): TextItem[] => p.text[i].filter((it) => centre(itemBox(it)).y < (p.g.margins[p.planned[i].side].top + p.g.gridTop) * PT && it.size < 0.6 * p.g.fontSize * PT);
  const find = (ch: string, items: (i: number) => TextItem[]) => textPages(p).flatMap((i) => items(i).filter((it) => it.str === ch).map((it) => ({ i, it })));
  const [qi] = find('起', top);
  const [zong] = find('總', top);
  assert.ok(qi && zong, 'both 眉批 printed in the top margin');
  assert.equal(qi.i, zong.i, 'on one page');
  assert.ok(!p.planned[qi.i].front && !joined(p.text[qi.i]).includes('臣等謹案'), 'not over the 提要');
  // 起筆敘事… comments on …以記之。, 總寫大觀… opens 予觀夫巴陵…
  const main = mainItems(p, qi.i);
  const ji = main.findIndex((it, k) => it.str === '記' && main[k + 1]?.str === '之');
  const yu = main.findIndex((it, k) => it.str === '予' && main[k + 1]?.str === '觀');
  assert.ok(ji >= 0 && yu >= 0);
  const colJi = columnOf(p, qi.i, main[ji]);
  const colYu = columnOf(p, qi.i, main[yu]);
  assert.equal(columnOf(p, qi.i, qi.it), colJi, '起筆敘事 over the column of 記之');
  assert.ok(columnOf(p, qi.i, zong.it) >= colYu, '總寫大觀 over 予觀夫 or left of it (moved leftwards only)');
  assert.ok(centre(itemBox(qi.it)).x > centre(itemBox(zong.it)).x, 'read right to left: 起筆 first');
  assert.notEqual(columnOf(p, qi.i, qi.it), colYu, 'control: the measure tells the two columns apart');
  // A lane of seven characters: 起筆敘事，只數.
  const lane = top(qi.i).filter((it) => near(it.x, qi.it.x, 0.5));
  assert.equal(joined(lane.sort((a, b) => a.y - b.y)), '起筆敘事，只數');

  // 湯湯【音義 湯音傷】，: the 讀點 in the cell after the second 湯, where the note starts.
  const tang = main.findIndex((it, k) => it.str === '湯' && main[k - 1]?.str === '湯' && columnOf(p, qi.i, it) !== columnOf(p, qi.i, main[k - 1]));
  const second = tang >= 0 ? main[tang] : main.filter((it) => it.str === '湯')[1];
  const col = columnOf(p, qi.i, second);
  const mark = main.find((it) => it.str === '，' && columnOf(p, qi.i, it) === col && it.y > second.y);
  const noteEnd = Math.max(...p.text[qi.i].filter((it) => near(it.size, p.g.noteSize * PT) && columnOf(p, qi.i, it) === col).map((it) => it.y));
  const cell = p.g.cellHeight * PT;
  assert.ok(mark && mark.y - second.y <= cell + 1, `the 讀點 one cell after 湯 (${mark && (mark.y - second.y).toFixed(1)} pt)`);
  assert.ok(noteEnd - second.y > cell + 1, 'control: the note’s last character lies further down');
});

test('a real leaf: the raised column clear of the edge, the 天頭 deeper than the 地腳', () => {
  for (const p of [samples.pingdian, samples.lijing]) {
    for (const i of textPages(p)) {
      // Characters (a 句讀 mark's item is a whole em, its ink in a corner).
      const main = p.text[i].filter((it) => near(it.size, p.g.fontSize * PT) && /\p{Script=Han}/u.test(it.str));
      const page = p.g.height * PT;
      const highest = Math.min(...main.map((it) => itemBox(it).y));
      assert.ok(highest > 20 * PT, `${p.config.meta.title} p${i + 1}: the highest character ${(highest / PT).toFixed(1)} mm from the top`);
      // The frame: the grid's top and foot with the page's margins (the 天頭 over the grid, the 地腳 under it).
      const m = p.g.margins[p.planned[i].side];
      assert.ok(m.top >= 2 * m.bottom - 0.5 && m.top / (p.g.height) > 0.15, `${p.config.meta.title}: 天頭 ${m.top} mm, 地腳 ${m.bottom} mm`);
      const lowest = Math.max(...main.map((it) => itemBox(it).y + itemBox(it).h));
      assert.ok(lowest < page - m.bottom * PT, `${p.config.meta.title} p${i + 1}: a character in the 地腳 (${((page - lowest) / PT).toFixed(1)} mm above the foot)`);
    }
  }
});

test('the 版心 names the part after the title, the title once: 提要, 卷一; a one-volume work its title alone', () => {
  const p = samples.lijing;
  const front = textPages(p).filter((i) => p.planned[i].front);
  const juan = textPages(p).filter((i) => !p.planned[i].front && !p.planned[i].page!.collation);
  assert.ok(front.length > 0 && juan.length > 0);
  for (const i of front) assert.match(banxinText(p, i), /^欽定四庫全書禮經本義提要[一二三四五六七八九十]+$/u, `p${i + 1}`);
  for (const i of juan) assert.match(banxinText(p, i), /^欽定四庫全書禮經本義卷一[一二三四五六七八九十百]+$/u, `p${i + 1}`);
  for (const i of textPages(samples.pingdian)) assert.match(banxinText(samples.pingdian, i), /^欽定四庫全書評點岳陽樓記[一二三四五六七八九十]+$/u);
  // Control: the measure reads what the strip holds — the 提要's strip is not the volume's.
  assert.notEqual(banxinText(p, front[0]).replace(/[一二三四五六七八九十]+$/u, ''), banxinText(p, juan[0]).replace(/[一二三四五六七八九十百]+$/u, ''));
});

test('禮經本義: the 四庫 head’s 經部四 and 禮類二 low in their columns; the 提要’s date starts a column; the volume opens without a blank column', () => {
  const p = samples.lijing;
  const front = textPages(p).filter((i) => p.planned[i].front);
  const head = mainItems(p, front[0]);
  const cell = p.g.cellHeight * PT;
  const at = (a: string, b: string) => head.find((it, k) => it.str === a && head[k + 1]?.str === b)!;
  // Control: 欽 and the title's 禮 head their columns; 經部四 and 禮類二 stand more than ten cells below them.
  assert.ok(at('經', '部').y - at('欽', '定').y > 10 * cell, '經部四 low');
  assert.ok(at('禮', '類').y - at('禮', '經').y > 10 * cell, '禮類二 low');
  assert.equal(columnOf(p, front[0], at('經', '部')), columnOf(p, front[0], at('欽', '定')));
  const dated = front.find((i) => joined(mainItems(p, i)).includes('乾隆四十四年'))!;
  const main = mainItems(p, dated);
  const qian = main.find((it, k) => it.str === '乾' && main[k + 1]?.str === '隆')!;
  const col = columnOf(p, dated, qian);
  const inColumn = main.filter((it) => columnOf(p, dated, it) === col);
  assert.equal(Math.min(...inColumn.map((it) => it.y)), qian.y, '乾隆… heads its column');
  // Control: the column before ends short of the foot (the text before the date did not fill it).
  assert.ok(inColumn.length > 0 && col > 0);

  // The volume's opening page: its columns follow one another, none left blank before the last.
  const opening = textPages(p).find((i) => !p.planned[i].front)!;
  const used = [...new Set(p.text[opening].filter((it) => it.size > 0.5 * p.g.fontSize * PT).map((it) => columnOf(p, opening, it)).filter((c) => c >= 0))].sort((a, b) => a - b);
  assert.deepEqual(used, used.map((_, k) => k), `columns ${used.join(',')}`);
  assert.ok(used.length === p.g.columns, 'control: the page is full, so a blank column would show as a gap');
});

test('六藝綱目: its Private Use Area characters printed as 埶 and 𥻆, not 〓; the verse stanza 射自左膘 full size', () => {
  const p = samples.liuyi;
  const source = readFileSync(join(ROOT, 'manuscript', 'liuyi-gangmu', 'liuyi-gangmu.txt'), 'utf8');
  // Control: the source has them in the Private Use Area.
  assert.ok(source.includes('\u{F5D9}') && source.includes('\u{F81C}'));
  const all = p.text.map(joined).join('');
  assert.ok(all.includes('六埶綱領') || all.includes('六埶'), '六埶綱領');
  assert.ok(all.includes('方田𥻆米'), '方田𥻆米');
  // A 〓 only for a Private Use Area character whose reading is not known (not in the sample's charmap).
  const mapped = new Set([...readFileSync(join(ROOT, 'manuscript', 'liuyi-gangmu', 'charmap.yaml'), 'utf8').matchAll(/^U\+([0-9A-F]{4,5}):/gmu)].map((m) => parseInt(m[1], 16)));
  const unknown = [...source].filter((c) => c.codePointAt(0)! >= 0xe000 && c.codePointAt(0)! <= 0xf8ff && !mapped.has(c.codePointAt(0)!)).length;
  assert.ok(mapped.has(0xf5d9) && mapped.has(0xf81c));
  assert.equal([...all].filter((c) => c === '〓').length, unknown, 'one 〓 an unknown Private Use Area character');
  // 射自左膘逹于右脾… (the second stanza) at the main size; the note after the first at the note size (control).
  const hits = textPages(p).flatMap((i) => {
    const items = p.text[i];
    return items.flatMap((it, k) => (it.str === '射' && items[k + 1]?.str === '自' && items[k + 2]?.str === '左' ? [{ i, it }] : []));
  });
  assert.ok(hits.length >= 3, `${hits.length} stanzas read`);
  for (const h of hits) assert.ok(near(h.it.size, p.g.fontSize * PT), `射自左膘 on p${h.i + 1} at ${h.it.size.toFixed(1)} pt`);
  const note = textPages(p).flatMap((i) => p.text[i].filter((it, k, a) => it.str === '普' && a[k + 1]?.str === '沼'));
  assert.ok(note.length === 1 && near(note[0].size, p.g.noteSize * PT), 'control: the note 膘普沼反 small');
});

test('夾注 pairs: on the 禮經本義 pages, a note’s two sub-columns closer to each other than to the next column’s', () => {
  const p = samples.lijing;
  const inner: number[] = [];
  const outer: number[] = [];
  for (const i of textPages(p).filter((k) => !p.planned[k].front)) {
    const notes = p.text[i].filter((it) => near(it.size, p.g.noteSize * PT));
    const lanes = new Map<number, number[]>();
    for (const it of notes) {
      const c = columnOf(p, i, it);
      if (c < 0) continue;
      const x = centre(itemBox(it)).x;
      const list = lanes.get(c) ?? [];
      if (!list.some((l) => near(l, x, 1))) list.push(x);
      lanes.set(c, list);
    }
    for (const [c, xs] of lanes) {
      const next = lanes.get(c + 1);
      if (xs.length !== 2 || next?.length !== 2) continue;
      inner.push(Math.max(...xs) - Math.min(...xs));
      outer.push(Math.min(...xs) - Math.max(...next));
    }
  }
  assert.ok(inner.length > 20, `${inner.length} pairs side by side`);
  const median = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  assert.ok(median(inner) < 0.85 * median(outer), `pair ${median(inner).toFixed(1)} pt, between pairs ${median(outer).toFixed(1)} pt`);
  // Control (the measure can fail): between pairs the sub-columns stand a whole column's width minus the pair apart.
  assert.ok(median(outer) + median(inner) > 0.9 * p.g.colWidth * PT);
});
