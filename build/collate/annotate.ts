/**
 * The collation marked in the tree: each entry an `app` node at its place
 * — wrapping the base text it cites where that text lies in one run of
 * nodes under one parent, else standing empty before it — and, where an
 * entry falls inside an editor's correction, merged into that correction
 * (one entry: the correction and what the witnesses read). A correction the
 * witnesses read as corrected says so (`agrees`). The volume's variant
 * forms are tallied on it. Volumes with nothing to mark are the input's
 * own objects; the others are copies (the build shares volumes between
 * rebuilds and never changes them).
 */
import type { App, Apparatus, Correction, Inline, Parent, Root, Text, Volume, VolumeCollation } from '../tree/types.js';
import { slicePosition } from '../transform/layers.js';
import { volumeUnits, type StreamUnit } from './stream.js';
import { entryText, type Collation, type RawEntry, type VariantPlace } from './collate.js';

export type VariantsMode = VolumeCollation['variants'];

/** Splits a text node so that a new node starts at `at` (UTF-16): the node keeps the text before, the new one (returned) after. */
function splitText(node: Text, parent: Parent, at: number): Text | undefined {
  if (at <= 0 || at >= node.value.length) return undefined;
  const rest: Text = { type: 'text', value: node.value.slice(at), position: slicePosition(node.position, node.value, at, node.value.length) };
  node.position = slicePosition(node.position, node.value, 0, at);
  node.value = node.value.slice(0, at);
  const children = parent.children as Inline[];
  children.splice(children.indexOf(node) + 1, 0, rest);
  return rest;
}

/** Marks one entry; later entries are marked first, so the units of earlier ones still point at their nodes. */
function mark(entry: RawEntry, units: readonly StreamUnit[], apparatus: Apparatus, taken: Set<Parent>): void {
  const { start, end } = entry.span;
  const inside = start < end ? units.slice(start, end) : [];
  // Inside one correction: the correction carries it.
  const correction = inside.length > 0 ? inside[0].correction : undefined;
  if (correction && inside.every((u) => u.correction === correction)) {
    correction.apparatus = correction.apparatus ? { ...apparatus, readings: [...correction.apparatus.readings, ...apparatus.readings], text: `${correction.apparatus.text}；${apparatus.text}` } : apparatus;
    return;
  }
  const app = (children: Inline[], position: App['position']): App => ({ type: 'app', apparatus, children, position });
  if (inside.length > 0) {
    const first = inside[0];
    const last = inside[inside.length - 1];
    const parent = first.parent;
    const siblings = parent.children as Inline[];
    if (last.parent === parent && !taken.has(parent)) {
      // Cut after the last character, then before the first; everything between goes into the app.
      if (last.node.type === 'text') splitText(last.node, parent, last.offset + last.raw.length);
      const from = first.node.type === 'text' ? (splitText(first.node, parent, first.offset) ?? first.node) : first.node;
      const i = siblings.indexOf(from as Inline);
      const j = siblings.indexOf(last.node as Inline);
      if (i >= 0 && j >= i) {
        const wrapped = siblings.splice(i, j - i + 1, app([], from.position)) ;
        const node = siblings[i] as App;
        node.children = wrapped;
        node.position = { ...from.position, end: last.node.position.end };
        return;
      }
    }
    // Across nodes of different parents (into a note …): an empty mark before the first character.
    const at = first.node.type === 'text' ? (splitText(first.node, first.parent, first.offset) ?? first.node) : first.node;
    const list = first.parent.children as Inline[];
    list.splice(list.indexOf(at as Inline), 0, app([], at.position));
    return;
  }
  // An addition: right after the base's character before it, or before the volume's first.
  const before = start > 0 ? units[start - 1] : undefined;
  const after = before ? undefined : units[start];
  const anchor = before ?? after;
  if (!anchor) return;
  const list = anchor.parent.children as Inline[];
  if (before) {
    const rest = before.node.type === 'text' ? splitText(before.node, before.parent, before.offset + before.raw.length) : undefined;
    const k = rest ? list.indexOf(rest) : list.indexOf(before.node as Inline) + 1;
    list.splice(k, 0, app([], { ...before.node.position, start: before.node.position.end }));
  } else if (after) {
    const at = after.node.type === 'text' ? (splitText(after.node, after.parent, after.offset) ?? after.node) : after.node;
    list.splice(list.indexOf(at as Inline), 0, app([], at.position));
  }
}

/** Which witnesses read each correction's new text as it stands (no entry of theirs touches it). */
function agreements(units: readonly StreamUnit[], entries: readonly RawEntry[], sigla: readonly string[]): Map<Correction, string[]> {
  const spans = new Map<Correction, { start: number; end: number }>();
  units.forEach((u, i) => {
    if (!u.correction) return;
    const s = spans.get(u.correction);
    if (s) s.end = i + 1;
    else spans.set(u.correction, { start: i, end: i + 1 });
  });
  const out = new Map<Correction, string[]>();
  for (const [c, span] of spans) {
    const differing = new Set(entries.filter((e) => e.span.start < span.end && e.span.end > span.start).flatMap((e) => e.apparatus.readings.map((r) => r.witness)));
    const agree = sigla.filter((s) => !differing.has(s));
    if (agree.length > 0) out.set(c, agree);
  }
  return out;
}

/** Tally of variant forms by witness, pairs most frequent first. */
function tallies(places: readonly VariantPlace[], sigla: readonly string[]): VolumeCollation['tallies'] {
  return sigla.flatMap((witness) => {
    const mine = places.filter((p) => p.witness === witness);
    if (mine.length === 0) return [];
    const counts = new Map<string, number>();
    for (const p of mine) counts.set(`${p.base}\t${p.reading}`, (counts.get(`${p.base}\t${p.reading}`) ?? 0) + 1);
    const pairs = [...counts].map(([k, n]): [string, string, number] => [...(k.split('\t') as [string, string]), n]);
    pairs.sort((x, y) => y[2] - x[2] || (x[0] + x[1] < y[0] + y[1] ? -1 : 1));
    return [{ witness, count: mine.length, pairs }];
  });
}

/** The tree with the collation marked: app nodes, corrections' agreements, each volume's tally. */
export function annotateTree(tree: Root, collation: Collation, sigla: readonly string[], variants: VariantsMode): Root {
  const children = tree.children.map((volume, v): Volume => {
    const entries = collation.entries.filter((e) => e.volume === v);
    const places = collation.variants.filter((p) => p.volume === v);
    const hasCorrections = collation.units[v].some((u) => u.correction);
    if (entries.length === 0 && places.length === 0 && !hasCorrections) return volume;
    const copy = structuredClone(volume);
    const units = volumeUnits(copy);
    const agree = agreements(units, entries, sigla);
    for (const [c, who] of agree) c.agrees = who;
    const taken = new Set<Parent>();
    for (const e of [...entries].reverse()) mark(e, units, { ...e.apparatus, text: entryText(e) }, taken);
    const t = tallies(places, sigla);
    if (t.length > 0 || variants !== 'count') copy.collation = { variants, tallies: t };
    else copy.collation = { variants, tallies: [] };
    return copy;
  });
  return { ...tree, children };
}
