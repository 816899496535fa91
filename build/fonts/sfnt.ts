/**
 * Minimal sfnt (TrueType/OpenType) reading: the table directory, font
 * collections (.ttc), the name table and the cmap. Pure functions over bytes.
 *
 * Why hand-written: HarfBuzz's subsetter (subset-font) only opens face 0 of a
 * collection, and Debian ships Noto Serif CJK as a .ttc; copying one face's
 * tables into a stand-alone sfnt is a few dozen lines, and the cmap is all the
 * coverage check needs.
 */
import { fromCodePoints } from '../tree/append.js';

export interface TableRecord {
  tag: string;
  checksum: number;
  offset: number;
  length: number;
}

export interface FaceDirectory {
  /** 0x00010000 (TrueType outlines) or 'OTTO' (CFF outlines). */
  sfntVersion: number;
  tables: TableRecord[];
}

const TTC_TAG = 0x74746366; // 'ttcf'
export const SFNT_CFF = 0x4f54544f; // 'OTTO'

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function tagAt(dv: DataView, offset: number): string {
  return String.fromCharCode(dv.getUint8(offset), dv.getUint8(offset + 1), dv.getUint8(offset + 2), dv.getUint8(offset + 3));
}

/** True for a TrueType/OpenType collection (.ttc/.otc). */
export function isCollection(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 12 && view(bytes).getUint32(0) === TTC_TAG;
}

/** Offsets of each face's table directory: one entry for a plain font. */
export function faceOffsets(bytes: Uint8Array): number[] {
  const dv = view(bytes);
  if (!isCollection(bytes)) return [0];
  const count = dv.getUint32(8);
  return Array.from({ length: count }, (_, i) => dv.getUint32(12 + 4 * i));
}

export function readDirectory(bytes: Uint8Array, directoryOffset = 0): FaceDirectory {
  const dv = view(bytes);
  const sfntVersion = dv.getUint32(directoryOffset);
  const numTables = dv.getUint16(directoryOffset + 4);
  const tables: TableRecord[] = [];
  for (let i = 0; i < numTables; i++) {
    const r = directoryOffset + 12 + 16 * i;
    tables.push({ tag: tagAt(dv, r), checksum: dv.getUint32(r + 4), offset: dv.getUint32(r + 8), length: dv.getUint32(r + 12) });
  }
  return { sfntVersion, tables };
}

export function tableBytes(bytes: Uint8Array, dir: FaceDirectory, tag: string): Uint8Array | undefined {
  const t = dir.tables.find((x) => x.tag === tag);
  return t ? bytes.subarray(t.offset, t.offset + t.length) : undefined;
}

/** Names from the name table by name ID (Windows Unicode records preferred, English first). */
export function readNames(bytes: Uint8Array, dir: FaceDirectory, nameId: number): string[] {
  const name = tableBytes(bytes, dir, 'name');
  if (!name) return [];
  const dv = view(name);
  const count = dv.getUint16(2);
  const storage = dv.getUint16(4);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = 6 + 12 * i;
    const platform = dv.getUint16(r);
    const encoding = dv.getUint16(r + 2);
    const id = dv.getUint16(r + 6);
    const length = dv.getUint16(r + 8);
    const offset = storage + dv.getUint16(r + 10);
    if (id !== nameId) continue;
    if (platform === 3 || platform === 0) {
      let s = '';
      for (let j = 0; j + 1 < length; j += 2) s += String.fromCharCode(dv.getUint16(offset + j));
      out.push(s);
    } else if (platform === 1 && encoding === 0) {
      out.push(fromCodePoints(name.subarray(offset, offset + length)));
    }
  }
  return [...new Set(out)];
}

/** Family names of every face (name IDs 1 and 16), in face order. */
export function faceFamilies(bytes: Uint8Array): string[][] {
  return faceOffsets(bytes).map((o) => {
    const dir = readDirectory(bytes, o);
    return [...new Set([...readNames(bytes, dir, 16), ...readNames(bytes, dir, 1)])];
  });
}

