/**
 * The 四庫 hand, read back: the 四庫 template prints its text in TW-Kai
 * (全字庫正楷體), whose 曰 is wide and 日 tall, and whose 己/已/巳 and
 * 戊/戌/戍 differ in ink; the modern template prints Noto Serif CJK, whose
 * 曰 and 日 are all but the same shape (the negative control). An edition's
 * face for one layer (fonts.zhu: TW-Kai in the modern template) sets that
 * layer's notes and no other characters. Ink from pages rasterised by
 * poppler; faces from the PDF's font dictionaries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumForTests } from './test-chromium.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import type { Page } from '../../layout/types.js';
import { cellBox, type PageGeometry } from './geometry.js';
import { decodeGreyPng, readPdfText, snapshotPng, type GreyImage, type TextItem } from './readback.js';

const PT = 72 / 25.4;
const DPI = 300;
const { work, browser } = chromiumForTests('diaoban-faces-test-');

/** The characters told apart, in groups that look alike in a 明 face: each twice, so that a character can be compared with itself. */
const GROUPS = ['曰日', '己已巳', '戊戌戍'];
/** Then a note (zhu) whose 覺 is in no main text. */
const SOURCE = `# 卷一\n\n${GROUPS.join('').repeat(2)}學【學者覺也】\n`;

interface Printed {
  pdf: string;
  page: Page;
  g: PageGeometry;
  image: GreyImage;
  /** The font names the PDF embeds. */
  fonts: string[];
  /** The page's text items with their fonts. */
  text: TextItem[];
}

