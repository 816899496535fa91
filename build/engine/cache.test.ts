/**
 * The build cache's pruning: the least recently used entries go when the
 * store is over its limit, and a process that wrote little since the last
 * scan does not scan the store again (a stat an entry) to learn it is under.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BuildCache } from './cache.js';

const KB = 1024;

async function count(dir: string, kind: string): Promise<number> {
  const shards = await readdir(path.join(dir, kind)).catch(() => [] as string[]);
  return (await Promise.all(shards.map((s) => readdir(path.join(dir, kind, s))))).flat().length;
}

test('prune keeps the store under its limit, oldest first, and scans it only when what was written could bring it near', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'diaoban-cache-'));
  try {
    const cache = new BuildCache(dir);
    for (let i = 0; i < 30; i++) await cache.put('layout', `k${String(i).padStart(2, '0')}`.padEnd(64, '0'), new Uint8Array(10 * KB).fill(i));
    // The first ten are the least recently used.
    for (let i = 0; i < 10; i++) {
      const old = new Date(Date.now() - (100 - i) * 1000);
      const key = `k${String(i).padStart(2, '0')}`.padEnd(64, '0');
      await utimes(cache.path('layout', key), old, old);
    }
    await cache.put('manifest', 'm'.padEnd(64, '0'), new Uint8Array(50 * KB));
    // 300 KB of layouts in a 250 KB store: pruned to 80 % (200 KB), the oldest first; the manifest kept.
    const removed = await cache.prune(250 * KB);
    assert.equal(removed, 11);
    assert.equal(await count(dir, 'layout'), 19);
    assert.equal(await count(dir, 'manifest'), 1);
    // As a new process finds them (this one remembers what it wrote).
    const reader = new BuildCache(dir);
    assert.equal(await reader.get('layout', 'k00'.padEnd(64, '0')), undefined, 'the oldest went');
    assert.ok(await reader.get('layout', 'k29'.padEnd(64, '0')), 'the newest stayed');

    // A new process writes a little: no scan. An entry slipped in behind the store's back is not seen…
    const shard = path.join(dir, 'layout', 'zz');
    await mkdir(shard, { recursive: true });
    await writeFile(path.join(shard, 'z'.padEnd(64, 'z')), new Uint8Array(100 * KB));
    const next = new BuildCache(dir);
    await next.put('layout', 'n1'.padEnd(64, '0'), new Uint8Array(1 * KB));
    assert.equal(await next.prune(250 * KB), 0, 'under the estimate: not scanned');
    assert.equal(await count(dir, 'layout'), 21);
    // …until what was written could bring the store near its limit: then it is scanned and pruned (the control).
    await next.put('layout', 'n2'.padEnd(64, '0'), new Uint8Array(40 * KB));
    assert.ok((await next.prune(250 * KB)) > 0, 'near the limit: scanned and pruned');
    assert.ok((await count(dir, 'layout')) < 21);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a store made by this process is known to hold what it wrote: its first prune does not scan it', async () => {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'diaoban-cache-')), 'store');
  try {
    const cache = new BuildCache(dir);
    await cache.put('layout', 'a'.padEnd(64, '0'), new Uint8Array(KB));
    // Slipped in behind the store's back: a scan would see the store over its limit.
    await mkdir(path.join(dir, 'layout', 'zz'), { recursive: true });
    await writeFile(path.join(dir, 'layout', 'zz', 'z'.padEnd(64, 'z')), new Uint8Array(100 * KB));
    assert.equal(await cache.prune(50 * KB), 0);
    // Negative control: a store opened again by a process that did not make it (and finds no usage.json) is scanned.
    await rm(path.join(dir, 'usage.json'));
    assert.ok((await new BuildCache(dir).prune(50 * KB)) > 0);
  } finally {
    await rm(path.dirname(dir), { recursive: true, force: true });
  }
});
