/**
 * Escaping for every context an edition's strings reach in the markup we
 * write (an edition is untrusted input): HTML/XHTML text and attributes,
 * CSS strings, and PDF text strings. Used by both renderers.
 */

/**
 * Characters XML 1.0 cannot carry, not even as references (C0 controls but
 * tab, line feed and return; U+FFFE, U+FFFF; lone surrogates): an edition
 * value holding one would make the file not XML at all.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with each character XML cannot carry as U+FFFD (shown, not silently dropped). */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML, '\uFFFD');
}

/**
 * Whether a string may need escaping: markup characters, or characters XML
 * cannot carry (surrogates of well-formed pairs match too). Most of a book's
 * strings have none and are returned as they are, without a replace each.
 */
export const MAY_NEED_ESCAPING = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** HTML or XHTML text and quoted attribute values: & < > " ' as character references, characters XML cannot carry as U+FFFD. */
export function escapeHtml(text: string): string {
  if (!MAY_NEED_ESCAPING.test(text)) return text;
  return xmlChars(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A quoted CSS string (font-family, local(), url()) that stays one string
 * inside a `<style>` element too: quotes, backslashes, line ends and
 * `<` `>` `&` become CSS hex escapes, so `</style>` cannot end the block
 * (JSON.stringify leaves `</` as it is).
 */
export function cssString(text: string): string {
  return `"${text.replace(/["'\\<>&\u0000-\u001F\u007F\u2028\u2029]/g, (c) => `\\${c.charCodeAt(0).toString(16).toUpperCase()} `)}"`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A PDF text string as the hex digits of its UTF-16BE bytes after a BOM
 * (PDF 32000 §7.9.2.2): only 0-9 A-F reach the file, so no value can close
 * its string or write PDF syntax, and nothing is narrowed to latin1. A lone
 * surrogate, which no text string can carry, becomes U+FFFD.
 */
export function pdfTextHex(text: string): string {
  const wellFormed = text.replace(LONE_SURROGATE, '\uFFFD');
  let hex = 'FEFF';
  for (let i = 0; i < wellFormed.length; i++) hex += wellFormed.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return hex;
}

/** A PDF text string object, `<FEFF…>` (pdfTextHex): every edition value that reaches a PDF is written this way. */
export function pdfTextString(text: string): string {
  return `<${pdfTextHex(text)}>`;
}
