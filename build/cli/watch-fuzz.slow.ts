/**
 * The full request fuzz against a real `diaoban watch` (watch-fuzz.test-util.ts):
 * 3,000 generated requests (seed WATCH_FUZZ_SEED, count WATCH_FUZZ_REQUESTS),
 * then 20,000 idle event streams (the descriptor-exhaustion case that gave
 * EMFILE from the file watcher and killed the server), then a save. Asserts
 * 0 dead servers and 0 internal errors, that the server still answers, and
 * that it rebuilds on the save. Loopback only; bounded in count and time.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { WATCH_LIMITS } from './watch.js';
import { fuzzRequests, get, idleStreams, previewState, processesOf, startWatch, stopWatch, untilBuilt, type WatchProcess } from './watch-fuzz.test-util.js';

const SEED = Number(process.env.WATCH_FUZZ_SEED ?? 20261125);
const REQUESTS = Number(process.env.WATCH_FUZZ_REQUESTS ?? 3000);
const STREAMS = Number(process.env.WATCH_FUZZ_STREAMS ?? 20_000);

let w: WatchProcess;
before(async () => {
  w = await startWatch('manuscript/lishu');
});
after(() => {
  if (w) stopWatch(w);
});

test(`${REQUESTS} generated requests, then ${STREAMS} idle event streams and a save: 0 dead servers, 0 internal errors, a rebuild`, { timeout: 900_000 }, async () => {
  const f = await fuzzRequests(w, SEED, REQUESTS, 24);
  console.log(`watch fuzz: seed ${f.seed}, ${f.requests} requests in ${(f.ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(f.statuses)}; internal errors ${f.internalErrors}; dead servers ${f.dead}`);
  assert.equal(f.dead, 0, w.stderr());
  assert.equal(f.internalErrors, 0, w.stderr());
  assert.equal((await get(w.port, '/state')).status, 200);

  const before = await previewState(w.port);
  const t0 = performance.now();
  const idle = await idleStreams(w.port, STREAMS);
  console.log(`idle streams: ${STREAMS} asked in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${idle.streams} given, ${idle.refused} refused (503), ${idle.dropped} dropped`);
  assert.equal(idle.streams, WATCH_LIMITS.streams);
  appendFileSync(path.join(w.dir, 'juan110.txt'), '\n主人戒賓\n');
  const after = await untilBuilt(w, before.build + 1);
  assert.equal(after.generation, before.generation + 1, 'a good rebuild while the streams are held');
  idle.held.forEach((s) => s.destroy());
  assert.equal((await get(w.port, '/book.pdf')).status, 200);
  assert.equal(w.child.exitCode, null, 'the server is alive');
  assert.doesNotMatch(w.stderr(), /internal error|EMFILE|\n\s+at /, w.stderr());
});
