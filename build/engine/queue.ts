/**
 * A collection built by any number of machines through BullMQ on Redis,
 * whose data is not trusted (whoever can write to that Redis can write a
 * job, and what answers at its address may not be Redis at all).
 *
 * `enqueueCollection` adds one job per edition, its id made of the
 * collection, the edition's path in it and its input digest: BullMQ keeps
 * one job per id, so an edition enqueued twice, or again after it was built
 * (completed jobs are kept), is one job, and a corrected edition (a new
 * digest) is a new one. Each enqueue gets a version from Redis's clock,
 * larger than any before it; each edition's latest version is kept beside
 * the queue (`latestKey`). A job names its collection by a path inside the
 * worker's `--root` and its edition by a path inside the collection
 * (queue-job.ts checks every field); the worker reads the collection and
 * its collection.yaml itself, from its own storage, and takes what the
 * build may read, its caches and its output folder from its own flags.
 *
 * Every write of a job's outputs goes through `latestOnly`: under the
 * edition's write lock in Redis, only if the job's version is the latest
 * recorded there (none recorded refuses), and renamed into place only if it
 * is not older than what the output folder has published (published.ts: the
 * fencing token compared where the file is written, in the same
 * synchronous step as the rename). What BullMQ gives is used as it is: the
 * job's lock, stalled-job recovery, retries with backoff (a machine fault),
 * UnrecoverableError for what retrying cannot mend (a manuscript error, a
 * job that is no job). Redis's replies are bounded (redis-link.ts).
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { findChromium, launchBrowser } from './browser.js';
import { editionDigest, restoreMessage } from './build.js';
import { removeStale } from './cleanup.js';
import { buildCollectionEdition, type CollectionBuildOptions, type EditionOutcome } from './collection-build.js';
import { readCollection, type Collection, type CollectionEdition } from './collection.js';
import { writeCatalogue } from './catalogue.js';
import { lazyBrowser } from './lazy-browser.js';
import { publishedDir, publishFenced, type PublishedVersion } from './published.js';
import { editionField, editionJobId, parseEditionJob, relativePathProblem, type EditionJob } from './queue-job.js';
import { DEFAULT_QUEUE } from './queue-names.js';
import { corruptionOf, mendActiveRecords } from './queue-records.js';
import { connection, fromRedis, RedisReplyError, UNREACHABLE } from './redis-link.js';
import { formatMessage, sortMessages } from './report.js';
import type { OutputGate } from './write.js';

export { connection, RedisReplyError, UNREACHABLE } from './redis-link.js';
export type { EditionJob } from './queue-job.js';

/**
 * A failure of BullMQ's loop as the worker says it: a connection that broke or was refused (ioredis's `write EPIPE`,
 * `connect ECONNREFUSED …`) is Redis gone, which the worker waits for; anything else as it came.
 */
export function loopErrorText(message: string, url: string): string {
  return UNREACHABLE.test(message) ? `lost Redis at ${url} (${message}); it goes on when Redis answers` : message;
}

/** Machine faults are tried again this many times in all, waiting 10 s, 20 s … between (BullMQ's exponential backoff). */
const ATTEMPTS = 3;
const BACKOFF_MS = 10_000;

/** The Redis hash of each edition's latest version (editionField → version), beside the queue's own keys. */
export function latestKey(queue: string): string {
  return `diaoban:${queue}:latest`;
}

/** The counter the versions are drawn from. */
function versionKey(queue: string): string {
  return `diaoban:${queue}:version`;
}

/** The Redis hash of the collections a queue holds: path inside the root → the folder it was enqueued from. */
export function collectionsKey(queue: string): string {
  return `diaoban:${queue}:collections`;
}

/** The Redis key of an edition's write lock: held while a worker checks that its version is the latest and writes an output. */
export function writeLockKey(queue: string, field: string): string {
  return `diaoban:${queue}:writing:${field}`;
}

/** Deletes the lock only if it is still this holder's (it may have expired and been taken by another). */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * A version later than every one drawn before: Redis's clock in µs, or one
 * more than the last if the clock is behind it. A Redis restarted empty
 * starts again from its clock, so versions still grow (the output folder's
 * records, published.ts, compare them).
 */
