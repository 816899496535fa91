/**
 * The read texts (read-texts.yaml): what a reader says each text of the
 * development corpora is — its title, author, volumes, headings, which spans
 * are commentary and in which layer — written from the source before the tool
 * was run on it, and the measure of the tool against it: each text right or
 * misread (and why), flagged by the verdict or not. The test
 * (read-texts.slow.ts) and the corpus table (scripts/corpus-table.ts) read it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadEdition, type LoadedEdition } from '../engine/load.js';
import { importReports } from '../cli/import-reports.js';
import type { ImportReport } from './import-report.js';
import { convertPlain } from '../transform/script.js';
import type { Block, Inline, Root } from '../tree/types.js';

/** A count the reader gives: exact, or a range [low, high] where the source leaves it open. */
type Count = number | [number, number];

export interface ReadText {
  file: string;
  /** What the reader saw, in a line. */
  read: string;
  /** The work's name (null: the text does not name it); a list where either is right. */
  title: string | string[] | null;
  /** Who wrote the work (not its commentator); null: the text names no author. */
  author: string | string[] | null;
  dynasty?: string;
  /** A commentator the byline names: one of the contributors, never taken for the author. */
  commentator?: string;
  volumes: Count;
  headings?: Count;
  /** Texts that are headings (or a volume's title), markup and notes aside. */
  heads?: string[];
  /** Lines that are no heading and open no volume (a contents list's entries). */
  notHeads?: string[];
  /** Spans in a note or commentary paragraph (of this layer, when given). */
  notes?: Array<{ text: string; layer?: string }>;
  /** Spans of the main text (not in a note, not commentary). */
  main?: string[];
  /** The commentary's share of the characters, [low, high] (0 … 1). */
  share?: [number, number];
  /** Markup characters the reader accepts left in the text (default 0). */
  markup?: number;
}

export const CORPORA = '../shared/corpora';
const EXPECTATIONS = path.join(path.dirname(new URL(import.meta.url).pathname), 'read-texts.yaml');

export function readTexts(): ReadText[] {
  return parse(readFileSync(EXPECTATIONS, 'utf8')) as ReadText[];
}

/** Text without white space and the source's line-end marks. */
const squash = (s: string): string => s.replace(/[\s\u3000¶]/gu, '');
// The reader writes what the source writes; the edition may be set in the other script (a simplified source in
// traditional characters): both are compared in simplified form, which folds the two.
const fold = (s: string): string => convertPlain(squash(s), 'traditional', 'simplified');

function plain(nodes: readonly Inline[], notes: boolean): string {
  return nodes.map((n) => (n.type === 'text' || n.type === 'lacuna' ? n.value : n.type === 'glyph' ? (n.replacement ?? n.description ?? '字') : 'children' in n && (notes || n.type !== 'note') ? plain(n.children as Inline[], notes) : '')).join('');
}

function eachNote(nodes: readonly Inline[], f: (layer: string, text: string) => void): void {
  for (const n of nodes) {
    if (n.type === 'note') f(n.layer, fold(plain(n.children, true)));
    if ('children' in n) eachNote(n.children as Inline[], f);
  }
}

interface Seen {
  title: string | null;
  author: string;
  dynasty: string;
  contributors: string[];
  volumes: number;
  headings: string[];
  heads: Set<string>;
  notes: Array<{ layer: string; text: string }>;
  main: string[];
  share: number;
  markup: number;
}

function seen(tree: Root, report: ImportReport): Seen {
  const title = report.title?.text ?? null;
  const headings: string[] = [];
  const heads = new Set<string>();
  const notes: Array<{ layer: string; text: string }> = [];
  const main: string[] = [];
  for (const v of tree.children) {
    heads.add(fold(v.title));
    for (const b of v.children as Block[]) {
      const own = fold(plain(b.children, false));
      if (b.type === 'heading') {
        if (own !== fold(title ?? '')) headings.push(own);
        heads.add(own);
      } else if (b.role === 'title') heads.add(own);
      if (b.type === 'paragraph' && b.role === 'commentary') notes.push({ layer: b.layer ?? 'zhu', text: fold(plain(b.children, true)) });
      else if (b.type === 'paragraph') main.push(own);
      eachNote(b.children, (layer, text) => notes.push({ layer, text }));
    }
  }
  const commentary = Object.values(report.figures.layers).reduce((k, n) => k + n, 0);
  return {
    title,
    author: tree.edition.author,
    dynasty: tree.edition.dynasty ?? '',
    contributors: report.title?.contributors.map((c) => c.name) ?? [],
    volumes: tree.children.length,
    headings,
    heads,
    notes,
    main,
    share: report.figures.characters ? commentary / report.figures.characters : 0,
    markup: report.anomalies.filter((a) => a.kind === 'markup-left').reduce((k, a) => k + a.count, 0),
  };
}

