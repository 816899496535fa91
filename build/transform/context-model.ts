/**
 * The classical context model of the script conversion: for a simplified
 * character that stands for several distinct traditional ones
 * (one-to-many.ts distinctReadings: 于 → 於/于, 干 → 幹/乾/干), how often
 * each reading stood in traditional text beside the characters around it.
 *
 * The counts are kept by context: the character alone, OpenCC's own pick
 * there (its phrases), the Han character before and after, two before or
 * after, both sides, and three around (L2R, LR2); contexts are the
 * simplified text's Han characters, punctuation and markup skipped, `^`/`$`
 * where a stream of text begins or ends. A choice is estimated from the
 * widest context down, each level's counts smoothed toward the level below
 * (additive smoothing with the lower level as its prior), the two sides of
 * one width combined as independent evidence. The table
 * (context-model.tsv) is derived from public-domain traditional texts by
 * scripts/context-model.ts: counts only, never the texts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distinctReadings, simplifiedChar } from './one-to-many.js';

/** Context kinds, each a key into the counts: `S\tkind\tcontext`. `*` is the character alone. */
export const KINDS = ['*', 'O', 'L1', 'R1', 'L2', 'R2', 'LR', 'L2R', 'LR2'] as const;
export type Kind = (typeof KINDS)[number];

/** One occurrence of a one-to-many character: itself, its Han neighbours (nearest first) and OpenCC's pick. */
export interface Site {
  char: string;
  /** Up to two Han characters before it, the nearest first (`^` past the start). */
  before: readonly string[];
  /** Up to two Han characters after it, the nearest first (`$` past the end). */
  after: readonly string[];
  opencc: string;
}

export function contextsOf(site: Site): Record<Kind, string> {
  const [b1 = '^', b2 = '^'] = site.before;
  const [a1 = '$', a2 = '$'] = site.after;
  return { '*': '', O: site.opencc, L1: b1, R1: a1, L2: b2 + b1, R2: a1 + a2, LR: b1 + a1, L2R: b2 + b1 + a1, LR2: b1 + a1 + a2 };
}

const HAN = /\p{Script=Han}/u;

/**
 * The sites of `chars` (a stream of simplified text, code points) whose
 * character is one-to-many; `opencc[i]` is OpenCC's output at i. Contexts
 * are the nearest Han characters, as simplified characters (a source that
 * keeps some traditional forms reads like one that does not).
 */
export function sitesOf(chars: readonly string[], opencc: readonly string[], readings: ReadonlyMap<string, readonly string[]> = distinctReadings()): Array<{ index: number; site: Site }> {
  const han: number[] = [];
  for (let i = 0; i < chars.length; i++) if (HAN.test(chars[i])) han.push(i);
  const out: Array<{ index: number; site: Site }> = [];
  const at = (k: number) => simplifiedChar(chars[han[k]]);
  for (let k = 0; k < han.length; k++) {
    const i = han[k];
    if (!readings.has(chars[i])) continue;
    const before = k >= 2 ? [at(k - 1), at(k - 2)] : k === 1 ? [at(0), '^'] : ['^', '^'];
    const after = k + 2 < han.length ? [at(k + 1), at(k + 2)] : k + 1 < han.length ? [at(k + 1), '$'] : ['$', '$'];
    out.push({ index: i, site: { char: chars[i], before, after, opencc: opencc[i] ?? chars[i] } });
  }
  return out;
}

/** Counts of readings by context: training adds to it, the shipped table is one read back. */
export class ContextCounts {
  /** Each character's readings, in the order of its counts. */
  readonly readings = new Map<string, readonly string[]>();
  readonly counts = new Map<string, number[]>();

  constructor(readings: ReadonlyMap<string, readonly string[]> = distinctReadings()) {
    for (const [s, r] of readings) this.readings.set(s, r);
  }

  add(site: Site, reading: string, times = 1): void {
    const readings = this.readings.get(site.char);
    const k = readings?.indexOf(reading) ?? -1;
    if (!readings || k < 0) return;
    const contexts = contextsOf(site);
    for (const kind of KINDS) {
      const key = `${site.char}\t${kind}\t${contexts[kind]}`;
      let c = this.counts.get(key);
      if (!c) this.counts.set(key, (c = new Array<number>(readings.length).fill(0)));
      c[k] += times;
    }
  }

