/**
 * Punctuation in the printed PDF, read back: positions from the text layer
 * (pdf.js), ink from a page rasterised at 216 dpi (poppler). Every
 * assertion has a negative control: the other standard, the option off, the
 * rigid grid, or the text set without 禁則.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumForTests } from './test-chromium.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import type { BookLayout, Page, PunctuationSpec } from '../../layout/types.js';
import { CHTXT, bareText, chtxtMarkdown, treeOfMarkdown, withoutKinsoku } from '../../layout/punctuated.js';
import { loadSample } from '../../engine/samples.js';
import { defaultEdition } from '../../parse/edition.js';
import { markOf } from '../../punctuation/index.js';
import type { Root } from '../../tree/types.js';
import type { PageGeometry } from './geometry.js';
import { cellBox, noteBox } from './geometry.js';
import { slotsOf } from './cells.js';
import { decodeGreyPng, gridItems, itemBox, kinsokuBreaksInPdf, readPdfText, snapshotPng, type GreyImage, type PtBox, type TextItem } from './readback.js';

const PT = 72 / 25.4;
/** Rasters: 216 dpi where the ink's place is measured, 144 where only its presence is. */
const FINE = 216;
const COARSE = 144;
const { work, browser } = chromiumForTests('diaoban-punct-test-');

interface Printed {
  layout: BookLayout;
  path: string;
  text: TextItem[][];
  g: PageGeometry;
  pages: Page[];
  raster: (pageIndex: number) => GreyImage;
  dpi: number;
}

let serial = 0;
async function print(tree: Root, template: string, punctuation: Partial<PunctuationSpec> = {}, layout?: BookLayout, dpi = COARSE): Promise<Printed> {
  const spec = pageSpecFor(template);
  spec.punctuation = { ...spec.punctuation!, ...punctuation };
  const book = layout ?? layoutBook(tree, spec);
  const config = defaultEdition(`punct-${++serial}`, []);
  config.meta = { ...config.meta, title: '試排', template, language: tree.edition.language, date: '2026-01-01' };
  const { bytes } = await buildPdf(book, config, { browser });
  const path = join(work, `${config.meta.id}.pdf`);
  writeFileSync(path, bytes);
  const { options } = await renderOptionsFor(book, config);
  const rasters = new Map<number, GreyImage>();
  return {
    layout: book,
    path,
    text: await readPdfText(bytes),
    g: options.geometry,
    pages: book.volumes.flatMap((v) => v.pages),
    raster: (i) => {
      let r = rasters.get(i);
      if (!r) rasters.set(i, (r = decodeGreyPng(snapshotPng(path, i + 1, dpi))));
      return r;
    },
    dpi,
  };
}

/** Every character of a page with its place and its cell (the whole cell at its place) in points. */
interface Placed {
  ch: string;
  at: number;
  advance: number;
  note: boolean;
  column: number;
  box: PtBox;
  /** The character before it in its run or sub-column. */
  before?: string;
}

function placed(page: Page, g: PageGeometry): Placed[] {
  const out: Placed[] = [];
  const m = g.margins[page.side];
  const pt = (b: { x: number; y: number; w: number; h: number }, at: number): PtBox => ({ x: (m.left + b.x) * PT, y: (m.top + b.y + at * g.cellHeight) * PT, w: b.w * PT, h: g.cellHeight * PT });
  for (const column of page.columns) {
    for (const run of column.runs) {
      if (run.type === 'text') {
        const slots = slotsOf(run.start, run.text, run.advances);
        slots.forEach((x, i) => out.push({ ...x, note: false, column: column.index, box: pt(cellBox(g, page.side, column.index, 0), x.at), before: slots[i - 1]?.ch }));
      } else {
        for (const [side, segments] of [['right', run.right], ['left', run.left]] as const) {
          let at = run.start;
          let prev: string | undefined;
          for (const seg of segments) {
            for (const x of slotsOf(at, seg.text, seg.advances)) {
              out.push({ ...x, note: true, column: column.index, box: pt(noteBox(g, page.side, column.index, side, 0), x.at), before: prev });
              prev = x.ch;
              at = x.at + x.advance;
            }
          }
        }
      }
    }
  }
  return out;
}

