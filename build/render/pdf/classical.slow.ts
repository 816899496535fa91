/**
 * The classical page in the printed PDF, read back: labels the source
 * prints (六藝綱目's 27 【附注】, 陰文 in the 四庫 template), 抬頭 above the
 * frame, 眉批 in the top margin and 側批 in the gutters, 圈點 and ruby beside
 * the text (clreq 5.5.3, 5.5.6, 5.5.7), a seal, and `layout: source` on the
 * Kanripo 儀禮注疏. Positions from the text layer (pdf.js), ink from pages
 * rasterised by poppler. Each has a negative control: the same text without
 * the mark, the label, the seal, or the source layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { visit, SKIP } from 'unist-util-visit';
import { chromiumForTests } from './test-chromium.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import type { BookLayout, Page } from '../../layout/types.js';
import type { PlannedPage } from './html.js';
import type { EditionConfig } from '../../tree/edition.js';
import type { Inline, Parent, Root } from '../../tree/types.js';
import { cellBox, noteBox, type PageGeometry } from './geometry.js';
import { slotsOf } from './cells.js';
import { cepiMetrics } from './margins.js';
import { centre, decodeGreyPng, itemBox, readPdfText, snapshotPng, type GreyImage, type PtBox, type TextItem } from './readback.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PT = 72 / 25.4;
const { work, browser } = chromiumForTests('diaoban-classical-test-');

interface Printed {
  bytes: Uint8Array;
  planned: PlannedPage[];
  path: string;
  layout: BookLayout;
  pages: Page[];
  text: TextItem[][];
  g: PageGeometry;
  grey: (page: number, dpi?: number) => GreyImage;
}

let serial = 0;
async function print(tree: Root, config: EditionConfig, template = config.meta.template): Promise<Printed> {
  // The book's own pages (cover, title page, 牌記: book-parts.test.ts) left out: PDF page i is the layout's page i.
  const c: EditionConfig = { ...config, meta: { ...config.meta, id: `classical-${++serial}`, template }, book: undefined };
  const layout = layoutBook(tree, pageSpecFor(template, c.layout));
  const { bytes, planned } = await buildPdf(layout, c, { browser });
  const path = join(work, `${c.meta.id}.pdf`);
  writeFileSync(path, bytes);
  const { options } = await renderOptionsFor(layout, c);
  const cache = new Map<string, GreyImage>();
  return {
    bytes,
    path,
    layout,
    planned,
    pages: layout.volumes.flatMap((v) => v.pages),
    text: await readPdfText(bytes),
    g: options.geometry,
    grey: (page, dpi = 144) => {
      const key = `${page}@${dpi}`;
      if (!cache.has(key)) cache.set(key, decodeGreyPng(snapshotPng(path, page + 1, dpi)));
      return cache.get(key)!;
    },
  };
}

async function edition(id: string): Promise<{ tree: Root; config: EditionConfig }> {
  const { tree, config } = await loadEdition(join(ROOT, 'manuscript', id), { allowRead: [join(ROOT, '..', 'shared')] });
  assert.ok(config, id);
  return { tree, config };
}

/** A copy of the tree with some nodes taken out (their children kept in place), and labels dropped when asked. */
function without(tree: Root, types: ReadonlySet<string>, labels = false): Root {
  const copy = structuredClone(tree);
  visit(copy, (node, index, parent) => {
    const n = node as Inline & { label?: string };
    if (labels && 'label' in n) delete n.label;
    if (parent && index !== undefined && types.has(n.type)) {
      const kids = 'children' in n && n.type !== 'annotation' ? (n.children as Inline[]) : [];
      (parent as Parent).children.splice(index, 1, ...(kids as never[]));
      return [SKIP, index];
    }
    return undefined;
  });
  return copy;
}

const pageText = (p: Printed): string => p.text.map((items) => items.map((i) => i.str.trim()).join('')).join('\n');
const count = (s: string, re: RegExp): number => (s.match(re) ?? []).length;

/** A box (mm, page-area coordinates) in points on the page. */
function toPt(g: PageGeometry, page: Page, b: { x: number; y: number; w: number; h: number }): PtBox {
  const m = g.margins[page.side];
  return { x: (m.left + b.x) * PT, y: (m.top + b.y) * PT, w: b.w * PT, h: b.h * PT };
}

