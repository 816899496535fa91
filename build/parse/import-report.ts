/**
 * The import report of one source (`diaoban check --json`): what was
 * detected and how surely, the figures, the title and where it came from,
 * the readings taken where a convention can go two ways, and the anomalies
 * that say an import may be wrong — so that a project with a thousand texts
 * reads only the flagged ones. Pure: a parsed source (and the converted
 * names transform/names.ts found) in, a report out.
 */
import type { VFileMessage } from 'vfile-message';
import type { Block, Inline, Note, Volume } from '../tree/types.js';
import type { ParsedSource, WorkTitle } from './index.js';
import { NUMERAL, conventionsOf } from './formats.js';
import { DYNASTIES, authorOf, bylineIn, isTitle, namesTheWork, parseByline, splitTitleLine } from './title.js';

export type Verdict = 'ok' | 'check' | 'wrong';

export type AnomalyKind =
  | 'one-paragraph'
  | 'notes-without-han'
  | 'header-lines'
  | 'markup-left'
  | 'reversed-subcolumns'
  | 'converted-names'
  | 'doubtful-conversion'
  | 'no-title'
  | 'unsure-format'
  | 'suspect-title'
  | 'suspect-byline'
  | 'empty-volumes'
  | 'nested-notes'
  | 'glued-lines'
  | 'structure-as-text'
  | 'dynasty-as-note'
  | 'labels-as-text';

export interface Anomaly {
  kind: AnomalyKind;
  /**
   * `wrong`: the import is surely wrong; `check`: a person should look; `note`: said, but no misreading (the text
   * names no work; the format was chosen on little evidence, and nothing else is amiss): the verdict stays ok.
   */
  severity: 'check' | 'wrong' | 'note';
  count: number;
  /** What it is and what to do, in one sentence. */
  message: string;
  /** The first few, as the text has them, with their place (line:column). */
  examples: string[];
}

export interface ImportReport {
  file: string;
  format: string;
  formatName: string;
  encoding: string;
  detection: { forced: boolean; score: number; runnerUp: number; confidence: number };
  figures: {
    characters: number;
    paragraphs: number;
    notes: number;
    /** Characters by layer id. */
    layers: Record<string, number>;
    anchors: { page: number; line: number };
    entities: number;
    compositions: number;
    headings: number;
    volumes: number;
  };
  /** `author`: who wrote the work, of the contributors (title.ts authorOf: never a commentator, unless the work is the commentary). */
  title: { text: string; from: string; line?: number; author?: string; contributors: Array<{ dynasty?: string; name: string; role: string }> } | null;
  /** Readings taken where a convention can go two ways, and why (the info messages that say so). */
  readings: Array<{ rule: string; reading: string }>;
  /** Glyphs (entities, compositions, Private Use Area characters) by how the edition prints them (cli/import-reports.ts, from the converted tree). */
  glyphs?: GlyphFigures;
  anomalies: Anomaly[];
  verdict: Verdict;
  /** A converted source: the script conversion's doubtful choices among its Han characters. */
  conversion?: { doubtful: number; characters: number };
}

/**
 * How a source's glyphs are printed: as a character (the charmap's, the
 * list's, GB 18030's; a glyph with a drawing is drawn where no font has it),
 * drawn from a list's image, composed from parts, written as a formula in
 * one cell, or 〓.
 */
export interface GlyphFigures {
  character: number;
  image: number;
  parts: number;
  formula: number;
  placeholder: number;
}

/** The rules of the messages that state a reading taken from the whole text. */
export const READING_RULES = new Set(['bracket-reading', 'subcolumn-order', 'paragraph-lines', 'composition-reading', 'numbered-commentary', 'run-label-reading', 'indent-reading', 'heading-by-depth', 'contents-reading']);

