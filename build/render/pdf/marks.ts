/**
 * What is drawn on a page beside the grid and takes no cell: the marks of
 * corrections (a ○ beside the column in the 四庫 template, the entry's number
 * in the modern one, each pointing to the volume's 校勘記) and crop marks in
 * the bleed. Positions in mm from the page area's top-right (columns are
 * counted from the right, as the grid is).
 */
import type { CorrectionMark } from '../../layout/types.js';
import type { PageGeometry, Side } from './geometry.js';

export type CorrectionMarkStyle = 'circle' | 'number';

const mm = (x: number): string => `${Math.round(x * 1000) / 1000}mm`;

/** The ○ of the 四庫 template. */
export const CORRECTION_CIRCLE = '○';

/**
 * A mark beside the cell of each correction: in the column's right margin
 * for main text and the right sub-column of a jiazhu note, in its left
 * margin for the left sub-column; centred on the cell. The mark is the
 * character itself (a ○, or the number), so that it reads back from the
 * PDF's text like the grid does.
 */
export function correctionMarksHtml(marks: readonly CorrectionMark[], side: Side, g: PageGeometry, style: CorrectionMarkStyle): string {
  let out = '';
  for (const m of marks) {
    const right = g.columnRight[side][m.column];
    if (right === undefined) continue;
    // Beside a note's sub-column there is hardly a margin: a smaller mark, at the column's edge.
    const size = g.fontSize * (m.sub ? 0.24 : style === 'circle' ? 0.32 : 0.3);
    // Clear of the rule between columns, in the margin between it and the glyph.
    const inset = m.sub ? 0 : Math.min(0.4, (g.colWidth - g.fontSize) / 2 - size);
    const top = g.gridTop + m.cell * g.cellHeight + (style === 'circle' ? (g.cellHeight - size) / 2 : 0);
    const edge = m.sub === 'left' ? right + g.colWidth - size : right + Math.max(0, inset);
    const text = style === 'circle' ? CORRECTION_CIRCLE : String(m.number);
    out += `<b class="jiao-mark ${style}" style="right:${mm(edge)};top:${mm(top)};font-size:${mm(size)};line-height:${mm(size)}">${text}</b>`;
  }
  return out;
}

/**
 * Crop marks: the trim lines drawn on outward into the bleed, at the four
 * corners of the trimmed page, stopping short of it.
 */
export function cropMarksHtml(g: PageGeometry, side: Side, bleed: number): string {
  if (bleed <= 0) return '';
  const m = g.margins[side];
  // The trimmed page's edges, from the page area's top-left corner.
  const left = -m.left;
  const top = -m.top;
  const right = g.width - m.left;
  const bottom = g.height - m.top;
  const gap = Math.min(1, bleed / 3);
  const length = bleed - gap;
  const line = (x: number, y: number, w: number, h: number): string =>
    `<b class="crop" style="left:${mm(x)};top:${mm(y)};width:${mm(w)};height:${mm(h)}"></b>`;
  let out = '';
  for (const x of [left, right]) {
    for (const y of [top, bottom]) {
      const outX = x === left ? x - bleed : x + gap;
      const outY = y === top ? y - bleed : y + gap;
      out += line(outX, y, length, 0) + line(x, outY, 0, length);
    }
  }
  return out;
}
