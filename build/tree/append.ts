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

/**
 * A table's entry for a name the input gives (a tag, a layer, a label), or
 * undefined: only the table's own keys, never Object's (`{toString}`,
 * `{constructor}`, `__proto__` are names like any other).
 */
export function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** An empty table for names the input gives: no prototype, so `__proto__` is a key like any other. */
export function nameTable<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}
