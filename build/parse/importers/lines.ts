/**
 * The line importer driven by a format's row in formats.ts: Kanripo, chtxt,
 * 國學導航 and plain text with commentary lines in brackets. Per line it asks
 * the row: metadata? a heading or a volume? a whole line of commentary? a
 * commentary block? Paragraphs are one a line or run until a blank line; a
 * line of nothing but page markers goes to the head of the next block.
 */
import type { Block, Inline, Note, Paragraph, Volume } from '../../tree/types.js';
import { BYLINE, SIKU_BANNER, VOLUME_TITLE, VolumeBuilder, chineseNumber, contentsLines, heading, paragraph, physicalLines, reportContents, type Line } from '../blocks.js';
export { physicalLines } from '../blocks.js';
import type { FormatConventions } from '../formats.js';
import { parseInline, splitLabelledNote, type InlineOptions, type LayerLabel } from '../inline.js';
import type { Source } from '../source.js';
import { bylineStartIn, headingKinds, namesTheWorkHere, parseByline, splitTitleLine } from '../title.js';
import { execWithIndices } from '../pattern.js';
import type { ImportResult, SourceMeta } from './corpus.js';
import { append, nameTable } from '../../tree/append.js';

type PhysicalLine = Line;

const SPACE = /[\s\u3000]/u;

/** Where the bracket opened at the head of `content` closes, or -1 (one pass). */
function closingOfHead(content: string, open: string, close: string): number {
  let depth = 0;
  for (let i = 0; i < content.length; i++) {
    if (content.startsWith(open, i)) depth++;
    else if (content.startsWith(close, i) && --depth === 0) return i;
  }
  return -1;
}

export type BracketReading = 'commentary' | 'text';

export interface BracketDecision {
  open: string;
  close: string;
  reading: BracketReading;
  wholeLines: number;
  citations: number;
}

/**
 * Whole lines in a bracket pair: commentary on the line before, or not? From
 * the whole file: a file that writes two or more such lines, more than it
 * starts lines with a 〈citation〉云, uses the pair for commentary.
 */
export function decideBracketLines(lines: readonly PhysicalLine[], pairs: ReadonlyArray<readonly [string, string]>): BracketDecision[] {
  return pairs.map(([open, close]) => {
    let wholeLines = 0;
    let citations = 0;
    for (const { content } of lines) {
      if (!content.startsWith(open)) continue;
      const at = closingOfHead(content, open, close);
      if (at === content.length - close.length) wholeLines++;
      else if (at > 0 && /^[云曰]/u.test(content.slice(at + close.length))) citations++;
    }
    return { open, close, reading: wholeLines >= 2 && wholeLines > citations ? 'commentary' : 'text', wholeLines, citations };
  });
}

/** Cells a source line takes: main characters one each, a note's two sub-columns half. */
function lineCells(content: string, open: string, close: string, split: string | undefined): number {
  let cells = 0;
  let note = -1;
  let right = 0;
  for (const ch of content.replace(/<[^>]*>|¶/gu, '').replace(/&[A-Za-z0-9]+;/gu, '字')) {
    if (ch === open) {
      note = 0;
      right = -1;
    } else if (ch === close && note >= 0) {
      cells += right >= 0 ? Math.max(right, note - right) : Math.ceil(note / 2);
      note = -1;
    } else if (note >= 0) {
      if (ch === split) right = note;
      else note++;
    } else if (!SPACE.test(ch)) cells++;
  }
  return cells;
}