const pad4 = (n: number): number => (n + 3) & ~3;

/**
 * Copies one face of a collection into a stand-alone sfnt (`only`: just
 * those tables, as for a coverage check, which needs the cmap). Table bytes and
 * checksums are kept as they are (head.checkSumAdjustment is left stale: the
 * subsetter recomputes it, and no reader checks it).
 */
export function extractFace(bytes: Uint8Array, index: number, only?: readonly string[]): Uint8Array {
  const offsets = faceOffsets(bytes);
  if (index < 0 || index >= offsets.length) throw new RangeError(`font has ${offsets.length} face(s), asked for face ${index}`);
  if (!isCollection(bytes) && !only) return bytes;
  const dir = readDirectory(bytes, offsets[index]);
  return writeSfnt(
    dir.sfntVersion,
    dir.tables.filter((t) => !only || only.includes(t.tag)).map((t) => ({ tag: t.tag, checksum: t.checksum, data: bytes.subarray(t.offset, t.offset + t.length) })),
  );
}

/** An sfnt of these tables (sorted by tag, each padded to four bytes); the checksums as given (0 where absent: no reader checks them). */
export function writeSfnt(sfntVersion: number, given: ReadonlyArray<{ tag: string; checksum?: number; data: Uint8Array }>): Uint8Array {
  const tables = [...given].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const headerLength = 12 + 16 * tables.length;
  let size = headerLength;
  for (const t of tables) size += pad4(t.data.length);
  const out = new Uint8Array(size);
  const dv = view(out);
  const n = tables.length;
  const entrySelector = Math.floor(Math.log2(n));
  const searchRange = 2 ** entrySelector * 16;
  dv.setUint32(0, sfntVersion);
  dv.setUint16(4, n);
  dv.setUint16(6, searchRange);
  dv.setUint16(8, entrySelector);
  dv.setUint16(10, n * 16 - searchRange);
  let at = headerLength;
  tables.forEach((t, i) => {
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) dv.setUint8(r + k, t.tag.charCodeAt(k));
    dv.setUint32(r + 4, t.checksum ?? 0);
    dv.setUint32(r + 8, at);
    dv.setUint32(r + 12, t.data.length);
    out.set(t.data, at);
    at += pad4(t.data.length);
  });
  return out;
}

/**
 * The face of a font file whose family name is `family` (exact, case-insensitive);
 * the first face when `family` is absent. Throws when no face matches.
 */
export function selectFace(bytes: Uint8Array, family?: string, only?: readonly string[]): Uint8Array {
  return extractFace(bytes, faceIndex(bytes, family), only);
}

/** The index of the face named `family` (the first face when absent); throws when none is. */
export function faceIndex(bytes: Uint8Array, family?: string): number {
  if (!family) return 0;
  const wanted = family.toLowerCase();
  const families = faceFamilies(bytes);
  const index = families.findIndex((names) => names.some((n) => n.toLowerCase() === wanted));
  if (index < 0) throw new Error(`no face named "${family}" (faces: ${families.map((f) => f[0]).join(', ')})`);
  return index;
}

/**
 * Each code point a face maps (its Unicode cmap subtable: format 12 when it
 * has one, else format 4) with its glyph, in the subtable's order.
 */
