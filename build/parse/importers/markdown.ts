/**
 * Markdown importers, through unified + remark-parse for the block structure:
 * - markdown: diaoban's own manuscript convention (manuscript/README.md):
 *   `#` volume, `##`–`####` headings, paragraphs with an optional {role} tag,
 *   `>` commentary paragraphs with an optional {layer} tag, 【{layer}…】 notes;
 * - docsify: pages of a docsify site (儀禮注疏): HTML comments, one paragraph a
 *   line indented with full-width spaces, 【】 notes holding several layers.
 * Inline text is read from the source itself (classical text uses no inline
 * Markdown), so every character keeps its exact position. One inline syntax
 * of our own: 〖…〗 marks the characters beside which a mark is set
 * (`markSpans`).
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import type { Content, Root as MdRoot } from 'mdast';
import { parse as parseYaml } from 'yaml';
import type { Annotation, Block, Inline, LayerId, Mark, Paragraph, ParagraphRole, Raise, Text } from '../../tree/types.js';
import { ANNOTATION_LAYERS, readLayerTag } from '../../tree/layers.js';
import { VOLUME_TITLE, VolumeBuilder, chineseNumber, contentLines, heading, paragraph, textWithLabels } from '../blocks.js';
import type { FormatConventions } from '../formats.js';
import { DEFAULT_INLINE, type FootnoteDefinition, type InlineOptions } from '../inline.js';
import type { Source } from '../source.js';
import type { ImportResult, SourceMeta } from './corpus.js';
import { decideBracketLines, physicalLines } from './lines.js';
import { nameTable, own } from '../../tree/append.js';

const parser = unified().use(remarkParse);

function parseMarkdown(text: string): MdRoot {
  return parser.parse(text);
}

function span(node: Content): [number, number] | null {
  const s = node.position?.start.offset;
  const e = node.position?.end.offset;
  return s === undefined || e === undefined ? null : [s, e];
}

/** Source offsets of a heading's text (after the #s and before closing #s). */
function headingSpan(node: Content & { children?: Content[] }): [number, number] | null {
  const kids = node.children ?? [];
  if (kids.length === 0) return null;
  const first = span(kids[0]);
  const last = span(kids[kids.length - 1]);
  return first && last ? [first[0], last[1]] : null;
}

const ROLE_TAGS: Record<string, ParagraphRole> = {
  text: 'text', 正文: 'text',
  ji: 'ji', 記: 'ji', 记: 'ji',
  label: 'label', 右: 'label', 標: 'label',
  title: 'title', 題: 'title', 题: 'title',
  byline: 'byline', 署: 'byline',
  front: 'front', 前: 'front',
};
const TAG = /^\{([^{}\s]{1,16})\}[\s\u3000]*/u;

/** Lines of a Markdown block, each trimmed; a blockquote's `>` markers stripped. */
function blockLines(src: Source, start: number, end: number) {
  return contentLines(src.text.slice(start, end)).map((line) => {
    let s = start + line.start;
    const e = start + line.end;
    while (s < e && /[>\s\u3000]/u.test(src.text[s])) s++;
    return { number: line.number, start: s, end: e, content: src.text.slice(s, e) };
  });
}

/** Markdown read through remark, with what remark does not know taken out first. */
interface PreparedMarkdown {
  tree: MdRoot;
  meta: SourceMeta;
  footnotes: Map<string, FootnoteDefinition & { line: number }>;
  inline: InlineOptions;
}

