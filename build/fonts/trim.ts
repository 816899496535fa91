/**
 * A large TrueType face cut down to the outlines a subset can need, before
 * HarfBuzz subsets it. harfbuzzjs's subsetter runs in a fixed 65 MiB of
 * memory that must hold the face, the plan and the output: TW-Kai (52 MB)
 * subsets 1,000 characters and fails at 2,000, TW-Kai-Ext-B (65 MB) does not
 * even load. The cut face keeps every table and every glyph id as they are
 * (so the subset is the one HarfBuzz would make of the whole face); only the
 * glyf table loses the outlines of the ideographs the text does not have
 * (CJK and the private use planes: what a large face is large with). Kept
 * whole: .notdef, glyphs no code point maps (alternates, ligatures), every
 * glyph of a character that is not an ideograph (punctuation and its
 * vertical forms, which GSUB reaches from other characters), and the
 * components of every kept composite glyph. Pure.
 */
import { cmapEntries, readDirectory, tableBytes, writeSfnt } from './sfnt.js';

/** Faces larger than this are cut before HarfBuzz subsets them (a 30 MB HanaMinB is subset whole). */
export const TRIM_ABOVE_BYTES = 40 << 20;

/** Code points whose glyphs a large face may leave out of a cut when the text lacks them: ideographs and the private use planes. */
function droppable(cp: number): boolean {
  return (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x3ffff) || cp >= 0xf0000;
}

const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** The glyph ids a composite glyph's components name (empty for a simple glyph). */
function components(glyph: Uint8Array): number[] {
  if (glyph.length < 10) return [];
  const dv = view(glyph);
  if (dv.getInt16(0) >= 0) return [];
  const out: number[] = [];
  let at = 10;
  for (;;) {
    const flags = dv.getUint16(at);
    out.push(dv.getUint16(at + 2));
    at += 4 + (flags & 0x0001 ? 4 : 2) + (flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
    if (!(flags & 0x0020) || at + 4 > glyph.length) return out;
  }
}

/**
 * `face` with only the outlines `text` can need, or `face` itself when it
 * is small enough for HarfBuzz, has CFF outlines, or has nothing to leave out.
 */
export function trimForText(face: Uint8Array, text: string): Uint8Array {
  if (face.byteLength <= TRIM_ABOVE_BYTES) return face;
  const dir = readDirectory(face);
  const head = tableBytes(face, dir, 'head');
  const loca = tableBytes(face, dir, 'loca');
  const glyf = tableBytes(face, dir, 'glyf');
  const maxp = tableBytes(face, dir, 'maxp');
  if (!head || !loca || !glyf || !maxp) return face;
  const glyphs = view(maxp).getUint16(4);
  const long = view(head).getInt16(50) === 1;
  const lv = view(loca);
  const offset = (g: number): number => (long ? lv.getUint32(4 * g) : 2 * lv.getUint16(2 * g));
  const wanted = new Set<number>();
  for (const ch of text) wanted.add(ch.codePointAt(0)!);
  // A glyph goes unless some code point that maps it is wanted or not an ideograph; unmapped glyphs stay.
  const mapped = new Uint8Array(glyphs);
  const keep = new Uint8Array(glyphs);
  cmapEntries(face, (cp, g) => {
    if (g >= glyphs) return;
    mapped[g] = 1;
    if (wanted.has(cp) || !droppable(cp)) keep[g] = 1;
  });
  const stack: number[] = [];
  for (let g = 0; g < glyphs; g++) if (keep[g] || !mapped[g]) stack.push(g);
  keep.fill(0);
  let size = 0;
  while (stack.length > 0) {
    const g = stack.pop()!;
    if (keep[g]) continue;
    keep[g] = 1;
    const outline = glyf.subarray(offset(g), offset(g + 1));
    size += (outline.length + 3) & ~3;
    for (const c of components(outline)) if (c < glyphs && !keep[c]) stack.push(c);
  }
  if (size >= glyf.length) return face;
  // The kept outlines at their ids, the others empty; a long loca (its format in head).
  const newGlyf = new Uint8Array(size);
  const newLoca = new Uint8Array(4 * (glyphs + 1));
  const nl = view(newLoca);
  let at = 0;
  for (let g = 0; g < glyphs; g++) {
    nl.setUint32(4 * g, at);
    if (!keep[g]) continue;
    const outline = glyf.subarray(offset(g), offset(g + 1));
    newGlyf.set(outline, at);
    at += (outline.length + 3) & ~3;
  }
  nl.setUint32(4 * glyphs, at);
  const newHead = head.slice();
  view(newHead).setInt16(50, 1);
  const replaced = new Map([['head', newHead], ['loca', newLoca], ['glyf', newGlyf]]);
  return writeSfnt(
    dir.sfntVersion,
    dir.tables.map((t) => ({ tag: t.tag, data: replaced.get(t.tag) ?? face.subarray(t.offset, t.offset + t.length) })),
  );
}