const NEXT_VERSION = `
local t = redis.call('TIME')
local v = tonumber(t[1]) * 1000000 + tonumber(t[2])
local last = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if v <= last then v = last + 1 end
local s = string.format('%.0f', v)
redis.call('SET', KEYS[1], s)
return s`;

export async function nextVersion(client: Redis, queue: string): Promise<number> {
  const reply = await client.eval(NEXT_VERSION, 1, versionKey(queue));
  const version = Number(reply);
  if (typeof reply !== 'string' || !Number.isSafeInteger(version) || version <= 0) throw new RedisReplyError(String(client.options.host), `gave a version that is not a whole number (${String(reply).slice(0, 40)})`);
  return version;
}

/** A write lock expires after this (a worker killed holding it); a write under it is one rename or two small files. */
const WRITE_LOCK_MS = 30_000;

/** Where a job's writes are fenced in the output folder, and what to do if one overwrote a newer version's (published.ts). */
export interface Fence {
  /** The edition's published versions (publishedDir). */
  dir: string;
  /** Recorded with the version: the job's id and digest. */
  entry: string;
  /** This job's rename overwrote a later version's output: that version is to be written again. */
  overwrote: (newer: PublishedVersion) => Promise<void>;
}

/**
 * The gate of a job's outputs: each write happens only if the job's version
 * is the edition's latest in Redis — none recorded (Redis restarted, lost
 * its data) refuses — checked and written under the edition's write lock
 * (SET NX PX, released by its holder alone); an output renamed into the
 * output folder is renamed only if its version is not older than what the
 * folder has published (`fence`), a check that does not depend on the lock.
 */
