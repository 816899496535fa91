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
