/** Fonts shared by the EPUB and PDF renderers. See README.md. */
export { FONT_STACK, KNOWN_FACES, NOTO_SERIF_CJK_TC, HANAMIN_A, HANAMIN_B, TW_KAI, TW_KAI_EXT_B, TW_KAI_PLUS, editionFonts, fontEntryFile, fontStackFor, packagesOf, type EditionFonts, type FontSpec } from './stack.js';
export { fontRoles, mainFaces, otherRoleFaces, MAIN_ROLE } from './roles.js';
export type { FaceFacts, LoadedFont, SubsetFont, FontProvider } from './types.js';
export { coverage, fontChooser, uncovered, needsNoGlyph, type FontChooser } from './coverage.js';
export { subsetFonts, assignCharacters, subsetParts, partFamily, SUBSET_PART_CHARS } from './subset.js';
export { extractFace, faceIndex, selectFace, faceFamilies, isCollection, cmapRanges, fontProblem } from './sfnt.js';
export { loadFontTables, loadSystemFonts } from './load.js';
export { subsetFace, KEEP_FEATURES } from './subset.js';
export { hasCffOutlines, truetypeSubsetKey, defaultVerticalOrigin, faceFacts } from './truetype.js';
export { fontLicence, isOfl, LICENCE_NAME_IDS, type FontLicence } from './licence.js';
