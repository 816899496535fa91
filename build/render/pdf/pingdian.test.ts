/**
 * 評點 marks told apart, read back from a raster: 圈 ○, 雙圈 ◎, 重 ● and
 * 頓 、 beside the middle of each character; 句號 (a small circle) and 讀點
 * (a small dot) by the lower right corner of the character before them. Each
 * mark's ink lies in its own box (never in another's), a 圈 is larger than a
 * 句號, a ● larger than a 讀點, ◎ a ring round a ring, ○ an empty ring.
 * Negative controls: the same characters without marks leave every box
 * blank, and two marks of one kind measure alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumForTests } from './test-chromium.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import type { Page, TextRun } from '../../layout/types.js';
import { cellBox, type PageGeometry } from './geometry.js';
import { decodeGreyPng, snapshotPng, type GreyImage } from './readback.js';

const DPI = 400;
const { work, browser } = chromiumForTests('diaoban-pingdian-test-');

let serial = 0;
async function print(source: string): Promise<{ page: Page; g: PageGeometry; image: GreyImage }> {
  const dir = join(work, `e${++serial}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'juan.md'), source);
  writeFileSync(join(dir, 'edition.yaml'), 'title: 圈點\nauthor: 試\nlanguage: zh-Hant\nscript: traditional\ntemplate: siku\ndate: 2026-01-01\nsources: [juan.md]\nbook: { cover: false, title-page: false, colophon: false }\n');
  const { tree, config } = await loadEdition(dir);
  assert.ok(config);
  const layout = layoutBook(tree, pageSpecFor('siku', config.layout));
  const { bytes } = await buildPdf(layout, config, { browser });
  writeFileSync(join(dir, 'out.pdf'), bytes);
  const { options } = await renderOptionsFor(layout, config);
  return { page: layout.volumes[0].pages[0], g: options.geometry, image: decodeGreyPng(snapshotPng(join(dir, 'out.pdf'), 1, DPI)) };
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Each main character of the page (marks that take no place left out) with its cell box in raster pixels. */
function cells(p: { page: Page; g: PageGeometry }): Array<{ ch: string; box: Box; next?: string }> {
  const s = DPI / 25.4;
  const m = p.g.margins[p.page.side];
  const out: Array<{ ch: string; box: Box; next?: string }> = [];
  for (const column of p.page.columns) {
    for (const run of column.runs as TextRun[]) {
      let at = run.start;
      Array.from(run.text).forEach((ch, i) => {
        const adv = run.advances?.[i] ?? 1;
        if (adv === 0) {
          if (out.length) out[out.length - 1].next = ch;
          return;
        }
        const b = cellBox(p.g, p.page.side, column.index, at);
        out.push({ ch, box: { x0: (m.left + b.x) * s, y0: (m.top + b.y) * s, x1: (m.left + b.x + b.w) * s, y1: (m.top + b.y + b.h) * s } });
        at += adv;
      });
    }
  }
  return out;
}

/** The ink of a box: its bounding box, its pixel count, and whether its middle is blank (a ring) or inked. */
function inkIn(img: GreyImage, b: Box): { n: number; w: number; h: number; edge: boolean; hollow: boolean; cx: number; cy: number } {
  let [x0, y0, x1, y1, n] = [Infinity, Infinity, -1, -1, 0];
  let edge = false;
  const X0 = Math.round(b.x0);
  const X1 = Math.round(b.x1);
  const Y0 = Math.round(b.y0);
  const Y1 = Math.round(b.y1);
  for (let y = Y0; y < Y1; y++) {
    for (let x = X0; x < X1; x++) {
      if (img.pixels[y * img.width + x] >= 128) continue;
      n++;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
      if (x === X0 || x === X1 - 1 || y === Y0 || y === Y1 - 1) edge = true;
    }
  }
  const cx = Math.round((x0 + x1) / 2);
  const cy = Math.round((y0 + y1) / 2);
  const hollow = n > 0 && img.pixels[cy * img.width + cx] >= 128;
  return { n, w: x1 - x0 + 1, h: y1 - y0 + 1, edge, hollow, cx, cy };
}

/**
 * The two boxes a character's marks may use, right of its type (the column's gutter, short of the rule): beside
 * its middle (圈點) and by its lower right corner, reaching into the gap before the next character (句讀).
 */
