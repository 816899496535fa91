/**
 * Outputs are written to a temp file beside the target and renamed over it,
 * so that an old output is never replaced by a half-written one. The temp
 * file is removed on any exit (cleanup.ts); a killed build's is removed by
 * the next one.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { removeTemp, tempName, trackTemp, untrackTemp } from './cleanup.js';

export async function writeFileAtomic(target: string, data: string | Uint8Array, beforeRename?: () => void): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = tempName(target);
  trackTemp(temp);
  try {
    await writeFile(temp, data);
    beforeRename?.();
    await rename(temp, target);
    untrackTemp(temp);
  } catch (error) {
    await removeTemp(temp);
    throw error;
  }
}