  /** Adds `other`'s counts to these. */
  addAll(other: ContextCounts): void {
    this.ensureAll();
    other.ensureAll();
    for (const [key, c] of other.counts) {
      const mine = this.counts.get(key);
      if (mine) c.forEach((n, k) => (mine[k] += n));
      else this.counts.set(key, c.slice());
    }
  }

  /** These counts less `other`'s (a fold held out). */
  minus(other: ContextCounts): ContextCounts {
    this.ensureAll();
    other.ensureAll();
    const out = new ContextCounts(this.readings);
    for (const [key, c] of this.counts) {
      const o = other.counts.get(key);
      const d = o ? c.map((n, k) => n - (o[k] ?? 0)) : c.slice();
      if (d.some((n) => n > 0)) out.counts.set(key, d);
    }
    return out;
  }

  /** Contexts seen fewer than `minCount` times dropped (the character alone always kept). */
  pruned(minCount: number): ContextCounts {
    this.ensureAll();
    const out = new ContextCounts(this.readings);
    for (const [key, c] of this.counts) if (key.includes('\t*\t') || sum(c) >= minCount) out.counts.set(key, c);
    return out;
  }

  /**
   * The table as text: a line a character (`S\t=\treadings`), then a line a
   * context (`S\tkind\tcontext\tcounts`), in code-point order — the same
   * counts give the same bytes. Characters no text showed in two readings
   * are left out (the conversion keeps OpenCC's pick there).
   */
  serialize(header: readonly string[] = []): string {
    this.ensureAll();
    const lines = header.map((h) => `# ${h}`);
    const bySite = new Map<string, string[]>();
    for (const key of this.counts.keys()) {
      const s = key.slice(0, key.indexOf('\t'));
      let list = bySite.get(s);
      if (!list) bySite.set(s, (list = []));
      list.push(key);
    }
    for (const s of [...bySite.keys()].sort(compare)) {
      const alone = this.counts.get(`${s}\t*\t`);
      if (!alone || alone.filter((n) => n > 0).length < 2) continue;
      lines.push(`${s}\t=\t${this.readings.get(s)!.join('')}`);
      const order = (key: string) => KINDS.indexOf(key.split('\t')[1] as Kind);
      for (const key of bySite.get(s)!.sort((a, b) => order(a) - order(b) || compare(a, b))) lines.push(`${key}\t${trimZeros(this.counts.get(key)!).join(' ')}`);
    }
    return lines.join('\n') + '\n';
  }

  /** Blocks of a read table not parsed yet: a character's lines, [start, end) in `source`. */
  private pending?: Map<string, [number, number]>;
  private source = '';

  /** Every character's counts parsed (before the counts are walked whole). */
  ensureAll(): void {
    for (const s of [...(this.pending?.keys() ?? [])]) this.ensure(s);
  }

  /** A character's counts, parsed from the table's text the first time they are asked for. */
  ensure(s: string): void {
    const block = this.pending?.get(s);
    if (!block) return;
    this.pending!.delete(s);
    for (const line of this.source.slice(block[0], block[1]).split('\n')) {
      if (line === '') continue;
      const [c, kind, context, counts] = line.split('\t');
      this.counts.set(`${c}\t${kind}\t${context}`, counts.split(' ').map(Number));
    }
  }

