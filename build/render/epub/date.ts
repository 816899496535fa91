/**
 * The EPUB's date, never the clock's: a module of its own so that the
 * engine reads it without loading the renderer (epub-gen-memory and its
 * templates load in the EPUB's worker only).
 */
import type { EditionMeta } from '../../tree/types.js';

const FALLBACK_DATE = '2000-01-01';

/** The build date: explicit option, else the edition's date, else a fixed fallback. */
export function bookDate(meta: EditionMeta, date?: string): Date {
  const d = new Date(date ?? meta.date ?? FALLBACK_DATE);
  if (Number.isNaN(d.getTime())) throw new Error(`invalid date for the EPUB: ${date ?? meta.date}`);
  return d;
}

/** For the CLI: SOURCE_DATE_EPOCH (seconds) as an ISO date, when set. */
export function dateFromSourceDateEpoch(value: string | undefined): string | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined;
  return new Date(Number(value) * 1000).toISOString();
}
