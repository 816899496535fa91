/**
 * Tree → a flat stream of settable characters, one per cell (main text) or
 * half cell (notes). Iterates by code point so that Extension B characters
 * stay whole; whitespace is never set (in notes a full-width space only
 * separates layers, which the segments carry).
 */
import type { Block, Inline, LayerId } from '../tree/types.js';
import type { NoteSegment, TextRun } from './types.js';

export interface MainChar {
  kind: 'main';
  ch: string;
  style?: TextRun['style'];
  /** Source offset (UTF-16) of the character, when known. */
  offset?: number;
}

export interface NoteChar {
  kind: 'note';
  ch: string;
  layer: LayerId;
  depth: number;
  style?: NoteSegment['style'];
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
}

/** Calls `emit` for every code point of `value` that is not whitespace, with its UTF-16 index. */
function eachChar(value: string, emit: (ch: string, index: number) => void): void {
  let index = 0;
  for (const ch of value) {
    if (!isWhitespace(ch)) emit(ch, index);
    index += ch.length;
  }
}

function flattenInline(node: Inline, ctx: Context, out: Item[]): void {
  const put = (ch: string, style: TextRun['style'] | undefined, offset: number | undefined): void => {
    if (ctx.depth > 0) {
      const item: NoteChar = { kind: 'note', ch, layer: ctx.layer, depth: ctx.depth };
      if (style) item.style = style;
      out.push(item);
    } else {
      const item: MainChar = { kind: 'main', ch };
      if (style) item.style = style;
      if (offset !== undefined) item.offset = offset;
      out.push(item);
    }
  };
  const base = node.position?.start?.offset;
  switch (node.type) {
    case 'text':
      eachChar(node.value, (ch, i) => put(ch, ctx.small ? 'small' : undefined, base === undefined ? undefined : base + i));
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
        flattenInline(child, { depth: ctx.depth + 1, layer: node.layer, small: ctx.small }, out);
      }
      return;
    case 'mark':
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
  const ctx: Context = commentary
    ? { depth: 1, layer: (block.type === 'paragraph' && block.layer) || DEFAULT_COMMENTARY_LAYER, small: false }
    : { depth: 0, layer: DEFAULT_COMMENTARY_LAYER, small: false };
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
