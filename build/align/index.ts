/**
 * The alignment of two texts: which units of one match which of the other,
 * and where they differ — replacements, insertions, deletions and blocks
 * moved. Pure functions; the collation of witnesses (build/collate/) and the
 * measuring of a script conversion against a witness use it.
 *
 * Linear in practice on similar texts: k-grams that occur once in each text
 * are anchors; the longest chain of anchors in the same order in both
 * (patience/histogram diff) fixes the matched runs, and only the gaps
 * between them are aligned finely (Myers, jsdiff's diffArrays), each gap
 * anchored again first when it is long. Then equal runs too short to stand
 * between two larger edits are taken into them (a missing block is one
 * deletion, not a deletion split wherever a common character like 之
 * happens to match), and a deletion and an insertion holding much the same
 * text are one block moved.
 */
import { diffArrays } from 'diff';

/** A stretch of units, [start, end) (unit indices; alignText gives UTF-16 offsets of the original strings). */
export interface Span {
  start: number;
  end: number;
}

export type AlignOp =
  /** The same units on both sides (under the equivalence). */
  | { type: 'equal'; a: Span; b: Span }
  /** a's units stand where b has others. */
  | { type: 'replace'; a: Span; b: Span }
  /** a's units that b lacks (b: the empty span where they would stand); `move`: moved to moves[move].b. */
  | { type: 'delete'; a: Span; b: Span; move?: number }
  /** b's units that a lacks (a: the empty span where they stand); `move`: moved from moves[move].a. */
  | { type: 'insert'; a: Span; b: Span; move?: number };

/** A block that stands at `a` in one text and at `b` in the other; `ops` align the two blocks. */
export interface Move {
  a: Span;
  b: Span;
  ops: AlignOp[];
}

export interface Alignment {
  /** In order of both texts: the a-spans cover a, the b-spans cover b, each once, in order. */
  ops: AlignOp[];
  moves: Move[];
  /** Units matched (equal ops, and the equal parts of moved blocks), of a and of b. */
  matched: number;
}

export interface AlignOptions<T> {
  /** The equivalence: units with the same key match (variant forms folded, scripts …); default the unit itself. */
  key?: (unit: T, side: 'a' | 'b') => string | number;
  /** The shortest block (units) reported as moved; default 12. 0: no moves. */
  minMove?: number;
}

/** Below this product of the two lengths a gap goes straight to Myers. */
const SMALL_GAP = 1 << 14;
/** A gap without anchors larger than this product is one replacement. */
const LARGE_GAP = 1 << 20;
/** Myers gives up past this many edits in one gap (the gap is then one replacement). */
const MAX_EDITS = 4000;
/** Anchor lengths tried, longest first. */
const GRAMS = [8, 4, 2, 1] as const;

/** Both sequences as integers (equal keys, equal integers). */
function intern<T>(a: readonly T[], b: readonly T[], key: AlignOptions<T>['key']): [Int32Array, Int32Array] {
  const ids = new Map<unknown, number>();
  const code = (unit: T, side: 'a' | 'b'): number => {
    const k = key ? key(unit, side) : unit;
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = ids.size));
    return id;
  };
  return [Int32Array.from(a, (u) => code(u, 'a')), Int32Array.from(b, (u) => code(u, 'b'))];
}

/** A hash of s[i..i+k) (collisions only lose anchors: every anchor is checked unit by unit). */
function gramHash(s: Int32Array, i: number, k: number): number {
  let h = 0x811c9dc5;
  for (let x = i; x < i + k; x++) h = Math.imul(h ^ s[x], 0x01000193);
  return h;
}

function sameGram(a: Int32Array, i: number, b: Int32Array, j: number, k: number): boolean {
  for (let x = 0; x < k; x++) if (a[i + x] !== b[j + x]) return false;
  return true;
}

/** Where each k-gram of s[lo..hi) stands, if it stands there once (-1: more than once). */
function uniqueGrams(s: Int32Array, lo: number, hi: number, k: number): Map<number, number> {
  const at = new Map<number, number>();
  for (let i = lo; i + k <= hi; i++) {
    const h = gramHash(s, i, k);
    at.set(h, at.has(h) ? -1 : i);
  }
  return at;
}

