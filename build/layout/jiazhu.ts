/**
 * 雙行夾注: how many note units go into the chunk at the current place of a
 * column, and where the chunk splits into its two sub-columns.
 *
 * The peers (luatex-cn, webtex-cn) take min(rest, 2r). We start there and
 * look at chunks that leave at most two cells blank at the column end,
 * scoring each:
 * - a lone one-unit chunk (at a column end, or left over for the next
 *   column), and a tail left over for the next column that is one cell
 *   tall (one character a sub-column, 次｜也), cost 100;
 * - every half cell left blank at the column end costs 1;
 * - breaking 禁則 costs 1000 (so it happens only when nothing else fits): a
 *   closing mark heading a sub-column or the next column, an opening mark
 *   ending one, or — when the note ends here — no room left for the closing
 *   mark that follows the note in the main text.
 * The cheapest wins, the larger on a tie. So moving one character to avoid an
 * orphan or a punctuation head is taken; leaving a column mostly empty is not.
 *
 * The split: the right sub-column (read first) takes the smallest share not
 * shorter than the left (ceil(n/2) units of one cell each); when that puts a
 * closing mark at the left's head or an opening mark at the right's foot,
 * the split moves to the most even legal split (by one or two units; further
 * only when nothing nearer is legal), the longer side setting the chunk's height.
 */
import type { NoteChunk, NoteSegment } from './types.js';
import type { NoteChar } from './flatten.js';
import type { NoteUnit } from './units.js';
import { isMark } from '../punctuation/index.js';

const LONE = 100;
/** Half cells of units a chunk one cell tall holds (one character a sub-column). */
const TAIL = 4;
const BLANK_HALF_CELL = 1;
const KINSOKU = 1000;
/** Per half cell one sub-column is longer than the other (and one more when the left is the longer). */
const UNEVEN = 1;
/** At most this many half cells (two cells) are left blank at a column end to fix an orphan or a punctuation head … */
const LOOK_BACK = 4;
/** … or twice as many when that is the only way to keep 禁則. */
const LOOK_FAR = 8;

export interface ChunkChoice {
  /** Units in the chunk; 0 = leave the rest of this column blank and start in the next. */
  n: number;
  /** Units in the right sub-column. */
  k: number;
}

/**
 * The best split of units[p, p+n): the right sub-column's length k and its
 * cost, or undefined when no split fits `cap` halves.
 */
function split(units: readonly NoteUnit[], p: number, n: number, widths: readonly number[], cap: number): { k: number; cost: number } | undefined {
  if (n === 1) return widths[1] <= cap ? { k: 1, cost: 0 } : undefined;
  const total = widths[n];
  let k0 = 1;
  while (k0 < n && widths[k0] < total - widths[k0]) k0++;
  const uneven = (k: number): number => Math.abs(2 * widths[k] - total) + (2 * widths[k] < total ? 1 : 0);
  let best: { k: number; cost: number } | undefined;
  // The most even splits first; then, only when those all break 禁則, any other, up to k = n: everything in the
  // right sub-column (a tail such as 『眾』。」 whose closing marks may not head the left).
  const near = [k0, k0 + 1, k0 - 1, k0 + 2, k0 - 2];
  const far = Array.from({ length: n }, (_, i) => i + 1)
    .filter((k) => !near.includes(k))
    .sort((a, b) => Math.abs(a - k0) - Math.abs(b - k0) || b - a);
  for (const k of [...near, ...far]) {
    if (best && best.cost < KINSOKU && far.includes(k)) break;
    if (k < 1 || k > n) continue;
    if (Math.max(widths[k], total - widths[k]) > cap) continue;
    let cost = Math.max(0, uneven(k) - uneven(k0)) * UNEVEN;
    if (k < n && units[p + k].noStart) cost += KINSOKU;
    if (units[p + k - 1].noEnd) cost += KINSOKU;
    if (!best || cost < best.cost) best = { k, cost };
  }
  return best;
}

/**
 * The chunk (from unit `p`) to set with `cap` half cells left in the
 * column. `fresh`: nothing is set in this column yet (then n ≥ 1, so the
 * layout always advances). `after`: half cells the main text right after
 * the note needs at the column's foot (a closing mark that must not head
 * the next column); 0 when it needs none.
 */
export function chooseChunk(units: readonly NoteUnit[], p: number, cap: number, fresh: boolean, after = 0): ChunkChoice {
  const rest = units.length - p;
  const widths = [0];
  for (let m = 1; m <= rest; m++) {
    widths.push(widths[m - 1] + units[p + m - 1].width);
    if (widths[m] > 2 * cap) break;
  }
  let hi = 0;
  for (let n = 1; n < widths.length; n++) if (split(units, p, n, widths, cap)) hi = n;
  if (hi === 0) return fresh ? { n: 1, k: 1 } : { n: 0, k: 0 };
  const near = choose(units, p, cap, fresh, after, widths, hi, LOOK_BACK);
  return near.cost < KINSOKU ? near.choice : choose(units, p, cap, fresh, after, widths, hi, LOOK_FAR).choice;
}