/** Blank out text[start, end) but its line ends, so that offsets stay those of the source. */
function mask(chars: string[], start: number, end: number): void {
  for (let i = start; i < end; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/u;
const FOOTNOTE_DEF = /^\[\^([^\]\s]{1,20})\]:[ \t]*/u;

function prepareMarkdown(src: Source, base: InlineOptions): PreparedMarkdown {
  const chars = src.text.split('');
  const meta: SourceMeta = { data: nameTable() };
  const front = FRONT_MATTER.exec(src.text);
  if (front) {
    try {
      const data = parseYaml(front[1]) as Record<string, unknown> | null;
      if (data && typeof data === 'object') {
        const title = data.title;
        if (typeof title === 'string') meta.title = title;
        else if (title && typeof title === 'object') {
          const t = title as Record<string, unknown>;
          meta.titles = Object.fromEntries(Object.entries(t).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
          meta.title = meta.titles['zh-hant'] ?? meta.titles['zh-Hant'] ?? Object.values(meta.titles)[0];
        }
        if (typeof data.author === 'string') meta.author = data.author;
        for (const [k, v] of Object.entries(data)) if (k !== 'title' && (typeof v === 'string' || typeof v === 'number')) meta.data[k] = String(v);
      }
    } catch (error) {
      src.report('warning', `the front matter is not valid YAML (${(error as Error).message.split('\n')[0]}): left out`, 0, front[0].length, 'front-matter');
    }
    mask(chars, 0, front[0].length);
  }
  // Footnote definitions: [^1]: text, with indented continuation lines.
  const footnotes = new Map<string, FootnoteDefinition & { line: number }>();
  const lines = physicalLines(src.text);
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k];
    if (front && line.start < front[0].length) continue;
    const m = FOOTNOTE_DEF.exec(line.content);
    if (!m) continue;
    let last = line;
    while (k + 1 < lines.length && lines[k + 1].content && /^(?:\t| {2,})/u.test(src.text.slice(lineStartOf(src.text, lines[k + 1].start), lines[k + 1].start + 1))) last = lines[++k];
    const start = line.start + m[0].length;
    if (footnotes.has(m[1])) {
      src.report('warning', `footnote [^${m[1]}] is defined twice: the first definition is set at the reference, this one at the end`, line.start, line.end, 'footnote-repeated');
      footnotes.set(`${m[1]}\u0000${line.number}`, { start, end: last.end, line: line.number });
    } else footnotes.set(m[1], { start, end: last.end, line: line.number });
    mask(chars, line.start, last.end);
  }
  flattenDeepContainers(src, chars);
  const tree = parseMarkdown(chars.join(''));
  return { tree, meta, footnotes, inline: { ...base, html: true, footnotes } };
}

/** Markdown containers (> quotes, - lists) nested deeper than this are a broken file: flattened, reported. */
const MAX_CONTAINERS = 16;
const CONTAINER = /[ \t]{0,3}(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]?/y;

/**
 * remark's work grows with the square of container nesting: markers past
 * MAX_CONTAINERS on a line are blanked out (with full-width spaces, so that
 * offsets stay and no indented code appears) and reported once per line.
 */
function flattenDeepContainers(src: Source, chars: string[]): void {
  const text = src.text;
  for (let lineStart = 0; lineStart < text.length; ) {
    let k = lineStart;
    let depth = 0;
    let cutFrom = -1;
    for (;;) {
      CONTAINER.lastIndex = k;
      const m = CONTAINER.exec(text);
      if (!m || m[0].length === 0) break;
      depth++;
      if (depth === MAX_CONTAINERS + 1) cutFrom = k;
      k += m[0].length;
    }
    if (cutFrom >= 0) {
      for (let j = cutFrom; j < k; j++) chars[j] = '\u3000';
      src.report('error', `Markdown quotes or lists nested deeper than ${MAX_CONTAINERS} levels: the deeper markers are left out, the text kept`, cutFrom, k, 'nesting-too-deep');
    }
    const next = text.indexOf('\n', k);
    lineStart = next < 0 ? text.length : next + 1;
  }
}

function lineStartOf(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== '\n' && text[i - 1] !== '\r') i--;
  return i;
}

/** Footnotes nothing refers to: kept at the end, said so. */
function unusedFootnotes(src: Source, prepared: PreparedMarkdown, builder: VolumeBuilder, inline: InlineOptions): void {
  for (const [id, def] of prepared.footnotes) {
    if (def.used) continue;
    // A second definition of one id (keyed id + NUL + line) was reported where it stands.
    if (!id.includes('\u0000')) src.report('warning', `footnote [^${id}] is never referred to: its text is set at the end as commentary; add [^${id}] where it belongs`, def.start, def.end, 'footnote-unused');
    if (def.end > def.start) builder.add(paragraph(src, 'commentary', def.start, def.end, { ...inline, footnotes: undefined }, 'jiao'));
  }
}

