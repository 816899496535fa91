/**
 * Bytes → text. Sources are meant to be UTF-8. A file that is UTF-8 but for a
 * few bytes stays UTF-8, each bad byte reported where it stands. Otherwise the
 * file is decoded as each of UTF-8, GB18030, Big5, UTF-16LE and UTF-16BE, and
 * the reading whose characters are common CJK (or plain ASCII) wins: the
 * wrong readings of a Chinese file are mostly rare characters, so this holds
 * even for a short file. `encoding:` in edition.yaml overrides the guess.
 * Binary data is refused.
 */
import { createRequire } from 'node:module';
import type iconvLite from 'iconv-lite';

// iconv-lite loads with the first file that is not UTF-8: most sources are, and need none of it.
const require = createRequire(import.meta.url);
let iconvModule: typeof iconvLite | undefined;
const iconv = (): typeof iconvLite => (iconvModule ??= require('iconv-lite') as typeof iconvLite);

export interface DecodeProblem {
  severity: 'error' | 'warning';
  reason: string;
  ruleId: string;
  /** Offsets in the decoded text (UTF-16 units) where the problem stands; the file as a whole when absent. */
  at?: number[];
}

export interface Decoded {
  /** The text; empty when the bytes are not text. */
  text: string;
  encoding: string;
  problems: DecodeProblem[];
}

/** The encodings tried, by the name iconv-lite knows and the name people read. */
export const ENCODINGS: Readonly<Record<string, string>> = {
  'utf-8': 'UTF-8',
  gb18030: 'GB18030',
  big5: 'Big5',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
};

/** An encoding name as a user writes it (utf8, GBK, big5-hkscs …) → the one we decode with, or null. */
export function encodingName(name: string): string | null {
  const key = name.trim().toLowerCase().replace(/_/g, '-');
  const aliases: Record<string, string> = { utf8: 'utf-8', 'utf-8': 'utf-8', gbk: 'gb18030', gb2312: 'gb18030', gb18030: 'gb18030', 'euc-cn': 'gb18030', big5: 'big5', 'big5-hkscs': 'big5', cp950: 'big5', 'utf-16le': 'utf-16le', 'utf-16be': 'utf-16be', utf16le: 'utf-16le', utf16be: 'utf-16be', 'utf-16': 'utf-16le' };
  return Object.hasOwn(aliases, key) ? aliases[key] : null;
}

function convertHint(encoding: string): string {
  return `convert it with: iconv -f ${encoding} -t UTF-8 FILE > FILE.utf8`;
}

/** Share of bytes that never occur in text (C0 controls other than tab, newlines, form feed, escape). */
function controlByteRatio(bytes: Uint8Array): number {
  let count = 0;
  for (const b of bytes) if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) count++;
  return bytes.length === 0 ? 0 : count / bytes.length;
}

let common: Set<number> | null = null;
/**
 * Common CJK characters: GB2312 level 1 (the 3,755 most used simplified
 * characters) and Big5 level 1 (the 5,401 most used traditional ones),
 * taken from the encoders' own tables.
 */
function commonCjk(): Set<number> {
  if (common) return common;
  const bytes: number[] = [];
  for (let lead = 0xb0; lead <= 0xd7; lead++) for (let trail = 0xa1; trail <= 0xfe; trail++) bytes.push(lead, trail);
  const gb = iconv().decode(Buffer.from(bytes), 'gb2312');
  bytes.length = 0;
  for (let lead = 0xa4; lead <= 0xc6; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) if (trail <= 0x7e || trail >= 0xa1) bytes.push(lead, trail);
  }
  const big5 = iconv().decode(Buffer.from(bytes), 'big5');
  common = new Set();
  for (const ch of gb + big5) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0x3400 && cp !== 0xfffd) common.add(cp);
  }
  return common;
}

/**
 * How much a decoding reads like text: ASCII, line ends, CJK punctuation and
 * common characters count for it; replacement characters, controls and
 * Private Use Area characters against it. Rare characters are neutral.
 */
export function textScore(text: string): number {
  const set = commonCjk();
  let score = 0;
  let total = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    total++;
    if ((cp >= 0x20 && cp < 0x7f) || cp === 0x0a || cp === 0x0d || cp === 0x09) score += 1;
    else if (set.has(cp) || (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xffef) || cp === 0x00b7 || cp === 0x00b6 || cp === 0x25a1 || cp === 0x25cb || (cp >= 0x2010 && cp <= 0x2027)) score += 1;
    else if (cp === 0xfffd || cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) score -= 3;
    else if (cp >= 0xe000 && cp <= 0xf8ff) score -= 1;
  }
  return total === 0 ? 0 : score / total;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Offsets of U+FFFD in the text. */
