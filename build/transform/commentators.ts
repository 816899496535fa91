/**
 * 集注: notes that gather several commentators, each part opened by ○某曰
 * (【…○祕曰…○光曰…】), become one note a commentator, in a layer named after
 * the commentator the text names (Root.layers declares them). Decided from
 * the whole tree: a name counts when at least three notes open a part with it,
 * and a tree needs two such names to be read as a 集注; where the text also
 * starts notes with 某曰 (no ○) consistently, that opens a part too. The text
 * is not changed: ○ and 某曰 stay where they stand.
 */
import { visit } from 'unist-util-visit';
import type { Inline, Note, Parent, Root, Text } from '../tree/types.js';
import { DEFAULT_LAYER, sourceLayerId } from '../tree/layers.js';
import { slicePosition } from './layers.js';
import type { Report } from './report.js';
import { append, nameTable } from '../tree/append.js';
import { own } from '../tree/append.js';

/** ○, a commentator named by one or two characters (祕, 光, 宗元: a 集注 names its commentators short), 曰; not 釋曰, 又曰 and other words. A full name (敖君善曰) is a quotation, not a layer. */
const MARK = /○([^\s○，。、：；「」『』（）()]{1,2}?)曰/gu;
const INITIAL = /^([^\s○，。、：；「」『』（）()]{1,2}?)曰/u;
const NOT_NAMES = /^(?:[釋释又或故注疏案按一今愚臣傳传箋笺解義义正說说]|.*[子氏公]$)$/u;

function textOf(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.type === 'text' ? n.value : '')).join('');
}

/** How often each name opens a part of a 注 note (○某曰), and opens a note (某曰): what the decision reads. */
export interface CommentatorCounts {
  inNotes: Record<string, number>;
  initial: Record<string, number>;
}

/** The counts of a tree or of one volume (counts of volumes add up to the book's: addCounts). */
export function countCommentators(node: Root | Parent): CommentatorCounts {
  const counts: CommentatorCounts = { inNotes: nameTable(), initial: nameTable() };
  visit(node, 'note', (n: Note) => {
    if (n.layer !== DEFAULT_LAYER) return;
    const text = textOf(n.children);
    const names = new Set<string>();
    for (const m of text.matchAll(MARK)) if (!NOT_NAMES.test(m[1])) names.add(m[1]);
    for (const name of names) counts.inNotes[name] = (own(counts.inNotes, name) ?? 0) + 1;
    const head = INITIAL.exec(text);
    if (head && !NOT_NAMES.test(head[1])) counts.initial[head[1]] = (counts.initial[head[1]] ?? 0) + 1;
  });
  return counts;
}

export function addCounts(all: readonly CommentatorCounts[]): CommentatorCounts {
  const out: CommentatorCounts = { inNotes: nameTable(), initial: nameTable() };
  for (const c of all) {
    for (const [k, n] of Object.entries(c.inNotes)) out.inNotes[k] = (own(out.inNotes, k) ?? 0) + n;
    for (const [k, n] of Object.entries(c.initial)) out.initial[k] = (own(out.initial, k) ?? 0) + n;
  }
  return out;
}

/** The book's decision: the commentators (in the order first counted) and whether 某曰 at a note's head opens a part; null: no 集注. */
export interface CommentatorDecision {
  names: string[];
  initialToo: boolean;
}

export function decideCommentators(counts: CommentatorCounts): CommentatorDecision | null {
  const marked = Object.entries(counts.inNotes).filter(([, n]) => n >= 3).map(([name]) => name);
  // The first commentator may open each note with no ○ (【咸曰：…○光曰：…】): a name at the head of three notes
  // counts too, beside at least one name the text marks with ○.
  const heads = marked.length > 0 ? Object.entries(counts.initial).filter(([name, n]) => n >= 3 && !marked.includes(name)).map(([name]) => name) : [];
  const names = [...heads, ...marked];
  if (names.length < 2) return null;
  const initialToo = Object.entries(counts.initial).filter(([name]) => names.includes(name)).reduce((a, [, n]) => a + n, 0) >= 3;
  return { names, initialToo };
}

