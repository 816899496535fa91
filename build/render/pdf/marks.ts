/**
 * What is drawn on a page beside the grid and takes no cell: the marks of
 * corrections (a ○ beside the column in the 四庫 template, the entry's number
 * in the modern one, each pointing to the volume's 校勘記). Positions in mm
 * from the page area's top-right (columns are counted from the right, as the
 * grid is). (Crop marks are Paged.js's: `marks: crop cross`.)
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
