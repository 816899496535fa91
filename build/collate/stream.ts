/**
 * A volume as the collation reads it: its characters in reading order, each
 * with the node that holds it, whether it stands in a note, and the
 * correction it is part of. Punctuation, spaces and markup (anchors, 抬頭,
 * 眉批) are set aside; a glyph and a lacuna are one unit each.
 */
import type { Correction, Glyph, Inline, Lacuna, Parent, Text, Volume } from '../tree/types.js';
import { keepLettersAndNumbers } from '../align/index.js';
import { canonical } from './variants.js';
import { krGaiji } from '../gaiji/kr-gaiji.js';

export interface StreamUnit {
  /** The character as compared (canonical form). */
  value: string;
  /** A drawn glyph's ordinary form, as KR-Gaiji normalizes it (&KR0247; → 衒), where the list is sure: a variant form of it. */
  normal?: string;
  /** As written. */
  raw: string;
  note: boolean;
  node: Text | Glyph | Lacuna;
  parent: Parent;
  /** UTF-16 offset in the text node (0 for a glyph or lacuna). */
  offset: number;
  /** The correction whose new text it is. */
  correction?: Correction;
}

function glyphValue(g: Glyph): string {
  return g.replacement ?? (g.entity ? `&${g.entity};` : g.value);
}

function normalOf(g: Glyph): string | undefined {
  if (g.replacement !== undefined || !g.entity) return undefined;
  const entry = krGaiji(g.entity);
  return entry?.n && !entry.unsure && [...entry.n].length === 1 ? entry.n : undefined;
}

/** The units of a volume (or of any run of blocks). */
export function volumeUnits(volume: Volume): StreamUnit[] {
  const out: StreamUnit[] = [];
  const walk = (node: Inline, parent: Parent, note: boolean, correction: Correction | undefined): void => {
    switch (node.type) {
      case 'text': {
        let offset = 0;
        for (const raw of node.value) {
          if (keepLettersAndNumbers(raw)) out.push({ value: canonical(raw), raw, note, node, parent, offset, ...(correction ? { correction } : {}) });
          offset += raw.length;
        }
        return;
      }
      case 'glyph': {
        const raw = glyphValue(node);
        const normal = normalOf(node);
        out.push({ value: raw, raw, ...(normal ? { normal } : {}), note, node, parent, offset: 0, ...(correction ? { correction } : {}) });
        return;
      }
      case 'lacuna':
        for (const _ of node.value) out.push({ value: '□', raw: '□', note, node, parent, offset: 0, ...(correction ? { correction } : {}) });
        return;
      case 'note':
        for (const child of node.children) walk(child, node, true, correction);
        return;
      case 'correction':
        for (const child of node.children) walk(child, node, note, node);
        return;
      case 'small':
      case 'mark':
      case 'app':
        for (const child of node.children) walk(child, node, note, correction);
        return;
      // Outside the running text, or no text: 眉批 and 側批, anchors, 抬頭.
      case 'annotation':
      case 'anchor':
      case 'raise':
        return;
    }
  };
  for (const block of volume.children) for (const child of block.children) walk(child, block, false, undefined);
  return out;
}

/** Line starts of a text, for offsets → line:col. */
const lineStarts = new WeakMap<object, number[]>();
function lineColumn(holder: { text: string }, offset: number): [number, number] {
  let starts = lineStarts.get(holder);
  if (!starts) {
    starts = [0];
    for (let i = holder.text.indexOf('\n'); i >= 0; i = holder.text.indexOf('\n', i + 1)) starts.push(i + 1);
    lineStarts.set(holder, starts);
  }
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return [lo + 1, offset - starts[lo] + 1];
}

/** The sources' decoded texts by file (as positions name them): places found in the text itself. */
export type SourceTexts = ReadonlyMap<string, { text: string }>;

/**
 * Where a unit stands in its source: file:line:col. With the source's text,
 * found there — a text node may join lines of its source (a ¶ and a line
 * break taken out), so its characters are looked up from its start; without
 * it, counted on from the node's start.
 */
export function unitPlace(unit: StreamUnit, texts?: SourceTexts): string {
  const p = unit.node.position;
  if (!p) return '';
  const source = texts?.get(p.file);
  if (source && p.start.offset !== undefined) {
    let at = p.start.offset;
    let ok = true;
    if (unit.node.type === 'text') {
      for (const char of unit.node.value.slice(0, unit.offset + unit.raw.length)) {
        const found = source.text.indexOf(char, at);
        // Only markup, marks and line ends lie between a node's characters in its source.
        if (found < 0 || found - at > 256) {
          ok = false;
          break;
        }
        at = found + char.length;
      }
      at -= unit.raw.length;
    }
    if (ok) {
      const [line, column] = lineColumn(source, at);
      return `${p.file}:${line}:${column}`;
    }
  }
  if (unit.node.type !== 'text' || p.start.line === p.end.line) return `${p.file}:${p.start.line}:${p.start.column + unit.offset}`;
  const before = unit.node.value.slice(0, unit.offset);
  const breaks = before.split('\n').length - 1;
  const column = breaks === 0 ? p.start.column + unit.offset : unit.offset - before.lastIndexOf('\n');
  return `${p.file}:${p.start.line + breaks}:${column}`;
}