export function cmapEntries(bytes: Uint8Array, visit: (codePoint: number, glyph: number) => void): void {
  const dir = readDirectory(bytes, faceOffsets(bytes)[0]);
  const cmap = tableBytes(bytes, dir, 'cmap');
  if (!cmap) return;
  const dv = view(cmap);
  const numTables = dv.getUint16(2);
  // Prefer a full-repertoire subtable (format 12), else the BMP one (format 4).
  let best: { offset: number; format: number } | undefined;
  for (let i = 0; i < numTables; i++) {
    const r = 4 + 8 * i;
    const platform = dv.getUint16(r);
    const encoding = dv.getUint16(r + 2);
    const offset = dv.getUint32(r + 4);
    const format = dv.getUint16(offset);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode || (format !== 4 && format !== 12)) continue;
    if (!best || (format === 12 && best.format !== 12)) best = { offset, format };
  }
  if (!best) return;
  const o = best.offset;
  if (best.format === 12) {
    const groups = dv.getUint32(o + 12);
    for (let g = 0; g < groups; g++) {
      const r = o + 16 + 12 * g;
      const [start, end, glyph] = [dv.getUint32(r), dv.getUint32(r + 4), dv.getUint32(r + 8)];
      for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) visit(c, glyph + (c - start));
    }
    return;
  }
  const segX2 = dv.getUint16(o + 6);
  const ends = o + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  // A code point belongs to the first segment whose end is at or past it (segments are sorted by end):
  // one already covered is not looked at again, so a cmap of 32,766 segments each claiming the whole BMP
  // costs 65,536 steps, not 2 × 10^9.
  let floor = 0;
  for (let s = 0; s < segX2 / 2; s++) {
    const end = dv.getUint16(ends + 2 * s);
    const start = dv.getUint16(starts + 2 * s);
    const delta = dv.getUint16(deltas + 2 * s);
    const ro = dv.getUint16(rangeOffsets + 2 * s);
    const from = Math.max(start, floor);
    floor = Math.max(floor, end + 1);
    if (start === 0xffff) continue;
    for (let c = from; c <= end; c++) {
      let glyph: number;
      if (ro === 0) glyph = (c + delta) & 0xffff;
      else {
        glyph = dv.getUint16(rangeOffsets + 2 * s + ro + 2 * (c - start));
        if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
      }
      if (glyph !== 0) visit(c, glyph);
    }
  }
}

/**
 * The code points a face maps (cmap formats 4 and 12), as sorted, merged
 * [first, last] ranges.
 */
export function cmapRanges(bytes: Uint8Array): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  cmapEntries(bytes, (c) => {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === c - 1) last[1] = c;
    else ranges.push([c, c]);
  });
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/**
 * Why a face's cmap would make a font reader work past its size, or
 * undefined: every Unicode subtable of format 4, 12 or 13 (those that map
 * ranges) must list its ranges in order, none overlapping the one before —
 * as the OpenType spec asks — for HarfBuzz's subsetter walks each range
 * whole (a 400 KB font of 32,766 segments each claiming the BMP: 11 minutes
 * a face), and the subtables must not overlap each other (one 400 KB
 * subtable named 65,535 times). Linear in the cmap's size.
 */
export function cmapProblem(face: Uint8Array): string | undefined {
  const dir = readDirectory(face, faceOffsets(face)[0]);
  const cmap = tableBytes(face, dir, 'cmap');
  if (!cmap) return undefined;
  const dv = view(cmap);
  const numTables = dv.getUint16(2);
  const seen = new Set<number>();
  let claimed = 4 + 8 * numTables;
  const disorder = 'has a damaged cmap: its character ranges are out of order or overlap (a font reader would walk them for minutes)';
  for (let i = 0; i < numTables; i++) {
    const offset = dv.getUint32(4 + 8 * i + 4);
    if (seen.has(offset)) continue;
    seen.add(offset);
    const format = dv.getUint16(offset);
    if (format === 4) {
      const segments = dv.getUint16(offset + 6) / 2;
      claimed += 16 + 8 * segments;
      if (claimed > cmap.byteLength) break;
      const ends = offset + 14;
      const starts = ends + 2 * segments + 2;
      let previous = -1;
      for (let s = 0; s < segments; s++) {
        const end = dv.getUint16(ends + 2 * s);
        const start = dv.getUint16(starts + 2 * s);
        if (start > end || start <= previous) return disorder;
        previous = end;
      }
    } else if (format === 12 || format === 13) {
      const groups = dv.getUint32(offset + 12);
      claimed += 16 + 12 * groups;
      if (claimed > cmap.byteLength) break;
      let previous = -1;
      for (let g = 0; g < groups; g++) {
        const start = dv.getUint32(offset + 16 + 12 * g);
        const end = dv.getUint32(offset + 20 + 12 * g);
        if (start > end || start <= previous || end > 0x10ffff) return disorder;
        previous = end;
      }
    }
  }
  return claimed > cmap.byteLength ? 'has a damaged cmap: its subtables overlap or run past its end' : undefined;
}