/** The longest chain of pairs increasing in both (pairs sorted by i): patience sorting with back links. */
function longestChain(is: number[], js: number[]): number[] {
  const tails: number[] = [];
  const back = new Int32Array(is.length).fill(-1);
  for (let p = 0; p < is.length; p++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (js[tails[mid]] < js[p]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) back[p] = tails[lo - 1];
    tails[lo] = p;
  }
  const out: number[] = [];
  for (let p = tails.length ? tails[tails.length - 1] : -1; p >= 0; p = back[p]) out.push(p);
  return out.reverse();
}

/** Matched runs [i, j, length] from the chain of unique k-grams common to a[aLo..aHi) and b[bLo..bHi), in order, extended both ways. */
function anchorRuns(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, k: number): Array<[number, number, number]> {
  if (aHi - aLo < k || bHi - bLo < k) return [];
  const inA = uniqueGrams(a, aLo, aHi, k);
  const inB = uniqueGrams(b, bLo, bHi, k);
  const is: number[] = [];
  const js: number[] = [];
  for (let i = aLo; i + k <= aHi; i++) {
    const h = gramHash(a, i, k);
    if (inA.get(h) !== i) continue;
    const j = inB.get(h);
    if (j === undefined || j < 0 || !sameGram(a, i, b, j, k)) continue;
    is.push(i);
    js.push(j);
  }
  const runs: Array<[number, number, number]> = [];
  for (const p of longestChain(is, js)) {
    const i = is[p];
    const j = js[p];
    const last = runs[runs.length - 1];
    // Overlapping or touching on the same diagonal: one run.
    if (last && i - last[0] === j - last[1] && i <= last[0] + last[2]) {
      last[2] = Math.max(last[2], i + k - last[0]);
      continue;
    }
    if (last && (i < last[0] + last[2] || j < last[1] + last[2])) continue;
    runs.push([i, j, k]);
  }
  // Each run extended while the units agree, not into its neighbours.
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r];
    const prevA = r > 0 ? runs[r - 1][0] + runs[r - 1][2] : aLo;
    const prevB = r > 0 ? runs[r - 1][1] + runs[r - 1][2] : bLo;
    while (run[0] > prevA && run[1] > prevB && a[run[0] - 1] === b[run[1] - 1]) {
      run[0]--;
      run[1]--;
      run[2]++;
    }
    const nextA = r + 1 < runs.length ? runs[r + 1][0] : aHi;
    const nextB = r + 1 < runs.length ? runs[r + 1][1] : bHi;
    while (run[0] + run[2] < nextA && run[1] + run[2] < nextB && a[run[0] + run[2]] === b[run[1] + run[2]]) run[2]++;
  }
  return runs;
}

type Kind = 'equal' | 'delete' | 'insert';

/** The raw script: runs of one kind with their lengths, in order. */
class Script {
  readonly kinds: Kind[] = [];
  readonly lengths: number[] = [];
  push(kind: Kind, length: number): void {
    if (length <= 0) return;
    const n = this.kinds.length;
    if (n > 0 && this.kinds[n - 1] === kind) this.lengths[n - 1] += length;
    else {
      this.kinds.push(kind);
      this.lengths.push(length);
    }
  }
}

/** Myers on a small gap (jsdiff); null when it would take more than MAX_EDITS edits. */
function myers(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: Script): boolean {
  const parts = diffArrays(Array.from(a.subarray(aLo, aHi)), Array.from(b.subarray(bLo, bHi)), { maxEditLength: MAX_EDITS });
  if (!parts) return false;
  for (const part of parts) out.push(part.added ? 'insert' : part.removed ? 'delete' : 'equal', part.count ?? part.value.length);
  return true;
}