/** An HTML block: a comment is left out (said once); other HTML keeps its text, its tags left out with a warning. */
function htmlBlock(src: Source, value: string, where: [number, number], inline: InlineOptions, comments: Comments): Block[] {
  if (/^<!--/u.test(value.trim()) && /-->\s*$/u.test(value)) {
    comments.count++;
    comments.first ??= where;
    return [];
  }
  return blockLines(src, where[0], where[1]).map((line) => paragraph(src, 'text', line.start, line.end, inline));
}

type Comments = { count: number; first?: [number, number] };

/** What every Markdown importer reads alike: HTML (its text kept, comments left out) and constructs outside the convention. */
function otherBlock(src: Source, node: Content, where: [number, number], builder: VolumeBuilder, inline: InlineOptions, comments: Comments): void {
  if (node.type === 'html') for (const block of htmlBlock(src, node.value, where, inline, comments)) builder.add(block);
  else unsupported(src, node, where, builder, inline);
}

function finishMarkdown(src: Source, prepared: PreparedMarkdown, builder: VolumeBuilder, inline: InlineOptions, comments: Comments, fallbackTitle: string): ImportResult {
  if (comments.first) src.report('info', `${comments.count} HTML comments left out (not part of the text)`, comments.first[0], comments.first[1], 'html-comment');
  unusedFootnotes(src, prepared, builder, inline);
  return { volumes: builder.finish(prepared.meta.title ?? fallbackTitle), meta: prepared.meta };
}

/** Markdown constructs the convention does not have: their text is kept as paragraphs, with a warning naming them. */
function unsupported(src: Source, node: Content, where: [number, number], builder: VolumeBuilder, inline: InlineOptions): void {
  if (node.type === 'thematicBreak') return;
  const what = node.type === 'definition' ? 'link definition' : node.type === 'code' ? 'code block' : `Markdown ${node.type}`;
  src.report('warning', `${what} is not part of the manuscript convention; its text is kept as a paragraph`, where[0], where[1], 'markdown-unsupported');
  for (const line of blockLines(src, where[0], where[1])) builder.add(paragraph(src, 'text', line.start, line.end, inline));
}

export function importMarkdown(src: Source, fallbackTitle: string): ImportResult {
  const builder = new VolumeBuilder(src);
  const prepared = prepareMarkdown(src, DEFAULT_INLINE);
  // The convention's own escape (\【, \{, \> …): what import writes for the source's characters that would be markup.
  const inline: InlineOptions = { ...prepared.inline, escape: true };
  const comments: Comments = { count: 0 };
  for (const node of prepared.tree.children) {
    const where = span(node);
    if (!where) continue;
    if (node.type === 'heading') {
      const hs = headingSpan(node);
      if (!hs) continue;
      if (node.depth === 1) {
        const title = src.text.slice(hs[0], hs[1]);
        const numeral = VOLUME_TITLE.exec(title);
        builder.open(title, numeral?.[2] ? chineseNumber(numeral[2]) : null, where[0], where[1]);
      } else {
        builder.add(withMarks(src, heading(src, Math.min(3, node.depth - 1) as 1 | 2 | 3, hs[0], hs[1], inline)));
      }
      continue;
    }
    if (node.type === 'paragraph') {
      for (const block of taggedParagraphs(src, where[0], where[1], inline)) builder.add(withMarks(src, block));
      continue;
    }
    if (node.type === 'blockquote') {
      // Each line of a quote is a commentary paragraph: consecutive ones run on as one note in print.
      for (const line of blockLines(src, where[0], where[1])) {
        const found = TAG.exec(line.content);
        const tag = found && !Object.hasOwn(RAISE_TAGS, found[1]) ? found : null;
        let layer: LayerId = 'zhu';
        let label: string | undefined;
        let start = line.start;
        if (tag) {
          const read = readLayerTag(tag[1]);
          layer = read.layer ?? read.name;
          label = read.label;
          if (!read.layer) src.report('warning', `unknown layer tag {${tag[1]}}; it is kept as a layer of its own — known layers: 注 音義 疏 附注 出處 案`, line.start, line.start + tag[0].length, 'layer-unknown');
          start += tag[0].length;
        }
        if (line.end > start) {
          const p: Paragraph = paragraph(src, 'commentary', start, line.end, inline, layer);
          if (label) p.label = label;
          builder.add(withMarks(src, p));
        }
      }
      continue;
    }
    otherBlock(src, node, where, builder, inline, comments);
  }
  return finishMarkdown(src, prepared, builder, inline, comments, fallbackTitle);
}