function markBoxes(c: { box: Box }, g: PageGeometry): { side: Box; corner: Box } {
  const s = DPI / 25.4;
  const typeRight = (c.box.x0 + c.box.x1) / 2 + (g.fontSize / 2) * s;
  const em = g.fontSize * s;
  const edge = c.box.x1 - 0.15 * s;
  const mid = (c.box.y0 + c.box.y1) / 2;
  return {
    side: { x0: typeRight + 0.04 * em, x1: edge, y0: mid - 0.25 * em, y1: mid + 0.25 * em },
    corner: { x0: typeRight + 0.015 * em, x1: edge, y0: mid + 0.36 * em, y1: mid + 0.72 * em },
  };
}

const SOURCE = '# 卷一\n\n〖{圈}甲乙〗。〖{雙圈}丙丁〗，〖{重}戊己〗。〖{頓}庚辛〗，壬癸。\n';

test('評點: 圈, 雙圈, 重, 頓 beside the middle of each character, 句號 and 讀點 by its lower right corner, each its own shape, none in another\'s place', async () => {
  const marked = await print(SOURCE);
  const plain = await print(SOURCE.replace(/〖\{[^}]+\}|〗/g, '').replace(/[。，]/g, ''));
  const kinds: Record<string, string> = { 甲: 'circle', 乙: 'circle', 丙: 'double', 丁: 'double', 戊: 'heavy', 己: 'heavy', 庚: 'sesame', 辛: 'sesame' };
  const side = new Map<string, ReturnType<typeof inkIn>>();
  const corner = new Map<string, ReturnType<typeof inkIn>>();
  for (const c of cells(marked)) {
    const boxes = markBoxes(c, marked.g);
    const s = inkIn(marked.image, boxes.side);
    const k = inkIn(marked.image, boxes.corner);
    side.set(c.ch, s);
    corner.set(c.ch, k);
    // Each mark whole inside its own box: nothing crosses into the other.
    assert.equal(s.edge, false, `${c.ch}: the mark beside it stays in its box`);
    assert.equal(k.edge, false, `${c.ch}: the corner mark stays in its box`);
    assert.equal(s.n > 0, c.ch in kinds, `${c.ch}: ${c.ch in kinds ? 'a 圈點 beside it' : 'nothing beside it'}`);
    assert.equal(k.n > 0, c.next !== undefined, `${c.ch}: ${c.next ?? 'no mark'} at its corner`);
  }
  // Negative control: without the marks every box is blank (the boxes hold no part of the type or the rules).
  for (const c of cells(plain)) {
    const boxes = markBoxes(c, plain.g);
    assert.equal(inkIn(plain.image, boxes.side).n + inkIn(plain.image, boxes.corner).n, 0, `${c.ch}: blank without marks`);
  }
  const size = (i: { w: number; h: number }): number => Math.max(i.w, i.h);
  const [circle, double, heavy, sesame] = ['甲', '丙', '戊', '庚'].map((ch) => side.get(ch)!);
  const [ju, du] = [corner.get('乙')!, corner.get('丁')!];
  // Two marks of a kind measure alike (control); ○ against 句號's circle, ● against 讀點's dot: larger by a quarter at least.
  assert.ok(Math.abs(size(side.get('乙')!) - size(circle)) <= 2, 'two 圈 alike');
  assert.ok(size(circle) >= 1.25 * size(ju), `圈 ${size(circle)} px against 句號 ${size(ju)} px`);
  assert.ok(size(heavy) >= 1.25 * size(du), `● ${size(heavy)} px against 讀點 ${size(du)} px`);
  // Shapes: ○ and 句號 hollow rings, ◎ a ring with ink at its middle (the inner ring's), ● and 讀點 solid, 、 long and thin.
  assert.ok(circle.hollow && ju.hollow, 'rings');
  assert.ok(!heavy.hollow && !du.hollow, 'dots');
  assert.ok(size(double) > size(circle) && double.n > 1.4 * circle.n, `◎ (${double.n} px of ink) a ring round a ring, more ink than ○ (${circle.n})`);
  // 、 is a stroke, not a disc: it fills less of its ink box than ● does (a disc: π/4).
  const fill = (i: { n: number; w: number; h: number }): number => i.n / (i.w * i.h);
  assert.ok(fill(heavy) > 0.72 && fill(sesame) < 0.66, `頓 fills ${fill(sesame).toFixed(2)} of its box, ● ${fill(heavy).toFixed(2)}`);
});