/** The ink inside a box (points): its mass, centroid and bounding-box centre as fractions of the box, and extent in pixels. */
function ink(p: Printed, page: number, box: PtBox): { mass: number; fx: number; fy: number; cx: number; cy: number; w: number; h: number } {
  const img = p.raster(page);
  const s = p.dpi / 72;
  const x0 = Math.max(0, Math.round(box.x * s));
  const y0 = Math.max(0, Math.round(box.y * s));
  const x1 = Math.min(img.width, Math.round((box.x + box.w) * s));
  const y1 = Math.min(img.height, Math.round((box.y + box.h) * s));
  let mass = 0;
  let sx = 0;
  let sy = 0;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const dark = 255 - img.pixels[y * img.width + x];
      if (dark < 96) continue;
      mass += dark;
      sx += dark * x;
      sy += dark * y;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  if (mass === 0) return { mass, fx: NaN, fy: NaN, cx: NaN, cy: NaN, w: 0, h: 0 };
  return {
    mass,
    fx: (sx / mass - x0) / (x1 - x0),
    fy: (sy / mass - y0) / (y1 - y0),
    cx: ((minX + maxX + 1) / 2 - x0) / (x1 - x0),
    cy: ((minY + maxY + 1) / 2 - y0) / (y1 - y0),
    w: maxX - minX + 1,
    h: maxY - minY + 1,
  };
}

/** Clearly in the upper right quarter (a centred mark's centroid is near 0.5, 0.5). */
const upperRight = (i: { fx: number; fy: number }): boolean => i.fx > 0.6 && i.fy < 0.45;
const centred = (i: { fx: number; fy: number }): boolean => Math.abs(i.fx - 0.5) < 0.1 && Math.abs(i.fy - 0.5) < 0.1;
/** ？！ are centred by their outline (their ink is heavier at one end). */
const boxCentred = (i: { cx: number; cy: number }): boolean => Math.abs(i.cx - 0.5) < 0.1 && Math.abs(i.cy - 0.5) < 0.1;
const POINTS = new Set(Array.from('。，、；：'));

/** The punctuated sample, in a standard. */
const samples = new Map<string, Promise<Printed>>();
async function sample(standard: 'mainland' | 'taiwan'): Promise<Printed> {
  let p = samples.get(standard);
  if (!p) {
    const { tree, config } = await loadSample('lishu-biaodian');
    samples.set(standard, (p = print(tree, config.meta.template, { standard }, undefined, FINE)));
  }
  return p;
}

test('placement on a punctuated text: mainland 。，、；： in the upper right quarter and ？！ centred; Taiwan all centred; the text layer keeps ，', async () => {
  const results: Record<string, { points: number; mainland: number; centred: number; stops: number; stopsCentred: number }> = {};
  for (const standard of ['mainland', 'taiwan'] as const) {
    const p = await sample(standard);
    const r = { points: 0, mainland: 0, centred: 0, stops: 0, stopsCentred: 0 };
    p.pages.forEach((page, i) => {
      for (const x of placed(page, p.g)) {
        // Marks with their whole cell (a justified column gives them more: their glyph sits at its top).
        if (x.advance < 1 - 1e-6 || !markOf(x.ch)) continue;
        x.box.h = Math.min(x.box.h, p.g.cellHeight * PT);
        const at = ink(p, i, x.box);
        if (POINTS.has(x.ch)) {
          r.points++;
          if (upperRight(at)) r.mainland++;
          if (centred(at)) r.centred++;
        } else if (x.ch === '？' || x.ch === '！') {
          r.stops++;
          if (boxCentred(at)) r.stopsCentred++;
        }
      }
      // The text layer has the ordinary code points (a search for ， finds the comma), no presentation forms.
      const chars = p.text[i].map((t) => t.str).join('');
      assert.ok(!/[\uFE10-\uFE19\uFE30-\uFE4F]/u.test(chars));
    });
    assert.ok(p.text.some((items) => items.some((t) => t.str.includes('，'))));
    results[standard] = r;
  }
  const { mainland, taiwan } = results;
  assert.ok(mainland.points > 100, `${mainland.points} points`);
  assert.equal(mainland.mainland, mainland.points, 'mainland: every point in the upper right quarter');
  assert.equal(taiwan.centred, taiwan.points, 'Taiwan: every point centred');
  assert.ok(mainland.stops > 0 && mainland.stopsCentred === mainland.stops && taiwan.stopsCentred === taiwan.stops, `？！ centred in both: ${JSON.stringify(results)}`);
  // Negative controls: each standard fails the other's placement.
  assert.equal(taiwan.mainland, 0, 'Taiwan: no point in the upper right quarter');
  assert.equal(mainland.centred, 0, 'mainland: no point centred');
});