/**
 * Wikisource pages as pandoc writes them: front matter (title in zh-hant /
 * zh-hans, source, source_url), `[^n]` footnotes, `<sub>`, `<cn-era ce>`,
 * `{分廾}` compositions; whole lines in 〔…〕 (or 〈…〉) commentary where the
 * file uses them so; `〔《鬼谷子》卷上〕〈捭闔〉第一` a heading.
 */
export function importWikisourceMarkdown(src: Source, fallbackTitle: string, conv: FormatConventions): ImportResult {
  const builder = new VolumeBuilder(src);
  const prepared = prepareMarkdown(src, conv.inline);
  const decisions = decideBracketLines(physicalLines(src.text), conv.commentaryLines ?? []);
  const commentary = decisions.filter((d) => d.reading === 'commentary');
  const inline: InlineOptions = { ...prepared.inline, notes: prepared.inline.notes.filter((n) => commentary.some((d) => d.open === n.open)) };
  for (const d of decisions) {
    if (d.wholeLines + d.citations === 0) continue;
    src.report('info', d.reading === 'commentary' ? `${d.open}…${d.close}: ${d.wholeLines} whole lines read as commentary on the line before` : `${d.open}…${d.close}: read as part of the text (${d.wholeLines} whole lines, ${d.citations} citations followed by 云/曰)`, 0, 0, 'bracket-reading');
  }
  const comments: Comments = { count: 0 };
  const titleLine = /^(?:[〔〈][^〔〕〈〉]{1,20}[〕〉]){1,3}第[一二三四五六七八九十百]+$/u;
  for (const node of prepared.tree.children) {
    const where = span(node);
    if (!where) continue;
    if (node.type === 'heading') {
      const hs = headingSpan(node);
      if (!hs) continue;
      const title = src.text.slice(hs[0], hs[1]);
      const numeral = /[卷巻]第?([〇零一二三四五六七八九十百千]+)/u.exec(title);
      if (numeral) {
        builder.open(title, chineseNumber(numeral[1]), where[0], where[1]);
        builder.add(paragraph(src, 'title', hs[0], hs[1], inline));
      } else builder.add(heading(src, Math.min(3, Math.max(1, node.depth)) as 1 | 2 | 3, hs[0], hs[1], inline));
      continue;
    }
    if (node.type === 'paragraph') {
      for (const line of paragraphLines(src, where, commentary)) {
        if (titleLine.test(line.content)) builder.add(heading(src, 2, line.start, line.end, { ...inline, notes: [] }));
        else if (line.commentary) builder.add(paragraph(src, 'commentary', line.start + 1, line.end - 1, inline, 'zhu'));
        else builder.add(paragraph(src, 'text', line.start, line.end, inline));
      }
      continue;
    }
    if (node.type === 'blockquote') {
      for (const line of blockLines(src, where[0], where[1])) builder.add(paragraph(src, 'commentary', line.start, line.end, inline, 'zhu'));
      continue;
    }
    otherBlock(src, node, where, builder, inline, comments);
  }
  return finishMarkdown(src, prepared, builder, inline, comments, fallbackTitle);
}

/**
 * A paragraph's lines: runs of ordinary lines stay one paragraph (a soft line
 * break joins them); a whole line in a commentary bracket is a paragraph of its own.
 */
