/**
 * The PDF's font stack as @font-face sources: collections by local() name
 * (a .ttc's first face is not the TC one), single-face files by file: URL.
 * Never the network.
 */
import { FONT_STACK, type FontSpec } from '../../fonts/index.js';
import type { FontSource } from './html.js';

export function fontSourcesFor(stack: readonly FontSpec[] = FONT_STACK): FontSource[] {
  return stack.map((spec) => (spec.face ? { local: spec.face } : { file: spec.file }));
}

/**
 * An edition's `fonts.main` entries (file paths or family names) in front
 * of the default stack, which stays as the fallback.
 */
export function fontSpecsWithOverrides(main: readonly string[] | undefined, stack: readonly FontSpec[] = FONT_STACK): {
  specs: FontSpec[];
  /** Entries given by family name only: no file to check coverage against. */
  byName: string[];
} {
  const specs: FontSpec[] = [];
  const byName: string[] = [];
  for (const entry of main ?? []) {
    if (entry.includes('/') || /\.(ttf|otf|ttc|otc|woff2?)$/i.test(entry)) {
      specs.push({ family: entry.replace(/^.*\//, '').replace(/\.\w+$/, ''), file: entry });
    } else {
      byName.push(entry);
    }
  }
  return { specs: [...specs, ...stack], byName };
}

/** Sources in CSS order: the edition's named families first, then the file-backed stack. */
export function fontSourcesWithOverrides(main: readonly string[] | undefined): FontSource[] {
  const { specs, byName } = fontSpecsWithOverrides(main);
  return [...byName.map((name) => ({ local: name })), ...fontSourcesFor(specs)];
}
