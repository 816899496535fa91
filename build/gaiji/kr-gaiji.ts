/**
 * Kanripo's list of the characters its transcriptions could not encode
 * (kanripo/KR-Gaiji), as the project ships it in data/kr-gaiji/
 * (scripts/kr-gaiji.mjs makes it from charlist.org.txt and the images):
 * for each `&KRnnnn;` its Unicode character where the list has one, its
 * reading (the list's normalized form) or IDS, and a glyph image. Read on
 * the first entity an edition has: an edition without entities reads none
 * of it; an image is read when a renderer draws it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** data/kr-gaiji, from this module's place (build/gaiji or lib/gaiji: two folders below the checkout). */
export const KR_GAIJI_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'kr-gaiji');

export interface KrGaijiEntry {
  /** The Unicode character the list gives for the code (certain: the list's unsure guesses are readings). */
  u?: string;
  /** Its reading: the list's normalized form (the most counted of several), or an unsure Unicode guess. */
  n?: string;
  /** The list is unsure of the reading (`數?`). */
  unsure?: true;
  /** An IDS the list gives (`⿺風軍`). */
  ids?: string;
  /** The list has an image of the glyph (data/kr-gaiji/images/KRnnnn.png). */
  image?: 1;
}

interface KrGaijiTable {
  codes: Record<string, KrGaijiEntry>;
  /** Compositions the list writes in its own columns (`[口*敕]`) → the code of the glyph they describe. */
  compositions: Record<string, string>;
}

let table: KrGaijiTable | undefined;

function load(): KrGaijiTable {
  table ??= JSON.parse(readFileSync(path.join(KR_GAIJI_DIR, 'table.json'), 'utf8')) as KrGaijiTable;
  return table;
}

/** The list's entry for a code (`KR0433`), if it has one. */
export function krGaiji(code: string): KrGaijiEntry | undefined {
  const codes = load().codes;
  return Object.hasOwn(codes, code) ? codes[code] : undefined;
}

/** The code of a composition the list itself writes (`[口*敕]`, brackets included), if any. */
export function krGaijiComposition(formula: string): string | undefined {
  const compositions = load().compositions;
  return Object.hasOwn(compositions, formula) ? compositions[formula] : undefined;
}

let byIds: Map<string, string> | undefined;

/** The code whose IDS the list gives as this one (`⿺風軍` → KR0146), if any. */
export function krGaijiIds(ids: string): string | undefined {
  byIds ??= new Map(Object.entries(load().codes).flatMap(([code, e]) => (e.ids ? [[e.ids, code] as const] : [])));
  return byIds.get(ids);
}

/** The PNG of a code's glyph (black ink in the alpha channel), or undefined when the list has none. */
export function krGaijiImage(code: string): Uint8Array | undefined {
  if (!/^KR\d{1,6}$/u.test(code) || !krGaiji(code)?.image) return undefined;
  return readFileSync(path.join(KR_GAIJI_DIR, 'images', `${code}.png`));
}
