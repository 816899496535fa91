/**
 * A queue job is input (issue 29): the audit's jobs, added to a real
 * redis-server on loopback by hand as anyone who can write to it could, are
 * each failed with a message, nothing outside the worker's folders is read
 * or written, and the worker lives on to build the next, proper job with
 * the settings of its own flags. Reproductions:
 * - `options.allowRead: ["/"]`: a file outside the edition was published in the EPUB;
 * - `options.cacheDir` (a worker without --cache): the cache written into any folder, its pruning deleting that folder's files;
 * - `shared.template: ../../../dir`: template.json, page.html and CSS loaded from outside;
 * - a job naming a collection or edition outside the worker's --root (.., an absolute path, a link).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { smallCollection } from './collection.test-util.js';
import { loadTemplate } from './pdf.js';
import { enqueueCollection, QueueRefusal, queueStatus, runWorker } from './queue.js';
import { readCollection } from './collection.js';
import { startRedis } from './redis.test-util.js';
import { until } from './until.test-util.js';

const SECRET = '此乃機密之文不可外洩';
let root: string;
let redis: ChildProcess | undefined;
let url: string;
let client: Redis;

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-queue-jobs-'));
  await smallCollection(path.join(root, 'storage', 'coll'), 1);
  // An edition that names a file outside itself: only an --allow-read of the worker's may let it be read.
  const evil = path.join(root, 'storage', 'coll', 'evil');
  await mkdir(evil, { recursive: true });
  await writeFile(path.join(root, 'secret.txt'), `${SECRET}\n`);
  await writeFile(path.join(evil, 'edition.yaml'), `title: 外\nauthor: 某\nsources:\n  - ${path.join(root, 'secret.txt')}\n`);
  // A folder the audit's cacheDir pointed at, with files pruning would delete.
  await mkdir(path.join(root, 'victim'), { recursive: true });
  for (const f of ['a.txt', 'b.txt']) await writeFile(path.join(root, 'victim', f), 'keep me\n');
  // An outside "template" that would print on every page.
  await mkdir(path.join(root, 'evil-template', 'templates', 'x'), { recursive: true });
  ({ url, server: redis } = await startRedis());
  client = new Redis(url, { maxRetriesPerRequest: null });
});

after(async () => {
  client?.disconnect();
  redis?.kill('SIGKILL');
  await rm(root, { recursive: true, force: true });
});

/** Every file under `dir` (relative names). */
async function files(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else found.push(path.relative(dir, p));
    }
  };
  await walk(dir);
  return found.sort();
}

/** The text of every output under `dir`, EPUBs unzipped. */
async function outputText(dir: string): Promise<string> {
  let text = '';
  for (const f of await files(dir)) {
    const bytes = await readFile(path.join(dir, f));
    if (f.endsWith('.epub')) {
      const zip = await JSZip.loadAsync(bytes);
      for (const entry of Object.values(zip.files)) if (!entry.dir) text += await entry.async('string');
    } else text += bytes.toString('utf8');
  }
  return text;
}

/** A worker of this process on `queue` until the queue is empty: what it said. */
async function drain(queue: string, out: string, extra: { allowRead?: string[]; lockMs?: number } = {}): Promise<string> {
  const lines: string[] = [];
  const worker = await runWorker({ url, queue, root: path.join(root, 'storage'), out, drain: true, waitRedisMs: 60_000, log: (l) => lines.push(l), ...extra });
  const result = (await worker.done) as { gaveUp?: string } | undefined;
  assert.equal(result?.gaveUp, undefined, lines.join('\n'));
  return lines.join('\n');
}

async function addRaw(queue: string, jobs: Array<{ name: string; data: unknown }>): Promise<void> {
  const q = new Queue(queue, { connection: client });
  for (const j of jobs) await q.add(j.name, j.data, { attempts: 1, removeOnComplete: false, removeOnFail: false });
  await q.close();
}

async function states(queue: string): Promise<{ failed: string[]; completed: number }> {
  const q = new Queue(queue, { connection: client });
  try {
    return { failed: (await q.getFailed()).map((j) => j.failedReason), completed: (await q.getCompleted()).length };
  } finally {
    await q.close();
  }
}

