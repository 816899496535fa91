/**
 * Bytes → text. Sources are meant to be UTF-8; GB18030, Big5 and UTF-16 are
 * detected and decoded with a message that says how to convert the file;
 * binary data is refused.
 */
import chardet from 'chardet';
import iconv from 'iconv-lite';

export interface Decoded {
  /** The text; empty when the bytes are not text. */
  text: string;
  encoding: string;
  /** Problems with the encoding as a whole (positions come later, in the text). */
  problems: Array<{ severity: 'error' | 'warning'; reason: string; ruleId: string }>;
}

const CHINESE_ENCODINGS = ['GB18030', 'Big5', 'UTF-16LE', 'UTF-16BE'];

function convertHint(encoding: string): string {
  return `convert it with: iconv -f ${encoding} -t UTF-8 FILE > FILE.utf8`;
}

/** Share of bytes that never occur in text (C0 controls other than tab, newlines, form feed, escape). */
function controlByteRatio(bytes: Uint8Array): number {
  let count = 0;
  for (const b of bytes) if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) count++;
  return bytes.length === 0 ? 0 : count / bytes.length;
}

/** Share of characters that are ordinary text: CJK, punctuation, printable ASCII, line breaks. */
function plausibleRatio(text: string): number {
  let good = 0;
  let total = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    total++;
    if ((cp >= 0x20 && cp < 0x7f) || cp === 0x0a || cp === 0x0d || cp === 0x09 || (cp >= 0x2e80 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xffef) || (cp >= 0x20000 && cp <= 0x3134f)) good++;
  }
  return total === 0 ? 0 : good / total;
}

/** UTF-16 without a byte order mark: the byte order whose text reads as text. */
function utf16Guess(bytes: Uint8Array): 'UTF-16LE' | 'UTF-16BE' | null {
  if (bytes.length < 4 || bytes.length % 2 !== 0) return null;
  const sample = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 8192)));
  for (const encoding of ['UTF-16LE', 'UTF-16BE'] as const) {
    if (plausibleRatio(iconv.decode(sample, encoding)) > 0.95) return encoding;
  }
  return null;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function decodeSource(bytes: Uint8Array): Decoded {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: stripBom(iconv.decode(Buffer.from(bytes), 'utf-16le')), encoding: 'UTF-16LE', problems: [warnEncoding('UTF-16LE')] };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: stripBom(iconv.decode(Buffer.from(bytes), 'utf-16be')), encoding: 'UTF-16BE', problems: [warnEncoding('UTF-16BE')] };
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text: stripBom(text), encoding: 'UTF-8', problems: [] };
  } catch {
    // Not UTF-8: find out what it is.
  }
  const utf16 = utf16Guess(bytes);
  if (utf16) {
    return { text: stripBom(iconv.decode(Buffer.from(bytes), utf16)), encoding: utf16, problems: [warnEncoding(utf16)] };
  }
  if (controlByteRatio(bytes) > 0.01) {
    return {
      text: '',
      encoding: 'binary',
      problems: [{ severity: 'error', reason: 'this is not a text file (binary data); give a UTF-8 text or Markdown file', ruleId: 'encoding-binary' }],
    };
  }
  const candidates = chardet.analyse(bytes).map((m) => m.name as string);
  const best = candidates.find((name) => CHINESE_ENCODINGS.includes(name))
    ?? (candidates.includes('UTF-8') ? 'UTF-8' : 'GB18030');
  if (best === 'UTF-8') {
    // Mostly UTF-8 with broken bytes: keep what decodes, the broken bytes become U+FFFD and are reported where they are.
    const text = new TextDecoder('utf-8').decode(bytes);
    return {
      text: stripBom(text),
      encoding: 'UTF-8',
      problems: [{ severity: 'error', reason: 'the file has bytes that are not valid UTF-8; they are shown as � where they stand', ruleId: 'encoding-invalid' }],
    };
  }
  const text = stripBom(iconv.decode(Buffer.from(bytes), best));
  return { text, encoding: best, problems: [warnEncoding(best)] };
}

function warnEncoding(encoding: string) {
  return {
    severity: 'warning' as const,
    reason: `the file is ${encoding}, not UTF-8; it was decoded as ${encoding}: ${convertHint(encoding)}`,
    ruleId: 'encoding-not-utf8',
  };
}
