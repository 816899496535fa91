/**
 * What the build asks of a face besides its outlines, kept by the file's
 * stamp so that a new process need not read 20–30 MB to learn it
 * (engine/fonts-memo.ts).
 */
export interface FaceFacts {
  /** The code points it maps, as sorted [first, last] ranges (cmapRanges). */
  ranges: Array<[number, number]>;
  /** CFF outlines (hasCffOutlines). */
  cff: boolean;
  /** Where scripts/cff2ttf.py pins the face's glyph tops, in em (defaultVerticalOrigin): a CFF face's, or a TrueType one's with vertical metrics; absent for a face it leaves alone. */
  verticalOrigin?: number;
  /** SHA-256 of the face's bytes, hex. */
  digest: string;
}

/** A font ready to use: one face as a stand-alone sfnt (collections already split). */
export interface LoadedFont {
  family: string;
  /** Where it was read from (for messages only). */
  file: string;
  /** The face's bytes (may be read only when first asked for: see `facts`). */
  bytes: Uint8Array;
  /** Known without reading `bytes`, when the loader kept them. */
  facts?: FaceFacts;
}

/** A subset of one font holding the characters a book draws with it. */
export interface SubsetFont {
  family: string;
  /** TrueType outlines → ttf, CFF outlines → otf (no WOFF2: Kobo cannot read it). */
  format: 'ttf' | 'otf';
  mediaType: 'font/ttf' | 'font/otf';
  bytes: Uint8Array;
  /** The characters assigned to this font (code point order). */
  text: string;
}

/** Hands out the fonts of an edition lazily (the CLI may cache behind it). */
export interface FontProvider {
  load(): Promise<readonly LoadedFont[]>;
}
