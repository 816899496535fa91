/** Small helpers for the parse tests: sources from strings, plain text of trees. */
import { VFile } from 'vfile';
import type { Inline, Node, Root } from '../tree/types.js';
import { createSource, type Source } from './source.js';

export function sourceOf(text: string, path = 'test.txt'): Source {
  return createSource(new VFile({ path, value: text }), text);
}

export function fileOf(text: string | Uint8Array, path = 'test.txt'): VFile {
  return new VFile({ path, value: typeof text === 'string' ? new TextEncoder().encode(text) : text });
}

/** The characters of a tree in document order: what must equal the source's text. */
export function treeText(node: Node | Inline): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Array<Node | Inline>).map(treeText).join('');
  return '';
}

export function rootText(tree: Root): string {
  return tree.children.map(treeText).join('');
}

export function messagesOf(src: Source): string[] {
  return src.file.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`);
}

/** mulberry32: a small seeded generator, so that a generated test is repeatable from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
