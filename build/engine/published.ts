/**
 * What an output folder has published, recorded in the output folder itself:
 * each edition's versions (the queue's fencing tokens, larger for a later
 * enqueue) as files named by the version in `catalogue/<name>.published/`,
 * beside its record. A write is renamed into place only if its version is
 * at least the largest recorded there (the same version is the same job:
 * its next file, or its retry), and the check, the record and the rename
 * are one synchronous step — nothing of this process runs between them,
 * unlike a lock's expiry, which a stalled worker outlives. A record is a
 * new file, never a rewrite, so no writer can lower what another recorded;
 * and after its rename a writer looks again: a later version recorded
 * meanwhile (the writer stalled between its check and its rename, on
 * another machine's clock) means it has just overwritten a newer output,
 * which it says (`overwrote`) for that version to be published again.
 * Redis forgetting everything (a restart) changes none of this.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Publication } from './write.js';

export const PUBLISHED_SUFFIX = '.published';

/** The folder of an edition's published versions in an output folder (`name`: the edition's path in its collection). */
export function publishedDir(out: string, name: string): string {
  return path.join(out, 'catalogue', `${name}${PUBLISHED_SUFFIX}`);
}

export interface PublishedVersion {
  version: number;
  /** What the writer recorded with it (the queue's job id and digest, as JSON). */
  entry: string;
}

const VERSION_NAME = /^\d{1,16}$/;

/** The largest version recorded in `dir`, if any (names that are not versions are not records). */
export function latestPublished(dir: string): PublishedVersion | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  let best: number | undefined;
  for (const name of names) if (VERSION_NAME.test(name) && (best === undefined || Number(name) > best)) best = Number(name);
  if (best === undefined) return undefined;
  let entry = '';
  try {
    entry = readFileSync(path.join(dir, String(best)), 'utf8').slice(0, 4096);
  } catch {
    // Pruned by its own writer since: the version stands, its entry is not needed to compare.
  }
  return { version: best, entry };
}

export type FenceResult = { published: true } | { published: false; newer: PublishedVersion } | { published: false; overwrote: PublishedVersion };

/**
 * Renames `publication.temp` over its target if `version` is not older
 * than what `dir` records, recording `version` first; then looks again.
 */
export function publishFenced(publication: Publication, dir: string, version: number, entry: string): FenceResult {
  mkdirSync(dir, { recursive: true });
  const before = latestPublished(dir);
  if (before && before.version > version) return { published: false, newer: before };
  if (!before || before.version < version) writeFileSync(path.join(dir, String(version)), entry);
  renameSync(publication.temp, publication.target);
  const after = latestPublished(dir);
  if (after && after.version > version) return { published: false, overwrote: after };
  // Older records say nothing the newest does not: removing them never lowers it.
  for (const name of readdirSync(dir)) if (VERSION_NAME.test(name) && Number(name) < version) rmSync(path.join(dir, name), { force: true });
  return { published: true };
}
