/**
 * Reading a PDF back, for tests: its text with pdf.js (as a viewer sees it),
 * what each page should say in reading order, where each character should
 * sit, and pdftoppm snapshots to compare (decoded with pngjs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { needsNoGlyph } from '../../fonts/index.js';
import type { NoteSegment, Page, TextRun } from '../../layout/types.js';
import { markOf, type PunctuationStandard } from '../../punctuation/index.js';
import { slotsOf } from './cells.js';
import { cellBox, noteBox, type PageGeometry, type Side } from './geometry.js';
import { MISSING_GLYPH, type PlannedPage } from './html.js';
import type { GlyphDrawing } from '../../tree/types.js';
import type { InkTable } from './ink.js';

/** A text item as pdf.js gives it, in points with y measured from the page top. */
export interface TextItem {
  str: string;
  x: number;
  /** Baseline, from the top. */
  y: number;
  width: number;
  /** Font size. */
  size: number;
  /** The embedded font's name without its subset tag (TW-Kai-98_1, NotoSerifCJKtc-Regular), when asked for. */
  font?: string;
}

interface PdfJsItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName?: string;
}

interface PdfJsPage {
  view: number[];
  getTextContent(): Promise<{ items: PdfJsItem[] }>;
  getOperatorList(): Promise<unknown>;
  commonObjs: { get(id: string): { name?: string } | undefined };
}

/** Each page's text items in content order (empty items dropped), read with pdf.js's legacy Node build, each with its font (`fonts: false`: without, twice as fast). */
export async function readPdfText(bytes: Uint8Array, options: { fonts?: boolean } = { fonts: true }): Promise<TextItem[][]> {
  const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as {
    getDocument(src: { data: Uint8Array; disableFontFace: boolean; verbosity: number; isEvalSupported: boolean }): {
      promise: Promise<{ numPages: number; getPage(n: number): Promise<PdfJsPage>; destroy(): Promise<void> }>;
    };
  };
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), disableFontFace: true, verbosity: 0, isEvalSupported: false }).promise;
  const pages: TextItem[][] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const height = page.view[3];
    const content = await page.getTextContent();
    // The operator list loads the page's fonts, whose names the items' fontName keys find.
    if (options.fonts) await page.getOperatorList();
    const fontOf = (it: PdfJsItem): string | undefined => (it.fontName ? page.commonObjs.get(it.fontName)?.name?.replace(/^[A-Z]{6}\+/, '') : undefined);
    pages.push(
      content.items
        .filter((it) => typeof it.str === 'string' && it.str.trim() !== '')
        .map((it) => ({ str: it.str, x: it.transform[4], y: height - it.transform[5], width: it.width, size: it.height, ...(options.fonts ? { font: fontOf(it) } : {}) })),
    );
  }
  await doc.destroy();
  return pages;
}

const PT_PER_MM = 72 / 25.4;

/** A box in points from the page's top-left corner. */
export interface PtBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ExpectedGlyph {
  char: string;
  box: PtBox;
  note: boolean;
  /** 縱中橫 digits and rotated Latin: not centred in the cell, nor upright (only the text is compared). */
  loose?: boolean;
}

/** How marks are set on the pages: their standard and the ink the renderer anchored them by. */
export interface ExpectedPunctuation {
  standard?: PunctuationStandard | 'auto';
  ink?: InkTable;
}

function toPage(g: PageGeometry, side: Side, b: { x: number; y: number; w: number; h: number }): PtBox {
  const m = g.margins[side];
  return { x: (m.left + b.x) * PT_PER_MM, y: (m.top + b.y) * PT_PER_MM, w: b.w * PT_PER_MM, h: b.h * PT_PER_MM };
}

/**
 * What the grid of a page says, in reading order: columns right to left,
 * each from the top; a jiazhu chunk's right sub-column before its left.
 * Each glyph's box is the cell (or sub-column cell) at its place; a mark
 * set in a modern standard is in its whole (virtual) cell, moved as the
 * renderer moves it to anchor its ink (cells.ts).
 */
