/**
 * The audit's fake Redis, in short (the whole matrix of replies is
 * queue-fuzz.slow.ts): `queue status` against a server on loopback that
 * sends a 2 GB reply, or +OK to everything, ends with one line saying what
 * is wrong, exit 1, in bounded memory (it was an internal error, exit 2, and
 * 5.9 GB); a worker whose Redis answers PING but fails every command of the
 * queue, or is not there at all, says so and stops after --wait-redis (it
 * waited silently for ever).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fakeRedis, runMeasured, type ReplyKind } from './queue-fuzz.test-util.js';
import { freePort } from './redis.test-util.js';
import { REPO } from './samples.js';

const CLI = path.join(REPO, 'bin', 'diaoban.js');
let work: string;

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'diaoban-redis-replies-'));
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Runs the command line against a fake server of `kind` (after a proper handshake). */
async function against(kind: ReplyKind, args: (url: string) => string[]): ReturnType<typeof runMeasured> {
  const server = await fakeRedis(kind, true, 29);
  try {
    return await runMeasured([CLI, ...args(server.url)], { cwd: work, env: { ...process.env, DIAOBAN_REDIS_TIMEOUT_MS: '3000' }, limitMs: 60_000 });
  } finally {
    await server.close();
  }
}

const worker = (url: string): string[] => ['worker', '--redis', url, '--root', work, '--out', path.join(work, 'out'), '--drain', '--wait-redis', '3'];
const lastLine = (said: string): string => said.trim().split('\n').pop() ?? '';

test('queue status against a 2 GB reply, and against +OK to everything: one line, exit 1, under 512 MB', { timeout: 120_000 }, async () => {
  const [huge, ok] = await Promise.all([against('huge-bulk', (u) => ['queue', 'status', '--redis', u]), against('ok-to-all', (u) => ['queue', 'status', '--redis', u])]);
  for (const [run, reason] of [
    [huge, /sent a reply of 2000000000 bytes; more than 64 MiB/],
    [ok, /answered in a way the queue cannot use/],
  ] as const) {
    assert.equal(run.code, 1, run.said);
    assert.match(lastLine(run.said), new RegExp(`^diaoban: Redis at redis://127\\.0\\.0\\.1:\\d+ ${reason.source}`));
    assert.doesNotMatch(run.said, /internal error|\n\s+at /);
    assert.ok(run.peakMb < 512, `${run.peakMb.toFixed(0)} MB`);
  }
});

test('a worker whose Redis answers PING but fails every command, or is not there: says so, stops after --wait-redis', { timeout: 120_000 }, async () => {
  const port = await freePort();
  // A server that takes the connection and closes it at once: nothing a client can talk to.
  const closer = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => closer.listen(port, '127.0.0.1', resolve));
  try {
    const [errors, nothing] = await Promise.all([against('errors', worker), runMeasured([CLI, ...worker(`redis://127.0.0.1:${port}`)], { cwd: work, env: process.env, limitMs: 60_000 })]);
    assert.equal(errors.code, 1, errors.said);
    assert.match(lastLine(errors.said), /^diaoban: Redis at redis:\/\/127\.0\.0\.1:\d+ has not answered the queue's commands for \d+ s \(ERR [^)]*\); the worker stops \(--wait-redis 3\)/);
    assert.equal(nothing.code, 1, nothing.said);
    assert.match(nothing.said, /worker: waiting for Redis at redis:\/\/127\.0\.0\.1:\d+ \(\d+ s so far; gives up after 3 s, --wait-redis\)/);
    assert.match(lastLine(nothing.said), /has not answered the queue's commands for \d+ s .*the worker stops \(--wait-redis 3\)/);
    for (const run of [errors, nothing]) {
      assert.doesNotMatch(run.said, /internal error|\n\s+at /);
      assert.ok(run.seconds < 40, `${run.seconds} s`);
    }
  } finally {
    await new Promise<void>((resolve) => closer.close(() => resolve()));
  }
});