/** Mean darkness (0 white … 1 black) of a box on a grey raster at `dpi`. */
function darkness(img: GreyImage, box: PtBox, dpi: number): number {
  const s = dpi / 72;
  let sum = 0;
  let n = 0;
  for (let y = Math.round(box.y * s); y < Math.round((box.y + box.h) * s); y++) {
    for (let x = Math.round(box.x * s); x < Math.round((box.x + box.w) * s); x++) {
      sum += 255 - img.pixels[y * img.width + x];
      n++;
    }
  }
  return n ? sum / n / 255 : 0;
}

/** The note characters of a page set in a style (a label), with their boxes. */
function noteGlyphs(page: Page, g: PageGeometry, pick: (style: string | undefined) => boolean): Array<{ ch: string; box: PtBox }> {
  const out: Array<{ ch: string; box: PtBox }> = [];
  for (const column of page.columns) {
    for (const run of column.runs) {
      if (run.type !== 'note') continue;
      for (const [side, segs] of [['right', run.right], ['left', run.left]] as const) {
        let at = run.start;
        for (const seg of segs) {
          for (const x of slotsOf(at, seg.text, seg.advances)) {
            if (pick(seg.style)) {
              const b = noteBox(g, page.side, column.index, side, 0);
              // The glyph's own square, centred in its half cell.
              const inset = (b.w - g.noteSize) / 2;
              out.push({ ch: x.ch, box: toPt(g, page, { x: b.x + inset, y: b.y + x.at * g.cellHeight + (g.cellHeight - g.noteSize) / 2, w: g.noteSize, h: g.noteSize }) });
            }
            at = x.at + x.advance;
          }
        }
      }
    }
  }
  return out;
}

test('六藝綱目: all 27 【附注】 labels in print — 〔附注〕 in the modern template, 陰文 boxes in the 四庫 one', async () => {
  const { tree, config } = await edition('liuyi-gangmu');
  const modern = await print(tree, config, 'modern');
  assert.equal(count(pageText(modern), /〔附注〕/gu), 27);
  const siku = await print(tree, config, 'siku');
  // 27 labels and the byline 趙宜中附注.
  assert.equal(count(pageText(siku), /附注/gu), 28);
  // 陰文: each label character white in a black box; the note characters beside it black on white.
  let boxes = 0;
  siku.pages.forEach((page, i) => {
    const labels = noteGlyphs(page, siku.g, (s) => s === 'label');
    if (labels.length === 0) return;
    const img = siku.grey(planIndex(siku, page), 144);
    for (const l of labels) {
      assert.ok(darkness(img, l.box, 144) > 0.6, `page ${i + 1} ${l.ch}: a black box (${darkness(img, l.box, 144).toFixed(2)})`);
      boxes++;
    }
    for (const n of noteGlyphs(page, siku.g, (s) => s === undefined).slice(0, 3)) assert.ok(darkness(img, n.box, 144) < 0.4, `page ${i + 1} ${n.ch} is black on white`);
  });
  assert.equal(boxes, 54, 'two characters a label');
  // Negative control: the same book without the labels the source prints has none.
  const bare = await print(without(tree, new Set(), true), config, 'siku');
  assert.equal(count(pageText(bare), /附注/gu), 1);
  assert.equal(bare.pages.flatMap((pg) => noteGlyphs(pg, bare.g, (s) => s === 'label')).length, 0);
});

/** The PDF page index of a laid-out page (blank pages, and the book's own, may come between). */
function planIndex(p: Printed, page: Page): number {
  return p.planned.findIndex((x) => x.page === page);
}

/** Text items of a PDF page that are `ch`. */
const glyphs = (p: Printed, index: number, ch: string): TextItem[] => p.text[index].filter((t) => t.str.trim() === ch);

const ANNOTATIONS = new Set(['raise', 'annotation', 'mark']);

