/** A font ready to use: one face as a stand-alone sfnt (collections already split). */
export interface LoadedFont {
  family: string;
  /** Where it was read from (for messages only). */
  file: string;
  bytes: Uint8Array;
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