test('vertical ：: mainland draws it right of the axis, high in its cell, its dots stacked; Taiwan centred', async () => {
  const colon: Record<string, Array<ReturnType<typeof ink>>> = {};
  for (const standard of ['mainland', 'taiwan'] as const) {
    const p = await sample(standard);
    // Mainland: every ： (a compressed one keeps the upper half of its cell, where its ink is); Taiwan: those not compressed.
    colon[standard] = p.pages.flatMap((page, i) => placed(page, p.g).filter((x) => x.ch === '：' && (standard === 'mainland' || x.advance === 1)).map((x) => ink(p, i, x.box)));
  }
  assert.ok(colon.mainland.length >= 5 && colon.taiwan.length >= 1, `${colon.mainland.length} colons`);
  for (const c of colon.mainland) {
    assert.ok(c.fx > 0.6 && c.fy < 0.5, `mainland ： at ${c.fx.toFixed(2)},${c.fy.toFixed(2)}`);
    assert.ok(c.h > 2 * c.w, 'two dots one above the other');
  }
  // Negative control: the Taiwan ： is centred, not right of the axis.
  for (const c of colon.taiwan) assert.ok(Math.abs(c.fx - 0.5) < 0.08, `taiwan ： at ${c.fx.toFixed(2)}`);
});

/** A text that puts each case at the head of a paragraph (no column break near it). */
const FEATURES = [
  '甲水，玉乙',
  '甲金。「石乙',
  '甲善。」「然乙',
  '子曰〖{專}顏淵〗好學，讀〖{書}論語〗，〖要在此〗。',
  '第12章，凡三3節。',
  '甲Hello world乙。',
  // 「 at the head of a column: modern (2 cells of indent, then 22 a column), siku (21 a column).
  '天'.repeat(22) + '「地」也。',
  '日'.repeat(21) + '「坤」也。',
  // Hanging: 22 + 。 after a full column.
  '玄'.repeat(22) + '。黃。',
  '哀〖{亡}張衡〗之亡，曰“天地”云‘日月’也。',
].join('\n\n');

/** The cell (from the grid's top, fractional) where a main-text glyph of the text layer starts. */
function cellOfItem(p: Printed, t: TextItem): number {
  const top = itemBox(t).y / PT - p.g.margins.recto.top - p.g.gridTop - (p.g.cellHeight - p.g.fontSize) / 2;
  return top / p.g.cellHeight;
}

const featureTree = (markdown = FEATURES): Root => treeOfMarkdown(`# 卷一\n\n${markdown}\n`, { template: 'modern', language: 'zh-Hans' });

/** The first glyph `ch` in the text layer, on whichever page. */
function find(p: Printed, ch: string): TextItem {
  const item = p.text.flat().find((t) => t.str.trim() === ch || (ch.length === 1 && t.str.includes(ch)));
  assert.ok(item, `${ch} in the text layer`);
  return item;
}

/** Cells from the glyph of `a` to that of `b` (text layer), less one. */
function between(p: Printed, a: string, b: string): number {
  const pa = p.text.findIndex((items) => items.some((t) => t.str === a));
  const ia = find(p, a);
  const ib = p.text[pa].find((t) => t.str === b);
  assert.ok(ib && Math.abs(ia.x - ib.x) < 1, `${a} and ${b} in one column`);
  return (ib.y - ia.y) / (p.g.cellHeight * PT) - 1;
}

/** Equal to within 0.06 cell: Chromium puts each element's glyphs on the CSS pixel grid (up to 0.04 cell apart here). */
function cellsEqual(got: number[], want: number[], what: string): void {
  assert.ok(got.length === want.length && got.every((g, i) => Math.abs(g - want[i]) <= 0.06), `${what}: ${got.map((g) => g.toFixed(3)).join(' ')} ≠ ${want.join(' ')}`);
}

