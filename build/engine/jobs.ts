/**
 * What the command line needs of a collection before it reads one (its
 * options and their help): apart from collection.ts, so that `--help` loads
 * no parser.
 */
import os from 'node:os';

/** `K/N`, 1 ≤ K ≤ N, or undefined. */
export function parseShard(value: string): { k: number; n: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!m) return undefined;
  const k = Number(m[1]);
  const n = Number(m[2]);
  return k >= 1 && n >= 1 && k <= n ? { k, n } : undefined;
}

/** Memory a build of a big book takes at its peak (node + Chromium, 禮經本義 clean: ~1.3 GB), with room to spare. */
export const BUILD_PEAK_BYTES = 1.5 * 1024 ** 3;

/**
 * Editions built at once by default: one per core (each build keeps a core
 * busy between its thread and Chromium), no more than the free memory holds
 * at a big book's peak, and at least one.
 */
export function defaultJobs(cores = os.availableParallelism(), free = os.freemem()): number {
  return Math.max(1, Math.min(cores, Math.floor(free / BUILD_PEAK_BYTES)));
}