function paragraphLines(src: Source, where: [number, number], commentary: ReadonlyArray<{ open: string; close: string }>) {
  const out: Array<{ start: number; end: number; content: string; commentary: boolean }> = [];
  for (const line of blockLines(src, where[0], where[1])) {
    const isCommentary = commentary.some((d) => line.content.startsWith(d.open) && line.content.endsWith(d.close) && line.content.indexOf(d.close) === line.content.length - d.close.length);
    const last = out[out.length - 1];
    if (!isCommentary && last && !last.commentary && !/^(?:[〔〈][^〔〕〈〉]{1,20}[〕〉]){1,3}第/u.test(line.content)) {
      last.end = line.end;
      last.content = src.text.slice(last.start, last.end);
    } else out.push({ start: line.start, end: line.end, content: line.content, commentary: isCommentary });
  }
  return out;
}

/**
 * 〖…〗: the characters inside get a mark beside them (tree `mark`); a tag
 * at the head says which — 〖{專}孔子〗 專名號, 〖{書}論語〗 書名號,
 * 〖{圈}…〗 circles, 〖{雙圈}…〗 double circles, 〖{頓}…〗 sesame dots,
 * 〖{重}…〗 heavy dots (評點本 圈點), 〖{亡}…〗 a frame (示亡號), none (or
 * {點}) 著重號 dots; 〖{音:ㄉㄧㄠ ㄅㄢˇ}雕版〗 a ruby, one reading a
 * character, 〖{譯:woodblock}雕版〗 (or {釋:…}) one along the word.
 * Chosen because no corpus text uses 〖〗 (manuscript/README.md).
 */
const MARK_TAGS: Record<string, Mark['kind']> = {
  點: 'dot', 点: 'dot', dot: 'dot',
  圈: 'circle', circle: 'circle',
  雙圈: 'double', 双圈: 'double', double: 'double',
  頓: 'sesame', 顿: 'sesame', sesame: 'sesame',
  重: 'heavy', 重點: 'heavy', 重点: 'heavy', heavy: 'heavy',
  專: 'proper', 专: 'proper', 名: 'proper', proper: 'proper',
  書: 'book', 书: 'book', book: 'book',
  亡: 'box', 框: 'box', box: 'box',
};
/** Ruby tags: the text after the colon is the annotation, read per character or along the word. */
const RUBY_TAGS: Record<string, 'char' | 'word'> = { 音: 'char', 注音: 'char', ruby: 'char', 譯: 'word', 译: 'word', 釋: 'word', 释: 'word', gloss: 'word' };
const MARK_OPEN = /〖(?:\{([^{}\s:：]{1,8})(?:[:：]([^{}\n]{1,200}))?\})?/gu;

/** 抬頭 tags, anywhere in the text: what follows starts a new column, raised. */
const RAISE_TAGS: Record<string, Raise['level']> = { 平抬: 0, 單抬: 1, 单抬: 1, 雙抬: 2, 双抬: 2 };
const RAISE = /\{(平抬|單抬|单抬|雙抬|双抬)\}/gu;

function withMarks<B extends Block>(src: Source, block: B): B {
  block.children = annotations(markSpans(src, raises(src, block.children)));
  return block;
}

/** `{平抬}`, `{單抬}`, `{雙抬}` in the text → raise nodes (not text). */
function raises(src: Source, nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const node of nodes) {
    if (node.type === 'note' || node.type === 'mark') node.children = raises(src, node.children);
    const base = node.position.start.offset;
    if (node.type !== 'text' || base === undefined || !node.value.includes('抬}')) {
      out.push(node);
      continue;
    }
    let at = 0;
    for (const m of node.value.matchAll(RAISE)) {
      const k = m.index ?? 0;
      if (k > at) out.push({ type: 'text', value: node.value.slice(at, k), position: src.position(base + at, base + k) });
      out.push({ type: 'raise', level: own(RAISE_TAGS, m[1]) ?? 0, position: src.position(base + k, base + k + m[0].length) });
      at = k + m[0].length;
    }
    if (at < node.value.length) out.push(at === 0 ? node : { type: 'text', value: node.value.slice(at), position: src.position(base + at, base + node.value.length) });
  }
  return out;
}