function alignRange(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, out: Script): void {
  let prefix = 0;
  while (aLo + prefix < aHi && bLo + prefix < bHi && a[aLo + prefix] === b[bLo + prefix]) prefix++;
  out.push('equal', prefix);
  aLo += prefix;
  bLo += prefix;
  let suffix = 0;
  while (aHi - suffix > aLo && bHi - suffix > bLo && a[aHi - 1 - suffix] === b[bHi - 1 - suffix]) suffix++;
  aHi -= suffix;
  bHi -= suffix;
  const n = aHi - aLo;
  const m = bHi - bLo;
  if (n === 0 || m === 0) {
    out.push('delete', n);
    out.push('insert', m);
  } else if (n * m <= SMALL_GAP) {
    if (!myers(a, aLo, aHi, b, bLo, bHi, out)) {
      out.push('delete', n);
      out.push('insert', m);
    }
  } else {
    let runs: Array<[number, number, number]> = [];
    // The longest k that still finds anchors: long grams are reliable, short ones reach into small gaps.
    for (const k of GRAMS) {
      if (k > Math.min(n, m)) continue;
      runs = anchorRuns(a, aLo, aHi, b, bLo, bHi, k);
      if (runs.length > 0) break;
    }
    // No unit common to both and alone in each: texts this different are one replacement (Myers would be quadratic here).
    if (runs.length === 0) {
      if (n * m > LARGE_GAP || !myers(a, aLo, aHi, b, bLo, bHi, out)) {
        out.push('delete', n);
        out.push('insert', m);
      }
    } else {
      let i = aLo;
      let j = bLo;
      for (const [ri, rj, length] of runs) {
        alignRange(a, i, ri, b, j, rj, out);
        out.push('equal', length);
        i = ri + length;
        j = rj + length;
      }
      alignRange(a, i, aHi, b, j, bHi, out);
    }
  }
  out.push('equal', suffix);
}

/** The script's edits around equal runs: [deleted, inserted] between each pair of equal runs. */
interface Block {
  equal: number;
  del: number;
  ins: number;
}

/**
 * Equal runs too short to stand between two larger edits are taken into
 * them: an equal run of e units between edit groups of sizes x and y
 * (each the larger of its deletion and insertion) goes when 2e ≤ min(x, y).
 * Repeated until nothing changes (a merge makes its group larger).
 */
function cleanup(script: Script): Block[] {
  // Alternate: equal, then the edits after it.
  const blocks: Block[] = [{ equal: 0, del: 0, ins: 0 }];
  script.kinds.forEach((kind, i) => {
    const length = script.lengths[i];
    const last = blocks[blocks.length - 1];
    if (kind === 'equal') {
      if (last.del === 0 && last.ins === 0 && blocks.length === 1 && last.equal === 0) last.equal = length;
      else blocks.push({ equal: length, del: 0, ins: 0 });
    } else if (kind === 'delete') last.del += length;
    else last.ins += length;
  });
  let changed = true;
  while (changed) {
    changed = false;
    for (let k = 1; k < blocks.length; k++) {
      const before = blocks[k - 1];
      const here = blocks[k];
      const x = Math.max(before.del, before.ins);
      const y = Math.max(here.del, here.ins);
      if (x === 0 || y === 0 || 2 * here.equal > Math.min(x, y)) continue;
      before.del += here.equal + here.del;
      before.ins += here.equal + here.ins;
      blocks.splice(k, 1);
      k--;
      changed = true;
    }
  }
  return blocks;
}

/**
 * The ops of the cleaned script. A replacement whose two sides begin or
 * end alike (the cleanup took an equal run into it: 讃學第一 → 學第一) gives
 * those units back as equal, so that it is the deletion or insertion it is.
 */
