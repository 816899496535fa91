/**
 * Names the script conversion changed, for the import report: a 集注
 * commentator as the text names him (○咸曰 printed ○鹹曰), 卷 of a volume
 * printed 捲 in a title, a heading or a running head, a byline's name
 * character changed where its own form was one of its distinct readings. convertScript keeps
 * them (script.ts); this reads the result, so that a regression, or an
 * edition's phrase that undoes it, is reported and not printed unseen.
 */
import type { Block, Inline, Root } from '../tree/types.js';
import { sourceLayerLabel } from '../tree/layers.js';
import { distinctReadings } from './one-to-many.js';
import { convertPlain } from './script.js';

export interface ConvertedName {
  name: string;
  became: string;
  count: number;
  file: string;
  at: string;
}

function textOf(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.type === 'text' ? n.value : 'children' in n ? textOf(n.children as Inline[]) : '')).join('');
}

const isVolumeOrTitle = (b: Block) => b.type === 'heading' || (b.type === 'paragraph' && (b.role === 'title' || b.role === 'byline'));

/** `parsed`: the tree as parsed; `tree`: after transform. Both in book order. */
export function convertedNames(parsed: Root, tree: Root): ConvertedName[] {
  const out = new Map<string, ConvertedName>();
  const add = (name: string, became: string, file: string, at: string) => {
    const key = `${file}\u0000${name}\u0000${became}`;
    const c = out.get(key);
    if (c) c.count++;
    else out.set(key, { name, became, count: 1, file, at });
  };
  // 集注 commentators: the name as plain OpenCC would print it, where it opens a part.
  for (const layer of tree.layers ?? []) {
    const name = sourceLayerLabel(layer.id);
    if (!name) continue;
    const became = convertPlain(name, 'simplified', 'traditional');
    if (became === name) continue;
    for (const v of tree.children) {
      for (const b of v.children) {
        const walk = (nodes: readonly Inline[]) => {
          for (const n of nodes) {
            if (n.type === 'text') for (const _ of n.value.matchAll(new RegExp(`○${became}曰`, 'gu'))) add(name, became, n.position.file, `${n.position.start.line}:${n.position.start.column}`);
            else if ('children' in n) walk(n.children as Inline[]);
          }
        };
        walk(b.children);
      }
    }
  }
  // Titles, headings, bylines and volume titles: a character whose own form is one of its readings, changed.
  const sourceBlocks = new Map<string, string>();
  for (const v of parsed.children) for (const b of v.children) if (isVolumeOrTitle(b)) sourceBlocks.set(`${b.position.file}:${b.position.start.offset}`, textOf(b.children));
  const compare = (before: string, after: string, file: string, at: string) => {
    const a = Array.from(before);
    const b = Array.from(after);
    if (a.length !== b.length) return;
    a.forEach((ch, i) => {
      // A character that is itself one of its distinct readings (于, 咸), changed; 无 made 無 is no name changed (OpenCC never writes 无).
      if (b[i] !== ch && distinctReadings().get(ch)?.includes(ch)) add(ch, b[i], file, at);
    });
  };
  for (const v of tree.children) {
    for (const b of v.children) {
      if (!isVolumeOrTitle(b)) continue;
      const before = sourceBlocks.get(`${b.position.file}:${b.position.start.offset}`);
      // A heading or title changes only where a name character is at stake: 卷 as 捲; a byline in any of its name characters.
      if (before === undefined) continue;
      const after = textOf(b.children);
      if (b.type === 'paragraph' && b.role === 'byline') compare(before, after, b.position.file, `${b.position.start.line}:${b.position.start.column}`);
      else if (/卷/u.test(before) && /捲/u.test(after)) add('卷', '捲', b.position.file, `${b.position.start.line}:${b.position.start.column}`);
    }
  }
  parsed.children.forEach((v, i) => {
    const t = tree.children[i];
    if (t && /卷/u.test(v.title) && /捲/u.test(t.title)) add('卷', '捲', v.position.file, `${v.position.start.line}:${v.position.start.column}`);
  });
  return [...out.values()];
}
