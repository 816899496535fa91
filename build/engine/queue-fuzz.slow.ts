/**
 * The queue fuzzed (issue 29), two ways:
 *
 * - Job data: 1,000 jobs on a real redis-server (random values, the audit's
 *   old fields, valid forms naming hostile places, valid jobs, a few job
 *   records corrupted in Redis itself), taken by two worker processes under
 *   strace. Everything a hostile job names is in one canary folder outside
 *   the root (and links to it inside): no syscall of any worker process, or
 *   of the processes they start, names it; nothing is written outside the
 *   output folder, the caches and the temp folder; no job fails with an
 *   internal error; both workers live to drain the queue and exit 0.
 * - Replies: `queue status`, `queue add` and `worker --drain` against a
 *   server on loopback that answers with garbage, a 2 GB reply, a line of
 *   4 MB, 10^8 elements, 10^5 nested arrays, silence, a closed socket, +OK
 *   to everything, errors, random values of every type, one byte at a time
 *   — before the handshake or after a proper one. Each ends (exit 0 or 1)
 *   within a minute, says what is wrong without a stack trace or "internal
 *   error", and stays under 1 GB.
 *
 * The figures are printed as the test's diagnostics (`# …` lines).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { smallCollection } from './collection.test-util.js';
import { latestKey } from './queue.js';
import { editionField } from './queue-job.js';
import { fakeRedis, fuzzJob, random, REPLY_KINDS, touchedPaths } from './queue-fuzz.test-util.js';
import { startRedis } from './redis.test-util.js';
import { REPO } from './samples.js';

const CLI = path.join(REPO, 'bin', 'diaoban.js');
const JOBS = Number(process.env.DIAOBAN_FUZZ_JOBS ?? 1000);
const SEED = Number(process.env.DIAOBAN_FUZZ_SEED ?? 29);
let work: string;
let outside: string;
let redis: ChildProcess | undefined;
let url: string;

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'diaoban-queue-fuzz-'));
  // The canary: everything a hostile job names, outside the root.
  outside = path.join(work, `FUZZ-OUTSIDE-${SEED}`);
  await mkdir(path.join(outside, 'edition'), { recursive: true });
  await mkdir(path.join(outside, 'cache'), { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), '機密\n');
  await writeFile(path.join(outside, 'secret.ttf'), 'not a font\n');
  await writeFile(path.join(outside, 'cache', 'keep.txt'), 'keep\n');
  await writeFile(path.join(outside, 'edition', 'text.txt'), '機密之書\n');
  await writeFile(path.join(outside, 'edition', 'edition.yaml'), 'title: 外\nauthor: 某\nsources: [text.txt]\n');
  execFileSync('mkfifo', [path.join(outside, 'fifo')]);
  const root = path.join(work, 'root');
  await smallCollection(path.join(root, 'coll'), 3);
  await symlink(outside, path.join(root, 'link-out'));
  await symlink(outside, path.join(root, 'coll', 'link-out'));
  ({ url, server: redis } = await startRedis());
});

after(async () => {
  redis?.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

/** The canary folder's files and their sizes and times: unchanged means nothing wrote there. */
async function snapshot(dir: string): Promise<string> {
  const lines: string[] = [];
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const info = await stat(path.join(dir, name));
    lines.push(`${name} ${info.size} ${info.mtimeMs} ${info.isFIFO() ? 'fifo' : ''}`);
  }
  return lines.join('\n');
}

