/**
 * Outputs are written to a temp file beside the target and renamed over it,
 * so that an old output is never replaced by a half-written one. The temp
 * file is removed on any exit (cleanup.ts); a killed build's is removed by
 * the next one.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { removeTemp, tempName, trackTemp, untrackTemp } from './cleanup.js';

/** A write into the output folder: `temp`, written whole, to be renamed over `target`. */
export interface Publication {
  temp: string;
  target: string;
}

/**
 * Lets a write happen or refuses it (false): the queue's workers refuse an
 * older version of an edition once a later one is enqueued or published.
 * The write runs inside the gate, so that the check and the write are one
 * step for every writer asking the same gate. A write that renames a temp
 * file into place says so (`publication`): a gate may then do the rename
 * itself, in one step with its check (the queue's fence, published.ts).
 */
export type OutputGate = (write: () => Promise<void>, publication?: Publication) => Promise<boolean>;

/** The gate of a build that is the only writer of its outputs: every write happens. */
export const ungated: OutputGate = async (write) => {
  await write();
  return true;
};

/** Writes `target` whole or not at all; false when the gate refused it (the temp file removed, the old output left). */
export async function writeFileAtomic(target: string, data: string | Uint8Array, beforeRename?: () => void, gate: OutputGate = ungated): Promise<boolean> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = tempName(target);
  trackTemp(temp);
  try {
    await writeFile(temp, data);
    beforeRename?.();
    const written = await gate(() => rename(temp, target), { temp, target });
    if (written) untrackTemp(temp);
    else await removeTemp(temp);
    return written;
  } catch (error) {
    await removeTemp(temp);
    throw error;
  }
}
