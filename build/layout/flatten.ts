/**
 * Tree → a flat stream of settable characters, one per cell (main text) or
 * half cell (notes). Iterates by code point so that Extension B characters
 * stay whole; whitespace is never set (in notes a full-width space only
 * separates layers, which the segments carry), except an ASCII space between
 * two Latin words of the main text, which rotated Latin keeps.
 */
import type { Anchor, Annotation, Block, GlyphDrawing, Inline, LayerId, Mark, Raise, SourcePosition } from '../tree/types.js';
import type { LabelForm } from '../tree/layer-style.js';
import { textLabelLength } from '../tree/layers.js';
import type { NoteSegment } from './types.js';

/** The mark node (著重號, 專名號 …) a character lies under: its kind and a number that tells mark nodes apart. */
export interface MarkRef {
  kind: Mark['kind'];
  id: number;
  /** kind `ruby` set along the whole span (clreq 5.5.6): its text. */
  ruby?: string;
}

/** An annotation (眉批, 側批) anchored at a character: its text and where it stands in the source. */
export interface AnnotationRef {
  kind: Annotation['kind'];
  text: string;
  /** Numbers the annotations of a volume in reading order. */
  id: number;
  position: SourcePosition;
  /** Anchored after the character (the annotation ends its block) rather than before it. */
  after?: boolean;
}

export interface MainChar {
  kind: 'main';
  ch: string;
  style?: 'small' | 'lacuna' | 'glyph';
  /** Source offset (UTF-16) of the character, when known. */
  offset?: number;
  mark?: MarkRef;
  /** 抬頭: this character starts a new column, raised by this many cells (0 平抬). */
  raise?: Raise['level'];
  /** This character starts a new column at the block's continuation indent (a 提要's date line: engine.ts). */
  columnBreak?: boolean;
  /** Annotations anchored here. */
  anchors?: AnnotationRef[];
  /** A ruby set character by character (注音): this character's reading. */
  reading?: string;
  /** `source` flattening: a full-width space, a blank cell of the source's line. */
  blank?: boolean;
  /** `source` flattening: the source's line and page anchors before this character (or after it, at the end of a block). */
  breaks?: SourceBreak[];
  /** A glyph drawn in its cell (style `glyph`) where no font has `ch`: one cell, a run of its own. */
  drawing?: GlyphDrawing;
}

/** A Kanripo ¶ or <pb:> where it stands between characters (layout: source). */
export interface SourceBreak {
  anchor: Anchor;
  /** It stands after the character (the block ends with it). */
  after?: boolean;
}

export interface NoteChar {
  kind: 'note';
  ch: string;
  layer: LayerId;
  depth: number;
  style?: NoteSegment['style'];
  mark?: MarkRef;
  anchors?: AnnotationRef[];
  breaks?: SourceBreak[];
  /** `source` flattening: the first character of a note's piece on a source line carries the source's split (characters in the right sub-column). */
  split?: number;
  /** As for MainChar. */
  drawing?: GlyphDrawing;
}

export type Item = MainChar | NoteChar;

/** The placeholder set for a glyph the charmap does not map. */
export const GLYPH_PLACEHOLDER = '〓';
/** What a lacuna with an empty value is set as. */
export const LACUNA_MARK = '□';

const WHITESPACE = /^\s$/u;

/** What a glyph reads as in plain text (a bookmark, a margin's text): its replacement, a drawn glyph's text, else 〓. */
export function glyphText(node: { replacement?: string; drawing?: GlyphDrawing }): string {
  if (node.replacement !== undefined && [...node.replacement].some((c) => !isWhitespace(c))) return node.replacement;
  return node.drawing?.text ?? GLYPH_PLACEHOLDER;
}

export function isWhitespace(ch: string): boolean {
  return WHITESPACE.test(ch);
}

