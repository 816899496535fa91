/**
 * The grid layout stage: document tree + PageSpec → BookLayout.
 * See README.md in this folder for the rules and the choices made.
 */
export { layoutVolume } from './engine.js';
export { layoutBook, assembleBook, resolvePunctuation } from './book.js';
export { layoutEdition, layoutVolumeWithCollation, locatorLabel, leafLabel, entryExplanation, changeText, workStart, COLLATION_LAYER, COLLATION_TITLE } from './collation.js';
export { layoutToJson } from './json.js';
export { renderPageText, formatLayout, parsePageList } from './text.js';
export { pageSpecFor, isKnownTemplate, templateNames, DEFAULT_TEMPLATE } from './spec.js';
export { GLYPH_PLACEHOLDER } from './flatten.js';
export type * from './types.js';