  /**
   * A table read back (serialize's text). Only each character's readings
   * line is read now; its counts when it is first met (ensure): a text
   * meets a few dozen of the table's characters.
   */
  static parse(text: string): ContextCounts {
    const out = new ContextCounts(new Map());
    out.source = text;
    out.pending = new Map();
    let at = 0;
    let last: [number, number] | undefined;
    while (at < text.length) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      const tab = text.indexOf('\t', at);
      if (text[at] !== '#' && tab > at && tab < end && text.startsWith('\t=\t', tab)) {
        if (last) last[1] = at;
        const s = text.slice(at, tab);
        out.readings.set(s, Array.from(text.slice(tab + 3, end)));
        last = [end + 1, text.length];
        out.pending.set(s, last);
      }
      at = end + 1;
    }
    return out;
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sum = (c: readonly number[]) => c.reduce((n, x) => n + x, 0);
function trimZeros(c: readonly number[]): number[] {
  let end = c.length;
  while (end > 1 && c[end - 1] === 0) end--;
  return c.slice(0, end);
}

/** How strongly each level's counts pull away from the level below. */
const SMOOTHING = 3;

export interface Weighed {
  reading: string;
  /** The model's probability of this reading here (0–1; the readings' sum is 1). */
  score: number;
}

export interface Estimate {
  /** The readings, the likeliest first. */
  weighed: Weighed[];
  /** How many times the nearest context (the character before or after) was seen in the table's texts. */
  seen: number;
}

/**
 * The readings of `site` weighed by the counts. `avoid`: readings the text
 * writes itself in traditional form (a source that keeps 於 where its copy
 * has 於 means 于 where it writes 于), made unlikely. `habit`: each reading's
 * weight in this text against the table's texts (habitsOf).
 */
export function estimate(table: ContextCounts, site: Site, avoid?: ReadonlySet<string>, habit?: ReadonlyMap<string, number>): Estimate | undefined {
  const readings = table.readings.get(site.char);
  if (!readings) return undefined;
  table.ensure(site.char);
  const contexts = contextsOf(site);
  const n = readings.length;
  const at = (kind: Kind) => table.counts.get(`${site.char}\t${kind}\t${contexts[kind]}`);
  const smooth = (kind: Kind, prior: number[]) => {
    const c = at(kind);
    const total = c ? sum(c) : 0;
    return prior.map((p, k) => ((c?.[k] ?? 0) + SMOOTHING * p) / (total + SMOOTHING));
  };
  // Two sides of one width: each is evidence on the level below, taken as independent.
  const both = (a: number[], b: number[], prior: number[]) => normalize(prior.map((p, k) => (a[k] * b[k]) / p));
  let p = smooth('*', new Array<number>(n).fill(1 / n));
  p = smooth('O', p);
  const near = both(smooth('L1', p), smooth('R1', p), p);
  const two = both(smooth('L2', near), smooth('R2', near), near);
  const q = smooth('LR', two);
  let out = both(smooth('L2R', q), smooth('LR2', q), q);
  if (habit) out = normalize(out.map((v, k) => v * (habit.get(readings[k]) ?? 1)));
  if (avoid && avoid.size > 0 && readings.some((r) => !avoid.has(r))) out = normalize(out.map((v, k) => (avoid.has(readings[k]) ? v * AVOIDED : v)));
  const weighed = readings.map((reading, k) => ({ reading, score: out[k] })).sort((a, b) => b.score - a.score || readings.indexOf(a.reading) - readings.indexOf(b.reading));
  return { weighed, seen: Math.max(sum(at('L1') ?? []), sum(at('R1') ?? [])) };
}

/** A character's readings as the table's texts have them, the context aside (estimate's first level). */
export function overall(table: ContextCounts, char: string): number[] | undefined {
  const readings = table.readings.get(char);
  if (!readings) return undefined;
  table.ensure(char);
  const c = table.counts.get(`${char}\t*\t`);
  const total = c ? sum(c) : 0;
  return readings.map((_, k) => ((c?.[k] ?? 0) + SMOOTHING / readings.length) / (total + SMOOTHING));
}

/** What a text says of one one-to-many character at one place: the model's weighing there, or a reading known (a witness's). */
export type HabitEvidence = { char: string; weighed: readonly Weighed[] } | { char: string; known: string };

/** How many places' worth the table's own proportions weigh in a text's habits (a text with few places keeps near them). */
const HABIT_PRIOR = 32;

/**
 * A reading under this share of its character's places in the table's texts is a rare one (万 beside 萬, 剋 beside
 * 克): a text's habits may lower it, not raise it (measured: `npm run bench -- conversion`, 65.7 → 64.7 wrong in
 * 10,000; 5 % gave 65.5, 20 % 64.9 and the 尚書's 于 lost).
 */
const RARE_READING = 0.1;

/**
 * A text's own habits (于 where the table's texts mostly write 於, 脩 for
 * 修): for each character, how much more or less often each reading stands
 * in this text than in the table's texts, as the factor estimate's `habit`
 * takes. The text's proportions are estimated from the model's own weighings
 * of all its places (expectation–maximisation: the prior that best explains
 * them; Saerens, Latinne and Decaestecker 2002), readings known at a place
 * (the witness's) counted as certain, the table's proportions weighing as
 * HABIT_PRIOR places. A rare reading (under RARE_READING of its character's
 * places) is raised only where readings are known.
 */
export function habitsOf(table: ContextCounts, evidence: Iterable<HabitEvidence>): Map<string, Map<string, number>> {
  const byChar = new Map<string, number[][]>();
  const witnessed = new Set<string>();
  for (const e of evidence) {
    const readings = table.readings.get(e.char);
    if (!readings) continue;
    const p = 'known' in e ? readings.map((r) => (r === e.known ? 1 : 0)) : readings.map((r) => e.weighed.find((w) => w.reading === r)?.score ?? 0);
    if (p.every((x) => x === 0)) continue;
    if ('known' in e) witnessed.add(e.char);
    let list = byChar.get(e.char);
    if (!list) byChar.set(e.char, (list = []));
    list.push(p);
  }
  const out = new Map<string, Map<string, number>>();
  for (const [char, places] of byChar) {
    const readings = table.readings.get(char)!;
    const base = overall(table, char)!;
    let prior = base.slice();
    for (let round = 0; round < 20; round++) {
      const next = base.map((b) => HABIT_PRIOR * b);
      for (const p of places) normalize(p.map((x, k) => (x * prior[k]) / base[k])).forEach((q, k) => (next[k] += q));
      prior = normalize(next);
    }
    const factors = readings.map((_, k) => prior[k] / base[k]);
    // A reading the table's texts seldom write is never raised by the model's own weighings: the few places where it
    // leans to 万 (作万 in a note 元豐本作万) or 剋 would make a text that writes 萬物 throughout write 万物. The factors
    // weigh readings against each other (萬 lowered is 万 raised): a rare one's is at most the least of the others'.
    // Readings known (a witness's) may raise it.
    if (!witnessed.has(char)) {
      const least = Math.min(...factors.filter((_, k) => base[k] >= RARE_READING));
      factors.forEach((f, k) => void (base[k] < RARE_READING && (factors[k] = Math.min(f, least))));
    }
    out.set(char, new Map(readings.map((r, k) => [r, factors[k]])));
  }
  return out;
}

/** The weight left to a reading the text writes itself elsewhere. */
const AVOIDED = 0.02;

function normalize(v: number[]): number[] {
  const z = sum(v);
  return z > 0 ? v.map((x) => x / z) : v.map(() => 1 / v.length);
}

/**
 * Readings each one-to-many character's text writes in traditional form
 * (at least `min` times): 於 in a simplified source that keeps 於 where its
 * original has it. Such a source writes 于 for 于.
 */
export function writtenReadings(text: string, min = 3, readings: ReadonlyMap<string, readonly string[]> = distinctReadings()): Map<string, Set<string>> {
  const bySimplified = new Map<string, string[]>();
  for (const [s, rs] of readings) for (const r of rs) if (r !== s) bySimplified.set(r, [...(bySimplified.get(r) ?? []), s]);
  const counts = new Map<string, number>();
  for (const c of text) if (bySimplified.has(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  const out = new Map<string, Set<string>>();
  for (const [r, n] of counts) {
    if (n < min) continue;
    for (const s of bySimplified.get(r)!) {
      let set = out.get(s);
      if (!set) out.set(s, (set = new Set()));
      set.add(r);
    }
  }
  return out;
}

let shipped: ContextCounts | undefined;
/** The table shipped with diaoban (context-model.tsv beside this module's source), read on first use. */
export function contextModel(): ContextCounts {
  if (!shipped) {
    // From build/transform/ or lib/transform/ alike: the checkout is two folders up.
    const here = path.dirname(fileURLToPath(import.meta.url));
    shipped = ContextCounts.parse(readFileSync(path.join(here, '..', '..', 'build', 'transform', 'context-model.tsv'), 'utf8'));
  }
  return shipped;
}
