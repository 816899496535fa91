import { fontChooser, needsNoGlyph } from './coverage.js';
import { SFNT_CFF } from './sfnt.js';
import { LICENCE_NAME_IDS } from './licence.js';
import { trimForText } from './trim.js';
import type { LoadedFont, SubsetFont } from './types.js';
import { fromCodePoints } from '../tree/append.js';

/**
 * Splits `text` over the stack (each character goes to the first font that
 * has it) and returns, per font, the distinct characters in code point order.
 * Fonts that draw nothing get an empty string. Characters no font has are left out.
 */
export function assignCharacters(fonts: readonly LoadedFont[], text: string): string[] {
  const choose = fontChooser(fonts);
  const sets = fonts.map(() => new Set<number>());
  const seen = new Set<number>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (seen.has(cp)) continue;
    seen.add(cp);
    if (needsNoGlyph(cp)) continue;
    const i = choose(cp);
    if (i >= 0) sets[i].add(cp);
  }
  return sets.map((s) => fromCodePoints([...s].sort((a, b) => a - b)));
}

/**
 * Spaces that take a width from the font (U+0020, U+3000 the ideographic
 * space): a reader shows them, so the first font that has them embeds them
 * too, or their width would be the device's fallback font's.
 */
const DRAWN_SPACES = [0x20, 0x3000];

function withSpaces(fonts: readonly LoadedFont[], text: string, parts: string[]): string[] {
  const choose = fontChooser(fonts);
  const out = [...parts];
  for (const cp of DRAWN_SPACES) {
    const ch = String.fromCodePoint(cp);
    const i = text.includes(ch) ? choose(cp) : -1;
    if (i >= 0) out[i] = fromCodePoints([...out[i] + ch].map((c) => c.codePointAt(0)!).sort((a, b) => a - b));
  }
  return out;
}

// fontverter (inside subset-font) sniffs the format with Buffer#toString.
const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * Layout features kept in subsets: the vertical ones (vert/vrt2 and vertical
 * metrics), composition, kerning, proportional/half-width punctuation, and
 * `hwid` (half-width Latin: rotated Latin in vertical text is set half a cell
 * a character, build/render/pdf/cells.ts). Not `locl`: in Noto Serif CJK its closure pulls in the other regions' glyph
 * variants and, for a whole book, makes hb-subset overflow and fail (measured
 * on 禮經本義); neither `aalt` (every alternate glyph).
 */
export const KEEP_FEATURES: readonly string[] = ['vert', 'vrt2', 'vkna', 'vkrn', 'vpal', 'vhal', 'valt', 'ccmp', 'kern', 'palt', 'halt', 'hwid', 'liga'];

/** Tried when a subset with KEEP_FEATURES fails: the two features vertical text cannot do without. */
const MINIMAL_FEATURES: readonly string[] = ['vert', 'vrt2'];

/** Name records kept: HarfBuzz's default (IDs 0–6) and the licence's (13, 14), which it drops. */
const KEEP_NAME_IDS: readonly number[] = [...new Set([0, 1, 2, 3, 4, 5, 6, ...LICENCE_NAME_IDS])];

/** One font subset to `text` (sfnt, same outline format as the font), keeping KEEP_FEATURES when it can, and the licence records. */
export async function subsetFace(font: LoadedFont, text: string): Promise<Uint8Array> {
  // HarfBuzz's WebAssembly is loaded by the first subset, not by every importer of fonts/ (`check` needs none).
  const { default: subsetFont } = await import('subset-font');
  const options = { targetFormat: 'sfnt' as const, preserveNameIds: [...KEEP_NAME_IDS] };
  // A face too large for HarfBuzz's memory (TW-Kai) is first cut to the outlines the text can need (trim.ts).
  const face = asBuffer(trimForText(font.bytes, text));
  try {
    return new Uint8Array(await subsetFont(face, text, { ...options, keepFeatures: [...KEEP_FEATURES] }));
  } catch {
    return new Uint8Array(await subsetFont(face, text, { ...options, keepFeatures: [...MINIMAL_FEATURES] }));
  }
}

/**
 * Characters a face is subset to at once, at most. harfbuzzjs's subsetter
 * (harfbuzz-subset.wasm) runs in a fixed 65 MiB of memory (1040 pages, no
 * growth) that holds the face (~18 MB for Noto Serif CJK TC), the plan and
 * the output: a CFF subset of Noto Serif CJK TC fails (`hb_subset_or_fail`)
 * between 5,000 and 5,200 characters, keeping features or not, while the
 * TrueType HanaMin subsets 10,000 (measured). So a face's characters are
 * split, in code point order, into parts of at most this many, each part a
 * face of its own; the stack falls back from part to part as from font to
 * font, since each part maps only its own characters.
 */
export const SUBSET_PART_CHARS = 4000;

/** `text` (distinct characters in code point order) in parts of at most SUBSET_PART_CHARS. */
export function subsetParts(text: string): string[] {
  const chars = Array.from(text);
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += SUBSET_PART_CHARS) parts.push(chars.slice(i, i + SUBSET_PART_CHARS).join(''));
  return parts;
}

/** The family of a face's `index`th part: the face's own for the first, numbered after it for the rest. */
export function partFamily(family: string, index: number): string {
  return index === 0 ? family : `${family} part ${index + 1}`;
}

/**
 * Subsets each font of the stack to the characters of `text` it is the first
 * to draw, spaces included, keeping vert/vrt2 (see KEEP_FEATURES), in parts
 * of SUBSET_PART_CHARS (a part after the first is its own family,
 * partFamily). Output is sfnt (TTF or OTF; no WOFF2, which Kobo cannot read).
 * Fonts with nothing to draw are left out.
 */
export async function subsetFonts(fonts: readonly LoadedFont[], text: string): Promise<SubsetFont[]> {
  const parts = withSpaces(fonts, text, assignCharacters(fonts, text));
  const out: SubsetFont[] = [];
  // One at a time: HarfBuzz's wasm heap grows with each 20 MB face.
  for (let i = 0; i < fonts.length; i++) {
    for (const [k, part] of subsetParts(parts[i]).entries()) {
      let bytes: Uint8Array;
      try {
        bytes = await subsetFace(fonts[i], part);
      } catch (error) {
        throw new Error(`font "${fonts[i].family}" (${fonts[i].file}): HarfBuzz could not subset it to ${Array.from(part).length} characters (${(error as Error).message}); try another font file`);
      }
      const cff = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) === SFNT_CFF;
      out.push({
        family: partFamily(fonts[i].family, k),
        format: cff ? 'otf' : 'ttf',
        mediaType: cff ? 'font/otf' : 'font/ttf',
        bytes,
        text: part,
      });
    }
  }
  return out;
}