test('評點本 sample, 四庫 template: 抬頭 above the frame, 眉批 in the top margin, 側批 in the gutter, 圈點 beside the characters, a red seal; reproducible', async () => {
  const { tree, config } = await edition('pingdian');
  const p = await print(tree, config, 'siku');
  const bare = await print(without(tree, ANNOTATIONS), { ...config, seals: undefined }, 'siku');
  const g = p.g;
  const first = p.pages[0];
  const m = g.margins[first.side];
  const gridTop = (m.top + g.gridTop) * PT;
  const cell = g.cellHeight * PT;
  // 抬頭: 皇 (雙抬) two cells above the grid's top, 御 (單抬) one: in the top margin, above the frame.
  for (const [ch, level] of [['皇', 2], ['御', 1]] as const) {
    const [item] = glyphs(p, 0, ch);
    assert.ok(item, ch);
    const c = centre(itemBox(item));
    assert.ok(Math.abs(c.y - (gridTop - level * cell + cell / 2)) < 0.25 * cell, `${ch} centred ${level} cells above the grid: ${c.y} vs ${gridTop - level * cell + cell / 2}`);
    assert.ok(c.y < m.top * PT, `${ch} above the page area`);
    const [plain] = glyphs(bare, 0, ch);
    assert.ok(centre(itemBox(plain)).y > gridTop, `negative control: without 抬頭 ${ch} is in the grid`);
  }
  // 眉批: its characters above the page area, over the half column their lane says.
  let meipi = 0;
  p.pages.forEach((page, i) => {
    for (const a of page.annotations ?? []) {
      if (a.kind !== 'meipi') continue;
      for (const piece of a.pieces) {
        const ch = Array.from(piece.text)[0];
        const item = glyphs(p, planIndex(p, page), ch).find((t) => centre(itemBox(t)).y < g.margins[page.side].top * PT);
        assert.ok(item, `page ${i + 1}: 眉批 ${piece.text} in the top margin`);
        const col = toPt(g, page, cellBox(g, page.side, piece.column, 0));
        const x = centre(itemBox(item)).x;
        const half = (piece.lane ?? 0) % 2 === 0 ? [col.x + col.w / 2, col.x + col.w] : [col.x, col.x + col.w / 2];
        assert.ok(x > half[0] && x < half[1], `page ${i + 1}: 眉批 ${piece.text} over its half column`);
        meipi++;
      }
    }
  });
  assert.ok(meipi >= 5, `${meipi} 眉批 lanes`);
  // Every character of the 眉批, once and in order: the text layer above the page area is theirs.
  p.pages.forEach((page, i) => {
    const above = p.text[planIndex(p, page)].filter((t) => centre(itemBox(t)).y < g.margins[page.side].top * PT && centre(itemBox(t)).y > 0);
    const want = (page.annotations ?? []).filter((a) => a.kind === 'meipi').flatMap((a) => a.pieces.map((x) => x.text)).join('');
    const raised = page.columns.filter((c) => c.raise).length;
    if (raised === 0) assert.equal(above.map((t) => t.str.trim()).join(''), want, `page ${i + 1}`);
  });
  // 側批: small characters in the gutter left of their column's type, beside the characters after their anchor.
  const cepiSize = cepiMetrics(g).size * PT;
  let cepi = 0;
  p.pages.forEach((page) => {
    for (const a of page.annotations ?? []) {
      if (a.kind !== 'cepi') continue;
      for (const piece of a.pieces) {
        const col = toPt(g, page, cellBox(g, page.side, piece.column, 0));
        const typeLeft = col.x + (col.w - g.fontSize * PT) / 2;
        const items = Array.from(piece.text).map((ch) => glyphs(p, planIndex(p, page), ch).find((t) => t.size < 0.6 * g.fontSize * PT && centre(itemBox(t)).x > col.x && centre(itemBox(t)).x < typeLeft));
        assert.ok(items.every(Boolean), `側批 ${piece.text} in the gutter`);
        const y = centre(itemBox(items[0]!)).y;
        const want = (g.margins[page.side].top + g.gridTop + (piece.start + 0.25) * g.cellHeight) * PT;
        assert.ok(Math.abs(y - want) < 0.2 * cell, `側批 ${piece.text} at its place (${y} vs ${want})`);
        assert.ok(Math.abs(items[0]!.size - cepiSize) < 0.5);
        cepi++;
      }
    }
  });
  assert.ok(cepi >= 3, `${cepi} 側批`);
  // Negative control: the same pages without annotations have nothing in the top margin and no small type in a left gutter.
  bare.pages.forEach((page, i) => {
    assert.equal(bare.text[i].filter((t) => centre(itemBox(t)).y < bare.g.margins[page.side].top * PT).length, 0);
  });
  // 圈點: ink right of each marked character (○ ◎ 、 ●), none right of the same characters unmarked.
  const beside = (q: Printed, page: number, ch: string): number => {
    const item = glyphs(q, page, ch)[0];
    assert.ok(item, ch);
    const b = itemBox(item);
    // Right of the glyph, the middle half of its cell (句讀 sit at the cell's corner).
    return darkness(q.grey(page, 216), { x: b.x + b.w + 0.05 * b.w, y: b.y + 0.25 * b.h, w: 0.3 * b.w, h: 0.5 * b.h }, 216);
  };
  const markedPage = p.pages.findIndex((pg) => pg.columns.some((c) => c.runs.some((r) => r.type === 'text' && r.mark?.kind === 'circle')));
  for (const ch of ['銜', '吞']) {
    assert.ok(beside(p, markedPage, ch) > 0.02, `○ beside ${ch}`);
    assert.ok(beside(bare, markedPage, ch) < 0.005, `negative control: nothing beside ${ch}`);
  }
  const lastPage = p.pages.length - 1;
  for (const ch of ['先', '物']) {
    assert.ok(beside(p, lastPage, ch) > 0.02, `圈點 beside ${ch}`);
  }
  // Ruby in the 四庫 template's gutter too: 注音 beside its characters, the gloss centred on its word.
  assert.equal(checkZhuyin(p), 3);
  const gloss = glossInk(p);
  assert.ok(gloss.mass > 0 && Math.abs(gloss.y - gloss.want) < 0.2 * gloss.cell, `the gloss centred on its word: ${gloss.y} vs ${gloss.want}`);
  assert.equal(glossInk(bare, p).mass, 0, 'negative control: no gloss');
  // The seal: red ink over the first page's text (文淵閣寶 over its head), the type still dark beneath it.
  const red = (q: Printed): { red: number; darkUnder: number } => {
    const base = join(work, `seal-${serial}`);
    execFileSync('pdftoppm', ['-r', '72', '-png', '-f', '1', '-l', '1', '-singlefile', q.path, base]);
    const png = PNG.sync.read(readFileSync(`${base}.png`));
    let reds = 0;
    let darkUnder = 0;
    for (let i = 0; i < png.width * png.height; i++) {
      const [r, gg, b] = [png.data[4 * i], png.data[4 * i + 1], png.data[4 * i + 2]];
      if (r > 140 && gg < 90 && b < 90) reds++;
      // Multiplied: where type lies under the seal, darker than the seal's red.
      if (r < 90 && gg < 40 && b < 40 && r > gg + 15) darkUnder++;
    }
    return { red: reds, darkUnder };
  };
  const withSeal = red(p);
  assert.ok(withSeal.red > 500, `${withSeal.red} red pixels`);
  assert.ok(withSeal.darkUnder > 20, `${withSeal.darkUnder} pixels of type under the seal`);
  assert.equal(red(bare).red, 0, 'negative control: no seal, no red');
  // Reproducible: the same edition printed again is the same bytes.
  const again = await print(tree, config, 'siku');
  assert.ok(Buffer.from(again.bytes).equals(Buffer.from(p.bytes)), 'byte-identical');
});

