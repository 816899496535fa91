/**
 * A volume as the collation reads it: its characters in reading order, each
 * with the node that holds it, whether it stands in a note, and the
 * correction it is part of. Punctuation, spaces and markup (anchors, 抬頭,
 * 眉批) are set aside; a glyph and a lacuna are one unit each.
 */
import type { Correction, Glyph, Inline, Lacuna, Parent, Text, Volume } from '../tree/types.js';
import { keepLettersAndNumbers } from '../align/index.js';
import { canonical } from './variants.js';

export interface StreamUnit {
  /** The character as compared (canonical form). */
  value: string;
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
        out.push({ value: raw, raw, note, node, parent, offset: 0, ...(correction ? { correction } : {}) });
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

/** Where a unit stands in its source: file:line:col. */
export function unitPlace(unit: StreamUnit): string {
  const p = unit.node.position;
  if (!p) return '';
  if (unit.node.type !== 'text' || p.start.line === p.end.line) return `${p.file}:${p.start.line}:${p.start.column + unit.offset}`;
  const before = unit.node.value.slice(0, unit.offset);
  const breaks = before.split('\n').length - 1;
  const column = breaks === 0 ? p.start.column + unit.offset : unit.offset - before.lastIndexOf('\n');
  return `${p.file}:${p.start.line + breaks}:${column}`;
}