const inCount = (n: number, c: Count): boolean => (typeof c === 'number' ? n === c : n >= c[0] && n <= c[1]);
const shown = (c: Count): string => (typeof c === 'number' ? String(c) : `${c[0]}–${c[1]}`);
const oneOf = (x: string | null, want: string | string[] | null): boolean => (want === null ? !x : (Array.isArray(want) ? want : [want]).map(fold).includes(fold(x ?? '')));

/** What the tool got wrong of what the reader says: empty when it read the text right. */
export function misreadings(expected: ReadText, tree: Root, report: ImportReport): string[] {
  const s = seen(tree, report);
  const out: string[] = [];
  if (!oneOf(s.title, expected.title)) out.push(`title ${s.title ?? '無題'}, not ${expected.title ?? 'none'}`);
  if (!oneOf(s.author, expected.author)) out.push(`author ${s.author || 'none'}, not ${expected.author ?? 'none'}`);
  if (expected.dynasty && fold(s.dynasty) !== fold(expected.dynasty)) out.push(`dynasty ${s.dynasty || 'none'}, not ${expected.dynasty}`);
  if (expected.commentator && !s.contributors.map(fold).includes(fold(expected.commentator))) out.push(`commentator ${expected.commentator} not among the contributors (${s.contributors.join('、') || 'none'})`);
  if (!inCount(s.volumes, expected.volumes)) out.push(`${s.volumes} volumes, not ${shown(expected.volumes)}`);
  if (expected.headings !== undefined && !inCount(s.headings.length, expected.headings)) out.push(`${s.headings.length} headings, not ${shown(expected.headings)}`);
  const marked = s.headings.filter((h) => /^[○●◎]|[/|]/u.test(h));
  if (marked.length) out.push(`headings keep their markup: ${marked.slice(0, 2).join(' ')}`);
  for (const h of expected.heads ?? []) if (!s.heads.has(fold(h))) out.push(`no heading ${h}`);
  for (const h of expected.notHeads ?? []) if (s.heads.has(fold(h))) out.push(`${h} read as a heading or volume`);
  for (const n of expected.notes ?? []) {
    const found = s.notes.filter((x) => x.text.includes(fold(n.text)));
    if (found.length === 0) out.push(`${n.text.slice(0, 12)} not commentary`);
    else if (n.layer && !found.some((x) => x.layer === n.layer)) out.push(`${n.text.slice(0, 12)} in ${found[0].layer}, not ${n.layer}`);
  }
  for (const m of expected.main ?? []) if (!s.main.some((x) => x.includes(fold(m)))) out.push(`${m.slice(0, 12)} not main text`);
  if (expected.share && (s.share < expected.share[0] || s.share > expected.share[1])) out.push(`commentary ${(s.share * 100).toFixed(1)}% of the text, not ${expected.share[0] * 100}–${expected.share[1] * 100}%`);
  if (s.markup > (expected.markup ?? 0)) out.push(`${s.markup} markup characters left`);
  return out;
}

export interface ReadResult {
  file: string;
  misread: string[];
  verdict: ImportReport['verdict'];
  reasons: string;
  /**
   * Flagged for what the import read (an anomaly of severity check or wrong but the script conversion's own
   * doubt, issue 30's flag): the read texts measure the importer, whose report must name a misreading itself.
   */
  readingFlagged: boolean;
}

/** One read text through the code `check --json` runs. */
export async function measureRead(expected: ReadText, loaded?: LoadedEdition): Promise<ReadResult> {
  const edition = loaded ?? (await loadEdition(path.join(CORPORA, expected.file)));
  const report = importReports(edition)[0];
  const readingFlagged = report.anomalies.some((a) => a.severity !== 'note' && a.kind !== 'doubtful-conversion');
  return { file: expected.file, misread: misreadings(expected, edition.tree, report), verdict: report.verdict, reasons: report.anomalies.map((a) => a.kind).join(', '), readingFlagged };
}

export interface Tally {
  /** Read right, and the import report flags nothing it read (the conversion's doubt apart: conversionFlagged). */
  right: number;
  rightFlagged: number;
  misreadFlagged: number;
  misreadUnflagged: number;
  /** Of the texts read right and not flagged for their reading, those whose verdict is check for the conversion's doubt alone. */
  conversionFlagged: number;
}

export function tally(results: readonly ReadResult[]): Tally {
  const t: Tally = { right: 0, rightFlagged: 0, misreadFlagged: 0, misreadUnflagged: 0, conversionFlagged: 0 };
  for (const r of results) {
    if (r.misread.length === 0) t[r.readingFlagged ? 'rightFlagged' : 'right']++;
    else t[r.readingFlagged ? 'misreadFlagged' : 'misreadUnflagged']++;
    if (r.misread.length === 0 && !r.readingFlagged && r.verdict !== 'ok') t.conversionFlagged++;
  }
  return t;
}