/** Lines that look like a file header or forme-work, not like text. */
// 下載最新版本 (a download line), not 下載此事 (written below).
const HEADER_LIKE = /https?:\/\/|www\.|@fw|<md:|下[載载](?:最新|地址|鏈接|链接|請|请)|創建日期|创建日期|更新日期|全文完|^#/u;
/** Markup of some convention left in the text (numbering in parentheses, 1) or (12), is text). */
const MARKUP = /〔[〇一二三四五六七八九十百\d]+〕|【[^【】\n]{1,4}】|[~*<>{}[\]\\/#@&|^_=]|\((?!\d{1,3}\))|(?<!\(\d{1,3})\)/gu;
const HAN = /\p{Script=Han}/u;

function place(n: { position?: { start: { line?: number; column?: number } } }): string {
  const s = n.position?.start;
  return s?.line ? `${s.line}:${s.column ?? 1}` : '';
}

function textOf(nodes: readonly Inline[], notes: boolean): string {
  return nodes.map((n) => (n.type === 'text' || n.type === 'lacuna' ? n.value : n.type === 'glyph' ? '字' : 'children' in n && (notes || n.type !== 'note') ? textOf(n.children as Inline[], notes) : '')).join('');
}

function visitInline(nodes: readonly Inline[], f: (n: Inline) => void): void {
  for (const n of nodes) {
    f(n);
    if ('children' in n) visitInline(n.children as Inline[], f);
  }
}

const count = (s: string) => Array.from(s.replace(/[\s\u3000]/gu, '')).length;

/**
 * The largest block's share of the main text (notes aside: a 經 sentence with
 * long 注疏 notes is one paragraph by right): a whole file in one paragraph
 * lost its structure. `all`: every character, notes too.
 */
export function largestParagraph(volumes: readonly Volume[]): { share: number; characters: number; total: number; all: number; at: string } {
  let total = 0;
  let all = 0;
  let best = 0;
  let at = '';
  for (const v of volumes) {
    for (const b of v.children) {
      all += count(textOf(b.children, true));
      const n = count(textOf(b.children, false));
      total += n;
      if (n > best) [best, at] = [n, place(b)];
    }
  }
  return { share: total ? best / total : 0, characters: best, total, all, at };
}

/** Notes without a Han character (1, 2 …: numbering taken for commentary). */
export function notesWithoutHan(volumes: readonly Volume[]): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  for (const v of volumes) {
    for (const b of v.children) {
      visitInline(b.children, (n) => {
        if (n.type !== 'note') return;
        const t = textOf(n.children, true);
        // (□): a note whose characters are lost is a note.
        if (!HAN.test(t) && !n.children.some((c) => c.type === 'glyph' || c.type === 'lacuna')) out.push({ text: t, at: place(n) });
      });
    }
  }
  return out;
}

/** Blocks that look like a file header or forme-work (a download URL, @fw, <md:…>). */
export function headerLikeBlocks(volumes: readonly Volume[]): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  for (const v of volumes) {
    for (const b of v.children) {
      const t = textOf(b.children, true);
      if (HEADER_LIKE.test(t.trim())) out.push({ text: t.trim().slice(0, 40), at: place(b) });
    }
  }
  return out;
}

/** Markup characters of any convention left in the text nodes. */
export function markupLeft(volumes: readonly Volume[]): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  for (const v of volumes) {
    for (const b of v.children) {
      visitInline(b.children, (n) => {
        if (n.type !== 'text') return;
        for (const m of n.value.matchAll(MARKUP)) {
          const s = n.position?.start;
          out.push({ text: m[0], at: s?.line ? `${s.line}:${(s.column ?? 1) + (m.index ?? 0)}` : '' });
        }
      });
    }
  }
  return out;
}

/** A note's part that glosses a character's sound: 讟音瀆, 共音恭, 陬側鳩反, 异羊吏切. */
const SOUND = /^\p{Script=Han}(?:音\p{Script=Han}|\p{Script=Han}{2}[反切])/u;

/**
 * Sub-column order, measured: how often the part of a note before the split
 * starts with a character of the words just before the note (a gloss names
 * what it glosses first), or glosses a sound (讟音瀆), or is a 反切's 反 alone
 * (`(反/扶又)` reads 扶又反 only left first) — and how often the part after
 * it does. A text whose notes start after the split far more often reads its
 * sub-columns reversed.
 */
/** Words a note's sub-column holds alone, and where they stand when the note reads right: 扶又反, 春遇切, 音低. */
const ALONE_IN_SUBCOLUMN: ReadonlyMap<string, 'first' | 'last'> = new Map([
  ['反', 'last'],
  ['切', 'last'],
  ['音', 'first'],
]);

