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

/**
 * The stack for an edition's `fonts.main` (edition.yaml): each entry is a font
 * file path (.ttf/.otf, or .ttc with `#Family Name` to pick the face) or the
 * family name of a font of the default stack. The default stack follows as
 * fallback, so rare characters still have a font. Pure: nothing is read here.
 */
export function fontStackFor(main: readonly string[] = []): FontSpec[] {
  const chosen: FontSpec[] = main.map((entry) => {
    const known = FONT_STACK.find((f) => f.family.toLowerCase() === entry.toLowerCase());
    if (known) return known;
    const m = /^(.*\.(?:ttf|otf|ttc|otc))(?:#(.+))?$/i.exec(entry);
    if (!m) {
      throw new Error(
        `font "${entry}": give a font file path (.ttf, .otf, or .ttc#Family) or one of ${FONT_STACK.map((f) => f.family).join(', ')}`,
      );
    }
    const file = m[1];
    const base = file.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
    return { family: m[2] ?? base, file, ...(m[2] ? { face: m[2] } : {}) };
  });
  const seen = new Set(chosen.map((f) => `${f.file}#${f.face ?? ''}`));
  return [...chosen, ...FONT_STACK.filter((f) => !seen.has(`${f.file}#${f.face ?? ''}`))];
}