const SFNT_TRUETYPE = 0x00010000;
/** Faces a collection may have: real ones have a few (Noto Serif CJK: 10). */
const MAX_FACES = 256;
const SFNT_TRUE = 0x74727565; // 'true' (old Apple TrueType)

/** Tables every face we subset and embed must have, and the outline tables of which it needs one set. */
const REQUIRED_TABLES = ['cmap', 'head', 'hhea', 'hmtx', 'maxp'];
const OUTLINES = [['glyf', 'loca'], ['CFF '], ['CFF2']];

/**
 * Why `bytes` is not a font we can use (not an sfnt, cut short, a table
 * outside the file, a missing table, no face named `family`, an unreadable
 * cmap), or undefined when it is one. Checked before any other reading, so
 * a bad file named in edition.yaml gets a message at its entry, never a
 * RangeError from the middle of the subsetter.
 */
export function fontProblem(bytes: Uint8Array, family?: string): string | undefined {
  if (bytes.byteLength < 12) return `is not a font (${bytes.byteLength} bytes)`;
  const dv = view(bytes);
  const tag = dv.getUint32(0);
  if (![SFNT_TRUETYPE, SFNT_CFF, SFNT_TRUE, TTC_TAG].includes(tag)) {
    return tag === 0x774f4646 || tag === 0x774f4632 ? 'is a WOFF font; give a .ttf, .otf or .ttc file' : 'is not a TrueType or OpenType font (its first bytes are not a font header)';
  }
  const cut = `is cut short or damaged (${bytes.byteLength} bytes)`;
  try {
    if (isCollection(bytes) && dv.getUint32(8) > (bytes.byteLength - 12) / 4) return cut;
    if (isCollection(bytes) && dv.getUint32(8) > MAX_FACES) return `is a collection of ${dv.getUint32(8)} faces; a font file may have at most ${MAX_FACES}`;
    // Each face has a table directory of its own: together they fit in the file (faces pointing at one directory would make every check a face's count times over).
    let directories = 0;
    for (const offset of faceOffsets(bytes)) directories += 12 + 16 * dv.getUint16(offset + 4);
    if (directories > bytes.byteLength) return `${cut}: its faces' table directories overlap`;
    for (const offset of faceOffsets(bytes)) {
      const dir = readDirectory(bytes, offset);
      if (offset + 12 + 16 * dir.tables.length > bytes.byteLength) return cut;
      for (const t of dir.tables) if (t.offset + t.length > bytes.byteLength) return `${cut}: its table "${t.tag.trim()}" ends past the end of the file`;
      const tags = new Set(dir.tables.map((t) => t.tag));
      const missing = REQUIRED_TABLES.filter((t) => !tags.has(t));
      if (missing.length) return `is not a complete font: no ${missing.join(', ')} table`;
      if (!OUTLINES.some((set) => set.every((t) => tags.has(t)))) return 'is not a complete font: no glyph outlines (glyf or CFF)';
    }
    const face = selectFace(bytes, family);
    const cmap = cmapProblem(face);
    if (cmap) return cmap;
    if (cmapRanges(face).length === 0) return 'maps no character (no Unicode cmap)';
  } catch (error) {
    return error instanceof RangeError ? cut : (error as Error).message;
  }
  return undefined;
}
