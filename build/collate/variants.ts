/**
 * Variant forms (異體): whether two characters are one character written two
 * ways, by the pairs of variant-table.ts (Unihan, OpenCC's variant
 * dictionaries, our own rows: scripts/variant-forms.ts), after Unicode's
 * canonical equivalence (a CJK compatibility ideograph is its unified one).
 * Pairs, not classes: the relation is not carried on (勑 is a form of 敕
 * and of 徠, two words).
 */
import { VARIANT_PAIRS } from './variant-table.js';

/** Where a pair comes from: Z Unihan kZVariant, U Unihan kSemanticVariant (or Unicode's canonical equivalence), O OpenCC, K Kanripo's KR-Gaiji, D diaoban's own table (variant-forms.tsv). */
export type VariantSource = 'Z' | 'U' | 'O' | 'K' | 'D';

let table: Map<string, string> | undefined;

function pairs(): Map<string, string> {
  if (table) return table;
  table = new Map();
  for (const entry of VARIANT_PAIRS.split(' ')) {
    const [x, y, ...sources] = Array.from(entry);
    table.set(x + y, sources.join(''));
    table.set(y + x, sources.join(''));
  }
  return table;
}

/** A character as compared: its canonical form (U+F900… compatibility ideographs are their unified characters). */
export function canonical(char: string): string {
  return char.normalize('NFC');
}

/** The sources that make x and y variant forms of one character, or null when they are not (or are the same). */
export function variantSources(x: string, y: string): VariantSource[] | null {
  const a = canonical(x);
  const b = canonical(y);
  if (a === b) return x === y ? null : ['U'];
  const found = pairs().get(a + b);
  return found ? (Array.from(found) as VariantSource[]) : null;
}

/** x and y are variant forms of one character (not the same code point). */
export function isVariantForm(x: string, y: string): boolean {
  return variantSources(x, y) !== null;
}
