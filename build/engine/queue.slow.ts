/**
 * A collection of a dozen small editions (one broken), built for real:
 * one at a time, with `build DIR --jobs 2`, in three shards, and through the
 * queue (a redis-server of the test's own on a loopback port, three worker
 * processes, one SIGKILLed while it builds). Every way gives the same bytes;
 * through the queue every edition is built once (the killed worker's job is
 * taken again by another), the broken edition fails with its file:line:col
 * message, no temp file of a live worker is left, after one edition is
 * corrected `queue add` enqueues that one alone, and after the correction is
 * reverted, that one again. A worker stalled (SIGSTOP) with an older version's
 * PDF made, before it is written, writes nothing once resumed if a newer
 * version was enqueued and built meanwhile.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BROKEN_LINE, smallCollection } from './collection.test-util.js';
import { REPO } from './samples.js';
import { startRedis } from './redis.test-util.js';
import { until as waitUntil } from './until.test-util.js';

const CLI = path.join(REPO, 'bin', 'diaoban.js');
const COUNT = 12;
const BROKEN = 'ed07';
let root: string;
let coll: string;
let redis: ChildProcess | undefined;
let url: string;
const workers: ChildProcess[] = [];

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, SOURCE_DATE_EPOCH: '1767225600', DIAOBAN_FONT_CACHE: path.join(root, 'fonts'), ...extra };
}

function cli(args: string[], extra: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, env: env(extra), encoding: 'utf8', timeout: 1_200_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The outputs of a folder: name → bytes (the catalogue's own files apart). */
async function outputs(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const name of (await readdir(dir)).sort()) if (/\.(pdf|epub)$/.test(name) && !name.startsWith('.')) files.set(name, await readFile(path.join(dir, name)));
  return files;
}

/** A worker process on the test's Redis; `queue`: another queue than the default; `extra`: its environment's additions. */
function startWorker(out: string, cache: string, { queue, extra }: { queue?: string; extra?: Record<string, string> } = {}): { child: ChildProcess; log: () => string } {
  const args = ['worker', '--redis', url, '--root', root, ...(queue ? ['--queue', queue] : []), '--out', out, '--cache', cache];
  const child = spawn(process.execPath, [CLI, ...args], { cwd: root, env: env(extra), stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  workers.push(child);
  return { child, log: () => text };
}

/** Workers and Redis are looked at four times a second; a whole collection may take 15 minutes. */
const until = (what: string, check: () => Promise<boolean> | boolean, ms = 900_000): Promise<void> => waitUntil(what, check, { ms, every: 250 });

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-queue-'));
  coll = path.join(root, 'coll');
  await smallCollection(coll, COUNT, BROKEN);
  ({ url, server: redis } = await startRedis());
});

after(async () => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  redis?.kill('SIGKILL');
  await rm(root, { recursive: true, force: true });
});

