import { cmapRanges } from './sfnt.js';
import type { LoadedFont } from './types.js';

/** Which font of the stack draws a code point: its index, or -1 when none does. */
export type FontChooser = (codePoint: number) => number;

function inRanges(ranges: ReadonlyArray<readonly [number, number]>, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = ranges[mid];
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return true;
  }
  return false;
}

// The cmap of a 20 MB font takes a few ms to read; a font object is read once (or not at all: its facts say).
const rangeCache = new WeakMap<LoadedFont, Array<[number, number]>>();
function rangesOf(font: LoadedFont): Array<[number, number]> {
  if (font.facts) return font.facts.ranges;
  let r = rangeCache.get(font);
  if (!r) {
    r = cmapRanges(font.bytes);
    rangeCache.set(font, r);
  }
  return r;
}

/** For each code point, the index of the first font in `fonts` whose cmap has it (-1: none). */
export function fontChooser(fonts: readonly LoadedFont[]): FontChooser {
  const all = fonts.map(rangesOf);
  return (cp) => all.findIndex((r) => inRanges(r, cp));
}

/** True when some font of `fonts` has a glyph for the code point. */
export function coverage(fonts: readonly LoadedFont[]): (codePoint: number) => boolean {
  const choose = fontChooser(fonts);
  // A text repeats a few thousand characters: each is looked up in the cmaps once.
  const known = new Map<number, boolean>();
  return (cp) => {
    let has = known.get(cp);
    if (has === undefined) known.set(cp, (has = choose(cp) >= 0));
    return has;
  };
}

/** Characters that need no glyph: white space and controls. */
export function needsNoGlyph(cp: number): boolean {
  return cp < 0x20 || cp === 0x20 || cp === 0x3000 || (cp >= 0x7f && cp < 0xa0) || cp === 0xfeff || cp === 0x200b;
}

/** The distinct characters of `text` (in first-seen order) that no font of `fonts` draws. */
export function uncovered(fonts: readonly LoadedFont[], text: string): string[] {
  const covered = coverage(fonts);
  const seen = new Set<number>();
  const out: string[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (seen.has(cp)) continue;
    seen.add(cp);
    if (!needsNoGlyph(cp) && !covered(cp)) out.push(ch);
  }
  return out;
}