/** Notes tagged {眉批} or {側批} → annotation nodes: they stand outside the running text. */
function annotations(nodes: Inline[]): Inline[] {
  return nodes.map((node): Inline => {
    if (node.type === 'note' || node.type === 'mark') node.children = annotations(node.children);
    if (node.type === 'note' && (node.layer === ANNOTATION_LAYERS.meipi || node.layer === ANNOTATION_LAYERS.cepi)) {
      const kind: Annotation['kind'] = node.layer === ANNOTATION_LAYERS.meipi ? 'meipi' : 'cepi';
      const annotation: Annotation = { type: 'annotation', kind, children: node.children, position: node.position };
      return annotation;
    }
    return node;
  });
}

/** The inline nodes with each 〖…〗 (at one level: not across a note's bracket) made a mark node. */
function markSpans(src: Source, nodes: Inline[]): Inline[] {
  type Piece = Inline | { open: number; inner: number; kind: Mark['kind']; ruby?: Mark['ruby'] } | { close: number };
  const pieces: Piece[] = [];
  const text = (s: number, e: number): void => {
    if (e > s) pieces.push({ type: 'text', value: src.text.slice(s, e), position: src.position(s, e) } satisfies Text);
  };
  for (const node of nodes) {
    if (node.type === 'note') node.children = markSpans(src, node.children);
    const base = node.position.start.offset;
    // An escaped \〖 is text (parse/inline.ts), whatever its neighbours.
    if (node.type !== 'text' || base === undefined || node.data?.escaped === true || !/[〖〗]/u.test(node.value)) {
      pieces.push(node);
      continue;
    }
    let at = base;
    const end = base + node.value.length;
    for (let i = at; i < end; i++) {
      const ch = src.text[i];
      if (ch !== '〖' && ch !== '〗') continue;
      text(at, i);
      if (ch === '〗') {
        pieces.push({ close: i });
        at = i + 1;
        continue;
      }
      MARK_OPEN.lastIndex = i;
      const m = MARK_OPEN.exec(src.text.slice(0, end)) as RegExpExecArray;
      let kind: Mark['kind'] = 'dot';
      let ruby: Mark['ruby'];
      if (m[1] !== undefined) {
        const known = own(MARK_TAGS, m[1]);
        const by = own(RUBY_TAGS, m[1]);
        if (by && m[2]?.trim()) {
          kind = 'ruby';
          ruby = { text: m[2].trim(), by };
        } else if (known && m[2] === undefined) kind = known;
        else src.report('warning', by ? `{${m[1]}:…} needs the annotation after the colon ({音:ㄉㄧㄠ}); 著重號 is used` : `unknown mark {${m[1]}}; known: 點 (著重號), 圈, 雙圈, 頓, 重 (圈點), 專 (專名號), 書 (書名號), 亡 (示亡號), 音:… 譯:… (ruby) — 著重號 is used`, i, i + m[0].length, 'mark-unknown');
      }
      pieces.push({ open: i, inner: i + m[0].length, kind, ...(ruby ? { ruby } : {}) });
      at = i + m[0].length;
      i = at - 1;
    }
    text(at, end);
  }
  const out: Inline[] = [];
  let open: { index: number; open: number; inner: number; kind: Mark['kind']; ruby?: Mark['ruby'] } | undefined;
  const literal = (s: number, e: number): void => {
    out.push({ type: 'text', value: src.text.slice(s, e), position: src.position(s, e) });
  };
  for (const piece of pieces) {
    if ('open' in piece) {
      if (open) {
        src.report('warning', '〖 inside 〖…〗: marks do not nest; this 〖 is kept as text', piece.open, piece.inner, 'mark-nested');
        literal(piece.open, piece.inner);
      } else open = { index: out.length, open: piece.open, inner: piece.inner, kind: piece.kind, ...(piece.ruby ? { ruby: piece.ruby } : {}) };
    } else if ('close' in piece) {
      if (!open) {
        src.report('warning', 'unmatched 〗: no 〖 before it; it is kept as text', piece.close, piece.close + 1, 'mark-unmatched');
        literal(piece.close, piece.close + 1);
        continue;
      }
      const children = out.splice(open.index);
      const mark: Mark = { type: 'mark', kind: open.kind, children, position: src.position(open.open, piece.close + 1) };
      if (open.ruby) mark.ruby = open.ruby;
      out.push(mark);
      open = undefined;
    } else out.push(piece);
  }
  if (open) {
    src.report('warning', 'unclosed 〖: add the 〗 where the marked characters end; it is kept as text', open.open, open.open + 1, 'mark-unclosed');
    const o = open;
    out.splice(o.index, 0, { type: 'text', value: src.text.slice(o.open, o.inner), position: src.position(o.open, o.inner) });
  }
  return out;
}

