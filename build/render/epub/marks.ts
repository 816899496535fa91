/**
 * 圈點 and emphasis marks in the EPUB: the one table of the character each
 * mark kind is drawn with, for the stylesheet (text-emphasis with that
 * character) and for the font subsets (the character is embedded, so that
 * ○ ◎ ● ﹅ come from the book's fonts, not from whatever the reader's system
 * has, or a box). Marks beside the text (專名號, 書名號) are lines, drawn
 * by CSS, and have no character.
 */
import type { Mark } from '../../tree/types.js';

/** CSS text-emphasis characters (the shapes of CSS's dot, open circle, sesame, double-circle, filled circle). */
export const EMPHASIS_MARKS: Readonly<Partial<Record<Mark['kind'], string>>> = {
  dot: '•', // 著重號
  circle: '○', // 圈
  sesame: '﹅', // 頓 (sesame dot)
  double: '◎', // 雙圈
  heavy: '●', // 重 (heavy dot)
};

/** The stylesheet's emphasis rules: each kind's character on the right of vertical text (clreq 5.3.1). */
export function emphasisCss(): string {
  return Object.entries(EMPHASIS_MARKS)
    .map(
      ([kind, ch]) =>
        `.mark-${kind} { text-emphasis: "${ch}"; -webkit-text-emphasis: "${ch}"; text-emphasis-position: over right; -webkit-text-emphasis-position: over right; }`,
    )
    .join('\n');
}

/** The characters the fonts must draw for the mark kinds a book uses. */
export function emphasisCharacters(kinds: Iterable<Mark['kind']>): string {
  return [...new Set(kinds)].map((k) => EMPHASIS_MARKS[k] ?? '').join('');
}
