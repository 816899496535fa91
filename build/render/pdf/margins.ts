/**
 * What a page draws outside its running columns, as page markup: the
 * frame opened above a raised (抬頭) column, 眉批 in the top margin, 側批
 * in the gutters, and seals over the text. Positions come from the layout
 * (Page.columns[].raise, Page.annotations) and the geometry; nothing here
 * measures text.
 */
import type { AnnotationPiece, Page } from '../../layout/types.js';
import type { PageGeometry, Side } from './geometry.js';

const mm = (x: number): string => `${Math.round(x * 1000) / 1000}mm`;

/** The characters as printed (escaped; 〓 where no font has them). */
export type Show = (ch: string) => string;

/** Where a column's box is, from the page area's right edge (mm), and its width. */
function columnBox(g: PageGeometry, side: Side, column: number): { right: number; width: number } {
  return { right: g.columnRight[side][Math.min(column, g.columns - 1)] ?? 0, width: g.colWidth };
}

/**
 * 抬頭 in a framed template: the raised column's cells above the frame get
 * a frame of their own (a box open at the foot, white inside, cutting the
 * frame's top rules), as a 四庫 manuscript draws a raised line.
 */
export function raisedHtml(page: Page, g: PageGeometry, side: Side): string {
  if (g.frame <= 0) return '';
  let out = '';
  for (const column of page.columns) {
    if (!column.raise) continue;
    const { right, width } = columnBox(g, side, column.index);
    const height = column.raise * g.cellHeight;
    out += `<b class="raise-box" style="right:${mm(right)};width:${mm(width)};top:${mm(g.gridTop - height)};height:${mm(height + g.frame)}"></b>`;
  }
  return out;
}

/** 眉批 characters: a place each in a lane of the top margin; their pitch and size. */
export function meipiMetrics(g: PageGeometry, top: number, cells: number): { pitch: number; size: number; gap: number } {
  // Clear of the frame below, and of the page's edge above (a fifth of the margin: the trim).
  const gap = Math.min(1.5, 0.1 * top);
  const edge = 0.2 * top;
  const pitch = Math.min(g.cellHeight / 2, (top - gap - edge) / Math.max(1, cells));
  return { pitch, size: Math.min(0.88 * pitch, 0.88 * (g.colWidth / 2)), gap };
}

/** 側批 characters: half a cell each in the gutter left of a column's type; their size and the gutter's middle (mm from the column's left edge). */
export function cepiMetrics(g: PageGeometry): { size: number; x: number } {
  const gutter = (g.colWidth - g.fontSize) / 2;
  return { size: Math.min(0.85 * gutter, 0.45 * g.fontSize, 0.9 * (g.cellHeight / 2)), x: gutter / 2 };
}

function stretch(cls: string, top: number, right: number, size: number, pitch: number, text: string, show: Show): string {
  const chars = Array.from(text);
  // One letter-spaced stretch, a character every `pitch`, each centred in its place (like the grid's `.g`).
  return (
    `<i class="${cls}" style="top:${mm(top)};right:${mm(right)};width:${mm(size)};font-size:${mm(size)};line-height:${mm(size)};` +
    `letter-spacing:${mm(pitch - size)};padding-top:${mm((pitch - size) / 2)}">${chars.map(show).join('')}</i>`
  );
}

/**
 * The page's 眉批 and 側批. 眉批: each lane a column of small characters
 * from the margin's top, over its half column; 側批: in the gutter left of
 * its column's type, from its start cell. `marginTop` is the page's top
 * margin (mm), `meipiCells` the places of a lane (PageSpec.meipiCells).
 */
export function annotationsHtml(page: Page, g: PageGeometry, side: Side, marginTop: number, meipiCells: number, show: Show): string {
  if (!page.annotations || page.annotations.length === 0) return '';
  const meipi = meipiMetrics(g, marginTop, meipiCells);
  const cepi = cepiMetrics(g);
  let out = '';
  const pieces = (kind: 'meipi' | 'cepi'): AnnotationPiece[] => page.annotations!.filter((a) => a.kind === kind).flatMap((a) => a.pieces);
  for (const piece of pieces('meipi')) {
    const { right } = columnBox(g, side, piece.column);
    const half = (piece.lane ?? 2 * piece.column) % 2;
    // The lane's middle, from the area's right edge: the right half of its column first.
    const x = right + (half + 0.5) * (g.colWidth / 2);
    const top = -meipi.gap - meipiCells * meipi.pitch + piece.start * meipi.pitch;
    out += stretch('an an-meipi', top, x - meipi.size / 2, meipi.size, meipi.pitch, piece.text, show);
  }
  for (const piece of pieces('cepi')) {
    const { right, width } = columnBox(g, side, piece.column);
    const x = right + width - cepi.x;
    out += stretch('an an-cepi', g.gridTop + piece.start * g.cellHeight, x - cepi.size / 2, cepi.size, g.cellHeight / 2, piece.text, show);
  }
  return out;
}
