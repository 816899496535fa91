/**
 * The one encoder for text on its way to a terminal. Every value an edition
 * gives (titles, file names, corrections, the text quoted in diagnostics) can
 * carry control characters; printed raw, ESC sequences erase lines or set
 * the window title, `\r` and `\n` forge a diagnostic line of their own, and
 * bidi overrides reorder what the reader sees. Each is shown escaped instead,
 * so a line printed is one line, as written.
 */

// C0 (tab kept), DEL, C1, and the bidi marks, embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };
const hex = (ch: string, width: number): string => ch.codePointAt(0)!.toString(16).toUpperCase().padStart(width, '0');

/** `text` with every control character shown as an escape (`\e`, `\n`, `\x9B`, `\u202E`). */
export function forTerminal(text: string): string {
  return text.replace(UNSAFE, (ch) => (Object.hasOwn(NAMED, ch) ? NAMED[ch] : ch <= '\u00ff' ? `\\x${hex(ch, 2)}` : `\\u${hex(ch, 4)}`));
}

// What JSON.stringify leaves raw inside strings (it escapes C0 itself; the line ends outside strings are JSON's own).
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** JSON for a terminal: still JSON, with what JSON.stringify leaves raw (DEL, C1, bidi) as \u escapes. */
export function jsonForTerminal(json: string): string {
  return json.replace(JSON_UNSAFE, (ch) => `\\u${hex(ch, 4)}`);
}

/** One line of text to a stream, encoded. */
export function say(stream: NodeJS.WritableStream, line: string): void {
  stream.write(`${forTerminal(line)}\n`);
}