export function subcolumnOrder(volumes: readonly Volume[]): { split: number; inOrder: number; reversed: number } {
  let split = 0;
  let inOrder = 0;
  let reversed = 0;
  for (const v of volumes) {
    for (const b of v.children) {
      let before = '';
      const walk = (nodes: readonly Inline[]) => {
        for (const n of nodes) {
          if (n.type === 'text') before = (before + n.value).slice(-12);
          else if (n.type === 'note') {
            measure(n, before);
            before = '';
          } else if ('children' in n) walk(n.children as Inline[]);
        }
      };
      const measure = (n: Note, context: string) => {
        if (n.split === undefined || n.splits) return;
        const t = Array.from(textOf(n.children, true));
        const right = t.slice(0, n.split);
        const left = t.slice(n.split);
        if (right.length === 0 || left.length === 0) return;
        // A sound's word alone in one sub-column: the 反切 reads 反 or 切 last, 音X (pronounced X) reads 音 first.
        const alone = ALONE_IN_SUBCOLUMN.get(right.join('')) === 'first' || ALONE_IN_SUBCOLUMN.get(left.join('')) === 'last' ? 'inOrder' : ALONE_IN_SUBCOLUMN.has(right.join('')) || ALONE_IN_SUBCOLUMN.has(left.join('')) ? 'reversed' : undefined;
        if (alone) {
          split++;
          if (alone === 'inOrder') inOrder++;
          else reversed++;
          return;
        }
        if (right.length < 2 || left.length < 2) return;
        const words = new Set(Array.from(context.replace(/[^\p{Script=Han}]/gu, '')).slice(-4));
        const r = words.has(right[0]) || SOUND.test(right.join(''));
        const l = words.has(left[0]) || SOUND.test(left.join(''));
        if (words.size === 0 && !r && !l) return;
        split++;
        if (r && !l) inOrder++;
        else if (l && !r) reversed++;
      };
      walk(b.children);
    }
  }
  return { split, inOrder, reversed };
}

/** Sub-columns that read reversed beyond doubt: the text writes them left first, and the importer swaps them. */
export function clearlyReversed(order: { split: number; inOrder: number; reversed: number }): boolean {
  // 貞觀政要's juan files read left first 3 to 7 times as often as in order; texts written right first, at most a third.
  return (order.reversed >= 10 && order.reversed >= 2.5 * order.inOrder) || (order.reversed >= 6 && order.reversed >= 6 * order.inOrder);
}

/** Why a title found in the text is not the work's name alone, or null: what a misread head of a text gives. */
export function titleProblem(title: string): string | null {
  if (/[卷巻](?:第|之)?[〇零一二三四五六七八九十百千]+|[卷巻][上中下]$/u.test(title)) return 'names a volume';
  if (/目[录錄録]$/u.test(title)) return 'is a contents line';
  if (new RegExp(`第[${NUMERAL}]+$`, 'u').test(title)) return 'is a chapter name';
  if (/[类類]$|^[經经史子集]部/u.test(title)) return 'is a category';
  // A byline has its dynasty (春秋穀梁傳 ends in 梁傳, a dynasty and a role, and is a title).
  if (splitTitleLine(title)?.contributors.some((c) => c.dynasty) || /[\s\u3000]/u.test(title)) return 'carries a byline or more';
  if (!isTitle(title) || /[^\p{Script=Han}·・〇]/u.test(title)) return 'holds markup or punctuation';
  return null;
}

/** Contributors whose name is no name: a chapter in it (隱公第一范甯), a volume, or longer than a name runs (玄宗明皇帝御). */
export function bylineProblems(contributors: ReadonlyArray<{ name: string }>): string[] {
  return contributors.map((c) => c.name).filter((n) => new RegExp(`第[${NUMERAL}]|[卷巻]`, 'u').test(n) || Array.from(n).length > 5);
}

