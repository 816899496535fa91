/**
 * Private Use Area code points that GB 18030-2005 gave to characters
 * Unicode encoded later. A text decoded by the 2005 table (iconv-lite's, and
 * every converter before 2023) carries them; GB 18030-2022 maps 18 of them
 * to the characters themselves (the vertical forms U+FE10–FE19 and the
 * components U+9FB4–9FBB). That table is ICU's (Node's TextDecoder, the
 * WHATWG Encoding Standard's gb18030): read from it, byte by byte, not
 * retyped. The other six GB 18030-2022 still maps to the Private Use Area,
 * while Unicode encoded them in Extension B; they are the row below.
 */
import iconv from 'iconv-lite';

/** GB 18030's six ideographs still in the Private Use Area (bytes FE51 FE52 FE53 FE6C FE76 FE91) → their Extension B characters. */
const STILL_PRIVATE: ReadonlyMap<number, string> = new Map([
  [0xe816, '\u{20087}'],
  [0xe817, '\u{20089}'],
  [0xe818, '\u{200CC}'],
  [0xe831, '\u{215D7}'],
  [0xe83b, '\u{2298F}'],
  [0xe855, '\u{241FE}'],
]);

const isPrivateUse = (cp: number): boolean => cp >= 0xe000 && cp <= 0xf8ff;
const memo = new Map<number, string | undefined>();
let decoder: TextDecoder | null | undefined;

/** ICU's GB 18030-2022 decoder; null in a Node built without ICU's data for it. */
function gb18030Decoder(): TextDecoder | null {
  try {
    return new TextDecoder('gb18030');
  } catch {
    return null;
  }
}

/** The character a GB 18030-2005 Private Use Area code point stands for, where Unicode encoded it; undefined for the rest (the GBK user-defined area is each font's own). */
export function gb18030Pua(cp: number): string | undefined {
  if (!isPrivateUse(cp)) return undefined;
  if (memo.has(cp)) return memo.get(cp);
  let out = STILL_PRIVATE.get(cp);
  if (out === undefined) {
    const bytes = iconv.encode(String.fromCodePoint(cp), 'gb18030');
    // Only the two-byte codes: the four-byte ones are GB 18030's plain mapping of the Private Use Area itself.
    if (bytes.length === 2) {
      decoder ??= gb18030Decoder();
      const now = decoder?.decode(bytes) ?? '';
      const ncp = now.codePointAt(0);
      if (ncp !== undefined && [...now].length === 1 && !isPrivateUse(ncp) && ncp !== 0xfffd) out = now;
    }
  }
  memo.set(cp, out);
  return out;
}