export function expectedGlyphs(page: Page, g: PageGeometry, covers?: (cp: number) => boolean, punctuation: ExpectedPunctuation = {}): ExpectedGlyph[] {
  const out: ExpectedGlyph[] = [];
  const shown = (ch: string): string => {
    const cp = ch.codePointAt(0)!;
    return covers && !needsNoGlyph(cp) && !covers(cp) ? MISSING_GLYPH : ch;
  };
  // A drawn glyph (cells.ts drawnHtml): its text, small and invisible in its cell, where no font prints its character.
  const drawnText = (drawing: GlyphDrawing | undefined, ch: string): string[] | undefined => (drawing && shown(ch) === MISSING_GLYPH ? Array.from(drawing.text) : undefined);
  const standard = punctuation.standard;
  const place = (at: number, advance: number, ch: string, size: number): { at: number; dx: number; dy: number } => {
    const row = markOf(ch);
    if (!row || (standard !== 'mainland' && standard !== 'taiwan') || advance === 0) return { at, dx: 0, dy: 0 };
    const side = row.ink[standard];
    const shift = advance < 1 - 1e-6 ? (side === 'end' ? advance - 1 : side === 'centre' ? (advance - 1) / 2 : 0) : 0;
    const target = row.place[standard];
    if (typeof target !== 'object') return { at: at + shift, dx: 0, dy: 0 };
    const ink = punctuation.ink?.[ch] ?? { x: 0.5, y: 0.5 };
    return { at: at + shift, dx: (target.x - ink.x) * size, dy: (target.y - ink.y) * size };
  };
  const moved = (b: PtBox, dx: number, dy: number): PtBox => ({ ...b, x: b.x + dx * PT_PER_MM, y: b.y + dy * PT_PER_MM });
  const cellAt = (column: number, at: number, sub?: 'right' | 'left'): { x: number; y: number; w: number; h: number } => {
    const base = sub ? noteBox(g, page.side, column, sub, 0) : cellBox(g, page.side, column, 0);
    return { ...base, y: base.y + at * g.cellHeight };
  };
  for (const column of page.columns) {
    for (const run of column.runs) {
      if (run.type === 'text') {
        const loose = run.style === 'tcy' || run.style === 'latin';
        for (const slot of slotsOf(run.start, run.text, (run as TextRun).advances)) {
          if (slot.ch.trim() === '') continue;
          const drawn = drawnText(run.drawing, slot.ch);
          if (drawn) {
            for (const char of drawn) out.push({ char, box: toPage(g, page.side, cellAt(column.index, slot.at)), note: false, loose: true });
            continue;
          }
          const p = place(slot.at, slot.advance, slot.ch, g.fontSize);
          out.push({ char: shown(slot.ch), box: moved(toPage(g, page.side, cellAt(column.index, p.at)), p.dx, p.dy), note: false, ...(loose ? { loose } : {}) });
        }
      } else {
        const sub = (segments: NoteSegment[], side: 'right' | 'left'): void => {
          let cell = run.start;
          for (const seg of segments) {
            for (const slot of slotsOf(cell, seg.text, seg.advances)) {
              const drawn = drawnText(seg.drawing, slot.ch);
              if (drawn) {
                for (const char of drawn) out.push({ char, box: toPage(g, page.side, cellAt(column.index, slot.at, side)), note: true, loose: true });
              } else if (slot.ch.trim() !== '') {
                const p = place(slot.at, slot.advance, slot.ch, g.noteSize);
                out.push({ char: shown(slot.ch), box: moved(toPage(g, page.side, cellAt(column.index, p.at, side)), p.dx, p.dy), note: true });
              }
              cell = slot.at + slot.advance;
            }
          }
        };
        sub(run.right, 'right');
        sub(run.left, 'left');
      }
    }
  }
  return out;
}

/**
 * The grid's rectangle on a page, in points, reaching 0.65 cell below the
 * last cell: the centre of a hanging point, or of a mark after a column's
 * last character, is half a cell below it; a modern folio's is lower.
 * Text outside it is a running head, a folio or the 版心.
 */
export function gridBox(g: PageGeometry, side: Side): PtBox {
  const first = cellBox(g, side, 0, 0);
  const last = cellBox(g, side, g.columns - 1, g.cells - 1);
  return toPage(g, side, { x: last.x, y: first.y, w: first.x + first.w - last.x, h: last.y + 1.65 * last.h - first.y });
}

/**
 * How far above the baseline an upright glyph's em box starts, in em: the
 * vertical origin its face's glyphs are pinned at (scripts/cff2ttf.py: VORG,
 * else the typographic ascender) — TW-Kai 820/1024, HanaMin 880/1024, Noto 0.88.
 */
function originOf(font: string | undefined): number {
  if (font?.startsWith('TW-Kai')) return 820 / 1024;
  if (font?.startsWith('HanaMin')) return 880 / 1024;
  return 0.88;
}

/** The em box of a text item (ideographic: its face's vertical origin above the baseline, the rest below). */
export function itemBox(item: TextItem): PtBox {
  return { x: item.x, y: item.y - originOf(item.font) * item.size, w: item.width, h: item.size };
}

export function inside(inner: PtBox, outer: PtBox, tolerance = 0.5): boolean {
  return (
    inner.x >= outer.x - tolerance &&
    inner.y >= outer.y - tolerance &&
    inner.x + inner.w <= outer.x + outer.w + tolerance &&
    inner.y + inner.h <= outer.y + outer.h + tolerance
  );
}