/** What splitting did: parts a commentator (in the order first split) and the first note split. */
export interface CommentatorSplit {
  counts: Array<[string, number]>;
  first?: Note['position'];
}

/** Splits the 注 notes of a tree or volume by the decision (in place). */
export function splitByDecision(node: Root | Parent, decision: CommentatorDecision): CommentatorSplit {
  const commentators = new Set(decision.names);
  const counts = new Map<string, number>();
  let first: Note | undefined;
  const splitNote = (note: Note): Note[] => {
    const parts: Array<{ name: string | null; children: Inline[] }> = [{ name: null, children: [] }];
    note.children.forEach((child, index) => {
      if (child.type !== 'text') {
        parts[parts.length - 1].children.push(child);
        return;
      }
      const cuts: Array<{ at: number; name: string }> = [];
      if (index === 0 && decision.initialToo) {
        const head = INITIAL.exec(child.value);
        if (head && commentators.has(head[1])) cuts.push({ at: 0, name: head[1] });
      }
      for (const m of child.value.matchAll(MARK)) if (commentators.has(m[1])) cuts.push({ at: m.index ?? 0, name: m[1] });
      let from = 0;
      for (const cut of cuts) {
        if (cut.at > from) parts[parts.length - 1].children.push(slice(child, from, cut.at));
        parts.push({ name: cut.name, children: [] });
        from = cut.at;
      }
      if (from < child.value.length) parts[parts.length - 1].children.push(slice(child, from, child.value.length));
    });
    const kept = parts.filter((p) => p.children.length > 0);
    if (kept.length <= 1 && kept[0]?.name === null) return [note];
    first ??= note;
    return kept.map((p) => {
      if (p.name) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
      const out: Note = { type: 'note', layer: p.name ? sourceLayerId(p.name) : note.layer, children: p.children, position: spanOf(p.children, note) };
      return out;
    });
  };
  const walk = (parent: Parent) => {
    const next: Array<Inline | Parent> = [];
    for (const child of parent.children as Array<Inline | Parent>) {
      if ('children' in child) walk(child as Parent);
      if (child.type === 'note' && child.layer === DEFAULT_LAYER) append(next, splitNote(child));
      else next.push(child);
    }
    (parent as { children: unknown[] }).children = next;
  };
  walk(node);
  return { counts: [...counts], first: first?.position };
}

/** Declares a layer a commentator split out (Root.layers) and says so once; splits of volumes are given in book order. */
export function declareCommentators(tree: Root, splits: readonly CommentatorSplit[], decision: CommentatorDecision, report: Report): Root {
  const counts = new Map<string, number>();
  for (const split of splits) for (const [name, n] of split.counts) counts.set(name, (counts.get(name) ?? 0) + n);
  if (counts.size === 0) return tree;
  const declared = tree.layers ?? [];
  for (const name of counts.keys()) {
    const id = sourceLayerId(name);
    if (!declared.some((d) => d.id === id)) declared.push({ id, label: name, description: `${name}：集注所收之說（○${name}曰）` });
  }
  tree.layers = declared;
  const first = splits.find((s) => s.first)?.first;
  report('info', `集注: notes split where a commentator begins (○某曰${decision.initialToo ? ', and 某曰 at a note\'s head' : ''}): ${[...counts].map(([n, c]) => `${n} ${c}`).join(', ')}; each is a layer of its own`, first, 'commentator-layers');
  return tree;
}

export function splitCommentators(tree: Root, report: Report): Root {
  const decision = decideCommentators(countCommentators(tree));
  if (!decision) return tree;
  return declareCommentators(tree, [splitByDecision(tree, decision)], decision, report);
}

function slice(node: Text, from: number, to: number): Text {
  if (from === 0 && to === node.value.length) return node;
  return { type: 'text', value: node.value.slice(from, to), position: slicePosition(node.position, node.value, from, to) };
}

function spanOf(children: Inline[], note: Note): Note['position'] {
  const a = children[0]?.position ?? note.position;
  const b = children[children.length - 1]?.position ?? note.position;
  return { file: a.file, start: a.start, end: b.end };
}
