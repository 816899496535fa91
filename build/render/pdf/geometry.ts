/**
 * Page geometry: page size, margins, the page area and the grid inside it,
 * all in millimetres. The grid engine decided every cell; this only says
 * where a cell is on paper.
 *
 * Sides: the book reads right to left, so an odd page (recto, 前半葉) is a
 * left-hand page with the binding on its right and the fore-edge (where the
 * 版心 is) on its left; an even page (verso, 後半葉) is the mirror image.
 */
import type { PageSpec } from '../../layout/types.js';
import type { TemplateDefinition } from './template.js';

export type Side = 'recto' | 'verso';

export interface Box {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface PageGeometry {
  /** Page size in mm (trim size, without bleed). */
  width: number;
  height: number;
  margins: Record<Side, Box>;
  /** The page area, which each page's block fills exactly. */
  area: { width: number; height: number };
  /** Total width of the double frame (outer + gap + inner), 0 when none. */
  frame: number;
  columns: number;
  cells: number;
  colWidth: number;
  cellHeight: number;
  /** Distance of the grid's top from the page area's top. */
  gridTop: number;
  /** Distance of column i's right edge from the page area's right edge. */
  columnRight: Record<Side, number[]>;
  /** The 版心 strip: its left edge from the page area's left edge and its width; absent without 版心. */
  banxin?: Record<Side, { left: number; width: number }>;
  fontSize: number;
  noteSize: number;
  /**
   * How far each sub-column of a note is moved from the middle of its half
   * column towards the column's middle (mm): the pair's gap is the
   * template's noteGap, less than the space to the columns beside.
   */
  noteShift: number;
}

const NAMED_SIZES: Readonly<Record<string, readonly [number, number]>> = {
  // A leaf of the 文淵閣四庫全書 as bound, one half (a page): 20 × 31.5 cm (luatex-cn's spread is 40 × 31.5).
  siku: [200, 315],
  a3: [297, 420],
  a4: [210, 297],
  a5: [148, 210],
  a6: [105, 148],
  b4: [250, 353],
  b5: [176, 250],
  b6: [125, 176],
  'jis-b4': [257, 364],
  'jis-b5': [182, 257],
  'jis-b6': [128, 182],
  letter: [215.9, 279.4],
  legal: [215.9, 355.6],
};

const UNIT_MM: Readonly<Record<string, number>> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72, px: 25.4 / 96, q: 0.25 };

/** A CSS length in mm (`3mm`, `0.5in`); throws on anything else. */
export function lengthToMm(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt|px|q)\s*$/i.exec(text);
  if (!m) throw new Error(`page: "${text}" is not a length such as 3mm`);
  return Number(m[1]) * UNIT_MM[m[2].toLowerCase()];
}