/** 注音 read back: each reading's symbols right of its character, within its cell, stacked and centred; the tone mark right of the last symbol. Returns how many readings. */
function checkZhuyin(p: Printed): number {
  const g = p.g;
  let checked = 0;
  p.pages.forEach((page, i) => {
    for (const column of page.columns) {
      for (const run of column.runs) {
        if (run.type !== 'text' || !run.mark?.readings) continue;
        const readings: readonly string[] = run.mark.readings;
        for (const [k, slot] of slotsOf(run.start, run.text, run.advances).entries()) {
          const reading: string = readings[k] ?? '';
          if (!reading) continue;
          const col = toPt(g, page, cellBox(g, page.side, column.index, 0));
          const typeRight = col.x + (col.w + g.fontSize * PT) / 2;
          const top = col.y + slot.at * g.cellHeight * PT;
          const bottom = top + g.cellHeight * PT;
          const symbols: string[] = Array.from(reading).filter((c) => /[\u3105-\u312f]/u.test(c));
          const items: Array<TextItem | undefined> = symbols.map((s) => p.text[i].find((t) => t.str.trim() === s && centre(itemBox(t)).x > typeRight && centre(itemBox(t)).x < col.x + col.w && centre(itemBox(t)).y > top && centre(itemBox(t)).y < bottom));
          assert.ok(items.every(Boolean), `page ${i + 1} ${slot.ch}: ${reading} right of the character, within its cell`);
          // Stacked top to bottom, centred on the character's cell.
          const ys: number[] = items.map((t) => centre(itemBox(t!)).y);
          assert.deepEqual([...ys].sort((a, b) => a - b), ys);
          const mid = (ys[0] + ys[ys.length - 1]) / 2;
          assert.ok(Math.abs(mid - (top + bottom) / 2) < 0.15 * g.cellHeight * PT, `${reading} centred on ${slot.ch}`);
          const tone = Array.from(reading).find((c) => /[ˊˇˋ]/u.test(c));
          if (tone) {
            const t = p.text[i].find((x) => x.str.trim() === tone && centre(itemBox(x)).y > top && centre(itemBox(x)).y < bottom);
            assert.ok(t, `the tone mark of ${reading}`);
            const last = items[items.length - 1]!;
            assert.ok(centre(itemBox(t)).x > centre(itemBox(last)).x, 'the tone mark right of the last symbol');
            assert.ok(Math.abs(centre(itemBox(t)).y - centre(itemBox(last)).y) < itemBox(last).h, 'beside the last symbol');
          }
          checked++;
        }
      }
    }
  });
  return checked;
}