function opsOf(blocks: readonly Block[], a: Int32Array, b: Int32Array, aStart: number, bStart: number): AlignOp[] {
  const ops: AlignOp[] = [];
  const equal = (i: number, j: number, n: number): void => {
    if (n <= 0) return;
    const last = ops[ops.length - 1];
    if (last?.type === 'equal' && last.a.end === i) {
      last.a.end += n;
      last.b.end += n;
    } else ops.push({ type: 'equal', a: { start: i, end: i + n }, b: { start: j, end: j + n } });
  };
  let i = aStart;
  let j = bStart;
  for (const block of blocks) {
    equal(i, j, block.equal);
    i += block.equal;
    j += block.equal;
    let del = block.del;
    let ins = block.ins;
    let head = 0;
    while (head < del && head < ins && a[i + head] === b[j + head]) head++;
    let tail = 0;
    while (tail < del - head && tail < ins - head && a[i + del - 1 - tail] === b[j + ins - 1 - tail]) tail++;
    equal(i, j, head);
    i += head;
    j += head;
    del -= head + tail;
    ins -= head + tail;
    const as = { start: i, end: i + del };
    const bs = { start: j, end: j + ins };
    if (del > 0 && ins > 0) ops.push({ type: 'replace', a: as, b: bs });
    else if (del > 0) ops.push({ type: 'delete', a: as, b: bs });
    else if (ins > 0) ops.push({ type: 'insert', a: as, b: bs });
    i = as.end;
    j = bs.end;
    equal(i, j, tail);
    i += tail;
    j += tail;
  }
  return ops;
}

/** The longest side of a replacement that is a block beside a few units replaced: split off (「蓋」+ 105 characters against 「葢」). */
const FEW = 3;

/**
 * A replacement of a few units by a block (or a block by a few) is the few
 * replaced and the rest deleted (inserted): the few at the end whose units
 * agree more with the other side's (the head when alike). A block missing
 * or moved beside a differing character is then a block of its own.
 */
function splitBlocks(ops: AlignOp[], a: Int32Array, b: Int32Array, minBlock: number): AlignOp[] {
  const out: AlignOp[] = [];
  for (const op of ops) {
    const n = op.a.end - op.a.start;
    const m = op.b.end - op.b.start;
    if (op.type !== 'replace' || Math.max(n, m) < minBlock + FEW || Math.min(n, m) > FEW) {
      out.push(op);
      continue;
    }
    const k = Math.min(n, m);
    const [long, short, longSpan, shortSpan] = n > m ? [a, b, op.a, op.b] : [b, a, op.b, op.a];
    let head = 0;
    let tail = 0;
    for (let x = 0; x < k; x++) {
      if (long[longSpan.start + x] === short[shortSpan.start + x]) head++;
      if (long[longSpan.end - k + x] === short[shortSpan.start + x]) tail++;
    }
    const atTail = tail > head;
    const few: Span = atTail ? { start: longSpan.end - k, end: longSpan.end } : { start: longSpan.start, end: longSpan.start + k };
    const rest: Span = atTail ? { start: longSpan.start, end: longSpan.end - k } : { start: longSpan.start + k, end: longSpan.end };
    const edge = atTail ? shortSpan.start : shortSpan.end;
    const replaced: AlignOp = n > m ? { type: 'replace', a: few, b: shortSpan } : { type: 'replace', a: shortSpan, b: few };
    const block: AlignOp = n > m ? { type: 'delete', a: rest, b: { start: edge, end: edge } } : { type: 'insert', a: { start: edge, end: edge }, b: rest };
    out.push(...(atTail ? [block, replaced] : [replaced, block]));
  }
  return out;
}

function alignInts(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, minBlock = 12): AlignOp[] {
  const script = new Script();
  alignRange(a, aLo, aHi, b, bLo, bHi, script);
  return splitBlocks(opsOf(cleanup(script), a, b, aLo, bLo), a, b, minBlock);
}

const matchedIn = (ops: readonly AlignOp[]): number => ops.reduce((n, op) => n + (op.type === 'equal' ? op.a.end - op.a.start : 0), 0);

/**
 * Deletions and insertions of at least `minMove` units that hold much the
 * same text (half the longer matched, found by shared 4-grams first): one
 * block moved; and shorter ones (two units or more) of the very same units
 * a few ops apart (a note set after the next words). Each insertion is the
 * destination of one move at most.
 */