test("the audit's jobs (allowRead, cacheDir, template in the job) fail with a message; nothing is read or written outside; the worker lives", { timeout: 300_000 }, async () => {
  const queue = 'audit';
  const coll = path.join(root, 'storage', 'coll');
  const jobOf = (options: Record<string, unknown>) => ({ edition: { dir: path.join(coll, 'evil'), name: 'evil' }, digest: 'a'.repeat(64), options: { targets: { pdf: false, epub: true }, ...options } });
  await addRaw(queue, [
    { name: 'evil', data: jobOf({ allowRead: ['/'] }) },
    { name: 'evil', data: { ...jobOf({ cacheDir: path.join(root, 'victim') }), edition: { dir: path.join(coll, 'ed01'), name: 'ed01' } } },
    { name: 'evil', data: { ...jobOf({ shared: { template: path.relative(path.join(process.cwd(), 'templates'), path.join(root, 'evil-template', 'templates', 'x')) } }), edition: { dir: path.join(coll, 'ed01'), name: 'ed01' } } },
  ]);
  // Then a proper job, after them: the same worker builds it.
  const collection = await readCollection(coll);
  await enqueueCollection(collection, collection.editions.filter((e) => e.name === 'ed01'), { targets: { pdf: false, epub: true } }, { url, queue }, 'coll');
  const out = path.join(root, 'out-audit');
  const log = await drain(queue, out);
  const { failed, completed } = await states(queue);
  assert.equal(completed, 1, `only the proper job is built:\n${log}`);
  assert.match(log, /coll\/ed01: built/);
  assert.equal(failed.length, 3);
  for (const reason of failed) assert.match(reason, /not a job diaoban can build \(unknown field "options" \(a job of an older diaoban/);
  // The worker is done once its outputs are: no catalogue still being written (a temp file read away under the test once).
  assert.deepEqual((await files(out)).filter((f) => f.endsWith('.tmp')), [], 'no write in progress after the worker is done');
  assert.doesNotMatch(await outputText(out), new RegExp(SECRET), 'the file outside is in no output');
  assert.deepEqual(await files(path.join(root, 'victim')), ['a.txt', 'b.txt'], 'nothing written into, nor pruned from, the cacheDir the job named');
});

test('a job naming a place outside the root, or no edition of its collection, fails with what is wrong', { timeout: 120_000 }, async () => {
  const queue = 'places';
  await symlink(root, path.join(root, 'storage', 'escape'));
  const job = (collection: unknown, edition: unknown) => ({ collection, edition, digest: 'b'.repeat(64), version: 1, targets: { pdf: false, epub: true } });
  await client.hset('diaoban:places:latest', JSON.stringify(['escape', 'storage/coll/ed01']), '1', JSON.stringify(['coll', 'nosuch']), '1');
  await addRaw(queue, [
    { name: 'up', data: job('..', 'coll/ed01') },
    { name: 'abs', data: job('coll', path.join(root, 'storage', 'coll', 'ed01')) },
    { name: 'dots', data: job('coll', 'ed01/../evil') },
    { name: 'link', data: job('escape', 'storage/coll/ed01') },
    { name: 'none', data: job('coll', 'nosuch') },
    { name: 'types', data: { ...job('coll', 'ed01'), version: '1', targets: { pdf: 'yes' }, extra: 1 } },
    { name: 'null', data: null },
  ]);
  const out = path.join(root, 'out-places');
  await drain(queue, out);
  const { failed, completed } = await states(queue);
  assert.equal(completed, 0);
  const all = failed.join('\n');
  assert.match(all, /collection has "\.\." as a part/);
  assert.match(all, /edition is an absolute path; it must be relative/);
  assert.match(all, /edition has "\.\." as a part/);
  assert.match(all, /the collection escape leads outside this worker's --root/);
  assert.match(all, /nosuch is not an edition of the collection coll/);
  assert.match(all, /unknown field "extra"[^]*version is the string "1", not a whole number[^]*targets is a mapping, not \{ pdf/);
  assert.match(all, /the job's data is (null|a mapping)/);
  assert.deepEqual(await files(out), [], 'nothing written');
});

test('job records corrupted in Redis itself (data or options no JSON, options no mapping): each fails with what was wrong; the draining worker ends', { timeout: 180_000 }, async () => {
  const queue = 'corrupt';
  const q = new Queue(queue, { connection: client });
  const corrupt: Array<['data' | 'opts', string]> = [
    ['data', '{not json'],
    ['opts', '{not json'],
    ['opts', 'null'],
    ['opts', '[]'],
  ];
  for (const [field, value] of corrupt) {
    const job = await q.add('x', { collection: 'coll', edition: 'ed01' }, { attempts: 2, removeOnComplete: false, removeOnFail: false });
    await client.hset(q.toKey(job.id!), field, value);
  }
  await q.close();
  // Before the mending, such a job cycled between active and waiting for ever and the worker never ended (the 1,000-job fuzz hung an hour).
  const log = await drain(queue, path.join(root, 'out-corrupt'), { lockMs: 2000 });
  const { failed, completed } = await states(queue);
  assert.equal(completed, 0);
  assert.equal(failed.length, corrupt.length, log);
  const all = failed.join('\n');
  assert.match(all, /job \d+: its record was corrupted in Redis \(its data is not JSON \("\{not json"\)\); nothing was read or written/);
  assert.equal(failed.filter((r) => /its options are not a JSON mapping/.test(r)).length, 2, all);
  // Options [] BullMQ can read: that job reaches the processor as it is, and fails for its data.
  assert.ok(failed.every((r) => /nothing was read or written/.test(r)), all);
  assert.match(log, /the record was mended so that the job fails with this message/);
});

test('a job queue add made builds, reading what the worker allows (its --allow-read), not the job', { timeout: 300_000 }, async () => {
  const queue = 'proper';
  const collection = await readCollection(path.join(root, 'storage', 'coll'));
  const { added } = await enqueueCollection(collection, collection.editions, { targets: { pdf: false, epub: true } }, { url, queue }, 'coll');
  assert.deepEqual(added, ['coll/ed01', 'coll/evil']);
  const out = path.join(root, 'out-proper');
  const log = await drain(queue, out, { allowRead: [root] });
  assert.match(log, /coll\/ed01: built/);
  assert.match(log, /coll\/evil: built/, 'the worker let it read its file (its own --allow-read)');
  assert.match(await outputText(path.join(out, 'coll')), new RegExp(SECRET));
  assert.ok((await files(out)).includes(path.join('coll', 'ed01.epub')), 'outputs under the collection’s path');
  // Without the worker's --allow-read, the same edition cannot read it.
  const { added: again } = await enqueueCollection(collection, collection.editions, { targets: { pdf: false, epub: true } }, { url, queue: 'proper-2' }, 'coll');
  assert.equal(again.length, 2);
  const out2 = path.join(root, 'out-proper-2');
  await drain('proper-2', out2);
  assert.doesNotMatch(await outputText(out2), new RegExp(SECRET));
});

test('a template named by a path is not read: only a folder of templates/ is a template', async () => {
  const outside = path.join(root, 'evil-template');
  await writeFile(path.join(outside, 'templates', 'x', 'template.json'), await readFile(path.join(process.cwd(), 'templates', 'siku', 'template.json')));
  await writeFile(path.join(outside, 'templates', 'x', 'page.html'), '<div>OUTSIDE-TEMPLATE</div>');
  await mkdir(path.join(outside, 'styles'), { recursive: true });
  await writeFile(path.join(outside, 'styles', 'base.css'), '');
  const name = path.relative(path.join(process.cwd(), 'templates'), path.join(outside, 'templates', 'x'));
  const template = await loadTemplate(name);
  assert.doesNotMatch(template.pageHtml, /OUTSIDE-TEMPLATE/);
  // Control: the same files as a template of the checkout's root are read.
  assert.match((await loadTemplate('x', outside)).pageHtml, /OUTSIDE-TEMPLATE/);
});

test('two collections in one queue, each with an ed01: both built, apart; status per collection; a second collection of one name refused', { timeout: 300_000 }, async () => {
  // Reproduction: two `queue add` of collections each with an `e1` marked the first superseded and never built, and status said done 2, failed 0.
  const queue = 'two-collections';
  const storage = path.join(root, 'storage');
  await smallCollection(path.join(storage, 'a'), 1);
  await smallCollection(path.join(storage, 'b'), 1);
  await writeFile(path.join(storage, 'b', 'ed01', 'text.txt'), '乙書之文\n\n乙書之文不同於甲\n');
  for (const name of ['a', 'b']) {
    const c = await readCollection(path.join(storage, name));
    const { added } = await enqueueCollection(c, c.editions, { targets: { pdf: false, epub: true } }, { url, queue }, name);
    assert.deepEqual(added, [`${name}/ed01`]);
  }
  const out = path.join(root, 'out-two');
  const log = await drain(queue, out);
  assert.match(log, /^a\/ed01: built/m);
  assert.match(log, /^b\/ed01: built/m);
  assert.notDeepEqual(await readFile(path.join(out, 'a', 'ed01.epub')), await readFile(path.join(out, 'b', 'ed01.epub')), 'each collection its own book');
  const status = await queueStatus({ url, queue });
  assert.deepEqual(status.collections.map((c) => [c.collection, c.counts.completed, c.counts.superseded, c.counts.failed]), [['a', 1, 0, 0], ['b', 1, 0, 0]]);
  // Another folder named a, elsewhere, in the same queue: refused, naming both places.
  const other = path.join(root, 'elsewhere', 'a');
  await smallCollection(other, 1);
  const c = await readCollection(other);
  await assert.rejects(enqueueCollection(c, c.editions, { targets: { pdf: false, epub: true } }, { url, queue }, 'a'), (e: Error) => e instanceof QueueRefusal && e.message.includes(path.join(storage, 'a')) && e.message.includes(other));
});

test('queue status: stalled, superseded and failed jobs by collection; jobs that are no jobs apart', { timeout: 300_000 }, async () => {
  const queue = 'status';
  const storage = path.join(root, 'storage');
  await smallCollection(path.join(storage, 'st'), 2, 'ed02');
  const add = async (): Promise<void> => {
    const c = await readCollection(path.join(storage, 'st'));
    await enqueueCollection(c, c.editions, { targets: { pdf: false, epub: true } }, { url, queue }, 'st');
  };
  await add();
  // A correction enqueued before any worker ran: the first version's job is superseded.
  const source = path.join(storage, 'st', 'ed01', 'text.txt');
  await writeFile(source, (await readFile(source, 'utf8')).replace('禮書選', '禮書選錄'));
  await add();
  await addRaw(queue, [{ name: 'x', data: { edition: 'nope' } }]);
  await drain(queue, path.join(root, 'out-status'));
  // A job taken by a worker that then stopped answering: active, its lock expired.
  await writeFile(source, (await readFile(source, 'utf8')).replace('禮書選錄', '禮書選記'));
  await add();
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const dead = new Worker(queue, () => new Promise(() => undefined), { connection, lockDuration: 1000, skipStalledCheck: true });
  dead.on('error', () => undefined);
  await until('the job taken', async () => (await new Queue(queue, { connection: client }).getActiveCount()) === 1, { ms: 30_000 });
  await dead.close(true);
  connection.disconnect();
  await new Promise((r) => setTimeout(r, 1500));
  const status = await queueStatus({ url, queue });
  assert.equal(status.collections.length, 1);
  const st = status.collections[0]!;
  assert.equal(st.collection, 'st');
  assert.deepEqual(st.counts, { waiting: 0, active: 1, stalled: 1, delayed: 0, completed: 1, superseded: 1, failed: 1 });
  assert.deepEqual(st.stalled.map((j) => j.name), ['ed01']);
  assert.deepEqual(st.superseded.map((j) => j.name), ['ed01']);
  assert.match(st.failed[0]!.reason, /st\/ed02: 1 error in the manuscript[^]*template is not one of the choices/);
  assert.equal(status.invalid.length, 1, 'the job that is no job, apart');
  assert.match(status.invalid[0]!.problem, /no collection/);
});
