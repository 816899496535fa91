/**
 * Where the font puts the ink of the marks the PDF anchors (the table's
 * `{ x, y }` placements), so that the page can move each to where its
 * standard wants it whatever the font's design: luatex-cn anchors marks by
 * their ink the same way. Pure over font bytes (HarfBuzz); the CLI, which
 * has the fonts, hands the table to renderHtml (RenderOptions.ink).
 */
import * as hb from 'harfbuzzjs';
import { cmapRanges, defaultVerticalOrigin } from '../../fonts/index.js';
import { MARKS } from '../../punctuation/index.js';

/** The centre of a glyph's ink, in em from the top left of its em box, drawn upright in a vertical column. */
export interface Ink {
  x: number;
  y: number;
}

export type InkTable = Readonly<Record<string, Ink>>;

/**
 * The ink centre of every anchored mark, from the first of `faces` (sfnt
 * bytes, in stack order) that has it: the nominal glyph (the page draws
 * anchored marks upright, without vertical substitution), its horizontal
 * advance centred on the column's axis and its top at the vertical origin
 * (VORG), as Chromium draws upright glyphs in vertical text.
 */
export function markInk(faces: readonly Uint8Array[]): InkTable {
  const wanted = MARKS.filter((m) => typeof m.place.mainland === 'object' || typeof m.place.taiwan === 'object').map((m) => m.char);
  const out: Record<string, Ink> = {};
  for (const bytes of faces) {
    const ranges = cmapRanges(bytes);
    const mine = wanted.filter((ch) => !(ch in out) && ranges.some(([a, b]) => ch.codePointAt(0)! >= a && ch.codePointAt(0)! <= b));
    if (mine.length === 0) continue;
    const face = new hb.Face(new hb.Blob(bytes));
    const font = new hb.Font(face);
    const upem = face.upem;
    const origin = defaultVerticalOrigin(bytes) * upem;
    for (const ch of mine) {
      const glyph = font.glyph(ch.codePointAt(0)!);
      const extents = glyph === undefined ? undefined : font.glyphExtents(glyph);
      if (glyph === undefined || !extents || extents.width === 0) continue;
      const advance = font.glyphHAdvance(glyph);
      out[ch] = {
        x: round((extents.xBearing + extents.width / 2 - advance / 2) / upem + 0.5),
        y: round((origin - (extents.yBearing + extents.height / 2)) / upem),
      };
    }
  }
  return out;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;
