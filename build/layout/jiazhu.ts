/**
 * 雙行夾注: how many note characters go into the chunk at the current place
 * of a column, and how a chunk is split into its two sub-columns.
 *
 * The peers (luatex-cn, webtex-cn) take min(rest, 2r). We start there and
 * look at chunks that leave at most two cells blank at the column end,
 * scoring each:
 * - a lone one-character chunk (at a column end, or left over for the next
 *   column) costs 100;
 * - a sub-column that starts with closing punctuation costs 50;
 * - every half cell left blank at the column end costs 1.
 * The cheapest wins, the larger on a tie. So moving one character to avoid an
 * orphan or a punctuation head is taken; leaving a column mostly empty is not.
 */
import type { NoteChunk, NoteSegment } from './types.js';
import type { NoteChar } from './flatten.js';

const CLOSING = new Set(
  Array.from(
    '、。，．；：？！,.;:?!)]}' +
      '」』）〉》】〕〗〙〛｝］＞' +
      '…‥・·﹐﹑﹒﹔﹕﹖﹗﹚﹜﹞' +
      '︰︱︶︸︺︼︾﹀﹂﹄' +
      '’”',
  ),
);

/** Punctuation that must not head a sub-column. */
export function isClosingPunct(ch: string | undefined): boolean {
  return ch !== undefined && CLOSING.has(ch);
}

const LONE = 100;
const PUNCT = 50;
const BLANK_HALF_CELL = 1;
/** At most this many half cells (two cells) are left blank at a column end to fix an orphan or a punctuation head. */
const LOOK_BACK = 4;

/**
 * The number of characters (from `p`) of `chars` to set in a chunk with
 * `cap` half cells (2 × cells left in the column). 0 means: leave the rest
 * of this column blank and start the note in the next column — never
 * returned when `fresh` (nothing set in this column yet), so the layout
 * always advances.
 */
export function chooseChunk(chars: readonly { ch: string }[], p: number, cap: number, fresh: boolean): number {
  const rest = chars.length - p;
  const hi = Math.min(rest, cap);
  if (hi <= 0) return 0;
  const lo = Math.max(fresh ? 1 : 0, hi - LOOK_BACK);
  let best = hi;
  let bestCost = Infinity;
  for (let n = hi; n >= lo; n--) {
    // Breaking a note that fits is only worth it right at the column end.
    if (n < rest && cap - n > LOOK_BACK) continue;
    let cost = 0;
    if (n < rest) {
      cost += (cap - n) * BLANK_HALF_CELL;
      if (rest - n === 1) cost += LONE;
      if (n > 0 && isClosingPunct(chars[p + n]?.ch)) cost += PUNCT;
    }
    if (n === 1 && rest > 1) cost += LONE;
    if (n >= 2 && isClosingPunct(chars[p + Math.ceil(n / 2)]?.ch)) cost += PUNCT;
    if (cost < bestCost) {
      best = n;
      bestCost = cost;
    }
  }
  return best;
}

/** Groups note characters into segments of one layer, depth and style. */
export function segmentsOf(chars: readonly NoteChar[]): NoteSegment[] {
  const out: NoteSegment[] = [];
  for (const c of chars) {
    const last = out[out.length - 1];
    if (last && last.layer === c.layer && last.depth === c.depth && last.style === c.style) {
      last.text += c.ch;
    } else {
      const segment: NoteSegment = { layer: c.layer, depth: c.depth, text: c.ch };
      if (c.style) segment.style = c.style;
      out.push(segment);
    }
  }
  return out;
}

/** A balanced chunk of `chars` at cell `start`: ceil(n/2) on the right, the rest on the left. */
export function makeChunk(chars: readonly NoteChar[], start: number): NoteChunk {
  const cells = Math.ceil(chars.length / 2);
  return {
    type: 'note',
    start,
    cells,
    right: segmentsOf(chars.slice(0, cells)),
    left: segmentsOf(chars.slice(cells)),
  };
}
