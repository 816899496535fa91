/**
 * The font stack of both renderers: Noto Serif CJK TC for the basic and
 * Extension A ranges, HanaMinA/HanaMinB (花園明朝) for Extension B and beyond.
 * First font that has a character wins. The faces the tool knows by name
 * (KNOWN_FACES) add TW-Kai (全字庫正楷體), the 四庫 template's 楷 hand.
 */

export interface FontSpec {
  /** The family name used in CSS and reports. */
  family: string;
  /** Where Debian installs the file. */
  file: string;
  /** For a collection (.ttc): the family name of the face to take. */
  face?: string;
  /** The Debian package that installs the file (scripts/setup.sh), for the message when it is missing. */
  package?: string;
}

export const NOTO_SERIF_CJK_TC: FontSpec = {
  family: 'Noto Serif CJK TC',
  file: '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
  face: 'Noto Serif CJK TC',
  package: 'fonts-noto-cjk',
};

export const HANAMIN_A: FontSpec = { family: 'HanaMinA', file: '/usr/share/fonts/truetype/hanazono/HanaMinA.ttf', package: 'fonts-hanazono' };

export const HANAMIN_B: FontSpec = { family: 'HanaMinB', file: '/usr/share/fonts/truetype/hanazono/HanaMinB.ttf', package: 'fonts-hanazono' };

/** 全字庫正楷體 (CNS 11643): the basic plane and Extension A, then Extension B, then the CNS characters Unicode lacks (Plane 15). */
export const TW_KAI: FontSpec = { family: 'TW-Kai', file: '/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf', package: 'fonts-cns11643-kai' };
export const TW_KAI_EXT_B: FontSpec = { family: 'TW-Kai-Ext-B', file: '/usr/share/fonts/truetype/cns11643/TW-Kai-Ext-B-98_1.ttf', package: 'fonts-cns11643-kai' };
export const TW_KAI_PLUS: FontSpec = { family: 'TW-Kai-Plus', file: '/usr/share/fonts/truetype/cns11643/TW-Kai-Plus-98_1.ttf', package: 'fonts-cns11643-kai' };

/** The default stack, in fallback order. */
export const FONT_STACK: readonly FontSpec[] = [NOTO_SERIF_CJK_TC, HANAMIN_A, HANAMIN_B];

/** Every face known by its family name alone (the tool's own files, installed by scripts/setup.sh): the stack, and TW-Kai's three. */
export const KNOWN_FACES: readonly FontSpec[] = [...FONT_STACK, TW_KAI, TW_KAI_EXT_B, TW_KAI_PLUS];

const knownFace = (entry: string): FontSpec | undefined => KNOWN_FACES.find((f) => f.family.toLowerCase() === entry.toLowerCase());

/** The Debian packages that install the tool's own faces among `specs` (for a message about missing files). */
export function packagesOf(specs: readonly FontSpec[]): string[] {
  return [...new Set(specs.flatMap((s) => (s.package ? [s.package] : [])))];
}

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
  if (knownFace(entry)) return undefined;
  const m = FONT_FILE.exec(entry);
  return m ? { file: m[1], ...(m[2] ? { face: m[2] } : {}) } : undefined;
}

/**
 * The one reading of `fonts.main`, for the PDF, the EPUB and `check`: each
 * entry is a font file path (.ttf/.otf, or .ttc with `#Family Name` to pick
 * the face), a face known by name (KNOWN_FACES), or another family's name.
 * An entry given twice counts once, where it first stands. Pure: nothing is
 * read here.
 */
export function editionFonts(main: readonly string[] = []): EditionFonts {
  const chosen: FontSpec[] = [];
  const byName: string[] = [];
  for (const entry of main) {
    const known = knownFace(entry);
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
  const seen = new Set<string>();
  const specs = [...chosen, ...FONT_STACK].filter((f) => {
    const key = `${f.file}#${f.face ?? ''}`;
    return !seen.has(key) && seen.add(key);
  });
  return { specs, byName };
}

/**
 * The font files of an edition, for what must hold every font it uses (the
 * EPUB embeds them): a family named without a file is an error here.
 */
export function fontStackFor(main: readonly string[] = []): FontSpec[] {
  const { specs, byName } = editionFonts(main);
  if (byName.length) {
    throw new Error(
      `font "${byName[0]}": give a font file path (.ttf, .otf, or .ttc#Family) or one of ${KNOWN_FACES.map((f) => f.family).join(', ')}`,
    );
  }
  return specs;
}