interface Context {
  /** 0 outside notes. */
  depth: number;
  layer: LayerId;
  small: boolean;
  mark?: MarkRef;
  /** A ruby set character by character: the readings still to give out. */
  readings?: string[];
  /** Characters still to set as the note's printed label (疏曰 at its head, in the 四庫 template). */
  label?: { left: number };
  shared: Shared;
}

/** What the whole block's walk shares. */
interface Shared {
  /** layout: source — blanks and anchors kept, splits given out. */
  source: boolean;
  breaks: SourceBreak[];
  /** The note (depth 1) being walked: its splits, and the piece (source line) the next character starts. */
  splits?: { values: readonly number[]; next: number; start: boolean };
  /** Numbers the mark nodes of a block. */
  marks: { count: number };
  /** A 抬頭 and annotations waiting for the next character. */
  raise?: Raise['level'];
  anchors: AnnotationRef[];
  labels: LabelForm;
  annotationIds: { count: number };
}

const LATIN = /^[\x21-\x7e]$/u;

/**
 * Calls `emit` for every code point of `value` that is not whitespace, with
 * its UTF-16 index; with `latinSpaces`, also for an ASCII space between two
 * printable ASCII characters (the space between two Latin words).
 */
function eachChar(value: string, emit: (ch: string, index: number) => void, latinSpaces = false, blanks = false): void {
  const chars = Array.from(value);
  let index = 0;
  chars.forEach((ch, i) => {
    const keep = !isWhitespace(ch) || (blanks && ch === '\u3000') || (latinSpaces && ch === ' ' && LATIN.test(chars[i - 1] ?? '') && LATIN.test(chars[i + 1] ?? ''));
    if (keep) emit(ch, index);
    index += ch.length;
  });
}

/** The characters of an annotation's text (its notes and marks flattened into it): what the margin shows. */
export function annotationText(children: readonly Inline[]): string {
  let s = '';
  for (const node of children) {
    if (node.type === 'text') s += node.value;
    else if (node.type === 'lacuna') s += [...node.value].some((c) => !isWhitespace(c)) ? node.value : LACUNA_MARK;
    // A margin prints characters only: a drawn glyph's one-character reading, else 〓.
    else if (node.type === 'glyph') s += [...glyphText(node)].length === 1 || node.replacement !== undefined ? glyphText(node) : GLYPH_PLACEHOLDER;
    else if ('children' in node) s += annotationText(node.children);
  }
  return Array.from(s).filter((c) => !isWhitespace(c)).join('');
}

/** A label the source prints (附注, 音義) as note characters: bracketed, or as it is for the renderer's 陰文. */
function labelChars(label: string, layer: LayerId, depth: number, shared: Shared, out: Item[]): void {
  const form = shared.labels;
  const text = form.form === 'bracket' ? `${form.open}${label}${form.close}` : label;
  eachChar(text, (ch) => {
    const item: NoteChar = { kind: 'note', ch, layer, depth, style: 'label' };
    // What stands before the note (a ¶, an annotation) stands before its label.
    if (shared.anchors.length > 0) item.anchors = shared.anchors.splice(0);
    if (shared.breaks.length > 0) item.breaks = shared.breaks.splice(0);
    out.push(item);
  });
}

