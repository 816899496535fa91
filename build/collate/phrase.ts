/**
 * The 校勘記's entries in the classical form:
 *   「讀」，四庫本作「擴」              a reading
 *   四庫本無「者」字 / 無「之所」二字     the witness lacks the base's text
 *   四庫本「學」下有「不」字             the witness has more
 *   四庫本此下有一百二十字               … a block more
 *   四庫本無「潜夫論卷」至「賢難第五」二十八字   … a block less
 *   「夫瑚簋之」至「則皆成宗」四十字，四庫本在「明師」下   a block moved
 * Witnesses reading alike are named together (四庫本、聚珍本作「某」); a
 * place in a note is cited as such (注「某」…).
 */
import type { Apparatus, VolumeCollation, WitnessReading } from '../tree/types.js';

const DIGITS = '〇一二三四五六七八九';

/** A count as words: 二, 十二, 一百二十, 一千〇五, 三萬二千. */
export function countWords(n: number): string {
  if (!Number.isInteger(n) || n < 0) return String(n);
  if (n === 0) return DIGITS[0];
  if (n >= 1e8) return `${countWords(Math.floor(n / 1e8))}億${n % 1e8 ? (n % 1e8 < 1e7 ? '〇' : '') + countWords(n % 1e8) : ''}`;
  if (n >= 1e4) return `${countWords(Math.floor(n / 1e4))}萬${n % 1e4 ? (n % 1e4 < 1e3 ? '〇' : '') + countWords(n % 1e4) : ''}`;
  const units: Array<[number, string]> = [[1000, '千'], [100, '百'], [10, '十']];
  let s = '';
  let rest = n;
  let gap = false;
  for (const [size, name] of units) {
    const d = Math.floor(rest / size);
    rest %= size;
    if (d > 0) {
      if (gap) s += DIGITS[0];
      // 十二, not 一十二, when the number starts with its tens.
      s += (d === 1 && size === 10 && s === '' ? '' : DIGITS[d]) + name;
      gap = false;
    } else if (s !== '') gap = true;
  }
  if (rest > 0) s += (gap ? DIGITS[0] : '') + DIGITS[rest];
  return s;
}

/** Blocks of at least this many characters are cited by their first and last words and counted. */
export const BLOCK = 12;
const EDGE = 4;

const length = (s: string): number => Array.from(s).length;

/** 「某」 for a short text; 「首四字」至「末四字」 for a block. */
function cite(text: string): string {
  const chars = Array.from(text);
  if (chars.length < BLOCK) return `「${text}」`;
  return `「${chars.slice(0, EDGE).join('')}」至「${chars.slice(-EDGE).join('')}」`;
}

/** 字 after one character, 二字 after two … */
function count(text: string): string {
  const n = length(text);
  return n === 1 ? '字' : `${countWords(n)}字`;
}

/** One witness's (or several alike) part of an entry. */
function part(names: string, r: WitnessReading, ap: Omit<Apparatus, 'text'>): string {
  switch (r.kind) {
    case 'reading': {
      const n = length(r.text);
      return n >= BLOCK ? `${names}作${cite(r.text)}${countWords(n)}字` : `${names}作「${r.text}」`;
    }
    case 'omission':
      return `${names}無${cite(ap.base)}${count(ap.base)}`;
    case 'addition':
      if (length(r.text) >= BLOCK) return `${names}此下有${countWords(length(r.text))}字`;
      if (ap.before) return `${names}「${ap.before}」下有「${r.text}」${count(r.text)}`;
      return `${names}「${ap.following ?? ''}」上有「${r.text}」${count(r.text)}`;
    case 'move':
      return r.after ? `${names}在「${r.after}」下` : `${names}在卷首`;
  }
}

/** The entry's text for its readings (the base reading cited first where the form needs it). */
export function apparatusText(ap: Omit<Apparatus, 'text'>): string {
  // Witnesses with the same kind and text are named together, in their first order.
  const groups: Array<{ names: string[]; reading: WitnessReading }> = [];
  for (const r of ap.readings) {
    const same = groups.find((g) => g.reading.kind === r.kind && g.reading.text === r.text && g.reading.after === r.after);
    if (same) same.names.push(r.witness);
    else groups.push({ names: [r.witness], reading: r });
  }
  const parts = groups.map((g) => part(g.names.join('、'), g.reading, ap));
  const citesBase = groups.some((g) => g.reading.kind === 'reading' || g.reading.kind === 'move');
  const head = citesBase ? `${cite(ap.base)}${length(ap.base) >= BLOCK ? `${countWords(length(ap.base))}字` : ''}，` : '';
  return `${ap.inNote ? (citesBase ? '注' : '注：') : ''}${head}${parts.join('；')}`;
}

/** The closing lines of a volume's 校勘記 on the variant forms folded: counted, or listed pair by pair (most first); none for omit. */
export function tallyLines(collation: VolumeCollation | undefined): string[] {
  if (!collation || collation.variants === 'omit') return [];
  return collation.tallies.map((t) => {
    const head = `${t.witness}異體字凡${countWords(t.count)}處`;
    if (collation.variants === 'count') return `${head}，不出校。`;
    return `${head}：${t.pairs.map(([base, reading, n]) => `${base}作${reading}${n > 1 ? countWords(n) : ''}`).join('、')}。`;
  });
}