/** The most frequent cell count of the text lines: the source's column length. */
function typicalCells(counts: number[]): number {
  const freq = new Map<number, number>();
  for (const c of counts) if (c >= 10) freq.set(c, (freq.get(c) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [c, n] of freq) if (n > bestCount || (n === bestCount && c > best)) [best, bestCount] = [c, n];
  return bestCount >= 5 ? best : 0;
}

/** A line of nothing but page markers and ¶. */
const ANCHORS_ONLY = /^(?:<(?:pb|md):[^<>]*>|¶)+$/u;

/** The line without the ¶ and page markers at its end (a loop, not a backtracking regex). */
function withoutTrailingAnchors(content: string, anchor: string): string {
  let end = content.length;
  for (;;) {
    if (content.endsWith(anchor, end)) end -= anchor.length;
    else if (content[end - 1] === '>') {
      const open = content.lastIndexOf('<', end - 1);
      if (open >= 0 && /^<(?:pb|md):[^<>]*>$/u.test(content.slice(open, end))) end = open;
      else break;
    } else break;
  }
  return content.slice(0, end);
}

/**
 * The lines that end inside a note which a later line of the same paragraph
 * closes (論語集解義疏's `疏(子張者弟子也…¶` … `…即去也)¶`): one note over
 * lines, not a paragraph ended early. A note still open at a blank line or
 * a metadata line, or at the end, is unclosed: its lines are not marked and
 * read as before (the bracket's positioned error, the text after it kept).
 */
export function linesInsideNotes(lines: readonly PhysicalLine[], open: string, close: string, isData: (content: string) => boolean): boolean[] {
  const inside = lines.map(() => false);
  let depth = 0;
  let pending: number[] = [];
  for (const [i, { content }] of lines.entries()) {
    if (!content || isData(content)) {
      depth = 0;
      pending = [];
      continue;
    }
    for (let k = 0; k < content.length; k++) {
      if (content.startsWith(open, k)) depth++;
      else if (content.startsWith(close, k) && depth > 0) depth--;
    }
    if (depth > 0) pending.push(i);
    else {
      for (const p of pending) inside[p] = true;
      pending = [];
    }
  }
  return inside;
}

/**
 * A table row (org `| 新羅 | 高麗 |`, over one line or several): its cells
 * in order, parted by a gap where the source has its mark (the mark is
 * markup, never text), then what follows the last mark (the line's ¶).
 * Empty cells are left out; null when no cell holds anything.
 */
export function tableRow(src: Source, start: number, end: number, mark: string, options: InlineOptions): Inline[] | null {
  const { text } = src;
  const marks: number[] = [];
  for (let k = text.indexOf(mark, start); k >= 0 && k < end; k = text.indexOf(mark, k + mark.length)) marks.push(k);
  const out: Inline[] = [];
  let cells = 0;
  const bounds = [start - mark.length, ...marks, end];
  for (let i = 0; i + 1 < bounds.length; i++) {
    let s = bounds[i]! + mark.length;
    let e = bounds[i + 1]!;
    while (s < e && SPACE.test(text[s]!)) s++;
    while (e > s && SPACE.test(text[e - 1]!)) e--;
    if (s >= e) continue;
    const cell = parseInline(src, s, e, options);
    const holdsText = cell.some((n) => n.type !== 'anchor');
    if (holdsText && cells++ > 0) out.push({ type: 'text', value: '\u3000', position: src.position(bounds[i]!, bounds[i]! + mark.length) });
    append(out, cell);
  }
  return cells > 0 ? out : null;
}

/** A term glossed by a transliteration line after it: the offsets of the term and of the gloss. */
export interface Gloss {
  term: [number, number];
  gloss: [number, number];
  /** The index of the term's line. */
  termLine: number;
}

/**
 * Transliterations of a term (CBETA's Sanskrit of a name, `弗、\t大目揵連¶` /
 * `\tMahāmaudgalyāyana.¶`): a line set after a tab that the row's pattern
 * reads as one glosses the term set after the last tab of the line before
 * it. By the gloss line's index.
 */
export function findGlosses(text: string, lines: readonly PhysicalLine[], pattern: RegExp, anchor: string): Map<number, Gloss> {
  const found = new Map<number, Gloss>();
  for (const [i, l] of lines.entries()) {
    const bare = withoutTrailingAnchors(l.content, anchor);
    if (text[l.start - 1] !== '\t' || !bare || !pattern.test(bare)) continue;
    let j = i - 1;
    while (j >= 0 && (!lines[j]!.content || ANCHORS_ONLY.test(lines[j]!.content))) j--;
    if (j < 0) continue;
    const before = lines[j]!;
    const termEnd = before.start + withoutTrailingAnchors(before.content, anchor).length;
    const tab = text.lastIndexOf('\t', termEnd - 1);
    const termStart = tab >= before.start - 1 ? tab + 1 : -1;
    if (termStart < 0 || termStart >= termEnd || !/\p{Script=Han}/u.test(text.slice(termStart, termEnd))) continue;
    found.set(i, { term: [termStart, termEnd], gloss: [l.start, l.start + bare.length], termLine: j });
  }
  return found;
}

/**
 * A paragraph's nodes with each gloss in it set as a ruby on its term
 * (`by: word`, clreq's gloss): the tab before the term and the gloss's own
 * text node leave the text, the gloss's characters going into the ruby.
 */
function setGlosses(src: Source, nodes: Inline[], glosses: readonly Gloss[]): Inline[] {
  if (glosses.length === 0) return nodes;
  const out: Inline[] = [];
  for (const n of nodes) {
    const s = n.position.start.offset ?? -1;
    const e = n.position.end.offset ?? -1;
    const gloss = glosses.find((g) => s >= g.gloss[0] && e <= g.gloss[1]);
    if (n.type === 'text' && gloss && n.value === src.text.slice(s, e)) continue;
    const glossed = glosses.find((g) => s <= g.term[0] && g.term[1] <= e);
    if (n.type !== 'text' || !glossed || n.value !== src.text.slice(s, e)) {
      out.push(n);
      continue;
    }
    const [t0, t1] = glossed.term;
    const before = n.value.slice(0, t0 - s).replace(/\t+$/u, '');
    const after = n.value.slice(t1 - s);
    if (before) out.push({ type: 'text', value: before, position: src.position(s, s + before.length) });
    const term = { type: 'text' as const, value: src.text.slice(t0, t1), position: src.position(t0, t1) };
    out.push({ type: 'mark', kind: 'ruby', ruby: { text: src.text.slice(glossed.gloss[0], glossed.gloss[1]), by: 'word' }, children: [term], position: src.position(t0, t1) });
    if (after) out.push({ type: 'text', value: after, position: src.position(t1, e) });
  }
  return out;
}

/** A line that ends a sentence (。！？ or a closing quote after one): an entry, not a line wrapped mid-sentence. */
const COMPLETE_LINE = /[。！？][」』”’]?$/u;

/**
 * Paragraphs a line, or run on to a blank line? From the whole text: where
 * most text lines are followed by another text line (an entry a line, no
 * blank lines between), each line is a paragraph. Ten such lines decide it;
 * a short text (a chapter of a 字書) needs four, nearly all of them whole
 * sentences, so that prose wrapped mid-sentence still runs on.
 */
export function decideParagraphs(lines: readonly PhysicalLine[], isData: (content: string) => boolean): { mode: 'line' | 'blank'; joined: number; parted: number } {
  let joined = 0;
  let complete = 0;
  let parted = 0;
  for (let i = 0; i + 1 < lines.length; i++) {
    const { content } = lines[i];
    if (!content || isData(content) || /^#/u.test(content)) continue;
    const next = lines[i + 1].content;
    if (!next || /^#/u.test(next)) parted++;
    else if (!isData(next)) {
      joined++;
      if (COMPLETE_LINE.test(content.trimEnd())) complete++;
    }
  }
  const many = joined >= 10 || (joined >= 4 && complete >= joined * 0.9);
  // Lines that run on to the next nearly always at a sentence's end are paragraphs a line, blank lines or not (顏氏家訓集解:
  // a paragraph, its 〔N〕 notes each a line, a blank line now and then); prose wrapped mid-sentence is not.
  const whole = joined >= 10 && complete >= joined * 0.9;
  return { mode: (many && joined > 2 * parted) || whole ? 'line' : 'blank', joined, parted };
}

/**
 * A label in mid-line (【案】) starts a note of its layer that runs to the
 * paragraph's end, or to the next such label, which starts a note of its own
 * (two 案 remarks in one entry are two notes, not one inside the other).
 */
export function labelToEnd(src: Source, children: Inline[], labels: ReadonlyArray<LayerLabel>): Inline[] {
  for (let k = 0; k < children.length; k++) {
    const node = children[k];
    if (node.type !== 'text') continue;
    let at = -1;
    let found: LayerLabel | undefined;
    for (const l of labels) {
      const i = node.value.indexOf(l.text);
      if (i >= 0 && (at < 0 || i < at)) [at, found] = [i, l];
    }
    if (!found) continue;
    const start = (node.position.start.offset ?? 0) + at;
    const before = node.value.slice(0, at);
    const afterStart = start + found.text.length;
    const afterValue = node.value.slice(at + found.text.length);
    const rest = [...(afterValue ? [{ type: 'text' as const, value: afterValue, position: src.position(afterStart, afterStart + afterValue.length) }] : []), ...children.slice(k + 1)];
    // What follows, read again: the first node that is or starts a note of its own ends this one.
    const following = labelToEnd(src, rest, labels);
    const next = following.findIndex((n) => n.type === 'note' && labels.some((l) => l.layer === n.layer && l.label === n.label) && !rest.includes(n));
    const inner = next < 0 ? following : following.slice(0, next);
    const end = inner.length ? (inner[inner.length - 1].position.end.offset ?? afterStart) : afterStart;
    const note: Note = { type: 'note', layer: found.layer, label: found.label, children: inner, position: src.position(start, end) };
    return [...children.slice(0, k), ...(before ? [{ type: 'text' as const, value: before, position: src.position(start - before.length, start) }] : []), note, ...(next < 0 ? [] : following.slice(next))];
  }
  return children;
}


/** A column that ends as a sentence does. */
const SENTENCE_END = /[也矣焉哉耳]$/u;

/** The 提要's credits (總纂官(臣)紀昀(臣)陸錫熊…): officials named, no title. */
const CREDIT = /[(（]臣\/?[)）]/u;

/** ●目录, or the work's contents with its name (●孝经注疏目录). */
const CONTENTS_LINE = /^[\s\u3000]*[●○◎]?[\s\u3000]*[^\s\u3000，。；]{0,20}?目[录錄録]$/u;

/** The head of a numbered note's paragraph (decide.ts linkNumberedCommentary). */
const NUMBERED_NOTE = /^〔[〇一二三四五六七八九十百]+〕/u;

/** 卷一, 卷第一, and 第一卷 (笑林廣記's `## 第一卷·古艷部`). */
const VOLUME_IN_HEADING = /[卷巻]第?([〇零一二三四五六七八九十百千]+)|第([〇零一二三四五六七八九十百千]+)[卷巻]/u;

/**
 * The work's title line at the head, written as a heading (`# 書名|〔漢〕某 撰`, `## 周書〔唐〕某`, `○ 經名 〔唐〕某 譯`,
 * `# 書名`): where its title and its byline stand, the markup (#, ○, the separator) left out. A heading of a kind the
 * text repeats names a part instead (title.ts namesTheWorkHere).
 */
function titleHeading(line: PhysicalLine, conv: FormatConventions, kinds: ReadonlyMap<string, number>): { title: [number, number]; byline?: [number, number] } | undefined {
  const { content } = line;
  // A heading that names a volume (## 宋書·卷十四 志第四) opens it.
  if (!conv.headings?.some((h) => h.pattern.test(content)) || VOLUME_IN_HEADING.test(content)) return undefined;
  const found = splitTitleLine(content);
  if (!found || !namesTheWorkHere(content, found.contributors.length > 0, kinds)) return undefined;
  const at = content.indexOf(found.title);
  if (at < 0) return undefined;
  let bylineAt: number | undefined;
  for (let i = at + found.title.length; found.contributors.length > 0 && i < content.length; i++) {
    const rest = content.slice(i).replace(/^[|｜/／\s\u3000]+/u, '');
    if (rest && parseByline(rest.trim())) {
      bylineAt = content.length - rest.length;
      break;
    }
  }
  const titleEnd = content.slice(0, bylineAt ?? content.length).replace(/[\s\u3000|｜/／]+$/u, '').length;
  return { title: [line.start + at, line.start + Math.max(titleEnd, at + found.title.length)], ...(bylineAt !== undefined ? { byline: [line.start + bylineAt, line.end] as [number, number] } : {}) };
}

export function importLines(src: Source, fallbackTitle: string, conv: FormatConventions): ImportResult {
  const { text } = src;
  const inline: InlineOptions = conv.inline;
  const lines = physicalLines(text);
  const builder = new VolumeBuilder(src);
  const meta: SourceMeta = { data: nameTable() };
  const decisions = conv.commentaryLines ? decideBracketLines(lines, conv.commentaryLines) : [];
  const commentaryPairs = decisions.filter((d) => d.reading === 'commentary');
  for (const d of decisions) {
    if (d.wholeLines + d.citations === 0) continue;
    const at = lines.find((l) => l.content.startsWith(d.open));
    src.report(
      'info',
      d.reading === 'commentary'
        ? `${d.open}…${d.close}: ${d.wholeLines} whole lines read as commentary on the line before${d.citations ? `, ${d.citations} lines ${d.open}…${d.close}云/曰 as main text (citations)` : ''}`
        : `${d.open}…${d.close}: read as part of the text, not commentary (${d.wholeLines} whole lines, ${d.citations} citations followed by 云/曰)`,
      at?.start ?? 0,
      at?.end ?? 0,
      'bracket-reading',
    );
  }
  // An inline 〈…〉 is a note only where the file uses the pair for commentary.
  const inlineOptions: InlineOptions = decisions.length
    ? { ...inline, notes: inline.notes.filter((n) => !decisions.some((d) => d.open === n.open && d.reading === 'text')) }
    : inline;

  const isData = (content: string) => Boolean(conv.metadata?.some((r) => r.test(content)));
  let paragraphMode = conv.paragraphs;
  if (paragraphMode === 'auto') {
    const d = decideParagraphs(lines, isData);
    paragraphMode = d.mode;
    const first = lines.find((l) => l.content && !isData(l.content));
    src.report(
      'info',
      d.mode === 'line'
        ? `paragraphs: one a line (${d.joined} lines run on to the next line, ${d.parted} end at a blank line); conventions: paragraphs: blank in edition.yaml joins them`
        : `paragraphs: lines run on to a blank line (${d.parted} end at a blank line, ${d.joined} run on)`,
      first?.start ?? 0,
      first?.end ?? 0,
      'paragraph-lines',
    );
  }

  // Cells a line stands down from the column's head: a paragraph's columns in a print all start at one depth.
  const depthOf = (l: PhysicalLine): number => {
    let k = l.start;
    while (k > 0 && text[k - 1] === '\u3000') k--;
    return l.start - k;
  };
  // 注 by indentation (四庫 texts that set the 注 one cell below the 經): decided from the whole text.
  const isIndented = (l: PhysicalLine) => text[l.start - 1] === '\u3000' && !/[\u3000 \t]/u.test(text[l.start - 2] ?? '\n') && /^\p{Script=Han}/u.test(l.content);
  const isHeadLike = (c: string) => VOLUME_TITLE.test(c) || SIKU_BANNER.test(c) || BYLINE.test(c) || Boolean(conv.headings?.some((h) => h.pattern.test(withoutTrailingAnchors(c, inline.lineAnchor ?? '¶'))));
  // Titles, headings and bylines name things: a run label there (儀禮注疏) is part of the name.
  const headOptions: InlineOptions = inlineOptions.runLabels ? { ...inlineOptions, runLabels: undefined } : inlineOptions;

  // Kanripo: when ¶ ends (nearly) every line, the file's lines are the source's columns.
  const anchor = inline.lineAnchor;
  let sourceColumns = false;
  let typical = 0;
  if (anchor && inline.notes[0]) {
    let ends = 0;
    let inside = 0;
    let punctuated = 0;
    for (const l of lines) {
      if (!l.content) continue;
      // A second witness's page marker and its ¶ after the line's own (東方八天¶<md:…_HFL_…>¶) leave the line's end where it was.
      const bare = l.content.replace(/<[^<>]*>/gu, '').split(anchor + anchor).join(anchor);
      const k = bare.indexOf(anchor);
      if (k < 0) continue;
      if (k === bare.length - anchor.length) {
        ends++;
        if (/[，。、；：！？」』]$/u.test(bare.slice(0, k))) punctuated++;
      } else inside++;
    }
    // A print's columns end anywhere in a sentence; lines that mostly end at a mark (tls: a phrase a line, ¶ the phrase's
    // end) are no columns.
    sourceColumns = ends > 20 && inside * 50 < ends && punctuated * 2 < ends;
    if (sourceColumns) {
      const { open, close } = inline.notes[0];
      typical = typicalCells(lines.filter((l) => l.content && !l.content.startsWith('<') && !l.content.startsWith('#')).map((l) => lineCells(l.content, open, close, inline.split)));
    }
  }

  /** A column filled to its foot (the print's typical column; none where the lines are no print columns). */
  const fillsColumn = (l: PhysicalLine): boolean => typical > 0 && inline.notes[0] !== undefined && lineCells(l.content, inline.notes[0].open, inline.notes[0].close, inline.split) >= typical;
  let indentLayer: string | undefined;
  /** The runs one cell down continue the columns before them (a hanging indent): one paragraph, not two. */
  let hangingIndent = false;
  /** Line numbers of entries' names, where the lines one cell down are each entry's text. */
  const entryNames = new Set<number>();
  // Only in a print's columns (Kanripo's ¶ ending them): a CBETA text's verse set one cell down is no 注.
  if (conv.indentedCommentary && sourceColumns) {
    // Lines inside an org block (a CBETA gāthā's #+BEGIN_VERSE … #+END_VERSE) are set out by it, not by a 注's indent.
    // (And a convention's own verse blocks, conv.verseBlocks.)
    const inBlock = new Set<number>();
    let open = false;
    for (const l of lines) {
      if (/^#\+BEGIN_/iu.test(l.content) || (!open && conv.verseBlocks?.begin.test(l.content))) open = true;
      else if (/^#\+END_/iu.test(l.content) || (open && conv.verseBlocks?.end.test(l.content))) open = false;
      else if (open) inBlock.add(l.number);
    }
    const body = lines.filter((l) => l.content && !inBlock.has(l.number) && !isData(l.content) && !/^[<#(]/u.test(l.content) && !isHeadLike(l.content));
    const indented = body.filter(isIndented).length;
    // A 注 follows the text it glosses, again and again: runs of indented lines, each after a line of text. A list or a
    // postscript set one cell down (a 道藏 text's titles bound together, its closing sayings) is a run or two.
    const leads = body.filter((l, k) => !isIndented(l) && k + 1 < body.length && isIndented(body[k + 1]));
    const runs = leads.length;
    // An entry's name at the column's head and its text one cell down under it (事物紀原: 元氣, then what 高承 says of
    // it): the lines the runs follow are names, not a text a 注 glosses — short, no phrase of a 經.
    const named = leads.filter((l) => Array.from(withoutTrailingAnchors(l.content, inline.lineAnchor ?? '¶')).length <= 6).length;
    const entriesRead = runs >= 5 && named >= runs * 0.8;
    // A hanging indent (聖訓: 上諭…, the edict's further columns one cell down): the runs follow columns filled to the
    // foot, a sentence running on into them. A 經 whose 注 is set below ends where it ends, a full column by chance.
    // (A column with a gap inside — 華陽國志's 讚 and then its 注 on the same column — is no sentence running on.)
    const full = leads.filter((l) => fillsColumn(l) && !/\S\u3000+\S/u.test(l.content)).length;
    const hanging = runs >= 5 && !entriesRead && full >= runs * 0.6;
    hangingIndent = hanging;
    if (indented >= 10 && indented >= body.length * 0.1 && runs >= 5 && !entriesRead && !hanging) indentLayer = conv.indentedCommentary;
    if (entriesRead) for (const l of leads) entryNames.add(l.number);
    if (indented > 0) {
      const first = body.find(isIndented);
      const why = entriesRead ? `each run under a name of six characters or fewer (${named} of ${runs}): an entry's text under its name, the names headings` : hanging ? `each run after a column filled to its foot (${full} of ${runs}): a hanging indent, the text running on` : indented >= 10 && runs < 5 ? `in ${runs} run${runs === 1 ? '' : 's'} only, none a 注 after its text` : 'only';
      src.report('info', indentLayer ? `lines one cell down read as commentary (${indented} of ${body.length} lines): the 注 set below the text` : `lines one cell down read as text (${indented} of ${body.length} lines ${why})`, first?.start ?? 0, first?.end ?? 0, 'indent-reading');
    }
  }

  const contents = contentsLines(lines, isData);
  reportContents(src, lines, contents);

  // The print's headings: a short column set two cells down or more, not the last column of a paragraph at its depth
  // nor the first of a list of such (a tune's name 哨遍(秋水/觀), a lemma 方秉蕳兮, a section 州郡沿革). Layout alone:
  // the reading is said, with its count and its first place.
  const columnHeadings = new Set<number>();
  /** A heading's first column → its last (a title over two columns). */
  const titleColumns = new Map<number, number>();
  if (sourceColumns) {
    const body = lines.filter((l) => l.content && !isData(l.content) && !ANCHORS_ONLY.test(l.content));
    const cellsOf = (l: PhysicalLine) => lineCells(l.content, inline.notes[0].open, inline.notes[0].close, inline.split);
    // Its own characters: a tune's name with a long note on it (又(趙昌父之祖…)) is a short heading.
    const short = (l: PhysicalLine) => cellsOf(l) <= 12 && (typical === 0 || cellsOf(l) < typical - 2);
    const mainCells = (l: PhysicalLine) => Array.from(l.content.replace(/\([^()]*\)?|<[^<>]*>|¶/gu, '')).length;
    for (const [k, l] of body.entries()) {
      const prev = body[k - 1];
      // A title's second column, one cell further down under its full first (晏子春秋: 　莊公問威當世服天下時耶晏子對㠯行也 /
      // 　　第一): the two columns are the heading, not the second alone.
      if (prev && short(l) && !contents.has(l.number) && /^\p{Script=Han}/u.test(l.content) && depthOf(prev) >= 1 && depthOf(prev) === depthOf(l) - 1 && !short(prev) && /^\p{Script=Han}/u.test(prev.content) && !isHeadLike(prev.content) && !contents.has(prev.number) && !CREDIT.test(prev.content)) {
        columnHeadings.add(prev.number);
        titleColumns.set(prev.number, l.number);
        continue;
      }
      // A column with gaps inside is a row of items (論君道一　論政體二, a juan's contents), not a heading.
      if (contents.has(l.number) || !/^\p{Script=Han}/u.test(l.content) || depthOf(l) < 2 || !(short(l) || (mainCells(l) <= 6 && /\)¶?$/u.test(l.content))) || isHeadLike(l.content) || /\p{Script=Han}\u3000+\p{Script=Han}/u.test(l.content)) continue;
      // A sentence's end (…之成整整一年事也, …可謂應運矣): no name a heading gives.
      if (SENTENCE_END.test(withoutTrailingAnchors(l.content, inline.lineAnchor ?? '¶').replace(/\([^()]*\)$/u, ''))) continue;
      const next = body[k + 1];
      if (prev && depthOf(prev) === depthOf(l) && !short(prev) && /^\p{Script=Han}/u.test(prev.content)) continue;
      // A heading heads something: not the file's last line, nor the first of a list of short columns.
      if (!next || (depthOf(next) === depthOf(l) && short(next) && /^\p{Script=Han}/u.test(next.content))) continue;
      columnHeadings.add(l.number);
    }
    // A category one cell down right over a piece's heading two down (陶淵明集: 　雜文 / 　　桃花源記(…); 駱丞集: 　頌 / 　　靈泉頌):
    // a heading of its own, not the first of a list.
    for (const [k, l] of body.entries()) {
      const next = body[k + 1];
      const prev = body[k - 1];
      // (Not a paragraph's last column at its depth: …人不及也 over a poem's title.)
      if (prev && depthOf(prev) === depthOf(l) && /^\p{Script=Han}/u.test(prev.content)) continue;
      if (next && columnHeadings.has(next.number) && !columnHeadings.has(l.number) && !SENTENCE_END.test(withoutTrailingAnchors(l.content, inline.lineAnchor ?? '¶')) && depthOf(l) >= 1 && depthOf(l) === depthOf(next) - 1 && /^\p{Script=Han}{1,4}$/u.test(withoutTrailingAnchors(l.content, inline.lineAnchor ?? '¶')) && !contents.has(l.number) && !isHeadLike(l.content)) columnHeadings.add(l.number);
    }
    if (columnHeadings.size > 0) {
      const first = lines[[...columnHeadings].sort((a, b) => a - b)[0] - 1];
      src.report('info', `short columns set two cells down or more read as headings (${columnHeadings.size}; the layout alone says so): a tune's, a poem's or a section's name`, first.start, first.end, 'heading-by-depth');
    }
  }

  // Notes that open on one line and close on a later one: their lines run on, whatever they look like.
  const insideNote = paragraphMode === 'blank' && inline.notes[0] ? linesInsideNotes(lines, inline.notes[0].open, inline.notes[0].close, isData) : [];
  let noteRunsOn = false;
  /** The line a heading's running note or a table row took in last (its 1-based number): the lines up to it are theirs. */
  let skipTo = 0;
  const glosses = conv.transliterations ? findGlosses(text, lines, conv.transliterations, anchor ?? '¶') : new Map<number, Gloss>();
  const termLines = new Set([...glosses.values()].map((g) => g.termLine));
  let inVerse = false;

  // A short first line standing before the first heading (仪礼注疏 above ●卷一) is the work's title.
  const texts = lines.filter((l) => l.content && !conv.metadata?.some((r) => r.test(l.content)));
  // So is one above its byline line (尔雅注疏 / 晋郭璞注　宋邢昺疏; ●文心雕龙 / （南朝梁）刘勰著).
  const titleLine =
    texts.length > 1 &&
    Array.from(texts[0].content).length <= 16 &&
    !/[\p{P}\s]/u.test(texts[0].content) &&
    (conv.headings?.some((h) => h.pattern.test(texts[1].content)) || parseByline(texts[1].content) !== null) &&
    !conv.headings?.some((h) => h.pattern.test(texts[0].content))
      ? texts[0]
      : null;
  // A first line that is a title with its byline (周礼正义　（清）孙诒让撰, 仪礼注疏汉郑玄注、唐贾公彦疏): where the byline starts.
  const titleByline = texts[0] && !conv.headings?.some((h) => h.pattern.test(texts[0].content)) ? bylineStartIn(texts[0].content) : undefined;
  // A first line written as a heading that names the work (# 書名|〔漢〕某 撰): a title and its byline.
  const headTitle = texts[0] ? titleHeading(texts[0], conv, headingKinds(text)) : undefined;

  /** How many distinct volume numbers the file's title lines give more than one away from its juan (Kanripo's JUAN N). */
  let far: number | undefined;
  const farTitles = (juan: number): number =>
    (far ??= new Set(
      lines.flatMap((l) => {
        const m = VOLUME_TITLE.exec(withoutTrailingAnchors(l.content, inline.lineAnchor ?? '¶').replace(/(?:\([^()]*\)|（[^（）]*）)$/u, '').trimEnd());
        const n = m?.[2] ? chineseNumber(m[2]) : null;
        return n !== null && Math.abs(n - juan) > 1 ? [n] : [];
      }),
    ).size);
  let para: { start: number; end: number; data?: Record<string, string>; indented?: boolean; depth?: number; hung?: boolean } | null = null;
  /** The last text column was filled to its foot (a hanging indent's paragraph runs on below it). */
  let filled = false;
  /** Right after a heading, until a line stands less than three cells down. */
  let underHeading = false;
  let pendingAnchors: Inline[] = [];
  let pendingData: Record<string, string> = nameTable();
  let previous: 'start' | 'title' | 'byline' | 'heading' | 'text' = 'start';
  const unnumberedWorks = new Set<string>();
  let inContents = false;
  let block: { layer: string } | null = null;
  let lastBlock: Block | null = null;

  const add = (b: Block) => {
    if (pendingAnchors.length > 0) {
      b.children.unshift(...pendingAnchors);
      pendingAnchors = [];
    }
    if (Object.keys(pendingData).length > 0 && b.type === 'paragraph') {
      b.data = { ...(b.data ?? {}), ...pendingData };
      pendingData = nameTable();
    }
    builder.add(b);
    lastBlock = b;
  };
  const textParagraph = (start: number, end: number, data?: Record<string, string>): Paragraph => {
    let s = start;
    let section: string | undefined;
    const number = /^\d+(?:\.\d+)+/.exec(text.slice(s, Math.min(end, s + 20)));
    if (number && anchor) {
      // TLS paragraph numbers (2.1): data, not text.
      section = number[0];
      s += number[0].length;
    }
    const p = paragraph(src, 'text', s, end, inlineOptions);
    if (glosses.size > 0) p.children = setGlosses(src, p.children, [...glosses.values()].filter((g) => g.term[0] >= s && g.gloss[1] <= end));
    if (conv.midLineLabels) p.children = labelToEnd(src, p.children, conv.midLineLabels);
    if (section || data) p.data = { ...(data ?? {}), ...(section ? { section } : {}) };
    return p;
  };
  const flush = () => {
    if (para?.indented && indentLayer) add(paragraph(src, 'commentary', para.start, para.end, inlineOptions, indentLayer));
    else if (para) add(textParagraph(para.start, para.end, para.data));
    para = null;
  };
  const span = (m: RegExpExecArray, line: PhysicalLine, group: number): [number, number] | null => {
    const idx = (m as RegExpExecArray & { indices?: Array<[number, number] | undefined> }).indices?.[group];
    return idx ? [line.start + idx[0], line.start + idx[1]] : null;
  };

  /** The source's column ended early (or is set out with gaps): its paragraph ends there. */
  const endShortColumn = (line: PhysicalLine): void => {
    const { content } = line;
    if (sourceColumns && typical > 0 && inline.notes[0] && lineCells(content, inline.notes[0].open, inline.notes[0].close, inline.split) < typical - 2) {
      // Not when a note runs on to the next line.
      if (!/\)¶?$/u.test(content) || !/^\(/u.test(lines[line.number]?.content ?? '')) flush();
    } else if (sourceColumns && /\p{Script=Han}\u3000{2,}\p{Script=Han}/u.test(content)) {
      // A column set out with gaps inside (a row of a table, a verse with its caesura) is a line of its own, however full.
      flush();
    }
  };

  /** The ¶ (and page markers) after a title or heading line go into its block. */
  let tail: [number, number] | null = null;
  const addTail = () => {
    if (!tail) return;
    const anchors = parseInline(src, tail[0], tail[1], inlineOptions);
    if (lastBlock) append(lastBlock.children, anchors);
    else append(pendingAnchors, anchors);
    tail = null;
  };
  /** Lines a heading took in (its note's next columns). */
  const consumed = new Set<number>();
  for (const full of lines) {
    addTail();
    if (consumed.has(full.number) || full.number <= skipTo) continue;
    let line = full;
    if (anchor && full.content.endsWith(anchor) && !ANCHORS_ONLY.test(full.content)) {
      const bare = withoutTrailingAnchors(full.content, anchor);
      line = { ...full, content: bare, end: full.start + bare.length };
      tail = [line.end, full.end];
    }
    const { content } = line;
    if (!content) {
      // A blank line ends a paragraph where paragraphs run on; a commentary block runs to the next line of text.
      if (paragraphMode === 'blank') {
        flush();
        block = null;
      }
      continue;
    }
    // A verse block: its marker lines are markup, each line inside a verse line of its own.
    if (conv.verseBlocks && (inVerse ? conv.verseBlocks.end : conv.verseBlocks.begin).test(content)) {
      flush();
      inVerse = !inVerse;
      continue;
    }
    if (inVerse && !(anchor && ANCHORS_ONLY.test(content))) {
      add(textParagraph(line.start, full.end, { verse: 'line' }));
      tail = null;
      previous = 'text';
      continue;
    }
    // A transliteration under its term runs on in the term's paragraph (set as the term's gloss there).
    if (glosses.has(full.number - 1) && para) {
      para.end = full.end;
      tail = null;
      continue;
    }
    // Metadata: the org header, comment lines.
    const metaRule = conv.metadata?.find((r) => r.test(content));
    if (metaRule) {
      flush();
      const m = metaRule.exec(content) as RegExpExecArray;
      const key = (m[1] ?? '').toLowerCase();
      const value = (m[2] ?? '').trim();
      if (key === 'title' && value) meta.title = value;
      else if (key === 'property') {
        const [name, ...rest] = value.split(/\s+/);
        const v = rest.join(' ');
        if (name === 'JUAN' && /^\d+$/.test(v)) meta.juan = Number(v);
        else if (name) meta.data[name.toLowerCase()] = v;
      } else if (key === 'src' || key === 'dating') pendingData[key] = value;
      else if (key === '-*-' || key.startsWith('+')) meta.data[key] = value;
      else meta.data.comment = [meta.data.comment, content.replace(/^#\s*/u, '')].filter(Boolean).join('\n');
      continue;
    }
    // A line inside a note that a later line closes (or the line that closes it): the paragraph's, read as nothing else.
    if (noteRunsOn && para) {
      para.end = full.end;
      tail = null;
      noteRunsOn = insideNote[full.number - 1] ?? false;
      if (!noteRunsOn) endShortColumn(line);
      continue;
    }
    // A line of page markers and ¶ only.
    if (anchor && ANCHORS_ONLY.test(content)) {
      if (para) para.end = full.end;
      else append(pendingAnchors, parseInline(src, line.start, line.end, inlineOptions));
      continue;
    }
    // A commentary block (國學導航 [疏] and the ○釋曰 lines after it).
    const blockRule = conv.commentaryBlocks?.find((b) => b.start.test(content));
    if (blockRule || (block && conv.commentaryBlocks?.some((b) => b.layer === block?.layer && b.continues.test(content)))) {
      flush();
      const rule = blockRule ?? conv.commentaryBlocks!.find((b) => b.layer === block!.layer)!;
      const label = blockRule ? (blockRule.start.exec(content)?.[1] ?? '') : '';
      const start = line.start + label.length;
      if (line.end > start) {
        const p = paragraph(src, 'commentary', start, line.end, inlineOptions, rule.layer);
        // The block's marker ([疏]) is markup; it is kept as data of its first paragraph.
        if (label) p.data = { label };
        add(p);
      } else if (label) src.report('info', `${label} stands alone on its line: the 疏 that follows is marked by it`, line.start, line.end, 'commentary-label');
      block = { layer: rule.layer };
      previous = 'text';
      continue;
    }
    block = null;
    // A contents list found by the names it lists (blocks.ts contentsLines): front matter, no volume, no heading.
    if (contents.has(line.number)) {
      flush();
      add(paragraph(src, 'front', line.start, line.end, headOptions));
      continue;
    }
    // A table row, over as many lines as it takes to its closing mark.
    if (conv.tableRows && content.startsWith(conv.tableRows.mark)) {
      flush();
      const { mark } = conv.tableRows;
      let last = full.number;
      const closes = (l: PhysicalLine): boolean => withoutTrailingAnchors(l.content, anchor ?? '¶').endsWith(mark) && l.content !== mark;
      while (!closes(lines[last - 1]!) && last < lines.length && lines[last]!.content && !lines[last]!.content.startsWith(mark)) last++;
      const row = tableRow(src, full.start, lines[last - 1]!.end, mark, inlineOptions);
      if (row) add({ type: 'paragraph', role: 'text', children: row, position: src.position(full.start, lines[last - 1]!.end) });
      else append(pendingAnchors, parseInline(src, full.start, lines[last - 1]!.end, inlineOptions).filter((n) => n.type === 'anchor'));
      skipTo = last;
      tail = null;
      previous = 'text';
      continue;
    }
    // A contents list (●目录 and the short lines under it, up to the first heading or sentence): front matter, its 卷一 no volume.
    if (CONTENTS_LINE.test(content)) {
      flush();
      add(paragraph(src, 'front', line.start, line.end, headOptions));
      inContents = true;
      continue;
    }
    if (inContents && Array.from(content).length <= 30 && !/[。；]/u.test(content) && !conv.headings?.some((h) => h.pattern.test(content))) {
      add(paragraph(src, 'front', line.start, line.end, headOptions));
      continue;
    }
    inContents = false;
    if (line === texts[0] && headTitle) {
      flush();
      add(paragraph(src, 'title', headTitle.title[0], headTitle.title[1], headOptions));
      if (headTitle.byline) add(paragraph(src, 'byline', headTitle.byline[0], headTitle.byline[1], { ...headOptions, notes: [] }));
      previous = headTitle.byline ? 'byline' : 'title';
      continue;
    }
    if (line === texts[0] && titleByline !== undefined) {
      // Its (清) is the byline's, not a note.
      const plain = { ...headOptions, notes: [] };
      add(paragraph(src, 'title', line.start, line.start + content.slice(0, titleByline).trimEnd().length, plain));
      add(paragraph(src, 'byline', line.start + titleByline, line.end, plain));
      previous = 'byline';
      continue;
    }
    // The title line, or a line that is the title the header gave (a CBETA text's 金剛般若波羅蜜經 under `No. 235`).
    if (line === titleLine || (previous === 'start' && meta.title && content === meta.title)) {
      flush();
      const mark = /^[●○◎]/u.test(content) ? 1 : 0;
      meta.title ??= content.slice(mark);
      add(paragraph(src, 'title', line.start + mark, line.end, headOptions));
      previous = 'title';
      continue;
    }
    // A byline over two columns under its title (後秦龜茲國三藏法師 / 鳩摩羅什奉　詔譯), with its dynasty: one byline.
    const below = lines[full.number];
    const twoColumns = previous === 'title' && below?.content && !/[，。；：(（]/u.test(content) && Array.from(content).length <= 16 && parseByline(content) === null ? parseByline(content + withoutTrailingAnchors(below.content, anchor ?? '¶')) : null;
    if (twoColumns?.[0]?.dynasty) {
      flush();
      add(paragraph(src, 'byline', line.start, below.end, { ...headOptions, notes: [] }));
      consumed.add(below.number);
      previous = 'byline';
      continue;
    }
    // The byline under a title line: its (南朝梁) is the byline's, not a note.
    if (previous === 'title' && parseByline(content) !== null) {
      flush();
      add(paragraph(src, 'byline', line.start, line.end, { ...headOptions, notes: [] }));
      previous = 'byline';
      continue;
    }
    // A volume title with its note after it (周髀算經卷上(南陵徐乃昌/校勘經籍記), 隐公卷一（起元年，尽元年）): the note is the title's.
    const titleNote = /(?:\([^()]*\)|（[^（）]*）)$/u.exec(content);
    const titled = titleNote ? content.slice(0, titleNote.index).trimEnd() : content;
    const title = VOLUME_TITLE.exec(titled);
    // 某經註卷上 has no number to tell it from a column of text ending in 卷上: a title at the head of the text, or one more 卷 of a work already so titled.
    const unnumbered = title && !title[2] ? title[1].replace(/[卷巻][上中下]$/u, '') : undefined;
    if (title && !/^[#*●]/u.test(titled) && !/[()（）【】〈〉〔〕，。]/u.test(titled) && (unnumbered === undefined || previous !== 'text' || unnumberedWorks.has(unnumbered))) {
      flush();
      const [, name, numeral, byline] = title;
      if (unnumbered !== undefined) unnumberedWorks.add(unnumbered);
      const titleEnd = titleNote && !byline ? line.end : line.start + name.length;
      const number = numeral ? chineseNumber(numeral) : null;
      const atEnd = lines.slice(full.number).every((l) => !l.content || ANCHORS_ONLY.test(l.content) || isData(l.content));
      // The end title (周易卷第二(經二千四十七字/注四千七十四字) as a juan file's last line) with no volume open and no text
      // waiting for it: it closes nothing, opens nothing.
      if (atEnd && !builder.isOpen() && !builder.waiting) {
        add(paragraph(src, 'title', line.start, titleEnd, headOptions));
        previous = 'title';
        continue;
      }
      // A front-matter file (Kanripo's #+PROPERTY: JUAN 0, or JUAN 提要, 目録, 序: what stands before 卷一) holds no juan: its
      // 卷N lines list the work's contents (新安志, 駱丞集), front matter.
      if (meta.juan === 0 || (meta.data.juan !== undefined && !/[卷巻]/u.test(meta.data.juan))) {
        add(paragraph(src, 'front', line.start, line.end, headOptions));
        previous = 'title';
        continue;
      }
      // A juan file (Kanripo's JUAN N) holds its juan, with the end of the one before or the start of the next at most: a
      // series of titles numbered further off (three numbers or more: 度人經直音's 天地八維安鎭國祚品卷第三 … 卷第十六, the
      // glossed work's chapters; 三國遺事's contents) head parts of it, not volumes.
      if (!atEnd && number !== null && meta.juan !== undefined && meta.juan > 0 && Math.abs(number - meta.juan) > 1 && farTitles(meta.juan) >= 3) {
        add(heading(src, 2, line.start, line.end, headOptions));
        previous = 'heading';
        continue;
      }
      // Another title with the number of the volume open, not its own (抱朴子内篇卷之一, then 暢玄卷第一 over its text): a
      // chapter of that volume, its heading.
      if (!atEnd && number !== null && builder.isOpen(number) && !builder.isClosingTitle(name)) {
        add(heading(src, 2, line.start, line.end, headOptions));
        previous = 'heading';
        continue;
      }
      if (builder.isClosingTitle(name) || (atEnd && builder.isOpen(number))) {
        add(paragraph(src, 'title', line.start, titleEnd, headOptions));
        builder.close();
      } else if (builder.waiting && atEnd) {
        // The title at the text's end, none before it: it closes the text above, the volume's own.
        builder.endVolume(name, number, line.start, line.end);
        add(paragraph(src, 'title', line.start, titleEnd, headOptions));
      } else {
        builder.open(name, numeral ? chineseNumber(numeral) : null, line.start, line.end);
        add(paragraph(src, 'title', line.start, titleEnd, headOptions));
      }
      if (byline) add(paragraph(src, 'byline', line.start + content.indexOf(byline, name.length), line.end, headOptions));
      previous = byline ? 'byline' : 'title';
      continue;
    }
    // 卷上 alone after text (周髀音義's part for the words of 卷上): a heading, not the column's end of a sentence.
    if (title && unnumbered === '' && previous === 'text' && titled === title[1]) {
      flush();
      add(heading(src, 2, line.start, line.end, headOptions));
      previous = 'heading';
      continue;
    }
    // Headings and volumes.
    const headingRule = conv.headings?.find((h) => h.pattern.test(content));
    if (headingRule) {
      flush();
      const m = execWithIndices(headingRule.pattern, content) as RegExpExecArray;
      const main = span(m, line, 1) ?? [line.start, line.end];
      // A heading whose note runs on to later lines (** 五伽耶(按駕洛記贊云…¶ / …濫記昌寧誤)¶) holds them, up to the line that closes it.
      if (insideNote[full.number - 1] && main[1] === line.end) {
        let last = full.number;
        while (insideNote[last - 1] && last < lines.length) last++;
        main[1] = lines[last - 1]!.end;
        skipTo = last;
        tail = null;
      }
      const headText = text.slice(main[0], main[1]);
      const volume = VOLUME_IN_HEADING.exec(headText);
      if (volume && headingRule.volumes !== false && (headingRule.depth === 1 || conv.format === 'chtxt')) {
        builder.open(headText, chineseNumber(volume[1] ?? volume[2]), line.start, line.end);
        add(paragraph(src, 'title', main[0], main[1], headOptions));
      } else {
        // A title line in brackets (〔《鬼谷子》卷上〕〈捭闔〉第一): its brackets are the title's, not notes.
        add(heading(src, headingRule.depth, main[0], main[1], /^[〔〈]/u.test(headText) ? { ...headOptions, notes: [] } : headOptions));
      }
      const after = span(m, line, 2);
      if (after) {
        const afterText = text.slice(after[0], after[1]);
        if (headingRule.byline) add(paragraph(src, 'byline', after[0], after[1], { ...headOptions, notes: [] }));
        else if (BYLINE.test(afterText) || /[注註疏撰箋笺]$/u.test(afterText) || parseByline(afterText)) add(paragraph(src, 'byline', after[0], after[1], headOptions));
        else add(heading(src, 2, after[0], after[1], headOptions));
      }
      previous = 'heading';
      underHeading = true;
      continue;
    }
    if (SIKU_BANNER.test(content)) {
      flush();
      add(paragraph(src, 'title', line.start, line.end, headOptions));
      previous = 'title';
      continue;
    }
    // (Or one the byline rules read, its offices before the name: 北周漢中郡守前司隸臣甄鸞重述, under a title or a byline;
    // …and a second contributor's line under a byline: 魏　何晏　集解, then 梁　皇侃　義疏.)
    if ((previous === 'start' || previous === 'title' || previous === 'heading' || previous === 'byline') && (BYLINE.test(content) || ((previous === 'title' || previous === 'byline') && parseByline(content) !== null)) && !/[(（【〔]/u.test(content)) {
      flush();
      add(paragraph(src, 'byline', line.start, line.end, headOptions));
      previous = 'byline';
      continue;
    }
    // A whole line in a commentary bracket pair.
    const pair = commentaryPairs.find((d) => content.startsWith(d.open) && closingOfHead(content, d.open, d.close) === content.length - d.close.length);
    if (pair) {
      flush();
      add(paragraph(src, 'commentary', line.start + pair.open.length, line.end - pair.close.length, inlineOptions, 'zhu'));
      continue;
    }
    // 三家注: a paragraph that starts with 【集解】 is commentary, one note a commentator.
    if (conv.labelledParagraphs && inline.innerLabels?.some((l) => content.startsWith(l.text))) {
      flush();
      const children = parseInline(src, line.start, line.end, inlineOptions);
      const whole = { type: 'note' as const, layer: 'zhu', children, position: src.position(line.start, line.end) };
      add({ type: 'paragraph', role: 'text', children: splitLabelledNote(whole, inline.innerLabels), position: src.position(line.start, line.end) });
      previous = 'text';
      continue;
    }
    // (Not a 篇題注's last column, three cells down right under its chapter's title.)
    if ((columnHeadings.has(line.number) && !(indentLayer !== undefined && underHeading && depthOf(line) >= 3)) || entryNames.has(line.number)) {
      flush();
      // Its note runs on over the next columns (又(趙昌父之祖…)¶ / 　　　(鑿池築亭…)¶): the heading's.
      let last = full;
      for (let n = full.number + 1; n <= (titleColumns.get(full.number) ?? 0); n++) {
        last = lines[n - 1];
        consumed.add(n);
      }
      while (/\)¶?$/u.test(last.content) && /^\(/u.test(lines[last.number]?.content ?? '')) {
        last = lines[last.number];
        consumed.add(last.number);
      }
      if (last !== full) tail = null;
      add(heading(src, 2, line.start, last === full ? line.end : last.end, headOptions));
      previous = 'heading';
      underHeading = true;
      continue;
    }
    previous = 'text';
    tail = null;
    if (paragraphMode === 'blank') {
      // 注 by indentation: a run of lines one cell down is the commentary on the text before it.
      // Where the 注 stands one cell down, the 注 on a chapter's title stands below the title (two cells down): three
      // cells and more, right after it (篇題注).
      const onTitle: boolean = indentLayer !== undefined && underHeading && depthOf(line) >= 3;
      underHeading = onTitle;
      const indented = indentLayer !== undefined && (isIndented(line) || onTitle);
      // The print's columns (Kanripo ¶): a column that starts at another depth starts another paragraph (a section title set
      // four cells down, a table under it).
      const depth = sourceColumns ? depthOf(line) : undefined;
      // A numbered note's paragraph (〔一〕六朝以前…) starts on its own line, a blank line before it or not.
      const numbered = conv.numberedCommentary === true && NUMBERED_NOTE.test(content);
      // A hanging indent: a column one cell further down, after a column filled to its foot, runs the paragraph on.
      const runsOn = hangingIndent && para !== null && depth !== undefined && depth === (para.depth ?? 0) + 1 && (para.hung === true || filled);
      if (para && (Boolean(para.indented) !== indented || (para.depth !== depth && !runsOn) || numbered)) flush();
      if (para) {
        para.end = full.end;
        if (runsOn) para.hung = true;
      } else para = { start: line.start, end: full.end, ...(indented ? { indented } : {}), ...(depth !== undefined ? { depth } : {}) };
      filled = hangingIndent && fillsColumn(line);
      noteRunsOn = insideNote[full.number - 1] ?? false;
      // A term glossed on the next line runs on into its gloss.
      if (!noteRunsOn && !termLines.has(full.number - 1)) endShortColumn(line);
    } else {
      add(textParagraph(line.start, full.end));
    }
  }
  addTail();
  flush();
  if (pendingAnchors.length > 0 && lastBlock) {
    append((lastBlock as Block).children, pendingAnchors);
    pendingAnchors = [];
  }
  const volumes = builder.finish(fallbackTitle);
  nameVolumes(volumes, meta, fallbackTitle);
  if (pendingAnchors.length > 0) {
    // Nothing but markers in the file: they stand in a paragraph of their own.
    const first = pendingAnchors[0].position;
    volumes.push({ type: 'volume', number: null, title: meta.title ?? fallbackTitle, children: [{ type: 'paragraph', role: 'text', children: pendingAnchors, position: first }], position: first });
  }
  return { volumes, meta, ...(sourceColumns ? { printColumns: true } : {}) };
}

/** A volume the text did not title gets the work's title and the juan the metadata or the page markers give. */
function nameVolumes(volumes: Volume[], meta: SourceMeta, fallbackTitle: string): void {
  for (const v of volumes) {
    if (v.number !== null || v.title !== fallbackTitle) continue;
    let juan: number | undefined;
    const firstPage = findPageJuan(v);
    juan = firstPage ?? meta.juan;
    if (juan !== undefined) {
      v.number = juan;
      // Kanripo's juan 0 is what stands before 卷一 (序, 提要, 目録): the work's name alone, no 卷〇.
      v.title = juan === 0 ? (meta.title ?? fallbackTitle) : `${meta.title ?? fallbackTitle}卷${toChineseNumber(juan)}`;
    } else if (meta.title) v.title = meta.title;
  }
}

function findPageJuan(v: Volume): number | undefined {
  for (const b of v.children) {
    for (const c of b.children) if (c.type === 'anchor' && c.kind === 'page' && c.juan !== undefined) return c.juan;
  }
  return undefined;
}

export function toChineseNumber(n: number): string {
  const digits = '〇一二三四五六七八九';
  if (n < 10) return digits[n];
  if (n < 20) return '十' + (n % 10 ? digits[n % 10] : '');
  if (n < 100) return digits[Math.floor(n / 10)] + '十' + (n % 10 ? digits[n % 10] : '');
  if (n < 1000) {
    const rest = n % 100;
    return digits[Math.floor(n / 100)] + '百' + (rest === 0 ? '' : rest < 10 ? '〇' + digits[rest] : rest < 20 ? '一' + toChineseNumber(rest) : toChineseNumber(rest));
  }
  return String(n);
}
