/**
 * What a glyph the edition's charmap does not map stands for, from the lists
 * the project ships: a Kanripo entity from KR-Gaiji (its Unicode character,
 * else its image with its reading), a composition from the list's own
 * compositions or drawn from its parts (an IDS) or written small in its
 * cell, a Private Use Area code point from GB18030's table of the
 * characters Unicode encoded later. Pure (the list is data).
 */
import type { Glyph, GlyphDrawing, SourcePosition, Text } from '../tree/types.js';
import { formulaIds, parseFormula } from './composition.js';
import { krGaiji, krGaijiComposition, krGaijiIds } from './kr-gaiji.js';
import { gb18030Pua } from './pua.js';

/** How a glyph came to be printed or drawn: the import report counts each. */
export type GlyphHow = 'kr-unicode' | 'kr-reading' | 'kr-image' | 'composition-list' | 'composition-parts' | 'composition-formula' | 'pua-gb18030';

export interface Resolved {
  replacement?: string;
  drawing?: GlyphDrawing;
  how: GlyphHow;
}

/** A KR-Gaiji code: its Unicode character (drawn from the image where no font has it), else its image with its reading. */
function fromKrGaiji(code: string, written: string, how: { unicode: GlyphHow; image: GlyphHow }): Resolved | undefined {
  const entry = krGaiji(code);
  if (!entry) return undefined;
  const text = entry.u ?? entry.n ?? entry.ids ?? written;
  const drawing: GlyphDrawing | undefined = entry.image ? { image: code, text, from: 'kr-gaiji' } : undefined;
  if (entry.u) return { replacement: entry.u, ...(drawing ? { drawing } : {}), how: how.unicode };
  if (drawing) return { drawing, how: how.image };
  // No image: the reading the list gives is the best there is.
  if (entry.n) return { replacement: entry.n, how: 'kr-reading' };
  return undefined;
}

export function resolveGlyph(node: Glyph): Resolved | undefined {
  if (node.entity !== undefined) return /^KR\d+$/u.test(node.entity) ? fromKrGaiji(node.entity, node.value, { unicode: 'kr-unicode', image: 'kr-image' }) : undefined;
  if (node.description !== undefined) return resolveComposition(node.description, node.value);
  if (node.codePoint !== undefined) {
    const ch = gb18030Pua(node.codePoint);
    return ch === undefined ? undefined : { replacement: ch, how: 'pua-gb18030' };
  }
  return undefined;
}

/**
 * A composition (`女*省` of `[女*省]`, `艹虑` of `{艹虑}`): the glyph the
 * KR-Gaiji list itself describes so (its compositions, its IDS), else drawn from its parts where it is a
 * structure of beside and above (⿰女省), else its formula written small in
 * its cell. The text layer carries the IDS, or the source's writing.
 */
export function resolveComposition(description: string, written: string): Resolved {
  const formula = parseFormula(description);
  const ids = formula && formulaIds(formula);
  const code = krGaijiComposition(`[${description}]`) ?? (ids ? krGaijiIds(ids) : undefined);
  const listed = code === undefined ? undefined : fromKrGaiji(code, ids ?? written, { unicode: 'composition-list', image: 'composition-list' });
  if (listed) return listed;
  if (ids) return { drawing: { ids, text: ids, from: 'composition' }, how: 'composition-parts' };
  return { drawing: { formula: description, text: written, from: 'composition' }, how: 'composition-formula' };
}

/**
 * Text that cites drawn glyphs as their codes (the apparatus writes `「&KR0247;」`, the code a reader can look
 * up): its runs, text and glyph nodes, each code resolved as the transform resolves it, so that a 校勘記 draws
 * the glyph it cites.
 */
export function glyphRuns(text: string, position: SourcePosition): Array<Text | Glyph> {
  const out: Array<Text | Glyph> = [];
  let last = 0;
  const at = { position };
  for (const m of text.matchAll(/&(KR\d+);/gu)) {
    const start = m.index ?? 0;
    if (start > last) out.push({ type: 'text', value: text.slice(last, start), ...at });
    const glyph: Glyph = { type: 'glyph', value: m[0], entity: m[1], ...at };
    const resolved = resolveGlyph(glyph);
    if (resolved?.replacement !== undefined) glyph.replacement = resolved.replacement;
    if (resolved?.drawing) glyph.drawing = resolved.drawing;
    out.push(glyph);
    last = start + m[0].length;
  }
  if (last < text.length || out.length === 0) out.push({ type: 'text', value: text.slice(last), ...at });
  return out;
}