function flattenInline(node: Inline, ctx: Context, out: Item[]): void {
  const put = (ch: string, style: MainChar['style'] | undefined, offset: number | undefined, drawing?: GlyphDrawing): void => {
    const shared = ctx.shared;
    if (ctx.depth > 0) {
      const item: NoteChar = { kind: 'note', ch, layer: ctx.layer, depth: ctx.depth };
      if (drawing) item.drawing = drawing;
      if (ctx.label && ctx.label.left > 0 && !style) {
        item.style = 'head';
        ctx.label.left--;
      } else if (style) item.style = style;
      if (ctx.mark) item.mark = ctx.mark;
      if (shared.anchors.length > 0) item.anchors = shared.anchors.splice(0);
      if (shared.breaks.length > 0) item.breaks = shared.breaks.splice(0);
      if (shared.splits?.start && ctx.depth === 1) {
        const value = shared.splits.values[shared.splits.next++];
        if (value !== undefined) item.split = value;
        shared.splits.start = false;
      }
      out.push(item);
    } else {
      const item: MainChar = { kind: 'main', ch };
      if (style) item.style = style;
      if (drawing) item.drawing = drawing;
      if (offset !== undefined) item.offset = offset;
      if (ctx.mark) item.mark = ctx.mark;
      if (ctx.readings && ctx.readings.length > 0) item.reading = ctx.readings.shift();
      if (shared.raise !== undefined) {
        item.raise = shared.raise;
        shared.raise = undefined;
      }
      if (shared.anchors.length > 0) item.anchors = shared.anchors.splice(0);
      if (shared.breaks.length > 0) item.breaks = shared.breaks.splice(0);
      if (ch === '\u3000') item.blank = true;
      out.push(item);
    }
  };
  const base = node.position?.start?.offset;
  switch (node.type) {
    case 'text':
      eachChar(node.value, (ch, i) => put(ch, ctx.small ? 'small' : undefined, base === undefined ? undefined : base + i), ctx.depth === 0 && !ctx.small, ctx.shared.source && ctx.depth === 0);
      return;
    case 'lacuna': {
      const value = [...node.value].some((c) => !isWhitespace(c)) ? node.value : LACUNA_MARK;
      eachChar(value, (ch, i) => put(ch, 'lacuna', base === undefined ? undefined : base + i));
      return;
    }
    case 'glyph':
      if (node.drawing) {
        // One cell: the character where a font has it (the renderer decides), else the drawing.
        put(node.replacement !== undefined && [...node.replacement].length === 1 ? node.replacement : GLYPH_PLACEHOLDER, 'glyph', base, node.drawing);
      } else if (node.replacement !== undefined && [...node.replacement].some((c) => !isWhitespace(c))) {
        eachChar(node.replacement, (ch) => put(ch, undefined, base));
      } else {
        put(GLYPH_PLACEHOLDER, 'glyph', base);
      }
      return;
    case 'small':
      for (const child of node.children) flattenInline(child, { ...ctx, small: true }, out);
      return;
    case 'note': {
      if (node.fullSize && ctx.shared.source && ctx.depth === 0) {
        // The source's own layout: a note it prints at full size (its label too) takes full cells, as the source's line does.
        if (node.label) eachChar(node.label, (ch) => put(ch, undefined, undefined));
        for (const child of node.children) flattenInline(child, ctx, out);
        return;
      }
      // The source's label (集解, 音義, 附注) is printed at the head of the note, in its layer, in the template's form.
      if (node.label) labelChars(node.label, node.layer, ctx.depth + 1, ctx.shared, out);
      const inner: Context = { depth: ctx.depth + 1, layer: node.layer, small: ctx.small, shared: ctx.shared };
      const label = node.label ? 0 : headLabel(node.layer, node.children, ctx.shared.labels);
      if (label > 0) inner.label = { left: label };
      const outer = ctx.shared.splits;
      if (ctx.shared.source && ctx.depth === 0) ctx.shared.splits = { values: node.splits ?? (node.split !== undefined ? [node.split] : []), next: 0, start: true };
      for (const child of node.children) flattenInline(child, inner, out);
      ctx.shared.splits = outer;
      return;
    }
    case 'mark': {
      const mark: MarkRef = { kind: node.kind, id: ++ctx.shared.marks.count };
      const inner: Context = { ...ctx, mark };
      if (node.kind === 'ruby' && node.ruby) {
        const readings = node.ruby.text.trim().split(/\s+/u);
        const base = annotationText(node.children).length;
        // One reading a character when asked and when they match; else the whole text along the span.
        if (node.ruby.by === 'char' && readings.length === base && ctx.depth === 0) inner.readings = readings;
        else mark.ruby = node.ruby.text.trim();
      }
      for (const child of node.children) flattenInline(child, inner, out);
      return;
    }
    case 'annotation': {
      const shared = ctx.shared;
      shared.anchors.push({ kind: node.kind, text: annotationText(node.children), id: ++shared.annotationIds.count, position: node.position });
      return;
    }
    case 'correction':
    case 'app':
      for (const child of node.children) flattenInline(child, ctx, out);
      return;
    case 'raise':
      ctx.shared.raise = node.level;
      return;
    case 'anchor':
      if (ctx.shared.source) {
        ctx.shared.breaks.push({ anchor: node });
        // A note's next source line starts a new piece with its own split.
        if (node.kind === 'line' && ctx.shared.splits && ctx.depth === 1) ctx.shared.splits.start = true;
      }
      return;
  }
}