/** A CSS page size (`A5`, `B5`, `JIS-B5`, `148mm 210mm`, `A5 landscape`) as [width, height] in mm. */
export function parsePageSize(size: string): [number, number] {
  const words = size.trim().toLowerCase().split(/\s+/);
  const landscape = words.includes('landscape');
  const rest = words.filter((w) => w !== 'landscape' && w !== 'portrait');
  let wh: [number, number];
  const named = rest.length === 1 && Object.hasOwn(NAMED_SIZES, rest[0]) ? NAMED_SIZES[rest[0]] : undefined;
  if (named) {
    wh = [...named] as [number, number];
  } else if (rest.length === 2) {
    wh = [lengthToMm(rest[0]), lengthToMm(rest[1])];
  } else if (rest.length === 1 && /^\d/.test(rest[0])) {
    const l = lengthToMm(rest[0]);
    wh = [l, l];
  } else {
    throw new Error(`page: unknown page size "${size}" (use A5, B5, JIS-B5, A4, siku (a 四庫 leaf) … or "148mm 210mm")`);
  }
  if (landscape) wh = [wh[1], wh[0]];
  if (wh[0] < 50 || wh[1] < 50) throw new Error(`page: page size "${size}" is too small`);
  return wh;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** Where everything sits on a page of `size` for a template and a grid. */
export function computeGeometry(def: TemplateDefinition, spec: PageSpec, size: string = def.size): PageGeometry {
  const [width, height] = parsePageSize(size);
  const top = height * def.margins.top;
  const bottom = height * def.margins.bottom;
  const inside = width * def.margins.inside;
  const outside = width * def.margins.outside;
  const margins: Record<Side, Box> = {
    // recto: binding on the right, fore-edge on the left
    recto: { top, right: inside, bottom, left: outside },
    verso: { top, right: outside, bottom, left: inside },
  };
  // A hair under the exact area, so that rounding never pushes a block onto a second page.
  const area = { width: round(width - inside - outside - 0.2), height: round(height - top - bottom - 0.2) };
  const frame = def.frame ? def.frame.outer + def.frame.gap + def.frame.inner : 0;
  const banxinUnits = def.banxin ? def.banxin.width : 0;
  const colWidth = (area.width - 2 * frame) / (spec.columns + banxinUnits);
  const cellHeight = (area.height - 2 * frame) / spec.cells;
  const bw = banxinUnits * colWidth;
  // The type: the template's share of the cell, or — with tracking (疏排/紧排) — the cell less that space; never wider than the column.
  const mainSize =
    spec.tracking === undefined
      ? def.charScale * Math.min(cellHeight, colWidth)
      : Math.min(cellHeight / (1 + spec.tracking), def.charScale * colWidth);
  const noteSize = Math.min(def.noteScale * mainSize, 0.92 * (colWidth / 2), cellHeight);
  const columnRight: Record<Side, number[]> = { recto: [], verso: [] };
  for (let i = 0; i < spec.columns; i++) {
    columnRight.recto.push(round(frame + i * colWidth));
    columnRight.verso.push(round(frame + bw + i * colWidth));
  }
  const geometry: PageGeometry = {
    width,
    height,
    margins,
    area,
    frame: round(frame),
    columns: spec.columns,
    cells: spec.cells,
    colWidth: round(colWidth),
    cellHeight: round(cellHeight),
    gridTop: round(frame),
    columnRight,
    fontSize: round(mainSize),
    noteSize: round(noteSize),
    noteShift: round(Math.max(0, colWidth / 4 - noteSize * (0.5 + (def.noteGap ?? 0.25) / 2))),
  };
  if (def.banxin) {
    geometry.banxin = {
      recto: { left: round(frame), width: round(bw) },
      verso: { left: round(area.width - frame - bw), width: round(bw) },
    };
  }
  return geometry;
}

/** The page-area box of a main cell, in mm from the area's top-left corner. */
export function cellBox(g: PageGeometry, side: Side, column: number, cell: number): { x: number; y: number; w: number; h: number } {
  const right = g.columnRight[side][column];
  return { x: g.area.width - right - g.colWidth, y: g.gridTop + cell * g.cellHeight, w: g.colWidth, h: g.cellHeight };
}

/**
 * The box of a note character in sub-column `sub` beside main cell `cell`:
 * each sub-column holds one note character per main cell (小字雙行, 字數同),
 * moved towards the column's middle by noteShift. The box is centred on its
 * glyphs, as wide as the type and half the space it has to the column's
 * middle on each side: a mark the other sub-column sets in the gap between
 * the two (a 專名號 left of the right one) stays outside it.
 */
export function noteBox(
  g: PageGeometry,
  side: Side,
  column: number,
  sub: 'right' | 'left',
  cell: number,
): { x: number; y: number; w: number; h: number } {
  const c = cellBox(g, side, column, cell);
  // The sub-column's middle, from the column's left edge.
  const middle = sub === 'right' ? c.w - (c.w / 4 + g.noteShift) : c.w / 4 + g.noteShift;
  const room = c.w / 2 - 2 * g.noteShift;
  const w = (room + g.noteSize) / 2;
  return { x: c.x + middle - w / 2, y: c.y, w, h: c.h };
}
