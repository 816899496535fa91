/**
 * Characters → units: what the line breaker places whole. Widths are in
 * half cells (`halves`), the unit the modern template works in.
 *
 * - An ideograph (or any character not below) is a unit of 2 halves.
 * - A mark (build/punctuation) is a unit of 2 halves, 1 when it gives up the
 *   blank half of its cell (compressed); …… —— and ？！ written together are
 *   units of 4 that never split; with `judou` and `none` a mark takes no
 *   place at all (0) and stays with the character before it (an opening
 *   mark with the one after it).
 * - In main text, 1–3 ASCII digits are one 縱中橫 unit of 2 halves; other
 *   ASCII words are rotated, a half cell a character, a quarter cell of
 *   space before and after the Latin run; the spaces between words are
 *   units of 1.
 *
 * Adjacent marks are compressed here, once (clreq 6.3.2.2): a run of k ≥ 2
 * marks takes k + 1 halves (k with `adjacent: 1`), each mark giving up the
 * blank half that faces its neighbour where it has one.
 */
import { isMark, markOf, noEndAt, noStartAt, PAIRED, STACKED, type InkSide, type KinsokuLevel, type MarkRow, type ModernStandard, type PunctuationStandard } from '../punctuation/index.js';
import type { MainChar, NoteChar } from './flatten.js';
import { append } from '../tree/append.js';

/** The resolved punctuation mode of a layout. */
export interface Mode {
  standard: PunctuationStandard;
  grid: 'half' | 'rigid';
  adjacent: 1 | 1.5;
  hanging: boolean;
  kinsoku: KinsokuLevel;
}

export type UnitKind = 'char' | 'mark' | 'pair' | 'zero' | 'tcy' | 'latin' | 'space';

export interface Unit<C> {
  chars: C[];
  kind: UnitKind;
  /** The mark's row (the first character's, for a pair). */
  row?: MarkRow;
  /** Where a mark's ink sits in the standard in use ('fixed' for everything else). */
  side: InkSide;
  /** A mark that gave up its blank half. */
  cut: boolean;
  /** Natural width in halves (cut included; 0 for a mark set beside or not printed). */
  width: number;
  /** Rotated Latin: the quarter-cell spaces before and after (halves). */
  padStart: number;
  padEnd: number;
  noStart: boolean;
  noEnd: boolean;
}

export type MainUnit = Unit<MainChar>;
export type NoteUnit = Unit<NoteChar>;

export function isModern(standard: PunctuationStandard): standard is ModernStandard {
  return standard === 'mainland' || standard === 'taiwan';
}

function blank<C>(chars: C[], kind: UnitKind, width: number): Unit<C> {
  return { chars, kind, side: 'fixed', cut: false, width, padStart: 0, padEnd: 0, noStart: false, noEnd: false };
}

function markUnit<C>(chars: C[], row: MarkRow, mode: Mode, kind: UnitKind): Unit<C> {
  const standard = mode.standard as ModernStandard;
  const cells = kind === 'pair' ? 2 : row.cells;
  const unit = blank(chars, kind, 2 * cells);
  unit.row = row;
  unit.side = kind === 'pair' || cells === 2 ? 'fixed' : row.ink[standard];
  unit.noStart = noStartAt(row, mode.kinsoku);
  unit.noEnd = noEndAt(row, mode.kinsoku);
  return unit;
}

/** Can give up a half cell. */
export function squeezable(u: Unit<unknown>): boolean {
  return u.kind === 'mark' && u.side !== 'fixed' && !u.cut;
}

export function cut(u: Unit<unknown>): void {
  u.cut = true;
  u.width -= 1;
}

/**
 * Compresses each run of adjacent marks of `units` (clreq 6.3.2.2): k marks
 * take k + 1 halves, or k with `adjacent: 1`.
 */
