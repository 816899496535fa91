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
import type { Block, Inline, LayerId, Mark, ParagraphRole, Text } from '../../tree/types.js';
import { layerFromTag } from '../../tree/layers.js';
import { VOLUME_TITLE, VolumeBuilder, chineseNumber, contentLines, heading, paragraph, textWithLabels } from '../blocks.js';
import type { Source } from '../source.js';
import type { ImportResult } from './corpus.js';

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

export function importMarkdown(src: Source, fallbackTitle: string): ImportResult {
  const builder = new VolumeBuilder(src);
  const tree = parseMarkdown(src.text);
  for (const node of tree.children) {
    const where = span(node);
    if (!where) continue;
    if (node.type === 'heading') {
      const hs = headingSpan(node);
      if (!hs) continue;
      if (node.depth === 1) {
        const title = src.text.slice(hs[0], hs[1]);
        const numeral = VOLUME_TITLE.exec(title);
        builder.open(title, numeral ? chineseNumber(numeral[2]) : null, where[0], where[1]);
      } else {
        builder.add(withMarks(src, heading(src, Math.min(3, node.depth - 1) as 1 | 2 | 3, hs[0], hs[1])));
      }
      continue;
    }
    if (node.type === 'paragraph') {
      for (const block of taggedParagraphs(src, where[0], where[1])) builder.add(withMarks(src, block));
      continue;
    }
    if (node.type === 'blockquote') {
      // Each line of a quote is a commentary paragraph: consecutive ones run on as one note in print.
      for (const line of blockLines(src, where[0], where[1])) {
        const tag = TAG.exec(line.content);
        let layer: LayerId = 'zhu';
        let start = line.start;
        if (tag) {
          layer = layerFromTag(tag[1]) ?? tag[1];
          if (!layerFromTag(tag[1])) src.report('warning', `unknown layer tag {${tag[1]}}; it is kept as a layer of its own — known layers: 注 音義 疏 附注 出處 案`, line.start, line.start + tag[0].length, 'layer-unknown');
          start += tag[0].length;
        }
        if (line.end > start) builder.add(withMarks(src, paragraph(src, 'commentary', start, line.end, undefined, layer)));
      }
      continue;
    }
    if (node.type === 'html' || node.type === 'thematicBreak' || node.type === 'definition') continue;
    src.report('warning', `Markdown ${node.type} is not part of the manuscript convention; its text is kept as a paragraph`, where[0], where[1], 'markdown-unsupported');
    for (const line of blockLines(src, where[0], where[1])) builder.add(paragraph(src, 'text', line.start, line.end));
  }
  return { volumes: builder.finish(fallbackTitle) };
}

/**
 * 〖…〗: the characters inside get a mark beside them (tree `mark`); a tag
 * at the head says which — 〖{專}孔子〗 專名號, 〖{書}論語〗 書名號,
 * 〖{圈}…〗 circles, 〖{頓}…〗 sesame dots, 〖{亡}…〗 a frame (示亡號),
 * none (or {點}) 著重號 dots.
 * Chosen because no corpus text uses 〖〗 (manuscript/README.md).
 */
const MARK_TAGS: Record<string, Mark['kind']> = {
  點: 'dot', 点: 'dot', dot: 'dot',
  圈: 'circle', circle: 'circle',
  頓: 'sesame', 顿: 'sesame', sesame: 'sesame',
  專: 'proper', 专: 'proper', 名: 'proper', proper: 'proper',
  書: 'book', 书: 'book', book: 'book',
  亡: 'box', 框: 'box', box: 'box',
};
const MARK_OPEN = /〖(?:\{([^{}\s]{1,8})\})?/gu;

function withMarks<B extends Block>(src: Source, block: B): B {
  block.children = markSpans(src, block.children);
  return block;
}

/** The inline nodes with each 〖…〗 (at one level: not across a note's bracket) made a mark node. */
function markSpans(src: Source, nodes: Inline[]): Inline[] {
  type Piece = Inline | { open: number; inner: number; kind: Mark['kind'] } | { close: number };
  const pieces: Piece[] = [];
  const text = (s: number, e: number): void => {
    if (e > s) pieces.push({ type: 'text', value: src.text.slice(s, e), position: src.position(s, e) } satisfies Text);
  };
  for (const node of nodes) {
    if (node.type === 'note') node.children = markSpans(src, node.children);
    const base = node.position.start.offset;
    if (node.type !== 'text' || base === undefined || !/[〖〗]/u.test(node.value)) {
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
      if (m[1] !== undefined) {
        const known = MARK_TAGS[m[1]];
        if (known) kind = known;
        else src.report('warning', `unknown mark {${m[1]}}; known: 點 (著重號), 圈, 頓, 專 (專名號), 書 (書名號), 亡 (示亡號) — 著重號 is used`, i, i + m[0].length, 'mark-unknown');
      }
      pieces.push({ open: i, inner: i + m[0].length, kind });
      at = i + m[0].length;
      i = at - 1;
    }
    text(at, end);
  }
  const out: Inline[] = [];
  let open: { index: number; open: number; inner: number; kind: Mark['kind'] } | undefined;
  const literal = (s: number, e: number): void => {
    out.push({ type: 'text', value: src.text.slice(s, e), position: src.position(s, e) });
  };
  for (const piece of pieces) {
    if ('open' in piece) {
      if (open) {
        src.report('warning', '〖 inside 〖…〗: marks do not nest; this 〖 is kept as text', piece.open, piece.inner, 'mark-nested');
        literal(piece.open, piece.inner);
      } else open = { index: out.length, open: piece.open, inner: piece.inner, kind: piece.kind };
    } else if ('close' in piece) {
      if (!open) {
        src.report('warning', 'unmatched 〗: no 〖 before it; it is kept as text', piece.close, piece.close + 1, 'mark-unmatched');
        literal(piece.close, piece.close + 1);
        continue;
      }
      const children = out.splice(open.index);
      out.push({ type: 'mark', kind: open.kind, children, position: src.position(open.open, piece.close + 1) });
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

function taggedParagraphs(src: Source, start: number, end: number): Block[] {
  const text = src.text.slice(start, end);
  const tag = TAG.exec(text);
  if (!tag) return textWithLabels(src, start, end, 'text');
  const role = ROLE_TAGS[tag[1]];
  const contentStart = start + tag[0].length;
  if (!role) {
    src.report('warning', `unknown paragraph tag {${tag[1]}}; known: ${Object.keys(ROLE_TAGS).join(' ')} — the paragraph is set as main text`, start, contentStart, 'role-unknown');
    return [paragraph(src, 'text', contentStart, end)];
  }
  return [paragraph(src, role, contentStart, end)];
}

export function importDocsify(src: Source, fallbackTitle: string): ImportResult {
  const builder = new VolumeBuilder(src);
  const tree = parseMarkdown(src.text);
  for (const node of tree.children) {
    const where = span(node);
    if (!where || node.type === 'html' || node.type === 'thematicBreak') continue;
    if (node.type === 'heading') {
      const hs = headingSpan(node);
      if (hs) builder.add(heading(src, Math.min(3, Math.max(1, node.depth)) as 1 | 2 | 3, hs[0], hs[1]));
      continue;
    }
    // One paragraph a line: docsify pages indent each paragraph with full-width spaces.
    for (const line of blockLines(src, where[0], where[1])) {
      for (const block of textWithLabels(src, line.start, line.end, 'text')) builder.add(block);
    }
  }
  return { volumes: builder.finish(fallbackTitle) };
}
