/**
 * Which fonts of a stack the PDF must get as TrueType outlines, and the cache
 * key of a converted subset. Pure; the conversion itself (subset-font, then
 * scripts/cff2ttf.py) runs in the I/O edge, build/engine/pdf.ts.
 *
 * Why: Chromium (Skia) embeds a CFF-outline font (Noto Serif CJK) in a PDF as
 * Type 3 fonts, which print shops reject; a TrueType-outline font is
 * embedded as a CIDFontType2 font.
 */
import { createHash } from 'node:crypto';
import { SFNT_CFF, cmapRanges, readDirectory, tableBytes } from './sfnt.js';
import type { FaceFacts } from './types.js';
import { KEEP_FEATURES } from './subset.js';

/** True for a face with CFF outlines ('OTTO'), which Chromium would embed as Type 3. */
export function hasCffOutlines(face: Uint8Array): boolean {
  return face.byteLength >= 4 && new DataView(face.buffer, face.byteOffset, 4).getUint32(0) === SFNT_CFF;
}

/**
 * The cache key of a TrueType subset: a hash of everything the output
 * depends on — the face, the characters, the kept features and the
 * converter's source (a changed script makes new files).
 */
export function truetypeSubsetKey(face: Uint8Array, text: string, converter: string | Uint8Array): string {
  const h = createHash('sha256');
  const part = (b: string | Uint8Array): void => {
    const bytes = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
    // Length-prefixed, so no two different inputs run together into one stream.
    h.update(String(bytes.byteLength) + ':');
    h.update(bytes);
  };
  part(face);
  part(text);
  part(KEEP_FEATURES.join(','));
  part(converter);
  return h.digest('hex');
}

/**
 * The default vertical origin of a face (VORG, else the OS/2 typographic
 * ascender) as a fraction of its em: where scripts/cff2ttf.py pins the tops
 * of the converted glyphs (0.88 in Noto Serif CJK).
 */
export function defaultVerticalOrigin(face: Uint8Array): number {
  const dir = readDirectory(face);
  const dv = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const head = tableBytes(face, dir, 'head');
  if (!head) throw new Error('font without head table');
  const upem = dv(head).getUint16(18);
  const vorg = tableBytes(face, dir, 'VORG');
  if (vorg) return dv(vorg).getInt16(4) / upem;
  const os2 = tableBytes(face, dir, 'OS/2');
  if (!os2) throw new Error('font without VORG and OS/2 tables');
  return dv(os2).getInt16(68) / upem;
}

/**
 * Whether the PDF's subsets of a face go through scripts/cff2ttf.py: CFF
 * outlines (converted to TrueType, origins pinned), or TrueType ones with
 * vertical metrics and a typographic ascender (origins pinned: TW-Kai,
 * HanaMin).
 */
export function hasVerticalOrigins(face: Uint8Array): boolean {
  const dir = readDirectory(face);
  return hasCffOutlines(face) || (['glyf', 'vmtx', 'OS/2'].every((t) => tableBytes(face, dir, t) !== undefined));
}

/** What the build asks of a face besides its outlines (FaceFacts), read from its bytes. */
export function faceFacts(face: Uint8Array): FaceFacts {
  const cff = hasCffOutlines(face);
  return {
    ranges: cmapRanges(face),
    cff,
    // Where the converter pins its glyphs' tops (none for a face it leaves alone: no vertical metrics).
    ...(hasVerticalOrigins(face) ? { verticalOrigin: defaultVerticalOrigin(face) } : {}),
    digest: createHash('sha256').update(face).digest('hex'),
  };
}