/** Volumes with no text: only a title, a byline, front matter or headings (a contents list read as volumes). */
export function emptyVolumes(volumes: readonly Volume[]): Array<{ text: string; at: string }> {
  const body = (b: Block) => b.type === 'paragraph' && b.role !== 'title' && b.role !== 'byline' && b.role !== 'front' && count(textOf(b.children, true)) > 0;
  return volumes.filter((v) => !v.children.some(body)).map((v) => ({ text: v.title, at: place(v) }));
}

/**
 * Notes inside a note of the same layer: one note's end taken for another's start (no convention nests a layer in
 * itself) — but round parentheses inside round parentheses, each closed, are the source's own (（聖教（佛本行讚）十二首）).
 */
export function nestedNotes(volumes: readonly Volume[], text = ''): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  const round = (n: Note) => {
    const open = text[n.position?.start.offset ?? -1];
    const close = text[(n.position?.end.offset ?? 0) - 1];
    return (open === '（' && close === '）') || (open === '(' && close === ')');
  };
  const walk = (nodes: readonly Inline[], layers: ReadonlySet<string>, outer?: Note) => {
    for (const n of nodes) {
      if (n.type === 'note' && layers.has(n.layer) && !(outer && round(outer) && round(n))) out.push({ text: textOf(n.children, true).slice(0, 20), at: place(n) });
      if ('children' in n) walk(n.children as Inline[], n.type === 'note' ? new Set([...layers, n.layer]) : layers, n.type === 'note' ? n : outer);
    }
  };
  for (const v of volumes) for (const b of v.children) walk(b.children, new Set());
  return out;
}

/**
 * Paragraphs with a source line that is the work's or the volume's title, or a
 * byline, run together with text: the head of a text read as its first paragraph.
 */
export function gluedLines(volumes: readonly Volume[], title: string | undefined): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  for (const v of volumes) {
    const names = new Set([title, v.title].filter((t): t is string => !!t));
    for (const b of v.children) {
      if (b.type !== 'paragraph' || b.role !== 'text') continue;
      const lines = new Map<number, string>();
      visitInline(b.children, (n) => {
        const line = n.position?.start.line;
        if (n.type === 'text' && line) lines.set(line, (lines.get(line) ?? '') + n.value);
      });
      if (lines.size < 2) continue;
      for (const [line, raw] of lines) {
        const t = raw.replace(/[\s\u3000¶]/gu, '');
        // A byline with its dynasty or set out with gaps: a print's last column may end in a role's character (史白錄).
        const byline = Array.from(t).length <= 24 ? parseByline(raw.replace(/[¶]/gu, '').trim()) : null;
        if (names.has(t) || (byline && (byline[0].dynasty !== undefined || /\p{Script=Han}[\s\u3000]+\p{Script=Han}/u.test(raw.trim())))) out.push({ text: t, at: `${line}:1` });
      }
    }
  }
  return out;
}

const SENTENCE = /[，。；、！？「」『』“”]/u;
const CHAPTER_OR_VOLUME = new RegExp(`(?:第[${NUMERAL}]+|[卷巻](?:之|第)?[${NUMERAL}]+|[卷巻][上中下])$`, 'u');

const CATEGORY = /^(?:[經经史子集]部[〇一二三四五六七八九十]*|\p{Script=Han}{1,6}[類类][〇一二三四五六七八九十]*)$/u;

/**
 * Lines in the wrong role: a paragraph of text that is a chapter or volume
 * line (原道第一, 墨子卷之二) or a byline (作者：…, 北齊顏之推撰); a heading
 * that ends in a byline or is a 四庫 category (子部一, 儒家類); a byline
 * that names no one (the work's title, or a name the byline rules cannot read).
 */