/** A gloss read back: its ink in the gutter right of its word, centred on the word's span; the ink's mass there. */
function glossInk(p: Printed, layout: Printed = p): { mass: number; y: number; want: number; cell: number } {
  const g = p.g;
  const pageOf = layout.pages.findIndex((pg) => pg.columns.some((c) => c.runs.some((r) => r.type === 'text' && r.mark?.ruby)));
  const page = layout.pages[pageOf];
  const column = page.columns.find((c) => c.runs.some((r) => r.type === 'text' && r.mark?.ruby))!;
  const run = column.runs.find((r) => r.type === 'text' && r.mark?.ruby)!;
  const col = toPt(g, page, cellBox(g, page.side, column.index, 0));
  const span = { y: col.y + run.start * g.cellHeight * PT, h: Array.from(run.type === 'text' ? run.text : '').length * g.cellHeight * PT };
  // The word's span in the gutter, clear of the column's rule and short of the foot of its last cell (where a 句讀 mark after the word sits).
  const gutter = { x: col.x + (col.w + g.fontSize * PT) / 2 + 0.3, y: span.y, w: (col.w - g.fontSize * PT) / 2 - 1.5, h: span.h - 0.4 * g.cellHeight * PT };
  const inkCentre = (q: Printed): { mass: number; y: number } => {
    const img = q.grey(pageOf, 216);
    const s = 216 / 72;
    let mass = 0;
    let sy = 0;
    for (let y = Math.round(gutter.y * s); y < Math.round((gutter.y + gutter.h) * s); y++) {
      for (let x = Math.round(gutter.x * s); x < Math.round((gutter.x + gutter.w) * s); x++) {
        const d = 255 - img.pixels[y * img.width + x];
        if (d < 96) continue;
        mass += d;
        sy += d * y;
      }
    }
    return { mass, y: mass ? sy / mass / s : NaN };
  };
  const gloss = inkCentre(p);
  return { ...gloss, want: span.y + span.h / 2, cell: g.cellHeight * PT };
}

