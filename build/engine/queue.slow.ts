/**
 * A collection of a dozen small editions (one broken), built for real:
 * one at a time, with `build DIR --jobs 2`, in three shards, and through the
 * queue (a redis-server of the test's own on a loopback port, three worker
 * processes, one SIGKILLed while it builds). Every way gives the same bytes;
 * through the queue every edition is built once (the killed worker's job is
 * taken again by another), the broken edition fails with its file:line:col
 * message, no temp file of a live worker is left, after one edition is
 * corrected `queue add` enqueues that one alone, and after the correction is
 * reverted, that one again.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { BROKEN_LINE, smallCollection } from './collection.test-util.js';
import { REPO } from './samples.js';
import { until as waitUntil } from './until.test-util.js';

const CLI = path.join(REPO, 'bin', 'diaoban.js');
const COUNT = 12;
const BROKEN = 'ed07';
let root: string;
let coll: string;
let redis: ChildProcess | undefined;
let url: string;
const workers: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

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

function startWorker(out: string, cache: string, drain = false): { child: ChildProcess; log: () => string } {
  const child = spawn(process.execPath, [CLI, 'worker', '--redis', url, '--out', out, '--cache', cache, ...(drain ? ['--drain'] : [])], { cwd: root, env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
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
  const port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  await until('redis-server', async () => {
    try {
      if (probe.status !== 'ready') await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      probe.disconnect();
      return false;
    }
  }, 30_000);
  probe.disconnect();
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
    const builtLines = started.slice(1).flatMap((w) => [...w.log().matchAll(/^(ed\d\d): built \(/gm)].map((m) => m[1]!));
    assert.deepEqual(builtLines.sort(), completed.map((j) => j.name).sort(), 'each completed edition built exactly once');
    assert.ok(builtLines.includes(killedEdition) || killedEdition === BROKEN, `${killedEdition}, whose worker was killed, was built by another`);
    assert.deepEqual(await outputs(qout), reference, 'the queue makes the same bytes');
    // No temp file of a living worker; at most the killed one's (hidden, removed by the next build there).
    const temps = (await readdir(qout)).filter((n) => n.endsWith('.tmp'));
    assert.ok(temps.every((n) => n.includes(`.${victim.child.pid}_`)), `left: ${temps.join(', ')}`);
    const qcatalogue = JSON.parse(await readFile(path.join(qout, 'catalogue.json'), 'utf8')) as { editions: unknown[] };
    assert.equal(qcatalogue.editions.length, COUNT, 'the catalogue lists every edition');
    const status = cli(['queue', 'status', '--redis', url]);
    assert.match(status.stdout, new RegExp(`done ${COUNT - 1}, failed 1`));
    assert.match(status.stdout, new RegExp(`failed: ${BROKEN}[^]*edition\\.yaml:${BROKEN_LINE}:`));

    // One correction: `queue add` enqueues that edition alone, and a worker rebuilds it alone.
    const fixed = path.join(coll, 'ed05', 'text.txt');
    const original = await readFile(fixed, 'utf8');
    await writeFile(fixed, original.replace('禮書選', '禮書選錄'));
    const readd = cli(['queue', 'add', 'coll', '--redis', url]);
    assert.deepEqual([...readd.stdout.matchAll(/^(ed\d\d): enqueued$/gm)].map((m) => m[1]), ['ed05']);
    const before = await outputs(qout);
    await until('the correction is built', async () => ((await queue.getJobCounts('completed')).completed ?? 0) === COUNT);
    const rebuilt = started.slice(1).flatMap((w) => [...w.log().matchAll(/^(ed\d\d): built \(/gm)].map((m) => m[1]!));
    assert.equal(rebuilt.filter((n) => n === 'ed05').length, 2, 'ed05 built again');
    assert.equal(rebuilt.length, builtLines.length + 1, 'nothing else built');
    const after = await outputs(qout);
    for (const [name, bytes] of after) {
      if (name.startsWith('ed05.')) assert.notDeepEqual(bytes, before.get(name), `${name} changed`);
      else assert.deepEqual(bytes, before.get(name), `${name} untouched`);
    }

    // The correction reverted: the edition is back at a version built before (its job completed), and that job runs again.
    await writeFile(fixed, original);
    const revert = cli(['queue', 'add', 'coll', '--redis', url]);
    assert.deepEqual([...revert.stdout.matchAll(/^(ed\d\d): enqueued$/gm)].map((m) => m[1]), ['ed05'], revert.stderr);
    await until('the revert is built', () => started.slice(1).flatMap((w) => [...w.log().matchAll(/^ed05: built \(/gm)]).length === 3);
    assert.deepEqual(await outputs(qout), reference, 'the outputs are the first version’s again');
  } finally {
    await queue.close();
    connection.disconnect();
  }
});

test('a worker waits while Redis is down and takes jobs again once it is back', { timeout: 1_200_000 }, async () => {
  const port = await freePort();
  const own = `redis://127.0.0.1:${port}`;
  const start = (): ChildProcess => spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const alive = async (): Promise<boolean> => {
    const probe = new Redis(own, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  };
  let server = start();
  await until('redis-server', alive, 30_000);
  const one = path.join(root, 'one-edition');
  await smallCollection(one, 1);
  const child = spawn(process.execPath, [CLI, 'worker', '--redis', own, '--out', path.join(root, 'reconnect'), '--cache', path.join(root, 'qcache')], { cwd: root, env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
  workers.push(child);
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  try {
    await until('the worker waits', () => /waiting for jobs/.test(log), 120_000);
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(child.exitCode, null, 'the worker outlives Redis');
    server = start();
    await until('redis-server again', alive, 30_000);
    const add = spawnSync(process.execPath, [CLI, 'queue', 'add', 'one-edition', '--redis', own], { cwd: root, env: env(), encoding: 'utf8' });
    assert.equal(add.status, 0, add.stderr);
    await until('the job built', () => /ed01: built \(/.test(log), 600_000);
  } finally {
    child.kill('SIGKILL');
    server.kill('SIGKILL');
  }
});