export function latestOnly(client: Redis, queue: string, field: string, version: number, fence?: Fence): OutputGate {
  return async (write, publication) => {
    const key = writeLockKey(queue, field);
    const holder = `${process.pid}:${randomUUID()}`;
    const giveUp = Date.now() + 2 * WRITE_LOCK_MS;
    while ((await client.set(key, holder, 'PX', WRITE_LOCK_MS, 'NX')) !== 'OK') {
      // Another worker's lock outlasting its own expiry means Redis is not answering as it should: a machine fault, retried.
      if (Date.now() > giveUp) throw new Error(`${field}: the write lock in Redis was not free for ${(2 * WRITE_LOCK_MS) / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    try {
      const latest = await client.hget(latestKey(queue), field);
      if (latest !== String(version)) return false;
      if (!publication || !fence) {
        await write();
        return true;
      }
      const result = publishFenced(publication, fence.dir, version, fence.entry);
      if ('overwrote' in result) await fence.overwrote(result.overwrote);
      return result.published;
    } finally {
      await client.eval(RELEASE, 1, key, holder).catch(() => undefined);
    }
  };
}

/** What a completed job returns. */
export interface EditionJobResult {
  name: string;
  status: string;
  pages: number;
  upToDate: boolean;
  worker: string;
}

/** `queue add` refused: the queue holds another collection of the same name, or the collection is not inside the root. */
export class QueueRefusal extends Error {}

/** The collection's path inside `root`, '/' separated ('.' for the root itself), or why it is not inside. */
export async function collectionPath(root: string, collectionDir: string): Promise<string> {
  const [r, c] = await Promise.all([realpath(root), realpath(collectionDir)]);
  const rel = path.relative(r, c);
  if (rel === '') return '.';
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new QueueRefusal(`${collectionDir} is not inside ${root}; give --root the folder the workers are started with (their --root), holding the collection`);
  return rel.split(path.sep).join('/');
}

/** The job of `name` a queue add makes, for `label` in messages. */
function labelOf(job: Pick<EditionJob, 'collection' | 'edition'>): string {
  return job.collection === '.' ? job.edition : `${job.collection}/${job.edition}`;
}

/**
 * One job per edition whose digest has no job for the latest version yet;
 * says which were added and which were there. `name`: the collection's path
 * inside the workers' root (collectionPath).
 */
export async function enqueueCollection(
  collection: Collection,
  editions: readonly CollectionEdition[],
  options: { targets: EditionJob['targets']; allowRead?: readonly string[] },
  redis: { url: string; queue?: string },
  name: string,
): Promise<{ added: string[]; known: Array<{ name: string; state: string }> }> {
  const queueName = redis.queue ?? DEFAULT_QUEUE;
  const { client, guard } = connection(redis.url);
  const queue = new Queue<EditionJob, EditionJobResult>(queueName, { connection: client });
  queue.on('error', () => undefined);
  try {
    return await fromRedis(guard, async () => {
      // Two collections of one name in one queue would be built from one folder: the second is refused.
      const place = await realpath(collection.root);
      if ((await client.hsetnx(collectionsKey(queueName), name, place)) === 0) {
        const known = await client.hget(collectionsKey(queueName), name);
        if (known !== place) throw new QueueRefusal(`queue ${queueName} already holds a collection "${name}", enqueued from ${known}; this one is ${place}: give it its own --queue, or a --root that names the two apart`);
      }
      const digestOptions = { targets: options.targets, ...(options.allowRead ? { allowRead: options.allowRead } : {}), ...(collection.shared ? { shared: collection.shared } : {}) };
      const added: string[] = [];
      const known: Array<{ name: string; state: string }> = [];
      for (const edition of editions) {
        const digest = await editionDigest(edition.dir, digestOptions);
        const id = editionJobId(name, edition.name, digest);
        const field = editionField(name, edition.name);
        const previous = await client.hget(latestKey(queueName), field);
        const existing = await queue.getJob(id);
        const existingJob = existing ? parseEditionJob(existing.data) : undefined;
        const existingVersion = existingJob && 'job' in existingJob ? existingJob.job.version : undefined;
        const label = labelOf({ collection: name, edition: edition.name });
        if (existing && existingVersion !== undefined && previous === String(existingVersion)) {
          known.push({ name: label, state: await existing.getState() });
          continue;
        }
        // A new version: recorded as the latest before its job exists, so that no worker finds the job without it.
        const version = await nextVersion(client, queueName);
        const data: EditionJob = { collection: name, edition: edition.name, digest, version, targets: { pdf: options.targets.pdf, epub: options.targets.epub } };
        await client.hset(latestKey(queueName), field, String(version));
        const state = existing ? await existing.getState() : undefined;
        if (existing && existingVersion !== undefined && (state === 'completed' || state === 'failed')) {
          // Back to a version built before (a correction reverted): its job runs again, as the latest.
          await existing.updateData(data);
          await existing.retry(state, { resetAttemptsMade: true });
        } else if (existing && existingVersion !== undefined && state !== 'active') {
          // Still waiting: it runs as the latest.
          await existing.updateData(data);
        } else {
          // A job being built keeps the version it started with (and is superseded); a job that is no job is left to fail: this one is new.
          await queue.add(edition.name, data, { jobId: existing ? `${id}-${version}` : id, attempts: ATTEMPTS, backoff: { type: 'exponential', delay: BACKOFF_MS }, removeOnComplete: false, removeOnFail: false });
        }
        added.push(label);
      }
      return { added, known };
    });
  } finally {
    await queue.close().catch(() => undefined);
    client.disconnect();
  }
}

export interface CollectionStatus {
  /** The collection's path inside the workers' root. */
  collection: string;
  counts: Record<'waiting' | 'active' | 'stalled' | 'delayed' | 'completed' | 'superseded' | 'failed', number>;
  failed: Array<{ name: string; id: string; reason: string; attempts: number }>;
  /** Active jobs whose lock has expired: their worker stopped; a worker's stalled-job check puts them back. */
  stalled: Array<{ name: string; id: string }>;
  superseded: Array<{ name: string; id: string }>;
}

export interface QueueStatus {
  collections: CollectionStatus[];
  /** Jobs whose data is not a job (written into Redis by something else than queue add): they fail when taken. */
  invalid: Array<{ id: string; state: string; problem: string }>;
}

const STATES = ['waiting', 'prioritized', 'waiting-children', 'active', 'delayed', 'completed', 'failed'] as const;

/** Every job of the queue, by collection: counts, failed jobs with their messages, stalled and superseded jobs. */
export async function queueStatus(redis: { url: string; queue?: string }): Promise<QueueStatus> {
  const { client, guard } = connection(redis.url);
  const queue = new Queue<unknown, unknown>(redis.queue ?? DEFAULT_QUEUE, { connection: client });
  queue.on('error', () => undefined);
  try {
    return await fromRedis(guard, async () => {
      const collections = new Map<string, CollectionStatus>();
      const invalid: QueueStatus['invalid'] = [];
      const of = (name: string): CollectionStatus => {
        let c = collections.get(name);
        if (!c) collections.set(name, (c = { collection: name, counts: { waiting: 0, active: 0, stalled: 0, delayed: 0, completed: 0, superseded: 0, failed: 0 }, failed: [], stalled: [], superseded: [] }));
        return c;
      };
      for (const state of STATES) {
        for (const job of await queue.getJobs([state], 0, -1)) {
          if (!job) continue;
          const id = String(job.id ?? '');
          const parsed = parseEditionJob(job.data);
          if ('problems' in parsed) {
            invalid.push({ id, state, problem: parsed.problems.join('; ') });
            continue;
          }
          const c = of(parsed.job.collection);
          const name = parsed.job.edition;
          if (state === 'active') {
            c.counts.active++;
            if ((await client.exists(`${queue.toKey(id)}:lock`)) === 0) {
              c.counts.stalled++;
              c.stalled.push({ name, id });
            }
          } else if (state === 'delayed') c.counts.delayed++;
          else if (state === 'failed') {
            c.counts.failed++;
            c.failed.push({ name, id, reason: String(job.failedReason ?? ''), attempts: Number(job.attemptsMade) || 0 });
          } else if (state === 'completed') {
            const status = (job.returnvalue as { status?: unknown } | null)?.status;
            if (status === 'superseded') {
              c.counts.superseded++;
              c.superseded.push({ name, id });
            } else c.counts.completed++;
          } else c.counts.waiting++;
        }
      }
      const byName = <T extends { name: string }>(list: T[]): T[] => list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const c of collections.values()) for (const list of [c.failed, c.stalled, c.superseded]) byName(list);
      return { collections: [...collections.values()].sort((a, b) => (a.collection < b.collection ? -1 : 1)), invalid };
    });
  } finally {
    await queue.close().catch(() => undefined);
    client.disconnect();
  }
}

export interface WorkerOptions {
  url: string;
  queue?: string;
  /** The folder jobs name their collections in (--root): nothing outside it is built. */
  root: string;
  /** The output folder: a collection's outputs in its path inside it ('.': the folder itself). */
  out: string;
  cacheDir?: string;
  fontCache?: string;
  /** Folders outside an edition its files may come from: the worker's, never a job's. */
  allowRead?: readonly string[];
  chromium?: string;
  /** How long a job's lock holds without renewal before the job counts as stalled (BullMQ's lockDuration). */
  lockMs?: number;
  /** Stop when the queue has nothing left to do: none waiting, delayed or active (a stalled job is taken first). */
  drain?: boolean;
  /** Give up when Redis has not answered for this long (ms); 0: wait for ever. */
  waitRedisMs?: number;
  /** Told as jobs start and end. */
  log: (line: string) => void;
}

/** Why a job failed, for `queue status`: the summary, then the edition's messages (file:line:col …). */
function failure(outcome: EditionOutcome, summary: string): string {
  const lines = sortMessages(outcome.messages.map(restoreMessage)).filter((m) => m.fatal !== undefined).map((m) => formatMessage(m));
  return [summary, ...lines, ...outcome.lines.filter((l) => /not (built|written)/.test(l))].join('\n');
}

/** A job's collection and edition on this worker's storage, each kept inside the one before (realpath), or why not. */
async function placeOf(root: string, job: EditionJob): Promise<{ collection: Collection; edition: CollectionEdition } | string> {
  const label = labelOf(job);
  const realRoot = await realpath(root);
  const dir = path.resolve(realRoot, job.collection);
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined || !(await stat(real)).isDirectory()) return `${label}: the collection ${job.collection} is not a folder in this worker's --root ${root}`;
  const rel = path.relative(realRoot, real);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return `${label}: the collection ${job.collection} leads outside this worker's --root ${root} (to ${real}); nothing is built from there`;
  const collection = await readCollection(real);
  const errors = (collection.file?.messages ?? []).filter((m) => m.fatal);
  if (errors.length > 0) return [`${label}: the collection's collection.yaml cannot be used as it is:`, ...sortMessages(errors).map((m) => formatMessage(m))].join('\n');
  const edition = collection.editions.find((e) => e.name === job.edition);
  if (!edition) return `${label}: ${job.edition} is not an edition of the collection ${job.collection} (a folder with an edition.yaml that its collection.yaml names) in this worker's --root ${root}`;
  const editionReal = await realpath(edition.dir).catch(() => '');
  const inside = path.relative(real, editionReal);
  if (!editionReal || inside.startsWith('..') || path.isAbsolute(inside)) return `${label}: the edition leads outside its collection (to ${editionReal || 'nowhere'}); nothing is built from there`;
  return { collection, edition };
}

/** Takes jobs until closed (or, with `drain`, until the queue has nothing left). `done` says why it stopped if it gave up. */
export async function runWorker(options: WorkerOptions): Promise<{ close: () => Promise<void>; done: Promise<{ gaveUp?: string }> }> {
  const executablePath = findChromium(options.chromium);
  const browser = lazyBrowser(() => launchBrowser({ executablePath }));
  const id = `${process.pid}`;
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const { client, guard } = connection(options.url, true);
  // Redis gone or not answering: said, with how long the worker waits (ioredis reconnects meanwhile), and given up after --wait-redis.
  const waitMs = options.waitRedisMs ?? 300_000;
  // Down until a PING is answered PONG or BullMQ reads the queue: a connection that opens (and a server that closes it
  // after the handshake) is not yet a Redis that answers.
  let downSince: number | undefined = Date.now();
  let told = 0;
  const answers = (): void => {
    if (downSince !== undefined && told > 0) options.log(`worker: Redis at ${guard.url} answers again (after ${((Date.now() - downSince) / 1000).toFixed(0)} s)`);
    downSince = undefined;
    told = 0;
  };
  client.on('close', () => (downSince ??= Date.now()));
  let healer: Queue | undefined;
  // A job of this worker overwrote a later version's output (it stalled between its check and its rename): that version's job is added again.
  const heal = async (newer: PublishedVersion): Promise<void> => {
    let jobId = '';
    try {
      jobId = String((JSON.parse(newer.entry) as { job?: unknown }).job ?? '');
    } catch {
      // an entry not written by a worker: nothing to run again
    }
    healer ??= new Queue(queueName, { connection: client });
    const job = jobId ? await healer.getJob(jobId) : undefined;
    const parsed = job ? parseEditionJob(job.data) : undefined;
    if (!job || !parsed || !('job' in parsed)) {
      options.log(`worker: an output of version ${newer.version} was overwritten by an older one, and its job (${jobId || 'unknown'}) is gone: enqueue the collection again`);
      return;
    }
    await healer.add(job.name, parsed.job, { jobId: `${jobId}-again-${Date.now()}`, attempts: ATTEMPTS, backoff: { type: 'exponential', delay: BACKOFF_MS }, removeOnComplete: false, removeOnFail: false });
    options.log(`${labelOf(parsed.job)}: an older version's output was renamed over version ${newer.version}'s; that version is enqueued again`);
  };
  const processor = async (job: Job<unknown, EditionJobResult>): Promise<EditionJobResult> => {
    const corrupted = corruptionOf(job.data);
    if (corrupted !== undefined) throw new UnrecoverableError(`job ${String(job.id).slice(0, 80)}: its record was corrupted in Redis (${corrupted}); nothing was read or written; enqueue the collection again with diaoban queue add`);
    const parsed = parseEditionJob(job.data);
    if ('problems' in parsed) throw new UnrecoverableError(`job ${String(job.id).slice(0, 80)}: not a job diaoban can build (${parsed.problems.join('; ')}); nothing was read or written; enqueue the collection again with diaoban queue add`);
    const data = parsed.job;
    const label = labelOf(data);
    const superseded: EditionJobResult = { name: label, status: 'superseded', pages: 0, upToDate: false, worker: id };
    const field = editionField(data.collection, data.edition);
    const latest = await client.hget(latestKey(queueName), field);
    if (latest === null) throw new UnrecoverableError(`${label}: Redis has no latest version of this edition (it lost its data, or the job was not added by queue add): nothing is written; enqueue the collection again`);
    // Another version of the edition was enqueued since: its job writes the outputs.
    if (latest !== String(data.version)) return superseded;
    const place = await placeOf(options.root, data);
    if (typeof place === 'string') throw new UnrecoverableError(place);
    const out = path.join(options.out, data.collection);
    options.log(`${label}: building (job ${String(job.id).slice(0, 15)}, attempt ${job.attemptsMade + 1})`);
    const buildOptions: CollectionBuildOptions = {
      out,
      targets: data.targets,
      ...(options.allowRead ? { allowRead: options.allowRead } : {}),
      ...(place.collection.shared ? { shared: place.collection.shared } : {}),
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      ...(options.fontCache ? { fontCache: options.fontCache } : {}),
      chromium: executablePath,
    };
    const fence: Fence = { dir: publishedDir(out, data.edition), entry: JSON.stringify({ job: job.id, digest: data.digest }), overwrote: heal };
    let outcome: EditionOutcome;
    try {
      ({ outcome } = await buildCollectionEdition(place.edition, buildOptions, browser, { digest: data.digest, gate: latestOnly(client, queueName, field, data.version, fence) }));
    } catch (error) {
      // Reading the edition failed (its folder is not on this machine's storage …): another worker may do better.
      throw new Error(`${label}: ${(error as Error).message}`);
    }
    // Enqueued again at another version while it was built: the later job writes the outputs and the record (checked under the edition's write lock).
    if (outcome.superseded) return superseded;
    await writeCatalogue(out);
    for (const line of outcome.messages.map(restoreMessage).map((m) => formatMessage(m))) await job.log(line);
    for (const line of outcome.lines) await job.log(line);
    if (outcome.internal) throw new UnrecoverableError(failure(outcome, `${label}: internal error (a bug in diaoban, not in the manuscript)`));
    if (outcome.entry.errors > 0) throw new UnrecoverableError(failure(outcome, `${label}: ${outcome.entry.errors} error${outcome.entry.errors === 1 ? '' : 's'} in the manuscript (outputs written)`));
    if (!outcome.ok) {
      // An output not written for a reason of the machine (Chromium crashed …): tried again, on whichever worker takes it.
      await browser.close();
      throw new Error(failure(outcome, `${label}: not built`));
    }
    return { name: label, status: outcome.entry.status, pages: outcome.entry.pages, upToDate: outcome.upToDate, worker: id };
  };
  // A killed worker of this machine left temp files in the output folder: removed before anything is built (another machine's are its own).
  await removeStaleUnder(options.out);
  const worker = new Worker<unknown, EditionJobResult>(queueName, processor, {
    connection: client,
    concurrency: 1,
    // The lock is renewed every half of this; a long synchronous layout must not outlast it.
    lockDuration: options.lockMs ?? 60_000,
    stalledInterval: Math.min(30_000, options.lockMs ?? 30_000),
    maxStalledCount: 1,
    autorun: false,
  });
  const nameOf = (job: Job<unknown> | undefined): string => {
    const parsed = job ? parseEditionJob(job.data) : undefined;
    return parsed && 'job' in parsed ? labelOf(parsed.job) : `job ${String(job?.id ?? '?').slice(0, 80)}`;
  };
  // Said when BullMQ has taken the job as done (a job whose lock was lost meanwhile is not done by this worker).
  worker.on('completed', (job, result) =>
    options.log(result.status === 'superseded' ? `${result.name}: superseded (job ${String(job.id).slice(0, 15)}): a later version was enqueued, whose job writes the outputs` : `${result.name}: built (${result.pages} pages${result.upToDate ? ', up to date' : ''})`),
  );
  worker.on('failed', (job, error) => options.log(`${nameOf(job)}: failed: ${error.message.split('\n')[0]}`));
  let lastError = '';
  // BullMQ's loop failing without a break of more than 20 s (it tries again within 15 s), since `failingSince`: a
  // server that answers our check but none of the queue's commands is given up after --wait-redis too.
  let failingSince: number | undefined;
  let lastLoopError = 0;
  for (const event of ['active', 'drained', 'completed', 'failed'] as const) worker.on(event, () => (failingSince = undefined));
  worker.on('error', (error) => {
    // An error of BullMQ's own loop: Redis not answering, or answering what BullMQ cannot read; given up after --wait-redis as an outage is.
    downSince ??= Date.now();
    const now = Date.now();
    if (failingSince === undefined || now - lastLoopError > 20_000) failingSince = now;
    lastLoopError = now;
    // ioredis's reader met a reply it cannot read (its message asks for a bug report): no Redis of a queue.
    if (!guard.problem && /Unknown RESP type|Please report this/.test(error.message)) return notTheQueues(new RedisReplyError(guard.url, `sent a reply the Redis client cannot read (${error.message.replace(/\.?\s*Please report this\.?/, '')})`));
    // A reply of the wrong shape where BullMQ or ioredis reads the server itself (INFO that is no text: "doc.split is not a
    // function"): no Redis of a queue. A job record BullMQ cannot read fails in its job code instead, and is mended.
    if (!guard.problem && error instanceof TypeError && /redis-connection\.js|[\\/]ioredis[\\/]/.test(error.stack ?? '')) return notTheQueues(new RedisReplyError(guard.url, `answered in a way the queue cannot use (${error.message.split('\n')[0]!.slice(0, 200)})`));
    const message = guard.problem ? new RedisReplyError(guard.url, guard.problem).message : loopErrorText(error.message, guard.url);
    if (message !== lastError) options.log(`worker: ${message}`);
    lastError = message;
  });

  let closing: Promise<void> | undefined;
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));
  /** The queue's counts, asked by a draining worker. */
  let counts: Queue | undefined;
  let gaveUp: string | undefined;
  const timers: NodeJS.Timeout[] = [];
  /** The catalogues' rewrite when the queue drained (each collection's, from all its records). */
  let rewriting: Promise<void> = Promise.resolve();
  const close = (force = false): Promise<void> =>
    (closing ??= (async () => {
      for (const t of timers) clearInterval(t);
      // A worker whose Redis is gone cannot wait for it to close cleanly (each step waits at most 5 s); a clean close waits for the job being built.
      const bounded = async (step: Promise<unknown>): Promise<void> => {
        if (!force) return void (await step.catch(() => undefined));
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([step.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]).finally(() => clearTimeout(timer));
      };
      await bounded(worker.close(force));
      await bounded(rewriting);
      await browser.close();
      await bounded(Promise.all([healer?.close(), counts?.close()]));
      client.disconnect();
      markStopped();
    })());

  /** Stops the worker: the server at --redis answered what no Redis of a queue does. */
  const notTheQueues = (error: RedisReplyError): void => {
    gaveUp ??= `${error.message}; the worker stops: check --redis (is it the queue's Redis?)`;
    void close(true);
  };
  guard.onProblem = notTheQueues;
  // The queue's own state asked every 5 s, and every second while Redis is down (its active jobs, whose unreadable
  // records are mended on the way): a list is a Redis answering; a reply of another shape is no Redis of a queue; an
  // error reply (a Redis loading its data, or a server that refuses everything) or no reply is not answering.
  let checking = false;
  let lastCheck = 0;
  const check = (): void => {
    checking = true;
    lastCheck = Date.now();
    mendActiveRecords(client, worker.toKey(''))
      .then(
        (lines) => {
          answers();
          for (const line of lines) options.log(`worker: ${line}: the record was mended so that the job fails with this message`);
        },
        (error: Error) => {
          if (guard.problem) return notTheQueues(new RedisReplyError(guard.url, guard.problem));
          if (error instanceof TypeError) return notTheQueues(new RedisReplyError(guard.url, error.message));
          downSince ??= Date.now();
        },
      )
      .finally(() => (checking = false));
  };
  timers.push(
    setInterval(() => {
      if (closing) return;
      // Asked only of a connection that is up: one going up and down would pile commands in ioredis's offline queue.
      if (!checking && client.status === 'ready' && (downSince !== undefined || Date.now() - lastCheck >= 5000)) check();
      const failing = failingSince !== undefined && Date.now() - lastLoopError <= 20_000 ? Date.now() - failingSince : 0;
      if (waitMs > 0 && failing >= waitMs) {
        gaveUp = `Redis at ${guard.url} has answered none of the queue's commands for ${(failing / 1000).toFixed(0)} s (${lastError.replace(/^worker: /, '')}); the worker stops (--wait-redis ${waitMs / 1000}); check --redis (is it the queue's Redis?)`;
        void close(true);
        return;
      }
      if (downSince === undefined) return;
      const down = Date.now() - downSince;
      if (waitMs > 0 && down >= waitMs) {
        gaveUp = `Redis at ${guard.url} has not answered for ${(down / 1000).toFixed(0)} s${guard.problem ? ` (${guard.problem})` : lastError ? ` (${lastError.replace(/^worker: /, '')})` : ''}; the worker stops (--wait-redis ${waitMs / 1000}); start it again once Redis answers`;
        void close(true);
        return;
      }
      // Said once a second has passed, then every 30 s.
      if (down >= 1000 && (told === 0 || down - told >= 30_000)) {
        told = down;
        options.log(`worker: waiting for Redis at ${guard.url} (${(down / 1000).toFixed(0)} s so far${waitMs > 0 ? `; gives up after ${waitMs / 1000} s, --wait-redis` : ''})`);
      }
    }, 1000),
  );

  // Each edition's end rewrites its collection's catalogue; two workers ending at once may each miss the other's record: when the queue is empty, each collection's is rewritten from them all.
  // BullMQ read the queue (a job, or none waiting): Redis answers as it should.
  for (const event of ['active', 'drained'] as const) worker.on(event, () => client.status === 'ready' && answers());
  // One rewrite after another, and the worker closes only once the last is written: a drained worker's done is its outputs' end.
  worker.on('drained', () => {
    rewriting = rewriting.then(() =>
      fromRedis(guard, () => client.hkeys(collectionsKey(queueName)))
        .then(async (names) => {
          // Names from Redis: only a relative path of plain folder names is a collection's.
          for (const name of names) if (relativePathProblem(name, true) === undefined) await writeCatalogue(path.join(options.out, name)).catch(() => undefined);
        })
        .catch((error: Error) => options.log(`catalogue: ${error.message}`)),
    );
  });
  if (options.drain) {
    // Done when nothing is left: none waiting or delayed (a retry), none active — a stalled job is active until BullMQ's stalled-job check puts it back, and then taken.
    counts = new Queue(queueName, { connection: client });
    counts.on('error', () => undefined);
    let busy = false;
    worker.on('active', () => (busy = true));
    for (const event of ['completed', 'failed'] as const) worker.on(event, () => (busy = false));
    timers.push(
      setInterval(() => {
        if (busy || closing || downSince !== undefined) return;
        void counts!
          .getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'waiting-children')
          .then((c) => {
            // Nothing is being built: closed at once (a clean close waits for BullMQ's blocking read, up to 10 s).
            if (!busy && Object.values(c).every((n) => n === 0)) void close(true);
          })
          .catch(() => undefined);
      }, 1000),
    );
  }
  // Done when the worker's loop ends or the worker is closed (a worker that never reached Redis has no loop that ends).
  const done = Promise.race([
    worker.run().then(
      () => closing,
      (error: Error) => {
        gaveUp ??= guard.problem ? new RedisReplyError(guard.url, guard.problem).message : error.message;
        return close(true);
      },
    ),
    stopped,
  ]);
  return { close: () => close(), done: done.then(() => (gaveUp ? { gaveUp } : {})) };
}

/** removeStale over an output folder and the folders in it (a collection's outputs are named by their editions' paths). */
async function removeStaleUnder(out: string, depth = 6): Promise<void> {
  const folders: string[] = [];
  const walk = async (dir: string, level: number): Promise<void> => {
    folders.push(dir);
    if (level >= depth) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) await walk(path.join(dir, e.name), level + 1);
  };
  await walk(out, 0);
  await removeStale(folders);
}
