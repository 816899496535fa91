/**
 * How well a script conversion matches a reference edition of the same text:
 * the two are aligned (Myers diff over characters); where a stretch differs
 * by the same number of characters on both sides, each differing character is
 * a conversion error. Stretches of unequal length are differences of content
 * (an excerpt, a moved 記), not of script, and are counted apart.
 */
import { diffArrays } from 'diff';

export interface ConversionScore {
  /** Characters aligned one to one. */
  aligned: number;
  /** Aligned characters that differ. */
  errors: number;
  /** errors / aligned. */
  rate: number;
  /** Characters in stretches that do not align (content differences). */
  unaligned: number;
  /** The differing pairs, converted → reference, with counts. */
  confusions: Map<string, number>;
}

export function conversionScore(converted: string, reference: string): ConversionScore {
  const parts = diffArrays(Array.from(converted), Array.from(reference));
  let aligned = 0;
  let errors = 0;
  let unaligned = 0;
  const confusions = new Map<string, number>();
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part.added && !part.removed) {
      aligned += part.value.length;
      continue;
    }
    const next = parts[i + 1];
    if (part.removed && next?.added && next.value.length === part.value.length) {
      aligned += part.value.length;
      errors += part.value.length;
      part.value.forEach((ch, k) => {
        const key = `${ch}→${next.value[k]}`;
        confusions.set(key, (confusions.get(key) ?? 0) + 1);
      });
      i++;
      continue;
    }
    unaligned += part.value.length;
  }
  return { aligned, errors, rate: aligned === 0 ? 0 : errors / aligned, unaligned, confusions };
}

/**
 * Conversion errors only: aligned characters where the converter picked one
 * reading of a one-to-many character and the reference has another of its
 * readings (于 → 於 where the reference writes 于). Glyph variants (荅/答) and
 * differences of the texts are not counted. `source` and `converted` must be
 * aligned character for character.
 */
export function oneToManyErrors(source: string, converted: string, reference: string, readingsOf: (ch: string) => readonly string[] | undefined): { aligned: number; errors: number; confusions: Map<string, number> } {
  const src = Array.from(source);
  const conv = Array.from(converted);
  const parts = diffArrays(conv, Array.from(reference));
  let at = 0;
  let aligned = 0;
  let errors = 0;
  const confusions = new Map<string, number>();
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part.added && !part.removed) {
      aligned += part.value.length;
      at += part.value.length;
      continue;
    }
    if (part.added) continue;
    const next = parts[i + 1];
    if (next?.added && next.value.length === part.value.length) {
      aligned += part.value.length;
      part.value.forEach((c, k) => {
        const s = src[at + k];
        const r = next.value[k];
        const readings = readingsOf(s);
        if (readings && (readings.includes(r) || r === s)) {
          errors++;
          const key = `${s}: ${c}→${r}`;
          confusions.set(key, (confusions.get(key) ?? 0) + 1);
        }
      });
      i++;
    }
    at += part.value.length;
  }
  return { aligned, errors, confusions };
}