export function structureAsText(volumes: readonly Volume[], title?: string): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  for (const v of volumes) {
    // A category stands in the 四庫 head, under the banner or another category (a joke titled 訪類, 物理小識's 天类 under
    // its volume's title, are none).
    let underBanner = false;
    for (const b of v.children) {
      const t = textOf(b.children, false).replace(/[\s\u3000¶]+/gu, ' ').trim();
      if (b.type === 'heading') {
        const last = t.split(' ').pop() ?? '';
        if ((t.includes(' ') && parseByline(last)) || (underBanner && CATEGORY.test(t))) out.push({ text: t, at: place(b) });
        underBanner = underBanner && CATEGORY.test(t);
        continue;
      }
      underBanner = b.role === 'title' && /^(?:欽定四庫全書|钦定四库全书)/u.test(t);
      if (b.role === 'byline') {
        // 儀禮　鄭氏注 (the work, then its commentator): the byline is the last part; a poet's name after a poem's title
        // (○ 木蘭花 / 錢惟演) is a byline too.
        if (t === title || !(bylineIn(t) ?? parseByline(t.split(' ').pop() ?? '') ?? /^\p{Script=Han}{2,4}$/u.exec(t))) out.push({ text: t, at: place(b) });
        continue;
      }
      // A verse line (the source's verse block) is short by nature: no byline nor chapter.
      if (b.role !== 'text' || !t || b.data?.verse) continue;
      const short = Array.from(t).length <= 20;
      // 書經集傳序 reads as a name and a role, but names the work (title.ts namesTheWork): its preface's heading.
      // A name and a role that titles a piece (御制洪范篇序, 随机应化录) is no byline without its dynasty or a place's gap.
      const read = short && !SENTENCE.test(t) ? parseByline(t) : null;
      const byline = read && (read.some((c) => c.dynasty) || !/^(?:序|錄|录|解|傳|传|記|记)$/u.test(read[read.length - 1].role)) ? read : null;
      // The work's title itself at the end (颜氏家训集解 reads as 颜氏家训 and 集解) closes the text.
      if (/^作者[:：]/u.test(t) || (short && t !== title && !SENTENCE.test(t) && (CHAPTER_OR_VOLUME.test(t) || (byline && !(title && byline.some((c) => namesTheWork(c.name, title))))))) out.push({ text: t, at: place(b) });
    }
  }
  return out;
}

/**
 * Run labels the row knows (四庫's bare 注) left at the start of a source line
 * of text: the whole-text decision read them as words, and the 注 they open is set as 經.
 */
export function labelsAsText(volumes: readonly Volume[], labels: readonly string[]): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  if (labels.length === 0) return out;
  for (const v of volumes) {
    for (const b of v.children) {
      if (b.type !== 'paragraph' || b.role !== 'text') continue;
      visitInline(b.children, (n) => {
        if (n.type === 'text' && n.position?.start.column === 1 && labels.some((l) => n.value.startsWith(l) && HAN.test(n.value[l.length] ?? ''))) out.push({ text: n.value.slice(0, 12), at: place(n) });
      });
    }
  }
  return out;
}

const DYNASTY_ONLY = new RegExp(`^(?:${DYNASTIES.join('|')})$`, 'u');

/** Notes that hold a dynasty alone: a byline's （清） read as commentary. */
export function dynastyNotes(volumes: readonly Volume[]): Array<{ text: string; at: string }> {
  const out: Array<{ text: string; at: string }> = [];
  for (const v of volumes) {
    for (const b of v.children) {
      const candidates: Note[] = [];
      visitInline(b.children, (n) => {
        if (n.type === 'note' && DYNASTY_ONLY.test(textOf(n.children, true).trim())) candidates.push(n);
      });
      // A byline's （清）: at the head of its paragraph, or before a name and its role; a one-character gloss (元) is a note.
      for (const n of candidates) {
        const k = b.children.indexOf(n);
        const after = b.children.slice(k + 1).map((c) => (c.type === 'text' ? c.value : '')).join('').trim().slice(0, 10);
        if (k === 0 || (k > 0 && b.children.slice(0, k).every((c) => c.type === 'anchor')) || parseByline(after)) out.push({ text: textOf(n.children, true), at: place(n) });
      }
    }
  }
  return out;
}

function paragraphCount(volumes: readonly Volume[]): number {
  return volumes.reduce((k, v) => k + v.children.filter((b) => b.type === 'paragraph').length, 0);
}

function authorField(title: WorkTitle): { author?: string } {
  const author = authorOf(title.title, title.contributors);
  return author ? { author: author.name } : {};
}