test(`${JOBS} jobs of random and hostile data: nothing outside read or written, no internal error, no dead worker`, { timeout: 3_600_000 }, async (t) => {
  const r = random(SEED);
  const editions = ['ed01', 'ed02', 'ed03'];
  const client = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue('fuzz', { connection: client });
  const kinds = { valid: 0, hostile: 0, corrupted: 0 };
  try {
    for (let i = 0; i < JOBS; i++) {
      let valid = false;
      const data = fuzzJob(r, outside, editions, (edition, version) => {
        valid = true;
        void client.hset(latestKey('fuzz'), editionField('coll', edition), String(version));
      });
      kinds[valid ? 'valid' : 'hostile']++;
      const job = await queue.add(r.pick(['x', 'ed01', '../x', '']), data, { attempts: 2, backoff: { type: 'fixed', delay: 100 }, removeOnComplete: false, removeOnFail: false });
      // A few job records corrupted in Redis itself: data that is no JSON, options that are none.
      if (r.int(50) === 0) {
        kinds.corrupted++;
        await client.hset(queue.toKey(job.id!), r.pick(['data', 'opts']), r.pick(['{not json', '[]', 'null', '"x"', '{"attempts":"many"}']));
      }
    }
  } finally {
    await queue.close();
  }
  const before = await snapshot(outside);
  const out = path.join(work, 'out');
  const cache = path.join(work, 'cache');
  const root = path.join(work, 'root');
  const workers = [0, 1].map((i) => {
    const log = path.join(work, `strace-${i}.log`);
    const child = spawn('strace', ['-f', '-y', '-qq', '-s', '4096', '-e', 'trace=%file', '-o', log, process.execPath, CLI, 'worker', '--redis', url, '--queue', 'fuzz', '--root', root, '--out', out, '--cache', cache, '--drain', '--lock-ms', '20000'], {
      cwd: work,
      env: { ...process.env, SOURCE_DATE_EPOCH: '1767225600' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    return { log, exit, stderr: () => stderr };
  });
  const exits = await Promise.all(workers.map((w) => w.exit));
  const dead = exits.filter((e) => e.code !== 0 || e.signal !== null).length;

  const counts = new Queue('fuzz', { connection: client });
  const failed = await counts.getFailed(0, -1);
  const completed = await counts.getCompleted(0, -1);
  const left = await counts.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
  await counts.close();
  client.disconnect();
  const stderr = workers.map((w) => w.stderr()).join('\n');
  const internal = [...failed.map((j) => j.failedReason ?? ''), stderr].filter((text) => /internal error|bug in diaoban|Please report|\n\s+at /.test(text));

  const allowedWrites = [out, cache, tmpdir(), '/dev/', '/proc/', '/sys/', path.join(REPO, '.cache')];
  let syscalls = 0;
  const outsideTouched: string[] = [];
  const writesElsewhere: string[] = [];
  for (const w of workers) {
    for (const touched of touchedPaths(await readFile(w.log, 'utf8'), work)) {
      syscalls++;
      for (const p of touched.paths) {
        if (p.includes(`FUZZ-OUTSIDE-${SEED}`)) outsideTouched.push(`${touched.syscall} ${p}`);
        else if (touched.writes && !allowedWrites.some((a) => path.resolve(p).startsWith(a))) writesElsewhere.push(`${touched.syscall} ${p}`);
      }
    }
  }
  const after = await snapshot(outside);
  t.diagnostic(
    `fuzz (seed ${SEED}): ${JOBS} jobs (${kinds.valid} valid in form for the collection, ${kinds.hostile} random or hostile, ${kinds.corrupted} records corrupted in Redis); ` +
      `${completed.length} completed (${completed.filter((j) => (j.returnvalue as { status?: string } | null)?.status === 'superseded').length} superseded), ${failed.length} failed with a message, ` +
      `${left.waiting + left.active + left.delayed + left.prioritized} left; ${internal.length} internal errors; ${outsideTouched.length} syscalls naming the canary outside, ` +
      `${writesElsewhere.length} writes outside the output, caches and temp folders (${syscalls} file syscalls read); ${dead} dead workers`,
  );
  assert.equal(dead, 0, `workers: ${JSON.stringify(exits)}\n${stderr.slice(-3000)}`);
  assert.deepEqual(internal.slice(0, 3), [], 'no internal error');
  assert.deepEqual(outsideTouched.slice(0, 10), [], 'nothing outside read');
  assert.deepEqual(writesElsewhere.slice(0, 10), [], 'nothing written elsewhere');
  assert.equal(after, before, 'the canary folder unchanged');
  assert.equal(left.waiting + left.active + left.delayed + left.prioritized, 0, 'the queue drained');
  assert.ok(completed.length > 0, 'the valid jobs were built');
});

test('replies of a server that is no Redis: each command ends with a message, exit 0 or 1, under 1 GB', { timeout: 3_600_000 }, async (t) => {
  const runs: Array<{ what: string; code: number | null; seconds: number; peakMb: number; said: string }> = [];
  const commands: Array<[string, (url: string) => string[]]> = [
    ['status', (u) => ['queue', 'status', '--redis', u]],
    ['add', (u) => ['queue', 'add', path.join(work, 'root', 'coll'), '--redis', u]],
    ['worker', (u) => ['worker', '--redis', u, '--root', path.join(work, 'root'), '--out', path.join(work, 'reply-out'), '--drain', '--wait-redis', '5']],
  ];
  const cases: Array<{ kind: (typeof REPLY_KINDS)[number]; handshake: boolean; name: string; args: (url: string) => string[]; seed: number }> = [];
  let seed = SEED;
  for (const kind of REPLY_KINDS) for (const handshake of [false, true]) for (const [name, args] of commands) cases.push({ kind, handshake, name, args, seed: seed++ });
  // Three at a time: most of a run is waiting for a timeout.
  const one = async ({ kind, handshake, name, args, seed }: (typeof cases)[number]): Promise<void> => {
    const server = await fakeRedis(kind, handshake, seed);
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args(server.url)], { cwd: work, env: { ...process.env, DIAOBAN_REDIS_TIMEOUT_MS: '3000' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    child.stdout!.on('data', (d: Buffer) => (said += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (said += d.toString()));
    let peak = 0;
    const poll = setInterval(() => {
      void readFile(`/proc/${child.pid}/status`, 'utf8')
        .then((s) => (peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0))))
        .catch(() => undefined);
    }, 50);
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    clearTimeout(killer);
    clearInterval(poll);
    await server.close();
    runs.push({ what: `${kind}${handshake ? ' after a handshake' : ''}: ${name}`, code, seconds: (Date.now() - started) / 1000, peakMb: peak / 1024, said: said.slice(-600) });
  };
  const queue = [...cases];
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) await one(c);
    }),
  );
  const bad = runs.filter((r) => (r.code !== 0 && r.code !== 1) || /internal error|bug in diaoban|Please report|\n\s+at /.test(r.said) || r.peakMb > 1024 || r.seconds > 60);
  t.diagnostic(`replies: ${runs.length} runs (${REPLY_KINDS.length} kinds × before/after a handshake × status, add, worker): exit 0 ${runs.filter((r) => r.code === 0).length}, exit 1 ${runs.filter((r) => r.code === 1).length}, other ${runs.filter((r) => r.code !== 0 && r.code !== 1).length}; longest ${Math.max(...runs.map((r) => r.seconds)).toFixed(1)} s; peak memory ${Math.max(...runs.map((r) => r.peakMb)).toFixed(0)} MB; ${bad.length} bad`);
  for (const r of runs) t.diagnostic(`  ${r.what}: exit ${r.code}, ${r.seconds.toFixed(1)} s, ${r.peakMb.toFixed(0)} MB: ${r.said.trim().split('\n').pop()?.slice(0, 160)}`);
  assert.deepEqual(bad.map((r) => `${r.what}: exit ${r.code}, ${r.seconds} s, ${r.peakMb} MB\n${r.said}`), []);
});
