/**
 * `target.push(...items)` without the spread: spreading passes each item as
 * an argument, and a long paragraph (150,000 characters) has more items than
 * a call can take (`Maximum call stack size exceeded`).
 */
export function append<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The string of many code points, without `String.fromCodePoint(...codePoints)` (the same limit). */
export function fromCodePoints(codePoints: Iterable<number>): string {
  let out = '';
  for (const cp of codePoints) out += String.fromCodePoint(cp);
  return out;
}
