/**
 * The queue's output gate on a real redis-server: a job's outputs are
 * written only while its version is the edition's latest enqueued, and two
 * workers writing the same edition take turns (the write lock), while
 * different editions do not wait on each other.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { latestKey, latestOnly, writeLockKey } from './queue.js';
import { startRedis } from './redis.test-util.js';

let server: ChildProcess | undefined;
let client: Redis;
const QUEUE = 'gate-test';

before(async () => {
  const started = await startRedis();
  server = started.server;
  client = new Redis(started.url, { maxRetriesPerRequest: null });
});

after(() => {
  client?.disconnect();
  server?.kill('SIGKILL');
});

test('a write happens only while its version is the latest enqueued; none known refuses', async () => {
  let writes = 0;
  const write = async (): Promise<void> => void writes++;
  // Before: a missing record (Redis restarted empty) let any version write.
  assert.equal(await latestOnly(client, QUEUE, 'ed01', 1)(write), false, 'no version known: refused');
  await client.hset(latestKey(QUEUE), 'ed01', '2');
  assert.equal(await latestOnly(client, QUEUE, 'ed01', 1)(write), false, 'a later version enqueued: refused');
  assert.equal(writes, 0, 'the refused writes did not run');
  assert.equal(await latestOnly(client, QUEUE, 'ed01', 2)(write), true, 'the latest: written');
  assert.equal(writes, 1);
  assert.equal(await client.exists(writeLockKey(QUEUE, 'ed01')), 0, 'the lock is released');
});

test('writes of one edition take turns; of two editions, they overlap', async () => {
  await client.hset(latestKey(QUEUE), 'ed02', '3', 'ed03', '4');
  const spans: Array<{ name: string; start: number; end: number }> = [];
  const slowWrite = (name: string) => async (): Promise<void> => {
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 150));
    spans.push({ name, start, end: performance.now() });
  };
  const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }): boolean => a.start < b.end && b.start < a.end;
  // Two workers at the same version of ed02 (a job taken again after a stall), and one at ed03.
  await Promise.all([latestOnly(client, QUEUE, 'ed02', 3)(slowWrite('ed02')), latestOnly(client, QUEUE, 'ed02', 3)(slowWrite('ed02')), latestOnly(client, QUEUE, 'ed03', 4)(slowWrite('ed03'))]);
  const same = spans.filter((s) => s.name === 'ed02');
  const other = spans.find((s) => s.name === 'ed03')!;
  assert.equal(same.length, 2);
  assert.ok(!overlaps(same[0]!, same[1]!), `ed02's writes one after the other: ${JSON.stringify(same)}`);
  // The control: the measure sees an overlap where there is no lock to prevent one.
  assert.ok(same.some((s) => overlaps(s, other)), `ed03's write alongside one of ed02's: ${JSON.stringify(spans)}`);
});

test('a lock its holder never released (a worker killed while writing) is taken once it expires', async () => {
  await client.hset(latestKey(QUEUE), 'ed04', '5');
  await client.set(writeLockKey(QUEUE, 'ed04'), 'a dead worker', 'PX', 400);
  const start = performance.now();
  assert.equal(await latestOnly(client, QUEUE, 'ed04', 5)(async () => undefined), true);
  assert.ok(performance.now() - start >= 300, 'it waited for the expiry');
});

test('a holder whose lock expired while it wrote does not release the lock another has taken since', async () => {
  await client.hset(latestKey(QUEUE), 'ed05', '6');
  const key = writeLockKey(QUEUE, 'ed05');
  // During the write, the lock expires and another worker takes it.
  await latestOnly(client, QUEUE, 'ed05', 6)(async () => {
    await client.set(key, 'another worker', 'PX', 10_000);
  });
  assert.equal(await client.get(key), 'another worker', 'the other holder keeps its lock');
});
