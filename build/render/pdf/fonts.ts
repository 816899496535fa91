/**
 * The PDF's font stack as @font-face sources: collections by local() name
 * (a .ttc's first face is not the TC one), single-face files by file: URL.
 * Never the network.
 */
import { editionFonts, type FontSpec } from '../../fonts/index.js';
import type { FontSource } from './html.js';

export function fontSourceFor(spec: FontSpec): FontSource {
  return spec.face ? { local: spec.face } : { file: spec.file };
}

/**
 * Sources in CSS order for an edition's `fonts.main` (read by editionFonts):
 * the families named without a file first, then the file-backed stack.
 */
export function fontSourcesWithOverrides(main: readonly string[] | undefined): FontSource[] {
  const { specs, byName } = editionFonts(main);
  return [...byName.map((name) => ({ local: name })), ...specs.map(fontSourceFor)];
}
