/**
 * Hostile fonts made from nothing, for the tests that time font checks
 * (issue 29): a TrueType whose cmap (format 4) has 32,767 segments each
 * covering the whole BMP — 2 × 10^9 code points for a reader that walks
 * each segment whole (the audit's 640 KB font: 61 s a face) — and a
 * collection whose thousands of faces all point at one table directory.
 */

interface Table {
  tag: string;
  data: Uint8Array;
}

/** An sfnt of `tables` (no checksums: nothing here checks them). */
export function sfnt(tables: readonly Table[]): Uint8Array {
  const header = 12 + 16 * tables.length;
  const size = header + tables.reduce((n, t) => n + ((t.data.length + 3) & ~3), 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x00010000);
  dv.setUint16(4, tables.length);
  let offset = header;
  tables.forEach((t, i) => {
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) dv.setUint8(r + k, t.tag.charCodeAt(k));
    dv.setUint32(r + 8, offset);
    dv.setUint32(r + 12, t.data.length);
    out.set(t.data, offset);
    offset += (t.data.length + 3) & ~3;
  });
  return out;
}

function bytes(length: number, fill: (dv: DataView) => void): Uint8Array {
  const b = new Uint8Array(length);
  fill(new DataView(b.buffer));
  return b;
}

/** The tables every face we read must have besides the cmap: one empty glyph. */
function plainTables(): Table[] {
  return [
    { tag: 'head', data: bytes(54, (dv) => (dv.setUint32(0, 0x00010000), dv.setUint32(12, 0x5f0f3cf5), dv.setUint16(18, 1000))) },
    { tag: 'hhea', data: bytes(36, (dv) => (dv.setUint32(0, 0x00010000), dv.setUint16(34, 1))) },
    { tag: 'hmtx', data: bytes(4, (dv) => dv.setUint16(0, 1000)) },
    { tag: 'maxp', data: bytes(32, (dv) => (dv.setUint32(0, 0x00010000), dv.setUint16(4, 2))) },
    { tag: 'loca', data: new Uint8Array(6) },
    { tag: 'glyf', data: new Uint8Array(0) },
  ];
}

/** A cmap (format 4) of `segments` segments, each from U+0000 to U+FFFE, its glyphs read from the glyph array (a word for each code point). */
export function overlappingCmap(segments: number): Uint8Array {
  const segX2 = 2 * (segments + 1);
  const length = 16 + 4 * segX2 + 2 * 0xffff;
  const sub = bytes(length, (dv) => {
    dv.setUint16(0, 4);
    dv.setUint16(2, Math.min(length, 0xffff));
    dv.setUint16(6, segX2);
    const ends = 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const ranges = deltas + segX2;
    const glyphs = ranges + segX2;
    for (let s = 0; s < segments; s++) {
      dv.setUint16(ends + 2 * s, 0xfffe);
      dv.setUint16(starts + 2 * s, 0);
      // From this segment's word to the glyph array: code point c's glyph is its c-th word.
      dv.setUint16(ranges + 2 * s, glyphs - (ranges + 2 * s));
    }
    dv.setUint16(ends + 2 * segments, 0xffff);
    dv.setUint16(starts + 2 * segments, 0xffff);
    dv.setUint16(deltas + 2 * segments, 1);
    for (let c = 0; c < 0xffff; c++) dv.setUint16(glyphs + 2 * c, 1);
  });
  return cmapTable(sub);
}

/** A cmap table of one subtable (platform 3, encoding 1: Windows Unicode BMP). */
function cmapTable(sub: Uint8Array): Uint8Array {
  const cmap = new Uint8Array(12 + sub.length);
  const dv = new DataView(cmap.buffer);
  dv.setUint16(2, 1);
  dv.setUint16(4, 3);
  dv.setUint16(6, 1);
  dv.setUint32(8, 12);
  cmap.set(sub, 12);
  return cmap;
}

/** A TrueType whose cmap is overlappingCmap(segments) (32,766 by default, the most format 4 holds: ~400 KB). */
export function craftedCmapFont(segments = 32_766): Uint8Array {
  return sfnt([{ tag: 'cmap', data: overlappingCmap(segments) }, ...plainTables()]);
}

/** A cmap (format 4) of U+0041–U+005A, glyph = code point − 64. */
function latinCmap(): Uint8Array {
  const sub = bytes(32, (dv) => {
    dv.setUint16(0, 4);
    dv.setUint16(2, 32);
    dv.setUint16(6, 4);
    dv.setUint16(14, 0x5a);
    dv.setUint16(16, 0xffff);
    dv.setUint16(20, 0x41);
    dv.setUint16(22, 0xffff);
    dv.setUint16(24, -64 & 0xffff);
    dv.setUint16(26, 1);
  });
  return cmapTable(sub);
}

/** A collection of `faces` faces, every one pointing at the same table directory (a real font's tables). */
export function manyFacesCollection(faces: number): Uint8Array {
  const face = sfnt([{ tag: 'cmap', data: latinCmap() }, ...plainTables()]);
  const header = 12 + 4 * faces;
  const out = new Uint8Array(header + face.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x74746366);
  dv.setUint32(4, 0x00010000);
  dv.setUint32(8, faces);
  for (let i = 0; i < faces; i++) dv.setUint32(12 + 4 * i, header);
  // The face's table offsets are from the start of the file.
  const copy = face.slice();
  const fdv = new DataView(copy.buffer);
  const n = fdv.getUint16(4);
  for (let i = 0; i < n; i++) fdv.setUint32(12 + 16 * i + 8, fdv.getUint32(12 + 16 * i + 8) + header);
  out.set(copy, header);
  return out;
}