function compressAdjacent(units: Unit<unknown>[], mode: Mode): void {
  if (mode.grid !== 'half' || !isModern(mode.standard)) return;
  let i = 0;
  while (i < units.length) {
    if (units[i].kind !== 'mark' && units[i].kind !== 'pair') {
      i++;
      continue;
    }
    let j = i;
    while (j < units.length && (units[j].kind === 'mark' || units[j].kind === 'pair')) j++;
    const run = units.slice(i, j);
    const k = run.length;
    if (k >= 2) {
      let need = mode.adjacent === 1 ? k : k - 1;
      for (let a = 0; a + 1 < k && need > 0; a++) {
        const x = run[a];
        const y = run[a + 1];
        const pick =
          x.side === 'start' && squeezable(x) ? x
          : y.side === 'end' && squeezable(y) ? y
          : x.side === 'centre' && squeezable(x) ? x
          : y.side === 'centre' && squeezable(y) ? y
          : undefined;
        if (pick) {
          cut(pick);
          need--;
        }
      }
      for (let a = k - 1; a >= 0 && need > 0; a--) {
        if (squeezable(run[a])) {
          cut(run[a]);
          need--;
        }
      }
    }
    i = j;
  }
}

/**
 * A mark that takes no place (judou, none) joins a neighbour: the unit
 * before it, or — an opening mark, or one with nothing before — the next
 * unit that takes a place.
 */
function glueZeros<C>(units: Unit<C>[]): Unit<C>[] {
  const out: Unit<C>[] = [];
  let pending: C[] = [];
  for (const u of units) {
    if (u.kind === 'zero') {
      const last = out[out.length - 1];
      if (last && !u.noEnd && pending.length === 0) append(last.chars, u.chars);
      else append(pending, u.chars);
      continue;
    }
    if (pending.length > 0) {
      u.chars.unshift(...pending);
      pending = [];
    }
    out.push(u);
  }
  if (pending.length > 0) {
    const last = out[out.length - 1];
    if (last) append(last.chars, pending);
    else out.push(blank(pending, 'zero', 0));
  }
  return out;
}

const DIGIT = /^[0-9]$/;
const ASCII = /^[\x21-\x7e]$/;

/** Marks (with their rows) and the 2-cell units, for one stream of characters. */
function markUnits<C extends { ch: string }>(chars: readonly C[], mode: Mode, plain: (c: C) => Unit<C>): Unit<C>[] {
  const modern = isModern(mode.standard);
  const units: Unit<C>[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const row = markOf(c.ch);
    if (!row) {
      units.push(plain(c));
      continue;
    }
    if (!modern) {
      const zero = blank([c], 'zero', 0);
      zero.row = row;
      // Only for where it joins: an opening mark goes with the character after it.
      zero.noEnd = row.noEnd;
      units.push(zero);
      continue;
    }
    const next = markOf(chars[i + 1]?.ch);
    const paired = next !== undefined && ((PAIRED.has(row.cls) && next.cls === row.cls) || (STACKED.has(row.cls) && STACKED.has(next.cls)));
    if (paired) {
      units.push(markUnit([c, chars[i + 1]], row, mode, 'pair'));
      i++;
    } else {
      units.push(markUnit([c], row, mode, 'mark'));
    }
  }
  return units;
}

/**
 * The units of a stretch of main text (no note inside). With the modern
 * standards ASCII digits and words are 縱中橫 or rotated; spaces between
 * words are units of their own.
 */