test('評點本 sample, modern template: 注音 beside each character with its tone mark to the right (clreq 5.5.3), a gloss centred along its word (5.5.6), 側批 left of the text (5.5.7)', async () => {
  const { tree, config } = await edition('pingdian');
  const p = await print(tree, config, 'modern');
  const bare = await print(without(tree, ANNOTATIONS), { ...config, seals: undefined }, 'modern');
  const g = p.g;
  assert.equal(checkZhuyin(p), 3, 'ㄕㄤ ㄕㄤ and ㄧㄣˊ');
  // Negative control: without the ruby no 注音 is printed.
  assert.ok(!/[\u3105-\u312f]/u.test(pageText(bare)));
  const gloss = glossInk(p);
  assert.ok(gloss.mass > 0, 'the gloss is printed');
  assert.ok(Math.abs(gloss.y - gloss.want) < 0.2 * gloss.cell, `centred on 岳陽樓: ${gloss.y} vs ${gloss.want}`);
  assert.equal(glossInk(bare, p).mass, 0, 'negative control: no gloss, no ink there');
  // 側批 left of the text in this template too.
  const cepi = p.pages.flatMap((pg) => (pg.annotations ?? []).filter((a) => a.kind === 'cepi'));
  assert.ok(cepi.length >= 3);
  const [firstCepi] = cepi;
  const cepiPage = p.pages.findIndex((pg) => pg.annotations?.some((a) => a === firstCepi));
  const piece = firstCepi.pieces[0];
  const pc = toPt(g, p.pages[cepiPage], cellBox(g, p.pages[cepiPage].side, piece.column, 0));
  const item = glyphs(p, cepiPage, Array.from(piece.text)[0]).find((t) => t.size < 0.6 * g.fontSize * PT);
  assert.ok(item && centre(itemBox(item)).x < pc.x + (pc.w - g.fontSize * PT) / 2, '側批 left of its column\'s type');
});

test('layout: source on the Kanripo 儀禮注疏 卷五: one PDF page a <pb:>, each page and column headed by the characters after its marker and after each ¶', async () => {
  const raw = readFileSync(join(ROOT, '..', 'shared', 'corpora', 'kanripo-KR1d0028-WYG-juan05.txt'), 'utf8');
  const dir = mkdtempSync(join(work, 'wyg-'));
  writeFileSync(join(dir, 'juan05.txt'), raw);
  writeFileSync(join(dir, 'edition.yaml'), 'title: 儀禮注疏\nauthor: 鄭玄\ntemplate: siku\nlayout: source\nsources:\n  - juan05.txt\n');
  const { tree, config } = await loadEdition(dir);
  assert.ok(config?.layout.source);
  const p = await print(tree, config);
  const heads: string[][] = [];
  for (const line of raw.split('\n')) {
    if (/^<pb:[^>]+>¶?$/u.test(line)) heads.push([]);
    else if (line.endsWith('¶') && heads.length > 0) heads[heads.length - 1].push(/[\p{Script=Han}○□]/u.exec(line.replace(/&[A-Za-z0-9]+;/gu, '〓'))?.[0] ?? '');
  }
  assert.equal(heads.length, 66);
  assert.equal(p.text.length, 66, 'one PDF page a <pb:> marker');
  const read = readHeads(p);
  assert.deepEqual(read, heads);
  // Negative control: printed on the template's grid, the pages are not the source's.
  const grid = await print(tree, { ...config, layout: {} });
  assert.notEqual(grid.text.length, 66);
  assert.notDeepEqual(readHeads(grid).slice(0, 10), heads.slice(0, 10));
});

/** The first character of each column of each PDF page, read back: the topmost glyph of the column's box (its right sub-column first). */
function readHeads(p: Printed): string[][] {
  return p.text.map((items, i) => {
    const page = p.pages[i] ?? p.pages[0];
    const side = page.side;
    const heads: string[] = [];
    for (let c = 0; c < p.g.columns; c++) {
      const box = toPt(p.g, page, cellBox(p.g, side, c, 0));
      const inColumn = items.filter((t) => {
        const x = centre(itemBox(t)).x;
        return x > box.x && x < box.x + box.w && centre(itemBox(t)).y > box.y - 0.1 * box.h;
      });
      if (inColumn.length === 0) continue;
      inColumn.sort((a, b) => itemBox(a).y - itemBox(b).y || centre(itemBox(b)).x - centre(itemBox(a)).x);
      const top = itemBox(inColumn[0]).y;
      // Main type and a note's right sub-column can both head a column: the right one is read first.
      const first = inColumn.filter((t) => itemBox(t).y < top + 0.5 * box.h).sort((a, b) => centre(itemBox(b)).x - centre(itemBox(a)).x)[0];
      heads.push(Array.from(first.str.trim())[0] ?? '');
    }
    return heads;
  });
}
