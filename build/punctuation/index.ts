/**
 * Punctuation: the table of marks and the edition's setting, shared by the
 * layout, the PDF, the EPUB and the edition reader. See README.md here.
 */
export * from './table.js';
export * from './config.js';