test('widths from the text layer: one mark 1 cell, two adjacent 1.5, three 2; adjacent: 1 → 1 and 1.5; the rigid grid 2 and 3', async () => {
  const half = await print(featureTree(), 'modern', { standard: 'mainland' });
  cellsEqual([between(half, '水', '玉'), between(half, '金', '石'), between(half, '善', '然')], [1, 1.5, 2], 'mainland');
  const one = await print(featureTree(), 'modern', { standard: 'mainland', adjacent: 1, hanging: true });
  cellsEqual([between(one, '水', '玉'), between(one, '金', '石'), between(one, '善', '然')], [1, 1, 1.5], 'adjacent: 1');
  // Negative control: on the rigid grid every mark keeps its cell.
  const rigid = await print(featureTree(), 'siku', { standard: 'mainland' });
  cellsEqual([between(rigid, '水', '玉'), between(rigid, '金', '石'), between(rigid, '善', '然')], [1, 2, 3], 'rigid');

  // An opening bracket heading a column gives up its leading half: 地 half a cell below a column's top; on the rigid grid a whole cell.
  const headOf = (p: Printed, ch: string): number => cellOfItem(p, find(p, ch));
  cellsEqual([headOf(half, '地')], [0.5], 'head');
  cellsEqual([headOf(rigid, '坤')], [1], 'head, rigid');

  // Hanging: the 。 after a full column sits below the grid with hanging: true, inside it without.
  const stop = (p: Printed): number => {
    const items = p.text.find((page) => page.some((t) => t.str === '玄'))!;
    const xuan = items.filter((t) => t.str === '玄');
    const last = xuan[xuan.length - 1];
    const mark = items.find((t) => t.str === '。' && Math.abs(t.x + t.width / 2 - (last.x + last.width / 2)) < 0.3 * last.size && t.y > last.y)!;
    return cellOfItem(p, mark);
  };
  assert.ok(stop(one) >= half.g.cells - 0.3, `hanging: below the grid (cell ${stop(one).toFixed(2)})`);
  assert.ok(stop(half) < half.g.cells - 0.5, `not hanging: inside the grid (cell ${stop(half).toFixed(2)})`);

  // 縱中橫: 1 and 2 in one cell, 章 in the next; three digits too; four are rotated (not in one cell).
  const cellOf = (p: Printed, ch: string): number => Math.round(cellOfItem(p, find(p, ch)));
  assert.equal(cellOf(half, '1'), cellOf(half, '2'));
  assert.equal(cellOf(half, '章'), cellOf(half, '第') + 2);
  assert.equal(cellOf(half, '節'), cellOf(half, '3') + 1);
});

test('marks beside the text: 專名號 a straight line and 書名號 a wavy one left of the characters, 著重號 dots on the right; none without the marks', async () => {
  const marked = await print(featureTree(), 'modern', { standard: 'mainland' });
  const plain = await print(featureTree(FEATURES.replace(/〖(\{.\})?|〗/gu, '')), 'modern', { standard: 'mainland' });
  const bands = (p: Printed, chars: string, side: 'left' | 'right'): Array<ReturnType<typeof ink>> =>
    p.pages.flatMap((page, i) =>
      placed(page, p.g)
        .filter((x) => chars.includes(x.ch) && !x.note)
        .map((x) => {
          const em = p.g.fontSize * PT;
          const centre = x.box.x + x.box.w / 2;
          const band = side === 'left' ? { x: x.box.x, w: centre - em / 2 - x.box.x } : { x: centre + em / 2, w: x.box.x + x.box.w - centre - em / 2 };
          return ink(p, i, { ...x.box, ...band });
        }),
    );
  const proper = bands(marked, '顏淵', 'left');
  const book = bands(marked, '論語', 'left');
  const dots = bands(marked, '要在此', 'right');
  assert.ok(proper.every((b) => b.mass > 0) && book.every((b) => b.mass > 0) && dots.every((b) => b.mass > 0), 'ink beside every marked character');
  // 示亡號: a frame on both sides of the name.
  assert.ok([...bands(marked, '張衡', 'left'), ...bands(marked, '張衡', 'right')].every((b) => b.mass > 0), 'a frame round 張衡');
  // Straight vs wavy: the 書名號's ink is wider than the 專名號's rule.
  assert.ok(Math.min(...book.map((b) => b.w)) > Math.max(...proper.map((b) => b.w)), `wave ${book.map((b) => b.w)} vs rule ${proper.map((b) => b.w)}`);
  // Negative control: without 〖〗 nothing is beside those characters.
  for (const [chars, side] of [['顏淵', 'left'], ['論語', 'left'], ['要在此', 'right'], ['張衡', 'left'], ['張衡', 'right']] as const) {
    assert.ok(bands(plain, chars, side).every((b) => b.mass === 0), `${chars}: no mark`);
  }
});

