/** Fonts shared by the EPUB and PDF renderers. See README.md. */
export { FONT_STACK, NOTO_SERIF_CJK_TC, HANAMIN_A, HANAMIN_B, editionFonts, fontEntryFile, fontStackFor, type EditionFonts, type FontSpec } from './stack.js';
export type { FaceFacts, LoadedFont, SubsetFont, FontProvider } from './types.js';
export { coverage, fontChooser, uncovered, needsNoGlyph, type FontChooser } from './coverage.js';
export { subsetFonts, assignCharacters, subsetParts, partFamily, SUBSET_PART_CHARS } from './subset.js';
export { extractFace, faceIndex, selectFace, faceFamilies, isCollection, cmapRanges, fontProblem } from './sfnt.js';
export { loadFontTables, loadSystemFonts } from './load.js';
export { subsetFace, KEEP_FEATURES } from './subset.js';
export { hasCffOutlines, truetypeSubsetKey, defaultVerticalOrigin, faceFacts } from './truetype.js';
export { fontLicence, isOfl, LICENCE_NAME_IDS, type FontLicence } from './licence.js';
