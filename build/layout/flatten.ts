/**
 * Tree → a flat stream of settable characters, one per cell (main text) or
 * half cell (notes). Iterates by code point so that Extension B characters
 * stay whole; whitespace is never set (in notes a full-width space only
 * separates layers, which the segments carry), except an ASCII space between
 * two Latin words of the main text, which rotated Latin keeps.
 */
import type { Block, Inline, LayerId, Mark } from '../tree/types.js';
import type { NoteSegment } from './types.js';

/** The mark node (著重號, 專名號 …) a character lies under: its kind and a number that tells mark nodes apart. */
export interface MarkRef {
  kind: Mark['kind'];
  id: number;
}

export interface MainChar {
  kind: 'main';
  ch: string;
  style?: 'small' | 'lacuna' | 'glyph';
  /** Source offset (UTF-16) of the character, when known. */
  offset?: number;
  mark?: MarkRef;
}

export interface NoteChar {
  kind: 'note';
  ch: string;
  layer: LayerId;
  depth: number;
  style?: NoteSegment['style'];
  mark?: MarkRef;
}

export type Item = MainChar | NoteChar;

/** The placeholder set for a glyph the charmap does not map. */
export const GLYPH_PLACEHOLDER = '〓';
/** What a lacuna with an empty value is set as. */
export const LACUNA_MARK = '□';

const WHITESPACE = /^\s$/u;

export function isWhitespace(ch: string): boolean {
  return WHITESPACE.test(ch);
}

interface Context {
  /** 0 outside notes. */
  depth: number;
  layer: LayerId;
  small: boolean;
  mark?: MarkRef;
  /** Numbers the mark nodes of a block. */
  marks: { count: number };
}

const LATIN = /^[\x21-\x7e]$/u;

/**
 * Calls `emit` for every code point of `value` that is not whitespace, with
 * its UTF-16 index; with `latinSpaces`, also for an ASCII space between two
 * printable ASCII characters (the space between two Latin words).
 */
function eachChar(value: string, emit: (ch: string, index: number) => void, latinSpaces = false): void {
  const chars = Array.from(value);
  let index = 0;
  chars.forEach((ch, i) => {
    const keep = !isWhitespace(ch) || (latinSpaces && ch === ' ' && LATIN.test(chars[i - 1] ?? '') && LATIN.test(chars[i + 1] ?? ''));
    if (keep) emit(ch, index);
    index += ch.length;
  });
}

function flattenInline(node: Inline, ctx: Context, out: Item[]): void {
  const put = (ch: string, style: MainChar['style'] | undefined, offset: number | undefined): void => {
    if (ctx.depth > 0) {
      const item: NoteChar = { kind: 'note', ch, layer: ctx.layer, depth: ctx.depth };
      if (style) item.style = style;
      if (ctx.mark) item.mark = ctx.mark;
      out.push(item);
    } else {
      const item: MainChar = { kind: 'main', ch };
      if (style) item.style = style;
      if (offset !== undefined) item.offset = offset;
      if (ctx.mark) item.mark = ctx.mark;
      out.push(item);
    }
  };
  const base = node.position?.start?.offset;
  switch (node.type) {
    case 'text':
      eachChar(node.value, (ch, i) => put(ch, ctx.small ? 'small' : undefined, base === undefined ? undefined : base + i), ctx.depth === 0 && !ctx.small);
      return;
    case 'lacuna': {
      const value = [...node.value].some((c) => !isWhitespace(c)) ? node.value : LACUNA_MARK;
      eachChar(value, (ch, i) => put(ch, 'lacuna', base === undefined ? undefined : base + i));
      return;
    }
    case 'glyph':
      if (node.replacement !== undefined && [...node.replacement].some((c) => !isWhitespace(c))) {
        eachChar(node.replacement, (ch) => put(ch, undefined, base));
      } else {
        put(GLYPH_PLACEHOLDER, 'glyph', base);
      }
      return;
    case 'small':
      for (const child of node.children) flattenInline(child, { ...ctx, small: true }, out);
      return;
    case 'note':
      // The source's label (集解, 音義) is printed at the head of the note, in its layer.
      if (node.label) eachChar(node.label, (ch) => out.push({ kind: 'note', ch, layer: node.layer, depth: ctx.depth + 1 }));
      for (const child of node.children) {
        flattenInline(child, { depth: ctx.depth + 1, layer: node.layer, small: ctx.small, marks: ctx.marks }, out);
      }
      return;
    case 'mark': {
      const mark: MarkRef = { kind: node.kind, id: ++ctx.marks.count };
      for (const child of node.children) flattenInline(child, { ...ctx, mark }, out);
      return;
    }
    case 'annotation':
    case 'correction':
      for (const child of node.children) flattenInline(child, ctx, out);
      return;
    case 'anchor':
    case 'raise':
      return;
  }
}

/** The layer of a commentary paragraph that does not say. */
export const DEFAULT_COMMENTARY_LAYER: LayerId = 'zhu';

/**
 * The characters of a block in reading order. A commentary paragraph is all
 * note (depth 1 in its layer, a note inside it depth 2).
 */
export function flattenBlock(block: Block): Item[] {
  const out: Item[] = [];
  const commentary = block.type === 'paragraph' && block.role === 'commentary';
  const marks = { count: 0 };
  const ctx: Context = commentary
    ? { depth: 1, layer: (block.type === 'paragraph' && block.layer) || DEFAULT_COMMENTARY_LAYER, small: false, marks }
    : { depth: 0, layer: DEFAULT_COMMENTARY_LAYER, small: false, marks };
  for (const child of block.children) flattenInline(child, ctx, out);
  return out;
}

/** The plain text of inline content without its notes (for section names and bookmarks). */
export function plainText(children: Inline[]): string {
  let s = '';
  for (const node of children) {
    switch (node.type) {
      case 'text':
      case 'lacuna':
        s += node.value;
        break;
      case 'glyph':
        s += node.replacement ?? GLYPH_PLACEHOLDER;
        break;
      case 'small':
      case 'mark':
      case 'correction':
        s += plainText(node.children);
        break;
      case 'note':
      case 'annotation':
      case 'anchor':
      case 'raise':
        break;
    }
  }
  return s.replace(/\s+/gu, '');
}