export function mainUnits(chars: readonly MainChar[], mode: Mode): MainUnit[] {
  const units: MainUnit[] = [];
  let i = 0;
  const plain = (c: MainChar): MainUnit => blank([c], 'char', 2);
  while (i < chars.length) {
    if (ASCII.test(chars[i].ch) && !markOf(chars[i].ch)) {
      // A Latin run: ASCII words and the single spaces between them.
      let j = i;
      while (j < chars.length && (ASCII.test(chars[j].ch) || chars[j].ch === ' ') && !markOf(chars[j].ch) && chars[j].style === chars[i].style) j++;
      const run = chars.slice(i, j);
      if (run.length <= 3 && run.every((c) => DIGIT.test(c.ch))) {
        units.push(blank(run, 'tcy', 2));
      } else {
        const words: MainUnit[] = [];
        let w = 0;
        while (w < run.length) {
          let e = w;
          const space = run[w].ch === ' ';
          while (e < run.length && (run[e].ch === ' ') === space) e++;
          const piece = run.slice(w, e);
          words.push(blank(piece, space ? 'space' : 'latin', piece.length));
          w = e;
        }
        // A quarter cell of space on each side (clreq 2.1.3), more to make the run whole cells (6.2.4): the Han characters after it stay on the grid.
        const natural = words.reduce((n, w) => n + w.width, 0) + 1;
        const pad = (natural % 2 === 0 ? 1 : 2) / 2;
        words[0].padStart = pad;
        words[0].width += pad;
        words[words.length - 1].padEnd = pad;
        words[words.length - 1].width += pad;
        append(units, words);
      }
      i = j;
      continue;
    }
    let j = i;
    while (j < chars.length && !(ASCII.test(chars[j].ch) && !markOf(chars[j].ch))) j++;
    append(units, markUnits(chars.slice(i, j), mode, plain));
    i = j;
  }
  const glued = glueZeros(units);
  compressAdjacent(glued, mode);
  keepAffixes(glued);
  return glued;
}

/** Units and symbols that stay with the number they follow (％ ℃ °) or precede (￥ ＄), clreq 6.1.2.2. */
const SUFFIX = /^[％‰℃℉°′″㎜㎝㎞㎏]$/u;
const PREFIX = /^[￥＄£€¥¢＃№]$/u;

function keepAffixes(units: MainUnit[]): void {
  const number = (u: MainUnit | undefined): boolean => u !== undefined && (u.kind === 'tcy' || (u.kind === 'latin' && u.chars.some((c) => DIGIT.test(c.ch))));
  units.forEach((u, i) => {
    if (u.kind !== 'char' || u.chars.length !== 1) return;
    if (SUFFIX.test(u.chars[0].ch) && number(units[i - 1])) u.noStart = true;
    if (PREFIX.test(u.chars[0].ch) && number(units[i + 1])) u.noEnd = true;
  });
}

/** The units of one note (all its characters, in reading order). Latin stays upright here, a character a place. */
export function noteUnits(chars: readonly NoteChar[], mode: Mode): NoteUnit[] {
  const units = glueZeros(markUnits(chars, mode, (c) => blank([c], 'char', 2)));
  compressAdjacent(units, mode);
  return units;
}

/** Whether a column may end after `a` and the next begin with `b` (clreq 6.1.1 basic level). */
export function breakable(a: Unit<unknown> | undefined, b: Unit<unknown> | undefined): boolean {
  if (!a || !b) return true;
  return !b.noStart && !a.noEnd;
}

/**
 * The place (cells) each character of a main unit takes: a mark set beside
 * the character before (句讀, none) 0, a 縱中橫 run its first character,
 * rotated Latin half a cell a character; `extra` (halves: a justified
 * column's spare space, and the space after rotated Latin) goes to the
 * unit's last character that takes a place. Rounded to 1/10000 cell.
 */
export function unitAdvances(u: MainUnit, extra = 0): number[] {
  const out = u.chars.map(() => 0);
  const zero = (c: MainChar): boolean => u.kind !== 'mark' && u.kind !== 'pair' && isMark(c.ch);
  const takers = u.chars.map((c, i) => (zero(c) ? -1 : i)).filter((i) => i >= 0);
  if (u.kind === 'tcy') {
    out[0] = u.width / 2;
  } else if (u.kind === 'latin' || u.kind === 'space') {
    for (const i of takers) out[i] = 0.5;
  } else if (takers.length > 0) {
    const share = u.width / 2 / takers.length;
    for (const i of takers) out[i] = share;
  }
  const lastTaker = u.kind === 'tcy' ? 0 : takers[takers.length - 1];
  if (lastTaker !== undefined && lastTaker >= 0) out[lastTaker] += (extra + u.padEnd) / 2;
  return out.map((x) => Math.round(x * 1e4) / 1e4);
}
