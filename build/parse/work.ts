/**
 * A work's folder read as one edition: a Kanripo repository (its
 * `KRxxxxx_NNN.txt` juan files, `_000` what stands before 卷一: 提要,
 * prefaces, contents) or any folder of a work's text files. Which files are
 * the work's and in what order, and the witness a Kanripo text follows
 * (its `BASEEDITION`). Pure: a folder's names in, the work's files out.
 */
import { chineseNumber } from './blocks.js';

export interface WorkFiles {
  /** The work's source files, in reading order. */
  files: string[];
  /** A Kanripo repository: its id (KR1a0006) and its front matter's file (`_000`), when it has one. */
  kanripo?: { id: string; front?: string };
}

/** A Kanripo juan file: the repository's id and the juan's number (000 for what stands before 卷一). */
const KANRIPO_JUAN = /^(KR\d[a-z]\d{4}[a-z]?)_(\d{3,4})\.txt$/u;
/** A text file of a work (the formats parse/formats.ts reads). */
const TEXT_FILE = /\.(?:txt|text|md|markdown)$/iu;
/** Files beside a work's text that are not its text: a repository's notes, its licence, a corpus's list of sources. */
const NOT_THE_TEXT = /^(?:readme|licen[cs]e|copying|changelog|changes|sources|contributing|authors|notice)(?:\.[^.]*)?$/iu;

/** A name's parts, numbers (ASCII or Chinese numerals: 卷2, 卷十) told from the rest, for a natural order. */
function naturalParts(name: string): Array<string | number> {
  return (name.match(/\d+|[〇零一二三四五六七八九十百千]+|[^\d〇零一二三四五六七八九十百千]+/gu) ?? []).map((part) =>
    /^\d+$/u.test(part) ? Number(part) : /^[〇零一二三四五六七八九十百千]+$/u.test(part) ? (chineseNumber(part) ?? part) : part,
  );
}

/** juan2 before juan10, 卷二 before 卷十; names alike in their numbers compared as written. */
export function naturalCompare(a: string, b: string): number {
  const x = naturalParts(a);
  const y = naturalParts(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i]!, y[i]!];
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    // A number sorts before a word at the same place (卷1 before 卷上).
    if (typeof p === 'number') return -1;
    if (typeof q === 'number') return 1;
    return p < q ? -1 : 1;
  }
  return x.length - y.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The work's files among a folder's names: a Kanripo repository's juan
 * files by their number (the repository whose id most files carry, should
 * two be mixed), else every text file but the folder's notes, in natural
 * order. Null when there is none: the folder holds no work.
 */
export function workFiles(names: readonly string[]): WorkFiles | null {
  const visible = names.filter((n) => !n.startsWith('.') && !n.includes('/'));
  const juan = visible.map((n) => KANRIPO_JUAN.exec(n)).filter((m): m is RegExpExecArray => m !== null);
  if (juan.length > 0) {
    const counts = new Map<string, number>();
    for (const m of juan) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
    const id = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
    const files = juan.filter((m) => m[1] === id).sort((a, b) => Number(a[2]) - Number(b[2])).map((m) => m[0]);
    const front = juan.find((m) => m[1] === id && Number(m[2]) === 0)?.[0];
    return { files, kanripo: { id, ...(front ? { front } : {}) } };
  }
  const files = visible.filter((n) => TEXT_FILE.test(n) && !NOT_THE_TEXT.test(n)).sort(naturalCompare);
  return files.length > 0 ? { files } : null;
}

/**
 * Kanripo's witnesses (`#+PROPERTY: BASEEDITION`, the branch names of a
 * repository): the edition each code stands for, as a 校勘記 names it.
 */
export const KANRIPO_WITNESSES: Readonly<Record<string, string>> = {
  WYG: '文淵閣四庫全書本',
  SBCK: '四部叢刊本',
  HFL: '涵芬樓影印正統道藏本',
  T: '大正新脩大藏經本',
  X: '卍新纂續藏經本',
  A: '趙城金藏本',
};

/** The edition a witness's code names (WYG → 文淵閣四庫全書本), or undefined for a code not in the table. */
export function witnessName(code: string): string | undefined {
  return Object.hasOwn(KANRIPO_WITNESSES, code) ? KANRIPO_WITNESSES[code] : undefined;
}