function replacementOffsets(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) out.push(i);
  return out;
}

function decodeAs(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'utf-8') return stripBom(new TextDecoder('utf-8').decode(bytes));
  return stripBom(iconv().decode(Buffer.from(bytes), encoding));
}

function withBadBytes(text: string, encoding: string, declared: boolean): Decoded {
  const at = replacementOffsets(text);
  const name = ENCODINGS[encoding] ?? encoding;
  const problems: DecodeProblem[] = [];
  if (encoding !== 'utf-8') {
    problems.push({
      severity: 'warning',
      reason: declared ? `the file was decoded as ${name}, as edition.yaml says (encoding: ${name}); ${convertHint(name)}` : `the file is ${name}, not UTF-8; it was decoded as ${name}: ${convertHint(name)}`,
      ruleId: 'encoding-not-utf8',
    });
  }
  if (at.length > 0) {
    problems.push({
      severity: 'error',
      reason: `a byte here is not valid ${name} (shown as �); fix the byte, or set the file's real encoding with "encoding:" in edition.yaml`,
      ruleId: 'encoding-invalid',
      at,
    });
  }
  return { text, encoding: name, problems };
}

/** Valid 3- and 4-byte UTF-8 sequences, and bytes that start no valid sequence. */
function utf8Sequences(bytes: Uint8Array): { valid: number; invalid: number } {
  let valid = 0;
  let invalid = 0;
  const cont = (k: number) => k < bytes.length && (bytes[k] & 0xc0) === 0x80;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    if (b < 0x80) i++;
    else if (b >= 0xc2 && b <= 0xdf && cont(i + 1)) i += 2;
    else if (b >= 0xe0 && b <= 0xef && cont(i + 1) && cont(i + 2)) {
      valid++;
      i += 3;
    } else if (b >= 0xf0 && b <= 0xf4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
      valid++;
      i += 4;
    } else {
      invalid++;
      i++;
      while (cont(i)) i++;
    }
  }
  return { valid, invalid };
}

export function decodeSource(bytes: Uint8Array, declaredEncoding?: string): Decoded {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return withBadBytes(decodeAs(bytes, 'utf-16le'), 'utf-16le', false);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return withBadBytes(decodeAs(bytes, 'utf-16be'), 'utf-16be', false);
  const declared = declaredEncoding ? encodingName(declaredEncoding) : null;
  if (declared) return withBadBytes(decodeAs(bytes, declared), declared, declared !== 'utf-8');
  try {
    const text = stripBom(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    // A valid UTF-8 file can still hold U+FFFD from an earlier, lossy conversion: say where.
    return withBadBytes(text, 'utf-8', false);
  } catch {
    // Not UTF-8 throughout: find out what it is.
  }
  // Mostly UTF-8 (CJK in UTF-8 is 3-byte sequences, which other encodings hardly ever form): stays UTF-8.
  const { valid, invalid } = utf8Sequences(bytes);
  if (valid >= 1 && valid >= invalid) return withBadBytes(decodeAs(bytes, 'utf-8'), 'utf-8', false);
  // UTF-16 without a byte order mark: only where zero bytes (the high half of ASCII, line ends) show it.
  const candidates = ['utf-8', 'gb18030', 'big5', ...(bytes.length % 2 === 0 && bytes.includes(0) ? ['utf-16le', 'utf-16be'] : [])];
  // Score a sample: enough to tell the encodings apart, cheap on a large file.
  const sample = bytes.subarray(0, Math.min(bytes.length, 64 * 1024));
  let best = candidates[0];
  let bestScore = -Infinity;
  for (const encoding of candidates) {
    const score = textScore(decodeAs(sample, encoding));
    if (score > bestScore) {
      best = encoding;
      bestScore = score;
    }
  }
  if (bestScore < 0.5 && controlByteRatio(bytes) > 0.01 && bytes.length >= 32) {
    return {
      text: '',
      encoding: 'binary',
      problems: [{ severity: 'error', reason: 'this is not a text file (binary data); give a UTF-8 text or Markdown file', ruleId: 'encoding-binary' }],
    };
  }
  return withBadBytes(decodeAs(bytes, best), best, false);
}