/** A paragraph that is a note alone, among the first blocks of the text, ending in a byline's role (…陶弘景造). */
export function bylineInNote(volumes: readonly Volume[]): { text: string; at: string } | null {
  for (const b of volumes[0]?.children.slice(0, 4) ?? []) {
    const notes = b.children.filter((n): n is Note => n.type === 'note');
    if (notes.length !== 1 || b.children.some((n) => n.type === 'text' && n.value.trim() !== '')) continue;
    const t = textOf(notes[0].children, true).replace(/[\s\u3000¶]/gu, '');
    if (/\p{Script=Han}{2,}[撰造述著編纂譔集注註]$/u.test(t)) return { text: t, at: place(notes[0]) };
  }
  return null;
}

export function verdictOf(anomalies: readonly Anomaly[]): Verdict {
  return anomalies.some((a) => a.severity === 'wrong') ? 'wrong' : anomalies.some((a) => a.severity === 'check') ? 'check' : 'ok';
}

const examples = (list: ReadonlyArray<{ text: string; at: string }>) => list.slice(0, 3).map((e) => `${e.at} ${e.text}`.trim());

export interface ReportInput {
  source: ParsedSource;
  /** The work's title as the edition takes it (edition.yaml's, else the sources'). */
  title: WorkTitle | undefined;
  messages: readonly VFileMessage[];
  /** Names the conversion changed (transform/names.ts), in this source. */
  convertedNames?: ReadonlyArray<{ name: string; became: string; count: number; at: string }>;
  /** The script conversion's doubtful choices in this source (transform/script.ts doubtfulByFile). */
  doubtfulChoices?: { count: number; characters: number; examples: readonly string[] };
}

/** Doubtful conversion choices per 10,000 characters above which a source is not ok (the round trip of the corpora: \`npm run bench -- conversion\`). */
export const DOUBTFUL_PER_10K = 150;