function taggedParagraphs(src: Source, start: number, end: number, inline: InlineOptions): Block[] {
  const text = src.text.slice(start, end);
  const tag = TAG.exec(text);
  if (!tag || Object.hasOwn(RAISE_TAGS, tag[1])) return textWithLabels(src, start, end, 'text', inline);
  const role = own(ROLE_TAGS, tag[1]);
  const contentStart = start + tag[0].length;
  if (!role) {
    src.report('warning', `unknown paragraph tag {${tag[1]}}; known: ${Object.keys(ROLE_TAGS).join(' ')} — the paragraph is set as main text`, start, contentStart, 'role-unknown');
    return [paragraph(src, 'text', contentStart, end, inline)];
  }
  return [paragraph(src, role, contentStart, end, inline)];
}

export function importDocsify(src: Source, fallbackTitle: string): ImportResult {
  const builder = new VolumeBuilder(src);
  const prepared = prepareMarkdown(src, DEFAULT_INLINE);
  const comments: Comments = { count: 0 };
  for (const node of prepared.tree.children) {
    const where = span(node);
    if (!where || node.type === 'thematicBreak') continue;
    if (node.type === 'html') {
      otherBlock(src, node, where, builder, prepared.inline, comments);
      continue;
    }
    if (node.type === 'heading') {
      const hs = headingSpan(node);
      if (hs) builder.add(heading(src, Math.min(3, Math.max(1, node.depth)) as 1 | 2 | 3, hs[0], hs[1]));
      continue;
    }
    // One paragraph a line: docsify pages indent each paragraph with full-width spaces.
    for (const line of blockLines(src, where[0], where[1])) {
      for (const block of textWithLabels(src, line.start, line.end, 'text', prepared.inline)) builder.add(block);
    }
  }
  return finishMarkdown(src, prepared, builder, prepared.inline, comments, fallbackTitle);
}

/** A paragraph that opens with a commentator's name and 曰 (任氏曰：): his commentary, where the text writes five or more. */
const COMMENTATOR_SAYS = /^\p{Script=Han}{1,2}氏曰[：:]/u;

/**
 * Wikisource texts as sites publish them (Hugo, Jekyll, pandoc): front matter
 * (its title, work and part: title.ts reads it), `##` headings, a `## 目录`
 * and its list (contents: front matter), notes in （…） and 〔…〕, liquid
 * tags (data). Readings from the whole text, each said: a paragraph wholly in
 * （…） is commentary (陸績注, （原註：…）) where the text writes two or more;
 * paragraphs opening 某氏曰： are a commentator's where five or more do; and
 * where the `>` quotes are the text and the plain paragraphs after each its
 * 集注 (quotes short, each followed by longer plain paragraphs, five times or
 * more), the quotes are text and those paragraphs commentary.
 */