export function centre(b: PtBox): { x: number; y: number } {
  return { x: b.x + b.w / 2, y: b.y + b.h / 2 };
}

/**
 * The grid items of a PDF page: those whose centre lies in the grid's
 * rectangle — or, on a page with raised columns (抬頭), above it in such a
 * column — set in the text's or the notes' type: the small type beside
 * the text (側批, ruby) is not the grid's.
 */
export function gridItems(items: readonly TextItem[], g: PageGeometry, side: Side, page?: Page): TextItem[] {
  const grid = gridBox(g, side);
  const raised = (page?.columns ?? []).filter((c) => c.raise).map((c) => ({ box: toPage(g, side, cellBox(g, side, c.index, -(c.raise ?? 0))), raise: c.raise ?? 0 }));
  // 側批 and ruby are at most ~0.62 of the note size (margins.ts cepiMetrics, cells.ts rubyHtml); notes and 〈臣〉 at it.
  const small = 0.7 * g.noteSize * PT_PER_MM;
  return items.filter((it) => {
    if (it.size < small) return false;
    const c = centre(itemBox(it));
    if (c.x > grid.x && c.x < grid.x + grid.w && c.y > grid.y && c.y < grid.y + grid.h) return true;
    return raised.some((r) => c.x > r.box.x && c.x < r.box.x + r.box.w && c.y > r.box.y && c.y < grid.y);
  });
}

/** The pages of a planned book that have a layout page, with their PDF index. */
export function laidOutPages(planned: readonly PlannedPage[]): Array<{ index: number; page: Page }> {
  const out: Array<{ index: number; page: Page }> = [];
  planned.forEach((p, index) => {
    if (p.page) out.push({ index, page: p.page });
  });
  return out;
}

/** A page of a PDF as a PNG (pdftoppm), bytes. */
export function snapshotPng(pdfPath: string, pageNumber: number, resolution = 40): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'diaoban-snap-'));
  try {
    const base = join(dir, 'page');
    execFileSync('pdftoppm', ['-r', String(resolution), '-gray', '-png', '-f', String(pageNumber), '-l', String(pageNumber), '-singlefile', pdfPath, base]);
    return readFileSync(`${base}.png`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/** A PNG (pdftoppm's, or a stored snapshot) as grey levels: the mean of R, G and B. */
export function decodeGreyPng(png: Buffer): GreyImage {
  const { width, height, data } = PNG.sync.read(png);
  const pixels = new Uint8Array(width * height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.round((data[4 * i] + data[4 * i + 1] + data[4 * i + 2]) / 3);
  return { width, height, pixels };
}

/** Share of pixels that differ by more than `threshold` grey levels (1 when the sizes differ). */
export function imageDifference(a: GreyImage, b: GreyImage, threshold = 64): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let differing = 0;
  for (let i = 0; i < a.pixels.length; i++) if (Math.abs(a.pixels[i] - b.pixels[i]) > threshold) differing++;
  return differing / a.pixels.length;
}

/**
 * 禁則 read back: per page, each column — its main text, and each of its
 * two sub-columns — its glyphs top to bottom; counts the columns headed by
 * a mark that may not head one or ended by one that may not end one. A
 * glyph belongs to the column whose box holds its centre; main text and
 * notes are told apart by size, the sub-columns by side.
 */
export function kinsokuBreaksInPdf(pages: ReadonlyArray<{ side: Side }>, text: readonly TextItem[][], g: PageGeometry): number {
  let breaks = 0;
  pages.forEach((page, i) => {
    const m = g.margins[page.side];
    const lanes = new Map<string, Array<{ ch: string; y: number }>>();
    for (const t of gridItems(text[i], g, page.side)) {
      const ch = t.str.trim();
      if (!ch) continue;
      const cx = t.x + t.width / 2;
      for (let c = 0; c < g.columns; c++) {
        const box = cellBox(g, page.side, c, 0);
        const left = (m.left + box.x) * PT_PER_MM;
        const width = box.w * PT_PER_MM;
        if (cx < left || cx >= left + width) continue;
        const lane = t.size < 0.9 * g.fontSize * PT_PER_MM ? (cx > left + width / 2 ? 'R' : 'L') : 'M';
        lanes.set(`${c}${lane}`, [...(lanes.get(`${c}${lane}`) ?? []), ...Array.from(ch, (x) => ({ ch: x, y: t.y }))]);
      }
    }
    for (const glyphs of lanes.values()) {
      glyphs.sort((a, b) => a.y - b.y);
      if (markOf(glyphs[0].ch)?.noStart) breaks++;
      if (markOf(glyphs[glyphs.length - 1].ch)?.noEnd) breaks++;
    }
  });
  return breaks;
}