export function importReport({ source, title, messages, convertedNames = [], doubtfulChoices }: ReportInput): ImportReport {
  const { volumes, stats } = source;
  const conv = conventionsOf(source.format);
  const anomalies: Anomaly[] = [];
  const largest = largestParagraph(volumes);
  // Where the importer read the file's lines as the print's columns (Kanripo ¶ ending them), paragraphs end where the
  // print's columns do: a long one is the print's. Where the ¶ fall inside the lines, or end phrases, they tell nothing.
  if (largest.total >= 1500 && largest.share >= 0.5 && !source.printColumns) {
    anomalies.push({ kind: 'one-paragraph', severity: largest.share >= 0.8 ? 'wrong' : 'check', count: largest.characters, message: `${Math.round(largest.share * 100)}% of the main text is one paragraph: its structure (paragraphs, commentary by indentation) was probably not read; check the format, or set conventions: in edition.yaml`, examples: [largest.at] });
  }
  const bare = notesWithoutHan(volumes);
  if (bare.length > 0) {
    anomalies.push({ kind: 'notes-without-han', severity: bare.length >= 10 && bare.length >= stats.notes * 0.2 ? 'wrong' : 'check', count: bare.length, message: `${bare.length} of ${stats.notes} notes have no Han character (numbering taken for commentary?); set conventions: notes in edition.yaml if the brackets are no notes`, examples: examples(bare) });
  }
  const header = headerLikeBlocks(volumes);
  if (header.length > 0) anomalies.push({ kind: 'header-lines', severity: 'check', count: header.length, message: `${header.length} paragraphs look like a file header or forme-work (a URL, @fw, <md:>): they are printed as text; add their pattern to conventions: metadata`, examples: examples(header) });
  const markup = markupLeft(volumes);
  if (markup.length > 0) {
    const total = Math.max(1, largest.all);
    anomalies.push({ kind: 'markup-left', severity: markup.length >= 10 && (markup.length >= 50 || markup.length / total > 0.01) ? 'wrong' : 'check', count: markup.length, message: `${markup.length} markup characters are left in the text (${[...new Set(markup.map((m) => m.text))].slice(0, 6).join(' ')}): a convention was not read`, examples: examples(markup) });
  }
  const order = subcolumnOrder(volumes);
  // Measured on the notes as imported: what decide.ts swapped (reversed beyond doubt) reads in order.
  if (order.split >= 10 && order.reversed >= 5 && order.reversed > 2 * order.inOrder) {
    anomalies.push({ kind: 'reversed-subcolumns', severity: 'check', count: order.reversed, message: `the sub-columns read reversed: of ${order.split} notes split by ${conv.inline.split ?? '/'}, ${order.reversed} start after the split with the words they gloss, ${order.inOrder} before it`, examples: [] });
  }
  if (convertedNames.length > 0) {
    anomalies.push({ kind: 'converted-names', severity: 'wrong', count: convertedNames.reduce((n, c) => n + c.count, 0), message: `names were converted as words (${convertedNames.map((c) => `${c.name}→${c.became}`).join(', ')}); keep them with conversion: phrases in edition.yaml`, examples: convertedNames.slice(0, 3).map((c) => `${c.at} ${c.name}→${c.became}`.trim()) });
  }
  if (doubtfulChoices && doubtfulChoices.count > 0 && doubtfulChoices.count * 10000 > DOUBTFUL_PER_10K * Math.max(1, doubtfulChoices.characters)) {
    const rate = (doubtfulChoices.count * 10000) / Math.max(1, doubtfulChoices.characters);
    anomalies.push({ kind: 'doubtful-conversion', severity: 'check', count: doubtfulChoices.count, message: `${doubtfulChoices.count} of the script conversion's choices are doubtful (${rate.toFixed(0)} per 10,000 characters, more than ${DOUBTFUL_PER_10K}): the context model was not sure which traditional character each simplified one stands for; read them with check --script, name a traditional copy with conversion: { witness: FILE }, or decide with conversion: keep / prefer / phrases`, examples: [...doubtfulChoices.examples] });
  }
  // A text that names no work is read right when none is found: said, for edition.yaml's title:, no misreading.
  if (!title) anomalies.push({ kind: 'no-title', severity: 'note', count: 1, message: 'the text names no work (no title line, heading, 提要 or metadata): the edition is 無題; give title: in edition.yaml', examples: [] });
  if (title && title.from !== 'edition.yaml') {
    const why = titleProblem(title.title);
    if (why) anomalies.push({ kind: 'suspect-title', severity: 'check', count: 1, message: `the title found (${title.title}, from the ${title.from}) ${why}: the head of the text was probably misread; give title: in edition.yaml`, examples: title.line ? [`${title.line}:1 ${title.title}`] : [] });
  }
  // 眞誥卷之一 over (金闕右卿…華陽隱居陶弘景造): a byline in a note under the title, its author unread.
  const noted = title && title.from !== 'edition.yaml' && !authorOf(title.title, title.contributors) ? bylineInNote(volumes) : null;
  if (noted) anomalies.push({ kind: 'suspect-byline', severity: 'check', count: 1, message: `the note under the title ends in ${noted.text.slice(-1)}, as a byline does: the author stands in it and was not read; give author: in edition.yaml`, examples: [`${noted.at} ${noted.text.slice(-12)}`] });
  const names = title && title.from !== 'edition.yaml' ? bylineProblems(title.contributors) : [];
  if (names.length > 0) anomalies.push({ kind: 'suspect-byline', severity: 'check', count: names.length, message: `the byline's names ${names.join(', ')} are no names (a chapter or volume in them, or too long): the byline was misread; give author: in edition.yaml`, examples: names });
  const empty = emptyVolumes(volumes);
  // Nothing but a header (a Kanripo stub of a juan not transcribed): no volume at all.
  if (volumes.length === 0) anomalies.push({ kind: 'empty-volumes', severity: 'check', count: 0, message: 'the file holds no text, only its header or markers: nothing will be printed; is this the file meant?', examples: [] });
  if (empty.length > 0) anomalies.push({ kind: 'empty-volumes', severity: 'check', count: empty.length, message: `${empty.length} of ${volumes.length} volumes hold no text (only a title, byline or headings): a contents list or a running title read as volumes?`, examples: examples(empty) });
  const nested = nestedNotes(volumes, source.text);
  if (nested.length > 0) anomalies.push({ kind: 'nested-notes', severity: 'check', count: nested.length, message: `${nested.length} notes stand inside a note of their own layer: a note's end was probably missed (a label or bracket read as an opening)`, examples: examples(nested) });
  const glued = gluedLines(volumes, title?.title);
  if (glued.length > 0) anomalies.push({ kind: 'glued-lines', severity: 'check', count: glued.length, message: `${glued.length} title or byline lines run on into a paragraph of text: the head of the text was read as text`, examples: examples(glued) });
  const structure = structureAsText(volumes, title?.title);
  if (structure.length > 0) anomalies.push({ kind: 'structure-as-text', severity: 'check', count: structure.length, message: `${structure.length} lines stand in the wrong role (a chapter, volume or byline line printed as text, a byline or category as a heading, a byline that names no one): the head or the headings of the text were misread`, examples: examples(structure) });
  const dynasty = dynastyNotes(volumes);
  if (dynasty.length > 0) anomalies.push({ kind: 'dynasty-as-note', severity: 'check', count: dynasty.length, message: `${dynasty.length} notes hold a dynasty alone: a byline's （朝代） was read as commentary`, examples: examples(dynasty) });
  const labels = labelsAsText(volumes, (conv.inline.runLabels ?? []).map((l) => l.text));
  // Twice in a long text (注足陽明… in 難經本義, 注 the verb) is a word; in a text of a few paragraphs, a label.
  if (labels.length >= 2 && labels.length >= paragraphCount(volumes) * 0.02) anomalies.push({ kind: 'labels-as-text', severity: 'check', count: labels.length, message: `${labels.length} lines of text start with a layer's label (${[...new Set(labels.map((l) => l.text.slice(0, 1)))].join(' ')}) read as a word: the commentary it opens is set as text; check the run-label reading`, examples: examples(labels) });
  const detection = source.detection === 'forced' || !source.detection ? { forced: true, score: 0, runnerUp: 0, confidence: 1 } : { forced: false, score: source.detection.score, runnerUp: source.detection.runnerUp, confidence: source.detection.confidence };
  if (!detection.forced && detection.confidence < 0.25) {
    // Little evidence for the format is no misreading itself: where the import went wrong, another anomaly says how (on the
    // 75 read texts it flagged six, all read right).
    anomalies.push({ kind: 'unsure-format', severity: 'note', count: 1, message: `the format ${source.format} was detected with little to go on (signs ${detection.score} against ${detection.runnerUp}); name it with format: in edition.yaml`, examples: [] });
  }
  let paragraphs = 0;
  for (const v of volumes) paragraphs += v.children.filter((b) => b.type === 'paragraph').length;
  return {
    file: source.file.path ?? '',
    format: source.format,
    formatName: conv.name,
    encoding: source.encoding,
    detection,
    figures: { characters: largest.all, paragraphs, notes: stats.notes, layers: { ...stats.layers }, anchors: { page: stats.pageAnchors, line: stats.lineAnchors }, entities: stats.entities, compositions: stats.compositions, headings: stats.headings, volumes: stats.volumes },
    title: title ? { text: title.title, from: title.from, ...(title.line ? { line: title.line } : {}), ...authorField(title), contributors: title.contributors } : null,
    readings: messages.filter((m) => m.ruleId && READING_RULES.has(m.ruleId) && m.file === source.file.path).map((m) => ({ rule: m.ruleId as string, reading: m.reason })),
    anomalies,
    verdict: verdictOf(anomalies),
    ...(doubtfulChoices ? { conversion: { doubtful: doubtfulChoices.count, characters: doubtfulChoices.characters } } : {}),
  };
}

/**
 * The verdict as the CLI prints it, in check's promised form (file severity
 * message (rule)): `a.txt info verdict ok: chtxt, 318 notes, title 宋書 (heading) (import-verdict)`;
 * `check` and `wrong` are warnings, so that `-q` still prints them.
 */
export function verdictLine(r: ImportReport): string {
  const what = r.anomalies.map((a) => `${a.kind} ${a.count}`).join(', ');
  const severity = r.verdict === 'ok' ? 'info' : 'warning';
  return `${r.file} ${severity} verdict ${r.verdict}${what ? ` (${what})` : ''}: ${r.format}, ${r.figures.notes} notes, title ${r.title ? `${r.title.text} (${r.title.from})` : '無題'} (import-verdict)`;
}
