/**
 * Escaping for every context an edition's strings reach in the markup we
 * write (an edition is untrusted input): HTML/XHTML text and attributes, and
 * CSS strings. Used by both renderers.
 */

/** HTML or XHTML text and quoted attribute values: & < > " ' as character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