/** Paragraphs putting each ending at every place near a column's end; some inside a note. */
function sweep(cells: number): string {
  const out: string[] = [];
  const endings = ['。', '，', '。」', '：「', '？」', '……', '——'];
  for (const ending of endings) {
    for (let lead = cells - 3; lead <= cells + 1; lead++) {
      out.push('天'.repeat(lead) + ending + '地玄黃宇宙洪荒。');
      out.push('經文' + '【' + '注'.repeat(2 * lead - 3) + ending + '日月盈昃，辰宿列張。】' + '文。');
    }
  }
  return out.join('\n\n');
}

const kinsokuInPdf = (p: Printed): number => kinsokuBreaksInPdf(p.pages, p.text, p.g);

test('禁則, read back from the PDF: a phase sweep of endings in main text and notes breaks it nowhere; set without 禁則 it breaks often', async () => {
  const tree = treeOfMarkdown(`# 卷一\n\n${sweep(22)}\n`, { template: 'modern', language: 'zh-Hans' });
  const modern = await print(tree, 'modern', { standard: 'mainland' });
  assert.ok(modern.pages.length > 10);
  assert.equal(kinsokuInPdf(modern), 0, 'modern, mainland');
  const rigid = await print(tree, 'siku', { standard: 'taiwan', hanging: true });
  assert.equal(kinsokuInPdf(rigid), 0, 'siku, Taiwan, hanging');
  // Negative control: the same text set with its marks as if they were ideographs.
  const spec = pageSpecFor('modern');
  spec.punctuation = { ...spec.punctuation!, standard: 'mainland' };
  const naive = await print(tree, 'modern', {}, withoutKinsoku(tree, spec));
  assert.ok(kinsokuInPdf(naive) > 10, `without 禁則: ${kinsokuInPdf(naive)} breaks`);
});

test('judou on 宋書 (first paragraphs): every character where the bare text puts it, page for page; one circle or dot per pause; none draws none', async () => {
  const md = chtxtMarkdown(CHTXT[0]).split('\n\n').slice(0, 8).join('\n\n');
  const judou = await print(treeOfMarkdown(md), 'siku');
  const bare = await print(treeOfMarkdown(bareText(md)), 'siku');
  const none = await print(treeOfMarkdown(md), 'siku', { standard: 'none' });
  assert.equal(judou.layout.spec.punctuation?.standard, 'judou');
  assert.equal(judou.text.length, bare.text.length, 'the same number of pages');
  assert.ok(judou.text.length >= 4);
  let compared = 0;
  judou.pages.forEach((page, i) => {
    const a = gridItems(judou.text[i], judou.g, page.side).filter((t) => !markOf(t.str.trim()));
    const b = gridItems(bare.text[i], bare.g, page.side);
    assert.equal(a.map((t) => t.str).join(''), b.map((t) => t.str).join(''), `page ${i + 1}: the same characters`);
    a.forEach((t, k) => assert.ok(Math.abs(t.x - b[k].x) < 0.1 && Math.abs(t.y - b[k].y) < 0.1, `page ${i + 1} ${t.str}: ${t.x},${t.y} vs ${b[k].x},${b[k].y}`));
    compared += a.length;
  });
  assert.ok(compared > 1000, `${compared} characters compared`);
  // Pauses: the region just outside the lower right corner of the character before each 。？！；，、：.
  const marksDrawn = (p: Printed): { pauses: number; inked: number; textLayer: number } => {
    let pauses = 0;
    let inked = 0;
    let textLayer = 0;
    p.pages.forEach((page, i) => {
      // Main text (between a note's sub-columns the region would hold the other sub-column's characters).
      for (const x of placed(page, p.g)) {
        if (x.note || !markOf(x.ch)?.judou || !x.before || markOf(x.before)) continue;
        pauses++;
        const em = (x.note ? p.g.noteSize : p.g.fontSize) * PT;
        const centre = x.box.x + x.box.w / 2;
        // Right of the em box (glyphs reach ±0.5 em), where the circle and the dot are (0.48–0.72 em), above the
        // place after the character (0.1 em above it, ±0.12 em): not below it, where the frame is under a column's last cell.
        const region = { x: centre + 0.53 * em, y: x.box.y - 0.55 * em, w: 0.3 * em, h: 0.52 * em };
        if (ink(p, i, region).mass > 0) inked++;
      }
      textLayer += p.text[i].reduce((n, t) => n + Array.from(t.str).filter((ch) => markOf(ch)?.judou).length, 0);
    });
    return { pauses, inked, textLayer };
  };
  const j = marksDrawn(judou);
  assert.ok(j.pauses > 100, `${j.pauses} pauses`);
  assert.equal(j.inked, j.pauses, 'a circle or dot for every pause');
  assert.ok(j.textLayer >= j.pauses, 'the marks stay in the text layer');
  // Negative control: `none` draws nothing there (the marks are still in the text layer).
  const n = marksDrawn(none);
  assert.equal(n.inked, 0);
  assert.ok(n.textLayer >= n.pauses);
});