export function importSiteMarkdown(src: Source, fallbackTitle: string, conv: FormatConventions): ImportResult {
  const builder = new VolumeBuilder(src);
  const prepared = prepareMarkdown(src, conv.inline);
  const inline = prepared.inline;
  const comments: Comments = { count: 0 };
  const nodes = prepared.tree.children;
  const lengthOf = (node: Content) => {
    const where = span(node);
    return where ? Array.from(src.text.slice(where[0], where[1]).replace(/[\s>]/gu, '')).length : 0;
  };
  // The quotes' reading: each quote followed by plain paragraphs longer than it.
  let quotes = 0;
  let glossed = 0;
  for (let k = 0; k < nodes.length; k++) {
    if (nodes[k].type !== 'blockquote') continue;
    quotes++;
    let after = 0;
    for (let j = k + 1; j < nodes.length && nodes[j].type === 'paragraph'; j++) after += lengthOf(nodes[j]);
    if (after > lengthOf(nodes[k])) glossed++;
  }
  const quotesAreText = quotes >= 5 && glossed >= quotes * 0.8;
  const firstQuote = nodes.find((n) => n.type === 'blockquote');
  if (quotes > 0) {
    const at = span(firstQuote as Content) ?? [0, 0];
    src.report('info', quotesAreText ? `> quotes read as the text and the plain paragraphs after them as its commentary (${glossed} of ${quotes} quotes followed by longer paragraphs)` : `> quotes read as commentary (${glossed} of ${quotes} followed by longer plain paragraphs)`, at[0], at[1], 'quote-reading');
  }
  const decisions = decideBracketLines(physicalLines(src.text), conv.commentaryLines ?? []);
  const wholeNote = decisions.find((d) => d.reading === 'commentary');
  for (const d of decisions) if (d.wholeLines + d.citations > 0) src.report('info', d.reading === 'commentary' ? `${d.open}…${d.close}: ${d.wholeLines} whole paragraphs read as commentary on the text before` : `${d.open}…${d.close}: whole paragraphs read as text (${d.wholeLines})`, 0, 0, 'bracket-reading');
  const says = nodes.filter((n) => n.type === 'paragraph' && COMMENTATOR_SAYS.test(src.text.slice(span(n)?.[0] ?? 0, (span(n)?.[0] ?? 0) + 6))).length;
  if (says > 0) src.report('info', says >= 5 ? `${says} paragraphs opening 某氏曰： read as that commentator's commentary` : `${says} paragraphs opening 某氏曰： read as text (fewer than five)`, 0, 0, 'commentator-reading');
  let contents = false;
  for (const node of nodes) {
    const where = span(node);
    if (!where) continue;
    if (node.type === 'heading') {
      const hs = headingSpan(node);
      if (!hs) continue;
      const title = src.text.slice(hs[0], hs[1]);
      // `## 目录` and the list under it: the contents, front matter.
      contents = /^目[录錄録]$/u.test(title.trim());
      builder.add(contents ? paragraph(src, 'front', hs[0], hs[1], inline) : heading(src, Math.min(3, Math.max(1, node.depth - 1)) as 1 | 2 | 3, hs[0], hs[1], inline));
      continue;
    }
    if (node.type === 'list' && contents) {
      for (const line of blockLines(src, where[0], where[1])) {
        const item = /^[-*+]\s+(?:\d+\s+)?/u.exec(line.content);
        builder.add(paragraph(src, 'front', line.start + (item?.[0].length ?? 0), line.end, inline));
      }
      continue;
    }
    contents = false;
    if (node.type === 'paragraph') {
      const text = src.text.slice(where[0], where[1]).trim();
      // Liquid's tags ({% capture main_text %}, {% include … %}): the site's, not the text's.
      if (/^\{%[^\n]*%\}$/u.test(text)) continue;
      const whole = wholeNote && text.startsWith(wholeNote.open) && text.endsWith(wholeNote.close) && text.indexOf(wholeNote.close) === text.length - wholeNote.close.length;
      if (whole) builder.add(paragraph(src, 'commentary', where[0] + wholeNote.open.length, where[1] - wholeNote.close.length, inline, 'zhu'));
      else if (quotesAreText || (says >= 5 && COMMENTATOR_SAYS.test(text))) builder.add(paragraph(src, 'commentary', where[0], where[1], inline, 'zhu'));
      else for (const block of textWithLabels(src, where[0], where[1], 'text', inline)) builder.add(block);
      continue;
    }
    if (node.type === 'blockquote') {
      for (const line of blockLines(src, where[0], where[1])) builder.add(paragraph(src, quotesAreText ? 'text' : 'commentary', line.start, line.end, inline, quotesAreText ? undefined : 'zhu'));
      continue;
    }
    if (node.type === 'thematicBreak') continue;
    otherBlock(src, node, where, builder, inline, comments);
  }
  return finishMarkdown(src, prepared, builder, inline, comments, fallbackTitle);
}