/** Characters at the head of a note that are the label the source prints in its text (疏曰), set 陰文 in a template that draws labels so. */
function headLabel(layer: LayerId, children: readonly Inline[], form: LabelForm): number {
  if (form.form !== 'yinwen') return 0;
  const first = children[0];
  return first?.type === 'text' ? textLabelLength(layer, first.value.trimStart()) : 0;
}

/** The layer of a commentary paragraph that does not say. */
export const DEFAULT_COMMENTARY_LAYER: LayerId = 'zhu';

export interface FlattenOptions {
  /** How a printed label is set (styles/layers.json): bracketed characters, or as it is for a 陰文 box. Default 陰文. */
  labels?: LabelForm;
  /** layout: source — full-width spaces of the main text kept as blank cells, the source's ¶ and <pb:> carried by the characters, each note line's split given to its first character. */
  source?: boolean;
  /** Numbers annotations across the blocks of a volume. */
  annotationIds?: { count: number };
}

export interface FlattenedBlock {
  items: Item[];
  /** Annotations of a block with no character to stand by: the caller anchors them at the next character. */
  orphans: AnnotationRef[];
  /** The same for the source's anchors (layout: source). */
  breaks: SourceBreak[];
}

/**
 * The characters of a block in reading order, with what stands between
 * them (抬頭, annotations) carried by the character after it. A commentary
 * paragraph is all note (depth 1 in its layer, a note inside it depth 2).
 */
export function flattenBlockWith(block: Block, options: FlattenOptions = {}): FlattenedBlock {
  const out: Item[] = [];
  const commentary = block.type === 'paragraph' && block.role === 'commentary';
  const labels = options.labels ?? { form: 'yinwen' };
  const shared: Shared = { marks: { count: 0 }, anchors: [], labels, annotationIds: options.annotationIds ?? { count: 0 }, source: options.source ?? false, breaks: [] };
  const layer = (block.type === 'paragraph' && block.layer) || DEFAULT_COMMENTARY_LAYER;
  const ctx: Context = commentary ? { depth: 1, layer, small: false, shared } : { depth: 0, layer: DEFAULT_COMMENTARY_LAYER, small: false, shared };
  if (commentary && block.type === 'paragraph') {
    if (block.label) labelChars(block.label, layer, 1, shared, out);
    else {
      const label = headLabel(layer, block.children, labels);
      if (label > 0) ctx.label = { left: label };
    }
  }
  for (const child of block.children) flattenInline(child, ctx, out);
  // Annotations at the end of the block stand after its last character.
  const last = out[out.length - 1];
  if (shared.anchors.length > 0 && last) {
    last.anchors = [...(last.anchors ?? []), ...shared.anchors.splice(0).map((a) => ({ ...a, after: true }))];
  }
  if (shared.breaks.length > 0 && last) last.breaks = [...(last.breaks ?? []), ...shared.breaks.splice(0).map((b) => ({ ...b, after: true }))];
  return { items: out, orphans: shared.anchors, breaks: shared.breaks };
}

/** The characters of a block in reading order (flattenBlockWith without what stands between them). */
export function flattenBlock(block: Block, options: FlattenOptions = {}): Item[] {
  return flattenBlockWith(block, options).items;
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
        s += glyphText(node);
        break;
      case 'small':
      case 'mark':
      case 'correction':
      case 'app':
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