test('curly quotes in vertical text are corner brackets (﹃﹄﹁﹂), the text layer keeps “”‘’; the font alone draws no corner', async () => {
  const drawn = await print(featureTree(), 'modern', { standard: 'mainland' });
  // Negative control: the same layout with the quotes printed as plain characters (the font's own vertical form).
  const raw = structuredClone(drawn.layout);
  for (const page of raw.volumes.flatMap((v) => v.pages)) for (const c of page.columns) for (const r of c.runs) if (r.type === 'text' && /[“”‘’]/u.test(r.text)) r.style = 'glyph';
  const plain = await print(featureTree(), 'modern', {}, raw);
  const quotes = (p: Printed): Array<{ ch: string; at: ReturnType<typeof ink> }> =>
    p.pages.flatMap((page, i) => placed(page, p.g).filter((x) => '“”‘’'.includes(x.ch)).map((x) => ({ ch: x.ch, at: ink(p, i, x.box) })));
  const q = quotes(drawn);
  assert.equal(q.length, 4);
  for (const { ch, at } of q) {
    assert.ok(at.mass > 0 && at.w > 1.5 * at.h, `${ch}: a corner bracket lies across the column (${at.w}×${at.h})`);
    assert.ok('“‘'.includes(ch) ? at.cy > 0.5 : at.cy < 0.5, `${ch}: opening low in its cell, closing high (${at.cy.toFixed(2)})`);
  }
  const text = drawn.text.flat().map((t) => t.str).join('');
  for (const ch of '“”‘’') assert.ok(text.includes(ch), `${ch} in the text layer`);
  assert.ok(quotes(plain).every(({ at }) => !(at.w > 1.5 * at.h)), 'the font draws the curly quotes, no corners');
});

test('tracking (疏排, 紧排): the pitch of the characters is (1 + tracking) em; the template keeps its own', async () => {
  const tree = featureTree('天地玄黃宇宙洪荒日月盈昃辰宿列張');
  const ratio = async (tracking?: number): Promise<number> => {
    const spec = pageSpecFor('modern');
    spec.punctuation = { ...spec.punctuation!, standard: 'mainland' };
    if (tracking !== undefined) spec.tracking = tracking;
    const p = await print(tree, 'modern', {}, layoutBook(tree, spec));
    const items = gridItems(p.text[0], p.g, 'recto').filter((t) => '天地玄黃宇宙洪荒'.includes(t.str));
    return (items[items.length - 1].y - items[0].y) / (items.length - 1) / items[0].size;
  };
  const wide = await ratio(0.3);
  const tight = await ratio(-0.05);
  const plain = await ratio();
  assert.ok(Math.abs(wide - 1.3) < 0.02, `疏排: ${wide.toFixed(3)}`);
  assert.ok(Math.abs(tight - 0.95) < 0.02, `紧排: ${tight.toFixed(3)}`);
  // Negative control: without tracking the template's size (0.88 of the cell).
  assert.ok(Math.abs(plain - 1 / 0.88) < 0.02, `template: ${plain.toFixed(3)}`);
});
