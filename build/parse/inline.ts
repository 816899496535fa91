/**
 * Inline syntax shared by every importer: a span of source text → inline
 * nodes. Brackets make notes (【…】, 〈…〉), 〈臣〉-like words make small text,
 * □ makes lacunae, Private Use Area characters make glyph placeholders.
 * Unbalanced brackets are reported and recovered without losing text.
 */
import type { Glyph, Inline, LayerId, Note, Small, Text } from '../tree/types.js';
import { DEFAULT_LAYER, layerFromTag } from '../tree/layers.js';
import type { Source } from './source.js';

export interface InlineOptions {
  /** Bracket pairs that enclose a note. */
  notes: ReadonlyArray<readonly [string, string]>;
  /** Contents of 〈…〉 that are small text, not commentary (〈臣〉). */
  smallWords: ReadonlySet<string>;
}

export const DEFAULT_INLINE: InlineOptions = {
  notes: [
    ['【', '】'],
    ['〈', '〉'],
  ],
  smallWords: new Set(['臣']),
};

interface Frame {
  open: string;
  /** Closing bracket; null for a note opened by a label such as 【附注】 that runs to the end. */
  close: string | null;
  start: number;
  /** Where the note's content starts (after the bracket and any {tag}). */
  contentStart: number;
  layer?: LayerId;
  children: Inline[];
}

export function isPrivateUse(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
}

function isControl(cp: number): boolean {
  return (cp < 0x20 && cp !== 0x09) || (cp >= 0x7f && cp < 0xa0);
}

const LACUNA = '□';
const TAG = /^\{([^{}\s]{1,16})\}/u;

/**
 * Parses `src.text[start, end)`. Returns the inline nodes; problems go to the
 * source's file as messages.
 */
export function parseInline(src: Source, start: number, end: number, options: InlineOptions = DEFAULT_INLINE): Inline[] {
  const { text } = src;
  const root: Frame = { open: '', close: '', start, contentStart: start, children: [] };
  const stack: Frame[] = [root];
  let textStart = start;

  const top = () => stack[stack.length - 1];
  const flush = (upTo: number) => {
    if (upTo > textStart) {
      const node: Text = { type: 'text', value: text.slice(textStart, upTo), position: src.position(textStart, upTo) };
      top().children.push(node);
    }
  };
  const closeFrame = (frame: Frame, endOffset: number) => {
    const content = frame.children;
    const only = content.length === 1 && content[0].type === 'text' ? content[0].value : null;
    if (frame.open === '〈' && only !== null && options.smallWords.has(only)) {
      const small: Small = { type: 'small', children: [content[0] as Text], position: src.position(frame.start, endOffset) };
      top().children.push(small);
      return;
    }
    // 【附注】: a label, not a note: the rest of the paragraph is a note of that layer.
    const labelLayer = frame.close !== null && frame.layer === undefined && only !== null ? labelOnly(only) : undefined;
    if (labelLayer !== undefined) {
      stack.push({ open: frame.open, close: null, start: frame.start, contentStart: endOffset, layer: labelLayer, children: [] });
      return;
    }
    const note: Note = {
      type: 'note',
      layer: frame.layer ?? DEFAULT_LAYER,
      children: content,
      position: src.position(frame.start, endOffset),
    };
    top().children.push(note);
  };

  let i = start;
  while (i < end) {
    const cp = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    const next = i + ch.length;
    const pair = options.notes.find(([open]) => open === ch);
    const closing = options.notes.some(([, close]) => close === ch);
    if (pair) {
      flush(i);
      const tag = TAG.exec(text.slice(next, Math.min(end, next + 20)));
      let layer: LayerId | undefined;
      let contentStart = next;
      if (tag) {
        layer = layerFromTag(tag[1]);
        if (layer === undefined) {
          layer = tag[1];
          src.report('warning', `unknown layer tag {${tag[1]}}; it is kept as a layer of its own — known layers: 注 音義 疏 附注 出處 案`, next, next + tag[0].length, 'layer-unknown');
        }
        contentStart = next + tag[0].length;
      }
      stack.push({ open: ch, close: pair[1], start: i, contentStart, layer, children: [] });
      i = contentStart;
      textStart = i;
      continue;
    }
    if (closing) {
      flush(i);
      const depth = findOpen(stack, ch);
      if (depth < 0) {
        src.report('error', `unmatched closing ${ch}: no opening bracket before it in this paragraph; delete it or add the opening bracket`, i, next, 'bracket-unmatched');
      } else {
        // Label notes (【附注】…) end where their enclosing bracket ends.
        while (stack.length - 1 > depth) {
          const inner = stack.pop() as Frame;
          if (inner.close !== null) {
            src.report('error', `unclosed ${inner.open}: closed here by ${ch} of an outer note; add the missing ${inner.close}`, inner.start, inner.start + inner.open.length, 'bracket-unclosed');
          }
          closeFrame(inner, i);
        }
        const frame = stack.pop() as Frame;
        closeFrame(frame, next);
      }
      i = next;
      textStart = i;
      continue;
    }
    if (ch === LACUNA) {
      flush(i);
      let j = next;
      while (j < end && text[j] === LACUNA) j++;
      top().children.push({ type: 'lacuna', value: text.slice(i, j), position: src.position(i, j) });
      i = j;
      textStart = i;
      continue;
    }
    if (isPrivateUse(cp) || cp === 0xfffd) {
      flush(i);
      const glyph: Glyph = { type: 'glyph', value: ch, codePoint: cp, position: src.position(i, next) };
      top().children.push(glyph);
      if (cp === 0xfffd) {
        src.report('error', 'a byte here could not be decoded (shown as �); fix the file\'s encoding', i, next, 'encoding-invalid');
      }
      i = next;
      textStart = i;
      continue;
    }
    if (isControl(cp)) {
      flush(i);
      src.report('error', `control character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (binary garbage?) is not text; it was left out — delete it`, i, next, 'control-character');
      i = next;
      textStart = i;
      continue;
    }
    i = next;
  }
  flush(end);
  while (stack.length > 1) {
    const frame = stack.pop() as Frame;
    if (frame.close !== null) {
      src.report('error', `unclosed ${frame.open}: the note runs to the end of the paragraph; add the missing ${frame.close} where the note ends`, frame.start, frame.start + frame.open.length, 'bracket-unclosed');
    }
    closeFrame(frame, end);
  }
  return root.children;
}

/** Stack index of the innermost frame closed by `close`, or -1. Label frames are skipped. */
function findOpen(stack: Frame[], close: string): number {
  for (let d = stack.length - 1; d > 0; d--) {
    if (stack[d].close === close) return d;
  }
  return -1;
}

/** Labels that, alone in brackets, open a layer for the rest of the paragraph. */
function labelOnly(content: string): LayerId | undefined {
  return content === '附注' || content === '附註' ? 'fuzhu' : undefined;
}