test('a collection built one at a time, with --jobs 2, in shards and through the queue with a worker killed: the same bytes, each edition once', { timeout: 3_600_000 }, async () => {
  // One at a time: the reference.
  const one = cli(['build', 'coll', '--jobs', '1', '--out', 'one'], { DIAOBAN_CACHE: path.join(root, 'cache-one') });
  assert.equal(one.status, 1, `the broken edition makes the exit 1: ${one.stderr}`);
  assert.match(one.stderr, new RegExp(`coll/${BROKEN}/edition\\.yaml:${BROKEN_LINE}:\\d+ error template is not one of the choices`), 'the broken edition’s message, at its place');
  const reference = await outputs(path.join(root, 'one'));
  assert.equal(reference.size, 2 * COUNT, 'every edition has its PDF and EPUB, the broken one too');
  assert.match(one.stdout, new RegExp(`${BROKEN}\\s+.*built with errors`), 'the summary table says so');
  const catalogue = JSON.parse(await readFile(path.join(root, 'one', 'catalogue.json'), 'utf8')) as { editions: Array<{ name: string; status: string; pages: number; errors: number }> };
  assert.deepEqual(catalogue.editions.map((e) => e.name), Array.from({ length: COUNT }, (_, i) => `ed${String(i + 1).padStart(2, '0')}`));
  assert.ok(catalogue.editions.every((e) => e.pages > 0));
  assert.equal(catalogue.editions.find((e) => e.name === BROKEN)?.errors, 1);
  assert.match(await readFile(path.join(root, 'one', 'index.html'), 'utf8'), /禮書選 第7/);

  // --jobs 2 with a cache of its own: printed again, in two build processes.
  const two = cli(['build', 'coll', '--jobs', '2', '--out', 'two'], { DIAOBAN_CACHE: path.join(root, 'cache-two') });
  assert.equal(two.status, 1, two.stderr);
  assert.deepEqual(await outputs(path.join(root, 'two')), reference, '--jobs 2 makes the same bytes');
  // A second build rebuilds nothing: every edition's digest is as it was.
  const again = cli(['build', 'coll', '--jobs', '2', '--out', 'two'], { DIAOBAN_CACHE: path.join(root, 'cache-two') });
  assert.equal((again.stdout.match(/\(up to date\)/g) ?? []).length, COUNT, again.stdout);

  // Three shards: disjoint, their union the whole, the same bytes.
  const seen: string[] = [];
  for (const k of [1, 2, 3]) {
    const shard = cli(['build', 'coll', '--shard', `${k}/3`, '--out', 'shards'], { DIAOBAN_CACHE: path.join(root, 'cache-one') });
    assert.equal(shard.status === 0 || shard.status === 1, true, shard.stderr);
    seen.push(...[...shard.stdout.matchAll(/^(ed\d\d)\s/gm)].map((m) => m[1]!));
  }
  assert.deepEqual([...seen].sort(), [...reference.keys()].filter((n) => n.endsWith('.pdf')).map((n) => n.replace('.pdf', '')), 'each edition in exactly one shard');
  assert.deepEqual(await outputs(path.join(root, 'shards')), reference, 'the shards make the same bytes');

  // The queue: three workers with a cache of their own (the fonts already converted, to spare the machine).
  await cp(path.join(root, 'fonts'), path.join(root, 'qcache', 'fonts'), { recursive: true });
  const add = cli(['queue', 'add', 'coll', '--redis', url]);
  assert.equal(add.status, 0, add.stderr);
  assert.equal((add.stdout.match(/: enqueued$/gm) ?? []).length, COUNT);
  const twice = cli(['queue', 'add', 'coll', '--redis', url]);
  assert.equal((twice.stdout.match(/: enqueued$/gm) ?? []).length, 0, 'enqueued twice is one job each');

  const qout = path.join(root, 'q');
  const started = [0, 1, 2].map(() => startWorker(qout, path.join(root, 'qcache')));
  const victim = started[0]!;
  await until('the first worker builds', () => /: building/.test(victim.log()));
  const killedEdition = /(ed\d\d): building/.exec(victim.log())![1]!;
  victim.child.kill('SIGKILL');

  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue('diaoban', { connection });
  try {
    await until('every job done or failed', async () => {
      const c = await queue.getJobCounts('completed', 'failed');
      return (c.completed ?? 0) + (c.failed ?? 0) === COUNT;
    });
    const failed = await queue.getFailed();
    assert.deepEqual(failed.map((j) => j.name), [BROKEN], 'the broken edition alone failed');
    assert.match(failed[0]!.failedReason, new RegExp(`coll/${BROKEN}/edition\\.yaml:${BROKEN_LINE}:\\d+ error template is not one of the choices`), 'its failure keeps its message, with its place');
    assert.equal(failed[0]!.attemptsMade, 1, 'a manuscript error is not retried');
    const completed = await queue.getCompleted();
    assert.equal(completed.length, COUNT - 1);
    assert.ok(completed.every((j) => (j.returnvalue as { worker: string }).worker !== String(victim.child.pid)), 'the killed worker finished nothing');
    // Each edition built once by the living workers: the killed worker's job was taken again (when its lock, 60 s, expired), none twice.
    const builtLines = started.slice(1).flatMap((w) => [...w.log().matchAll(/^coll\/(ed\d\d): built \(/gm)].map((m) => m[1]!));
    assert.deepEqual(builtLines.sort(), completed.map((j) => j.name).sort(), 'each completed edition built exactly once');
    assert.ok(builtLines.includes(killedEdition) || killedEdition === BROKEN, `${killedEdition}, whose worker was killed, was built by another`);
    assert.deepEqual(await outputs(path.join(qout, 'coll')), reference, 'the queue makes the same bytes, in the collection’s folder');
    // No temp file of a living worker; at most the killed one's (hidden, removed by the next build there).
    const temps = (await readdir(path.join(qout, 'coll'))).filter((n) => n.endsWith('.tmp'));
    assert.ok(temps.every((n) => n.includes(`.${victim.child.pid}_`)), `left: ${temps.join(', ')}`);
    const qcatalogue = JSON.parse(await readFile(path.join(qout, 'coll', 'catalogue.json'), 'utf8')) as { editions: unknown[] };
    assert.equal(qcatalogue.editions.length, COUNT, 'the catalogue lists every edition');
    const status = cli(['queue', 'status', '--redis', url]);
    assert.match(status.stdout, new RegExp(`^coll: .*done ${COUNT - 1}, superseded 0, failed 1`, 'm'));
    assert.match(status.stdout, new RegExp(`failed: ${BROKEN}[^]*edition\\.yaml:${BROKEN_LINE}:`));

    // One correction: `queue add` enqueues that edition alone, and a worker rebuilds it alone.
    const fixed = path.join(coll, 'ed05', 'text.txt');
    const original = await readFile(fixed, 'utf8');
    await writeFile(fixed, original.replace('禮書選', '禮書選錄'));
    const readd = cli(['queue', 'add', 'coll', '--redis', url]);
    assert.deepEqual([...readd.stdout.matchAll(/^coll\/(ed\d\d): enqueued$/gm)].map((m) => m[1]), ['ed05']);
    const before = await outputs(path.join(qout, 'coll'));
    await until('the correction is built', async () => ((await queue.getJobCounts('completed')).completed ?? 0) === COUNT);
    const rebuilt = started.slice(1).flatMap((w) => [...w.log().matchAll(/^coll\/(ed\d\d): built \(/gm)].map((m) => m[1]!));
    assert.equal(rebuilt.filter((n) => n === 'ed05').length, 2, 'ed05 built again');
    assert.equal(rebuilt.length, builtLines.length + 1, 'nothing else built');
    const after = await outputs(path.join(qout, 'coll'));
    for (const [name, bytes] of after) {
      if (name.startsWith('ed05.')) assert.notDeepEqual(bytes, before.get(name), `${name} changed`);
      else assert.deepEqual(bytes, before.get(name), `${name} untouched`);
    }

    // The correction reverted: the edition is back at a version built before (its job completed), and that job runs again.
    await writeFile(fixed, original);
    const revert = cli(['queue', 'add', 'coll', '--redis', url]);
    assert.deepEqual([...revert.stdout.matchAll(/^coll\/(ed\d\d): enqueued$/gm)].map((m) => m[1]), ['ed05'], revert.stderr);
    await until('the revert is built', () => started.slice(1).flatMap((w) => [...w.log().matchAll(/^coll\/ed05: built \(/gm)]).length === 3);
    assert.deepEqual(await outputs(path.join(qout, 'coll')), reference, 'the outputs are the first version’s again');
  } finally {
    await queue.close();
    connection.disconnect();
  }
});

test('an older version still building when a correction is enqueued writes nothing once the correction is there, even when it ends last', { timeout: 1_200_000 }, async () => {
  const dir = path.join(root, 'race', 'ed01');
  await smallCollection(path.join(root, 'race'), 1);
  const source = path.join(dir, 'text.txt');
  const first = await readFile(source, 'utf8');
  const cache = path.join(root, 'race-cache');
  const queueArgs = ['--redis', url, '--queue', 'race'];
  const local = cli(['build', 'race', '--out', 'race-one'], { DIAOBAN_CACHE: cache });
  assert.equal(local.status, 0, local.stderr);
  const reference = await outputs(path.join(root, 'race-one'));

  const qout = path.join(root, 'race-q');
  const state = async (pid: number): Promise<string> => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
  };
  // A second version; its worker stops (SIGSTOP) with its PDF made, before the PDF replaces the output: as a machine that stalls.
  await writeFile(source, first.replace('禮書選1', '禮書選一'));
  assert.match(cli(['queue', 'add', 'race', ...queueArgs]).stdout, /^race\/ed01: enqueued$/m);
  const older = startWorker(qout, cache, { queue: 'race', extra: { DIAOBAN_STOP_AT: 'pdf-output-temp' } });
  await until('the second version’s worker stopped before its PDF is written', async () => (await state(older.child.pid!)) === 'T', 300_000);
  // Reverted meanwhile: the first version is enqueued again, and another worker builds it.
  await writeFile(source, first);
  assert.match(cli(['queue', 'add', 'race', ...queueArgs]).stdout, /^race\/ed01: enqueued$/m);
  const newer = startWorker(qout, cache, { queue: 'race' });
  await until('the first version built', () => /^race\/ed01: (built|failed)/m.test(newer.log()), 300_000);
  assert.match(newer.log(), /^race\/ed01: built \(/m, newer.log());
  // The stalled worker goes on: its PDF, its EPUB if not written yet, and its record are refused.
  older.child.kill('SIGCONT');
  await until('the second version’s job ended', () => /^race\/ed01: (built|superseded|failed)/m.test(older.log()), 300_000);
  assert.match(older.log(), /^race\/ed01: superseded \(job ed-[0-9a-f]{12}\): a later version was enqueued/m, older.log());
  assert.deepEqual(await outputs(path.join(qout, 'race')), reference, 'the outputs are the version enqueued last');
  assert.deepEqual((await readdir(path.join(qout, 'race'))).filter((n) => n.endsWith('.tmp')), [], 'the refused outputs’ temp files removed');
  const [record] = (JSON.parse(await readFile(path.join(qout, 'race', 'catalogue.json'), 'utf8')) as { editions: Array<{ digest: string }> }).editions;
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue('race', { connection });
  try {
    const built = (await queue.getCompleted()).filter((j) => (j.returnvalue as { status: string }).status !== 'superseded');
    assert.equal(built.length, 1, 'one job built the edition');
    assert.equal(record?.digest, (built[0]?.data as { digest: string }).digest, 'the catalogue records the version enqueued last');
  } finally {
    await queue.close();
    connection.disconnect();
    older.child.kill('SIGTERM');
    newer.child.kill('SIGTERM');
  }
});

test('a worker waits while Redis is down and takes jobs again once it is back', { timeout: 1_200_000 }, async () => {
  const started = await startRedis();
  const own = started.url;
  let server = started.server;
  const one = path.join(root, 'one-edition');
  await smallCollection(one, 1);
  const child = spawn(process.execPath, [CLI, 'worker', '--redis', own, '--root', root, '--out', path.join(root, 'reconnect'), '--cache', path.join(root, 'qcache')], { cwd: root, env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
  workers.push(child);
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  try {
    await until('the worker waits', () => /waiting for jobs/.test(log), 120_000);
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(child.exitCode, null, 'the worker outlives Redis');
    ({ server } = await startRedis(started.port));
    const add = spawnSync(process.execPath, [CLI, 'queue', 'add', 'one-edition', '--redis', own], { cwd: root, env: env(), encoding: 'utf8' });
    assert.equal(add.status, 0, add.stderr);
    await until('the job built', () => /one-edition\/ed01: built \(/.test(log), 600_000);
    assert.match(log, /worker: waiting for Redis at redis:\/\/127\.0\.0\.1:\d+ \(\d+ s so far; gives up after 300 s, --wait-redis\)/, 'it says it waits, and for how long');
    assert.match(log, /worker: Redis at redis:\/\/127\.0\.0\.1:\d+ answers again/);
    // Each line a sentence: never ioredis's bare words for the broken connection (`worker: write EPIPE`).
    assert.doesNotMatch(log, /^worker: (write|read|connect) E[A-Z]+/m, log);
  } finally {
    child.kill('SIGKILL');
    server.kill('SIGKILL');
  }
});

/** The state of a process (/proc: R, S, T stopped …). */
async function procState(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
}

test('Redis restarted from a snapshot without the latest version, while an older version’s worker is stopped: nothing older is published', { timeout: 1_800_000 }, async () => {
  // Reproduction (issue 29): SIGSTOP a worker, restart Redis without the "latest" record, SIGCONT: the old job's PDF, EPUB and record replaced the newer version's.
  const dir = await mkdtemp(path.join(root, 'redis-'));
  const started = await startRedis(undefined, dir);
  let server = started.server;
  const own = started.url;
  const coll = path.join(root, 'fence');
  await smallCollection(coll, 1);
  const source = path.join(coll, 'ed01', 'text.txt');
  const first = await readFile(source, 'utf8');
  const cache = path.join(root, 'fence-cache');
  const qout = path.join(root, 'fence-q');
  const queueArgs = ['--redis', own];
  const spawnWorker = (extra: Record<string, string> = {}): { child: ChildProcess; log: () => string } => {
    const child = spawn(process.execPath, [CLI, 'worker', '--redis', own, '--root', root, '--out', qout, '--cache', cache], { cwd: root, env: env(extra), stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
    workers.push(child);
    return { child, log: () => text };
  };
  try {
    // The first version, enqueued; Redis saved as it is now (the snapshot it will come back from).
    assert.match(cli(['queue', 'add', 'fence', ...queueArgs]).stdout, /^fence\/ed01: enqueued$/m);
    const probe = new Redis(own, { maxRetriesPerRequest: 1 });
    await probe.save();
    probe.disconnect();
    // Its worker stops with the PDF made, before writing it: a machine that stalls.
    const older = spawnWorker({ DIAOBAN_STOP_AT: 'pdf-output-temp' });
    await until('the first version’s worker stopped', async () => (await procState(older.child.pid!)) === 'T', 300_000);
    // A correction, enqueued and built by another worker: the newer version is published.
    await writeFile(source, first.replace('禮書選1', '禮書選新'));
    assert.match(cli(['queue', 'add', 'fence', ...queueArgs]).stdout, /^fence\/ed01: enqueued$/m);
    const newer = spawnWorker();
    await until('the newer version built', () => /^fence\/ed01: built \(/m.test(newer.log()), 600_000);
    const published = await outputs(path.join(qout, 'fence'));
    const record = await readFile(path.join(qout, 'fence', 'catalogue', 'ed01.json'), 'utf8');
    // Redis dies and comes back from the snapshot: its latest version is the first one again, the correction's record lost.
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    ({ server } = await startRedis(started.port, dir));
    const check = new Redis(own, { maxRetriesPerRequest: 1 });
    assert.equal((await check.hlen('diaoban:diaoban:latest')), 1, 'the latest record is the first version’s');
    check.disconnect();
    const before = older.log().length;
    older.child.kill('SIGCONT');
    // Its job is no longer its own in the restored Redis (waiting there, not active under its lock): BullMQ cannot mark it done,
    // so the sign that its build went on is its refused PDF's temp file, removed.
    await until('the older version’s PDF refused', async () => !(await readdir(path.join(qout, 'fence'))).some((n) => n.endsWith('.tmp')), 600_000);
    await new Promise((r) => setTimeout(r, 5000));
    assert.doesNotMatch(older.log().slice(before), /^fence\/ed01: built/m, older.log());
    // The restored queue holds the first version's job again (waiting): whoever builds it publishes nothing. Either worker
    // may take it (the resumed one, its stalled job over, races the other), so the sign it ended is the queue's own count.
    const ended = (text: string): boolean => /^fence\/ed01: (built|superseded|failed)/m.test(text);
    await until('the restored job ended', () => {
      const status = cli(['queue', 'status', ...queueArgs]).stdout;
      return /^fence: waiting 0, active 0 /m.test(status) && (ended(newer.log().split(/^fence\/ed01: built \(/m)[1] ?? '') || ended(older.log().slice(before)));
    }, 600_000);
    assert.deepEqual(await outputs(path.join(qout, 'fence')), published, `the PDF and EPUB are the newer version’s\n${older.log()}\n${newer.log()}`);
    assert.equal(await readFile(path.join(qout, 'fence', 'catalogue', 'ed01.json'), 'utf8'), record, 'so is the catalogue’s record');
    assert.deepEqual((await readdir(path.join(qout, 'fence'))).filter((n) => n.endsWith('.tmp')), [], 'no temp file left');
    newer.child.kill('SIGTERM');
    older.child.kill('SIGTERM');
  } finally {
    server.kill('SIGKILL');
  }
});

test('a worker killed while draining: the next worker --drain takes its stalled job, and its temp file is never an output', { timeout: 1_800_000 }, async () => {
  // Reproduction (issue 29): the next `worker --drain` exited 0 without taking the stalled job; the edition missing, its job active, a .tmp left.
  const coll = path.join(root, 'drain');
  await smallCollection(coll, 1);
  const qout = path.join(root, 'drain-q');
  const cache = path.join(root, 'drain-cache');
  const args = ['worker', '--redis', url, '--queue', 'drain', '--root', root, '--out', qout, '--cache', cache, '--drain', '--lock-ms', '5000'];
  assert.match(cli(['queue', 'add', 'drain', '--redis', url, '--queue', 'drain']).stdout, /^drain\/ed01: enqueued$/m);
  const victim = spawn(process.execPath, [CLI, ...args], { cwd: root, env: env({ DIAOBAN_STOP_AT: 'pdf-output-temp' }), stdio: 'ignore' });
  workers.push(victim);
  await until('the worker stopped with its PDF in a temp file', async () => (await procState(victim.pid!)) === 'T', 300_000);
  assert.ok((await readdir(path.join(qout, 'drain'))).some((n) => n.endsWith('.tmp')), 'its temp file is there');
  victim.kill('SIGKILL');
  await new Promise((r) => victim.once('exit', r));
  const next = cli(args);
  assert.equal(next.status, 0, next.stderr);
  assert.match(next.stderr, /^drain\/ed01: built \(/m, 'the stalled job taken and built');
  const names = await readdir(path.join(qout, 'drain'));
  assert.deepEqual(names.filter((n) => /\.(pdf|epub)$/.test(n)).sort(), ['ed01.epub', 'ed01.pdf']);
  assert.deepEqual(names.filter((n) => n.endsWith('.tmp')), [], 'the killed worker’s temp file removed');
  const status = cli(['queue', 'status', '--redis', url, '--queue', 'drain']);
  assert.match(status.stdout, /^drain: waiting 0, active 0 \(stalled 0\), delayed \(to retry\) 0, done 1, superseded 0, failed 0$/m, status.stdout);
});
