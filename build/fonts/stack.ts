/**
 * The font stack of both renderers: Noto Serif CJK TC for the basic and
 * Extension A ranges, HanaMinA/HanaMinB (花園明朝) for Extension B and beyond.
 * First font that has a character wins.
 */

export interface FontSpec {
  /** The family name used in CSS and reports. */
  family: string;
  /** Where Debian installs the file. */
  file: string;
  /** For a collection (.ttc): the family name of the face to take. */
  face?: string;
}

export const NOTO_SERIF_CJK_TC: FontSpec = {
  family: 'Noto Serif CJK TC',
  file: '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
  face: 'Noto Serif CJK TC',
};

export const HANAMIN_A: FontSpec = { family: 'HanaMinA', file: '/usr/share/fonts/truetype/hanazono/HanaMinA.ttf' };

export const HANAMIN_B: FontSpec = { family: 'HanaMinB', file: '/usr/share/fonts/truetype/hanazono/HanaMinB.ttf' };

/** The default stack, in fallback order. */
export const FONT_STACK: readonly FontSpec[] = [NOTO_SERIF_CJK_TC, HANAMIN_A, HANAMIN_B];

/** An edition's `fonts.main` (edition.yaml) read against the default stack. */
export interface EditionFonts {
  /** Font files: the edition's first, then the default stack as fallback. */
  specs: FontSpec[];
  /**
   * Families named without a file: the PDF asks Chromium for them
   * (local()); nothing can check their coverage or embed them in an EPUB.
   */
  byName: string[];
}

const FONT_FILE = /^(.*\.(?:ttf|otf|ttc|otc))(?:#(.+))?$/i;

/** The file a `fonts.main` entry names (`/a/Kai.ttf`, `Set.ttc#Family`), if it names one rather than a family. */
export function fontEntryFile(entry: string): { file: string; face?: string } | undefined {
  if (FONT_STACK.some((f) => f.family.toLowerCase() === entry.toLowerCase())) return undefined;
  const m = FONT_FILE.exec(entry);
  return m ? { file: m[1], ...(m[2] ? { face: m[2] } : {}) } : undefined;
}

/**
 * The one reading of `fonts.main`, for the PDF, the EPUB and `check`: each
 * entry is a font file path (.ttf/.otf, or .ttc with `#Family Name` to pick
 * the face), a family of the default stack, or another family's name. Pure:
 * nothing is read here.
 */
export function editionFonts(main: readonly string[] = []): EditionFonts {
  const chosen: FontSpec[] = [];
  const byName: string[] = [];
  for (const entry of main) {
    const known = FONT_STACK.find((f) => f.family.toLowerCase() === entry.toLowerCase());
    const named = fontEntryFile(entry);
    if (known) {
      chosen.push(known);
    } else if (named) {
      const base = named.file.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
      chosen.push({ family: named.face ?? base, ...named });
    } else if (/[\\/]|\.woff2?$/i.test(entry)) {
      throw new Error(`font "${entry}": give a .ttf, .otf or .ttc#Family file (WOFF cannot be subset or checked)`);
    } else {
      byName.push(entry);
    }
  }
  const seen = new Set(chosen.map((f) => `${f.file}#${f.face ?? ''}`));
  return { specs: [...chosen, ...FONT_STACK.filter((f) => !seen.has(`${f.file}#${f.face ?? ''}`))], byName };
}

/**
 * The font files of an edition, for what must hold every font it uses (the
 * EPUB embeds them): a family named without a file is an error here.
 */
export function fontStackFor(main: readonly string[] = []): FontSpec[] {
  const { specs, byName } = editionFonts(main);
  if (byName.length) {
    throw new Error(
      `font "${byName[0]}": give a font file path (.ttf, .otf, or .ttc#Family) or one of ${FONT_STACK.map((f) => f.family).join(', ')}`,
    );
  }
  return specs;
}