function findMoves(a: Int32Array, b: Int32Array, ops: AlignOp[], minMove: number): Move[] {
  if (minMove <= 0) return [];
  const k = 4;
  const dels = ops.flatMap((op, n) => (op.type === 'delete' && op.a.end - op.a.start >= minMove ? [n] : []));
  const inss = ops.flatMap((op, n) => (op.type === 'insert' && op.b.end - op.b.start >= minMove ? [n] : []));
  const owner = new Map<number, number>();
  for (const n of inss) {
    const { start, end } = ops[n].b;
    for (let j = start; j + k <= end; j++) {
      const h = gramHash(b, j, k);
      owner.set(h, owner.has(h) && owner.get(h) !== n ? -1 : n);
    }
  }
  const moves: Move[] = [];
  const used = new Set<number>();
  const link = (d: number, n: number, inner: AlignOp[]): void => {
    used.add(n);
    const ins = ops[n] as Extract<AlignOp, { type: 'insert' }>;
    const move = moves.length;
    moves.push({ a: { ...ops[d].a }, b: { ...ins.b }, ops: inner });
    (ops[d] as Extract<AlignOp, { type: 'delete' }>).move = move;
    ins.move = move;
  };
  // Short blocks set a little further on or back (a note placed after the next words): the same units, a few ops away.
  ops.forEach((op, d) => {
    if (op.type !== 'delete' || op.a.end - op.a.start < 2 || op.a.end - op.a.start >= minMove) return;
    for (let n = Math.max(0, d - NEAR); n <= Math.min(ops.length - 1, d + NEAR); n++) {
      const ins = ops[n];
      if (ins.type !== 'insert' || used.has(n) || ins.b.end - ins.b.start !== op.a.end - op.a.start || !sameGram(a, op.a.start, b, ins.b.start, op.a.end - op.a.start)) continue;
      link(d, n, [{ type: 'equal', a: { ...op.a }, b: { ...ins.b } }]);
      return;
    }
  });
  for (const d of dels) {
    const { start, end } = ops[d].a;
    const votes = new Map<number, number>();
    for (let i = start; i + k <= end; i++) {
      const n = owner.get(gramHash(a, i, k));
      if (n !== undefined && n >= 0 && !used.has(n)) votes.set(n, (votes.get(n) ?? 0) + 1);
    }
    let best = -1;
    let most = 0;
    for (const [n, count] of votes) if (count > most || (count === most && n < best)) [best, most] = [n, count];
    if (best < 0 || most < Math.max(1, (end - start - k + 1) / 4)) continue;
    const ins = ops[best] as Extract<AlignOp, { type: 'insert' }>;
    const inner = alignInts(a, start, end, b, ins.b.start, ins.b.end);
    const longer = Math.max(end - start, ins.b.end - ins.b.start);
    if (2 * matchedIn(inner) < longer) continue;
    link(d, best, inner);
  }
  return moves;
}

/** Most places one of a's k-grams may stand in b and still anchor blockLocator (a text copied twice in b has two). */
const MAX_PLACES = 4;

/** How many ops away a short block's other place may be. */
const NEAR = 4;

/** Aligns two sequences of units (characters, words, lines …) under an optional equivalence. */
export function alignUnits<T>(a: readonly T[], b: readonly T[], options: AlignOptions<T> = {}): Alignment {
  const [x, y] = intern(a, b, options.key);
  const minMove = options.minMove ?? 12;
  const ops = alignInts(x, 0, x.length, y, 0, y.length, minMove > 0 ? minMove : 12);
  const moves = findMoves(x, y, ops, minMove);
  return { ops, moves, matched: matchedIn(ops) + moves.reduce((n, m) => n + matchedIn(m.ops), 0) };
}

/** A unit of a text: its characters and where they stand in the original (UTF-16 offsets). */
export interface TextUnit {
  value: string;
  offset: number;
}

export interface TextAlignOptions {
  /** Which characters take part (the rest — markup, punctuation, spaces — are set aside); default letters and numbers. */
  keep?: (char: string) => boolean;
  /** The equivalence on characters (variant forms, scripts); default the character. */
  key?: (char: string, side: 'a' | 'b') => string | number;
  minMove?: number;
}

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
export const keepLettersAndNumbers = (char: string): boolean => LETTER_OR_NUMBER.test(char);