function choose(
  units: readonly NoteUnit[],
  p: number,
  cap: number,
  fresh: boolean,
  after: number,
  widths: readonly number[],
  hi: number,
  lookBack: number,
): { choice: ChunkChoice; cost: number } {
  const rest = units.length - p;
  let total = 0;
  for (let i = p; i < units.length; i++) total += units[i].width;
  const blank = (n: number): number => (2 * cap - widths[n]) / 2;
  const lo = Math.max(fresh ? 1 : 0, hi - lookBack);
  let best: ChunkChoice = { n: hi, k: split(units, p, hi, widths, cap)?.k ?? hi };
  let bestCost = Infinity;
  for (let n = hi; n >= lo; n--) {
    // Breaking a note that fits is only worth it right at the column end.
    if (n < rest && blank(n) > lookBack) continue;
    let cost = 0;
    let k = 0;
    if (n > 0) {
      const s = split(units, p, n, widths, cap);
      if (!s) continue;
      k = s.k;
      cost += s.cost;
    }
    if (n < rest) {
      cost += blank(n) * BLANK_HALF_CELL;
      // A tail of one cell in the next column (one unit, or one character a sub-column: 次｜也) is a lone tail too.
      if (rest - n === 1 || total - widths[n] <= TAIL) cost += LONE;
      if (n > 0 && units[p + n].noStart) cost += KINSOKU;
      if (n > 0 && units[p + n - 1].noEnd) cost += KINSOKU;
    } else if (after > 0) {
      const height = Math.max(widths[k], widths[n] - widths[k]);
      if (cap - height < after) cost += KINSOKU;
    }
    if (n === 1 && rest > 1) cost += LONE;
    if (cost < bestCost) {
      best = { n, k };
      bestCost = cost;
    }
  }
  return { choice: best, cost: bestCost };
}

interface Placed {
  c: NoteChar;
  /** Main cells the character takes in its sub-column. */
  advance: number;
}

/** The characters of units with their places: a unit's width goes to its one character that takes a place. */
function placed(units: readonly NoteUnit[]): Placed[] {
  const out: Placed[] = [];
  for (const u of units) {
    const takers = u.chars.filter((c) => !(u.kind !== 'pair' && u.kind !== 'mark' && isMark(c.ch)));
    const share = takers.length > 0 ? u.width / 2 / takers.length : 0;
    for (const c of u.chars) out.push({ c, advance: takers.includes(c) ? share : 0 });
  }
  return out;
}

/** Groups note characters into segments of one layer, depth, style and mark. */
export function segmentsOf(chars: readonly Placed[]): NoteSegment[] {
  const out: NoteSegment[] = [];
  const advances: number[][] = [];
  for (const { c, advance } of chars) {
    const last = out[out.length - 1];
    if (last && last.layer === c.layer && last.depth === c.depth && last.style === c.style && !last.drawing && !c.drawing && markKey(last) === markKeyOf(c)) {
      last.text += c.ch;
      advances[advances.length - 1].push(advance);
    } else {
      const segment: NoteSegment = { layer: c.layer, depth: c.depth, text: c.ch };
      if (c.style) segment.style = c.style;
      if (c.drawing) segment.drawing = c.drawing;
      if (c.mark) MARK_IDS.set(segment, c.mark);
      out.push(segment);
      advances.push([advance]);
    }
  }
  out.forEach((segment, i) => {
    if (advances[i].some((a) => a !== 1)) segment.advances = advances[i];
  });
  return out;
}

/** The mark node each segment lies under, until the volume is done (engine.ts turns it into SideMark). */
export const MARK_IDS = new WeakMap<object, NonNullable<NoteChar['mark']>>();

function markKey(segment: NoteSegment): string {
  const m = MARK_IDS.get(segment);
  return m ? `${m.kind}${m.id}` : '';
}

function markKeyOf(c: NoteChar): string {
  return c.mark ? `${c.mark.kind}${c.mark.id}` : '';
}

/** A chunk of `units` at cell `start`: units[0, k) in the right sub-column, the rest in the left. */
export function makeChunk(units: readonly NoteUnit[], k: number, start: number): NoteChunk {
  const width = (us: readonly NoteUnit[]): number => us.reduce((s, u) => s + u.width, 0);
  const right = units.slice(0, k);
  const left = units.slice(k);
  return {
    type: 'note',
    start,
    cells: Math.max(width(right), width(left)) / 2,
    right: segmentsOf(placed(right)),
    left: segmentsOf(placed(left)),
  };
}
