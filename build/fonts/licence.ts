/**
 * A font's licence records, read from its name table: the copyright notice
 * (name ID 0), the licence description (13) and its URL (14). The subsetter
 * keeps them (subset.ts LICENCE_NAME_IDS), so a subset carries its font's
 * licence, as the OFL asks of every copy, and the EPUB names it.
 */
import { readDirectory, readNames } from './sfnt.js';

export interface FontLicence {
  copyright: string[];
  licence?: string;
  url?: string;
}

/** The name IDs of the copyright notice, the licence description and the licence URL. */
export const LICENCE_NAME_IDS: readonly number[] = [0, 13, 14];

export function fontLicence(bytes: Uint8Array): FontLicence {
  const dir = readDirectory(bytes);
  const first = (id: number): string | undefined => readNames(bytes, dir, id)[0];
  const licence = first(13);
  const url = first(14);
  return { copyright: readNames(bytes, dir, 0), ...(licence ? { licence } : {}), ...(url ? { url } : {}) };
}

/** Whether a licence record says the SIL Open Font License. */
export function isOfl(l: FontLicence): boolean {
  return /Open Font License|scripts\.sil\.org\/OFL|openfontlicense\.org/i.test(`${l.licence ?? ''} ${l.url ?? ''}`);
}
