/**
 * Layer classification: a note whose text holds several layers (鄭注, then
 * 音義, then 疏, separated by white space in the source) is split into
 * consecutive notes, one a layer, by the rules in build/tree/layers.ts.
 * Notes that already carry a layer other than 注 (tagged, or 【附注】) are
 * left as they are.
 */
import type { Inline, LayerId, Note, Parent, Root, SourcePosition, Text } from '../tree/types.js';
import { DEFAULT_LAYER, LAYER_RULES, SEGMENT_BREAK_BEFORE, type LayerRule } from '../tree/layers.js';
import type { LayerRuleConfig } from '../tree/edition.js';
import { editionPattern } from '../parse/pattern.js';
import { append } from '../tree/append.js';

const WHITE = /[\s\u3000]+/gu;

/** The position of value.slice(from, to) inside a text node at `pos`. */
export function slicePosition(pos: SourcePosition, value: string, from: number, to: number): SourcePosition {
  // A text node on one line (the parser splits at line breaks): columns count on, in constant time.
  if (pos.start.line === pos.end.line) {
    const at = (index: number) => ({ line: pos.start.line, column: pos.start.column + index, offset: (pos.start.offset ?? 0) + index });
    return { file: pos.file, start: at(from), end: at(to) };
  }
  const at = (index: number) => {
    const before = value.slice(0, index);
    const lastBreak = before.lastIndexOf('\n');
    const lines = before.split('\n').length - 1;
    return {
      line: pos.start.line + lines,
      column: lastBreak < 0 ? pos.start.column + index : index - lastBreak,
      offset: (pos.start.offset ?? 0) + index,
    };
  };
  return { file: pos.file, start: at(from), end: at(to) };
}

interface Segment {
  children: Inline[];
  /** White space cut before this segment (put back if it merges with the one before). */
  separator: string;
}

function plain(children: Inline[]): string {
  return children.map((c) => (c.type === 'text' || c.type === 'lacuna' || c.type === 'glyph' ? c.value : '')).join('');
}

/** Cuts a note's children at white space and before 疏曰. */
function segments(children: Inline[]): Segment[] {
  const out: Segment[] = [{ children: [], separator: '' }];
  for (const child of children) {
    if (child.type !== 'text') {
      out[out.length - 1].children.push(child);
      continue;
    }
    const cuts: Array<{ at: number; end: number }> = [];
    for (const m of child.value.matchAll(WHITE)) cuts.push({ at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
    for (const m of child.value.matchAll(SEGMENT_BREAK_BEFORE)) cuts.push({ at: m.index ?? 0, end: m.index ?? 0 });
    cuts.sort((a, b) => a.at - b.at);
    let from = 0;
    for (const cut of cuts) {
      if (cut.at > from) out[out.length - 1].children.push(textSlice(child, from, cut.at));
      if (out[out.length - 1].children.length > 0) out.push({ children: [], separator: child.value.slice(cut.at, cut.end) });
      else out[out.length - 1].separator += child.value.slice(cut.at, cut.end);
      from = Math.max(from, cut.end);
    }
    if (from < child.value.length) out[out.length - 1].children.push(textSlice(child, from, child.value.length));
  }
  return out.filter((s) => s.children.length > 0);
}

function textSlice(node: Text, from: number, to: number): Text {
  if (from === 0 && to === node.value.length) return node;
  return { type: 'text', value: node.value.slice(from, to), position: slicePosition(node.position, node.value, from, to) };
}

export function compileRules(extra: readonly LayerRuleConfig[]): LayerRule[] {
  return [...extra.map((r) => ({ layer: r.layer, pattern: editionPattern(r.pattern) })), ...LAYER_RULES];
}

export function classifySegment(text: string, isTrailing: boolean, rules: readonly LayerRule[]): LayerId {
  for (const rule of rules) {
    if (rule.trailing && !isTrailing) continue;
    if (rule.pattern.test(text)) return rule.layer;
  }
  return DEFAULT_LAYER;
}

/** One note → one or more notes, a layer each. */
export function splitNoteLayers(note: Note, rules: readonly LayerRule[]): Note[] {
  if (note.layer !== DEFAULT_LAYER) return [note];
  const parts = segments(note.children);
  if (parts.length === 0) return [note];
  const layers = parts.map((p, i) => classifySegment(plain(p.children), parts.length > 1 && i === parts.length - 1, rules));
  const merged: Array<{ layer: LayerId; children: Inline[] }> = [];
  parts.forEach((part, i) => {
    const last = merged[merged.length - 1];
    if (last && last.layer === layers[i]) {
      if (part.separator) last.children.push(separatorText(part));
      append(last.children, part.children);
    } else merged.push({ layer: layers[i], children: [...part.children] });
  });
  if (merged.length === 1) return [{ ...note, layer: merged[0].layer }];
  return merged.map((m) => ({ type: 'note', layer: m.layer, children: m.children, position: spanOf(m.children, note.position) }));
}

function separatorText(part: Segment): Text {
  const first = part.children[0].position;
  // The separator stood just before the segment: same line, columns before it.
  const len = part.separator.length;
  const start = { line: first.start.line, column: Math.max(1, first.start.column - len), offset: (first.start.offset ?? len) - len };
  return { type: 'text', value: part.separator, position: { file: first.file, start, end: first.start } };
}

function spanOf(children: Inline[], fallback: SourcePosition): SourcePosition {
  const first = children[0]?.position ?? fallback;
  const last = children[children.length - 1]?.position ?? fallback;
  return { file: first.file, start: first.start, end: last.end };
}

/** Every note of the tree, inner notes first. */
export function classifyLayers(tree: Root, extraRules: readonly LayerRuleConfig[] = []): Root {
  const rules = compileRules(extraRules);
  const walk = (parent: Parent) => {
    const kids = parent.children as Array<Inline | Parent>;
    const next: Array<Inline | Parent> = [];
    for (const child of kids) {
      if ('children' in child) walk(child as Parent);
      if (child.type === 'note') append(next, splitNoteLayers(child, rules));
      else next.push(child);
    }
    (parent as { children: unknown[] }).children = next;
  };
  walk(tree);
  return tree;
}