/** The units of a text that take part in an alignment, with their offsets. */
export function textUnits(text: string, keep: (char: string) => boolean = keepLettersAndNumbers): TextUnit[] {
  const out: TextUnit[] = [];
  let offset = 0;
  for (const char of text) {
    if (keep(char)) out.push({ value: char, offset });
    offset += char.length;
  }
  return out;
}

/** A span of units as offsets in their text: an empty span stands right after the unit before it (at the start: before the first). */
export function unitSpanToOffsets(units: readonly TextUnit[], span: Span): Span {
  if (span.end > span.start) {
    const last = units[span.end - 1];
    return { start: units[span.start].offset, end: last.offset + last.value.length };
  }
  if (span.start === 0) {
    const at = units[0]?.offset ?? 0;
    return { start: at, end: at };
  }
  const before = units[span.start - 1];
  const at = before.offset + before.value.length;
  return { start: at, end: at };
}

export interface TextAlignment extends Alignment {
  /** The units aligned: the ops' and moves' spans (unit indices) index these; unitSpanToOffsets maps them back. */
  units: { a: TextUnit[]; b: TextUnit[] };
}

/** Aligns two strings character by character, what `keep` sets aside left out (positions map back with unitSpanToOffsets). */
export function alignText(a: string, b: string, options: TextAlignOptions = {}): TextAlignment {
  const units = { a: textUnits(a, options.keep), b: textUnits(b, options.keep) };
  const key = options.key;
  const alignment = alignUnits(units.a, units.b, { key: key ? (u, side) => key(u.value, side) : (u) => u.value, minMove: options.minMove });
  return { ...alignment, units };
}

/**
 * Where a text stands in b, which may be much longer (a juan inside a file
 * holding the whole work, perhaps twice): made once for b, asked for each
 * a. a's unique 8-grams found at up to four places each in b, the longest
 * chain of them in order in both; the span of b it covers, widened by the
 * units of a before its first anchor and after its last. Null when nothing
 * anchors.
 */
export function blockLocator<T>(b: readonly T[], key: (unit: T) => string | number = (u) => u as unknown as string): (a: readonly T[]) => Span | null {
  const ids = new Map<unknown, number>();
  const code = (unit: T): number => {
    const k = key(unit);
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = ids.size));
    return id;
  };
  const y = Int32Array.from(b, code);
  const K = 8;
  return (a) => {
    const x = Int32Array.from(a, code);
    const k = Math.min(K, x.length);
    if (k < K || y.length < k) return null;
    // a's unique grams; then one pass over b, keeping the places of those only.
    const wanted = new Map<number, number>();
    for (const [h, i] of uniqueGrams(x, 0, x.length, k)) if (i >= 0) wanted.set(h, i);
    const places = new Map<number, number[]>();
    for (let j = 0; j + k <= y.length; j++) {
      const i = wanted.get(gramHash(y, j, k));
      if (i === undefined || !sameGram(x, i, y, j, k)) continue;
      const list = places.get(i);
      if (!list) places.set(i, [j]);
      else list.push(j);
    }
    const is: number[] = [];
    const js: number[] = [];
    // Pairs by i, and within one i by j descending, so that a chain takes one place of each gram.
    for (const i of [...places.keys()].sort((p, q) => p - q)) {
      const list = places.get(i)!;
      if (list.length > MAX_PLACES) continue;
      for (let n = list.length - 1; n >= 0; n--) {
        is.push(i);
        js.push(list[n]);
      }
    }
    const chain = longestChain(is, js);
    if (chain.length === 0) return null;
    const first = chain[0];
    const last = chain[chain.length - 1];
    const start = Math.max(0, js[first] - is[first]);
    const end = Math.min(y.length, js[last] + k + (x.length - is[last] - k));
    return { start, end: Math.max(start, end) };
  };
}

/** Where a's text stands in b (blockLocator, once). */
export function locateBlock<T>(a: readonly T[], b: readonly T[], options: Pick<AlignOptions<T>, 'key'> = {}): Span | null {
  const key = options.key;
  return blockLocator(b, key ? (u) => key(u, 'b') : undefined)(a);
}