let serial = 0;
async function print(yaml: string, source: string): Promise<Printed> {
  const dir = join(work, `e${++serial}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'juan.md'), source);
  writeFileSync(join(dir, 'edition.yaml'), `title: 字形\nauthor: 試\nlanguage: zh-Hant\nscript: traditional\ndate: 2026-01-01\nsources: [juan.md]\nbook: { cover: false, title-page: false, colophon: false }\n${yaml}`);
  const { tree, config } = await loadEdition(dir);
  assert.ok(config);
  const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
  const { bytes } = await buildPdf(layout, config, { browser });
  const pdf = join(dir, 'out.pdf');
  writeFileSync(pdf, bytes);
  const { options } = await renderOptionsFor(layout, config);
  const page = layout.volumes[0].pages[0];
  const fonts = [...Buffer.from(bytes).toString('latin1').matchAll(/\/BaseFont\s*\/([A-Z]{6}\+)?([^\s/<>[\]]+)/g)].map((m) => m[2]);
  const text = (await readPdfText(bytes, { fonts: true }))[0];
  return { pdf, page, g: options.geometry, image: decodeGreyPng(snapshotPng(pdf, 1, DPI)), fonts: [...new Set(fonts)], text };
}

/** Each main character of the page with its glyph's square (px on the raster): the cell's middle, the type's size. */
function glyphSquares(p: Printed): Array<{ ch: string; x: number; y: number; size: number }> {
  const s = DPI / 25.4;
  const m = p.g.margins[p.page.side];
  const out: Array<{ ch: string; x: number; y: number; size: number }> = [];
  const square = (b: { x: number; y: number; w: number; h: number }, type: number) => ({ x: (m.left + b.x + (b.w - type) / 2) * s, y: (m.top + b.y + (b.h - type) / 2) * s, size: type * s });
  for (const column of p.page.columns) {
    for (const run of column.runs) {
      if (run.type === 'text') Array.from(run.text).forEach((ch, i) => out.push({ ch, ...square(cellBox(p.g, p.page.side, column.index, run.start + i), p.g.fontSize * 1.04) }));
    }
  }
  return out;
}

/** The glyph's ink as a bitmap of its square (true: ink), and its ink box. */
function ink(img: GreyImage, sq: { x: number; y: number; size: number }): { bits: boolean[]; w: number; box: { w: number; h: number } } {
  const n = Math.round(sq.size);
  const bits: boolean[] = [];
  let [x0, y0, x1, y1] = [n, n, -1, -1];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const on = img.pixels[(Math.round(sq.y) + y) * img.width + Math.round(sq.x) + x] < 128;
      bits.push(on);
      if (on) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return { bits, w: n, box: { w: x1 - x0 + 1, h: y1 - y0 + 1 } };
}

/** Width over height of a character's ink (its first occurrence). */
function ratio(p: Printed, ch: string): number {
  const sq = glyphSquares(p).find((q) => q.ch === ch)!;
  const { box } = ink(p.image, sq);
  return box.w / box.h;
}

/** How far apart the shapes of two glyphs are (apart's measure), each from its own print. */
function shapesApart(a: boolean[], b: boolean[]): number {
  let either = 0;
  let one = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] || b[i]) either++;
    if (a[i] !== b[i]) one++;
  }
  return one / Math.max(1, either);
}


/** A glyph's ink scaled into a square of SHAPE × SHAPE (its ink box filled): where it sits in its cell plays no part. */
const SHAPE = 24;
function shape(img: GreyImage, sq: { x: number; y: number; size: number }): boolean[] {
  const n = Math.round(sq.size);
  const { bits } = ink(img, sq);
  let [x0, y0, x1, y1] = [n, n, -1, -1];
  bits.forEach((on, i) => {
    if (on) [x0, y0, x1, y1] = [Math.min(x0, i % n), Math.min(y0, Math.floor(i / n)), Math.max(x1, i % n), Math.max(y1, Math.floor(i / n))];
  });
  const out: boolean[] = [];
  for (let v = 0; v < SHAPE; v++) {
    for (let u = 0; u < SHAPE; u++) {
      // A cell of the shape is ink when any pixel of its part of the ink box is.
      let on = false;
      for (let y = Math.floor(y0 + (v * (y1 - y0 + 1)) / SHAPE); y < y0 + ((v + 1) * (y1 - y0 + 1)) / SHAPE && !on; y++) {
        for (let x = Math.floor(x0 + (u * (x1 - x0 + 1)) / SHAPE); x < x0 + ((u + 1) * (x1 - x0 + 1)) / SHAPE && !on; x++) on = bits[y * n + x];
      }
      out.push(on);
    }
  }
  return out;
}

/** How far apart two glyphs' ink is: the cells of their shapes inked in one and not the other, over those inked in either. */
function apart(p: Printed, a: { ch: string; nth?: number }, b: { ch: string; nth?: number }): number {
  const squares = glyphSquares(p);
  const find = (c: { ch: string; nth?: number }) => squares.filter((q) => q.ch === c.ch)[c.nth ?? 0];
  return shapesApart(shape(p.image, find(a)), shape(p.image, find(b)));
}

test('the 四庫 template prints in TW-Kai: 曰 wide and 日 tall, 己/已/巳 and 戊/戌/戍 apart; Noto Serif CJK of the modern template (the control) prints 曰 and 日 alike; fonts.zhu sets the notes alone', async () => {
  const kai = await print('template: siku\n', SOURCE);
  const modern = await print('template: modern\nfonts:\n  zhu: [TW-Kai]\n', SOURCE);
  assert.ok(kai.fonts.some((f) => f.startsWith('TW-Kai')), `TW-Kai embedded: ${kai.fonts.join(', ')}`);
  assert.ok(!kai.fonts.some((f) => /Noto/.test(f)), `no 明 face on the 四庫 page: ${kai.fonts.join(', ')}`);
  assert.ok(modern.fonts.some((f) => /NotoSerifCJK/.test(f)) && modern.fonts.some((f) => f.startsWith('TW-Kai')), modern.fonts.join(', '));

  // 曰 against 日: TW-Kai ~1.18 against ~0.71 (DESIGN.md), Noto ~0.84 against ~0.76.
  const gap = (p: Printed): number => ratio(p, '曰') - ratio(p, '日');
  assert.ok(gap(kai) > 0.3, `TW-Kai: 曰 ${ratio(kai, '曰').toFixed(2)} against 日 ${ratio(kai, '日').toFixed(2)}`);
  assert.ok(ratio(kai, '曰') > 1 && ratio(kai, '日') < 0.85, 'wide and tall');
  assert.ok(gap(modern) < 0.15, `Noto (control): 曰 ${ratio(modern, '曰').toFixed(2)} against 日 ${ratio(modern, '日').toFixed(2)}`);

  // Each pair of a group apart in ink; a character against itself (another cell) is the negative control.
  for (const group of GROUPS.slice(1)) {
    const chars = Array.from(group);
    for (const [i, a] of chars.entries()) {
      assert.ok(apart(kai, { ch: a }, { ch: a, nth: 1 }) < 0.03, `${a} against itself: ${apart(kai, { ch: a }, { ch: a, nth: 1 }).toFixed(3)}`);
      for (const b of chars.slice(i + 1)) assert.ok(apart(kai, { ch: a }, { ch: b }) > 0.08, `${a} against ${b}: ${apart(kai, { ch: a }, { ch: b }).toFixed(3)}`);
    }
  }

  // fonts.zhu: on the modern page the note's characters (note size) are TW-Kai, the text's Noto; on the 四庫 page all TW-Kai.
  const noteSize = modern.g.noteSize * PT;
  const isNote = (it: TextItem): boolean => Math.abs(it.size - noteSize) < 0.5;
  const faces = (items: TextItem[]): string[] => [...new Set(items.map((it) => it.font ?? '?'))];
  assert.deepEqual(faces(modern.text.filter(isNote)), ['TW-Kai-98_1'], 'the notes in TW-Kai');
  assert.ok(modern.text.filter((it) => !isNote(it)).length > 10 && faces(modern.text.filter((it) => !isNote(it))).every((f) => /^NotoSerifCJK/.test(f)), `the text in Noto: ${faces(modern.text.filter((it) => !isNote(it)))}`);
  assert.deepEqual(faces(kai.text), ['TW-Kai-98_1'], 'the 四庫 page in TW-Kai throughout');
});
