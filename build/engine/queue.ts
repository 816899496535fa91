/**
 * A collection built by any number of machines through BullMQ on Redis.
 * `enqueueCollection` adds one job per edition, its id the edition's input
 * digest: BullMQ keeps one job per id, so an edition enqueued twice, or
 * again after it was built (completed jobs are kept), is one job, and a
 * corrected edition (a new digest) is a new one. Each edition's digest as
 * last enqueued is kept beside the queue (`latestKey`): an edition back at a
 * version built before (a correction reverted) has that job run again, and
 * a worker skips a job whose edition was enqueued since at another version. `runWorker` takes jobs and
 * builds each through the engine (collection-build.ts) into the shared
 * output folder, atomically. What BullMQ gives is used as it is: the job's
 * lock (renewed while it builds), stalled-job recovery (a killed worker's
 * job goes back to the queue when its lock expires, for another worker),
 * retries with backoff (a machine fault: Chromium crashed), and
 * UnrecoverableError for what retrying cannot mend (a manuscript error: the
 * outputs are still written, as `build` writes them, and the job fails at
 * once with its messages). Redis reconnections are ioredis's.
 */
import { randomUUID } from 'node:crypto';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { findChromium, launchBrowser } from './browser.js';
import { editionDigest, restoreMessage } from './build.js';
import { buildCollectionEdition, type CollectionBuildOptions, type EditionOutcome } from './collection-build.js';
import type { Collection, CollectionEdition } from './collection.js';
import { writeCatalogue } from './catalogue.js';
import { lazyBrowser } from './lazy-browser.js';
import { formatMessage, sortMessages } from './report.js';

import { DEFAULT_QUEUE } from './queue-names.js';
import type { OutputGate } from './write.js';

/** Machine faults are tried again this many times in all, waiting 10 s, 20 s … between (BullMQ's exponential backoff). */
const ATTEMPTS = 3;
const BACKOFF_MS = 10_000;

/** The Redis hash of each edition's digest as last enqueued (edition name → digest), beside the queue's own keys. */
export function latestKey(queue: string): string {
  return `diaoban:${queue}:latest`;
}

/** The Redis key of an edition's write lock: held while a worker checks that its version is the latest and writes an output. */
export function writeLockKey(queue: string, name: string): string {
  return `diaoban:${queue}:writing:${name}`;
}

/** Deletes the lock only if it is still this holder's (it may have expired and been taken by another). */
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** A write lock expires after this (a worker killed holding it); a write under it is one rename or two small files. */
const WRITE_LOCK_MS = 30_000;

/**
 * The gate of a job's outputs: each write happens only if the job's version
 * is still the edition's latest enqueued, checked and written under the
 * edition's write lock (Redis's single-instance lock: SET NX PX, released by
 * its holder alone). An older job still building when a correction is
 * enqueued can no longer overwrite the newer outputs, whichever finishes last.
 */
export function latestOnly(client: Redis, queue: string, name: string, digest: string): OutputGate {
  return async (write) => {
    const key = writeLockKey(queue, name);
    const holder = `${process.pid}:${randomUUID()}`;
    const giveUp = Date.now() + 2 * WRITE_LOCK_MS;
    while ((await client.set(key, holder, 'PX', WRITE_LOCK_MS, 'NX')) !== 'OK') {
      // Another worker's lock outlasting its own expiry means Redis is not answering as it should: a machine fault, retried.
      if (Date.now() > giveUp) throw new Error(`${name}: the write lock in Redis was not free for ${(2 * WRITE_LOCK_MS) / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    try {
      const latest = await client.hget(latestKey(queue), name);
      if (latest !== null && latest !== digest) return false;
      await write();
      return true;
    } finally {
      await client.eval(RELEASE, 1, key, holder);
    }
  };
}

/** What a job carries: the edition (on storage every worker sees) and how to build it. */
export interface EditionJob {
  edition: CollectionEdition;
  digest: string;
  options: Pick<CollectionBuildOptions, 'targets' | 'notes' | 'pages' | 'shared' | 'allowRead'>;
}

/** What a completed job returns. */
export interface EditionJobResult {
  name: string;
  status: string;
  pages: number;
  upToDate: boolean;
  worker: string;
}

/**
 * A connection for BullMQ (which wants a client made here under ESM) from a
 * redis:// URL. A worker's retries its commands forever and reconnects
 * (ioredis): it waits for Redis to come back; a command's gives up soon.
 */
export function connection(url: string, worker = false): Redis {
  const u = new URL(url);
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`${url}: give a redis:// URL`);
  const client = new Redis(url, worker ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, retryStrategy: (times) => (times > 3 ? null : 200 * times) });
  // Connection errors reach the commands (and the worker's 'error' event); unheard, ioredis would print each one.
  client.on('error', () => undefined);
  return client;
}

/** One job per edition whose digest has no job yet; says which were added and which were there. */
export async function enqueueCollection(
  collection: Collection,
  editions: readonly CollectionEdition[],
  options: EditionJob['options'],
  redis: { url: string; queue?: string },
): Promise<{ added: string[]; known: Array<{ name: string; state: string }> }> {
  const client = connection(redis.url);
  const queue = new Queue<EditionJob, EditionJobResult>(redis.queue ?? DEFAULT_QUEUE, { connection: client });
  queue.on('error', () => undefined);
  try {
    const jobOptions = { ...options, ...(collection.shared ? { shared: collection.shared } : {}) };
    const added: string[] = [];
    const known: Array<{ name: string; state: string }> = [];
    const latest = latestKey(redis.queue ?? DEFAULT_QUEUE);
    for (const edition of editions) {
      const digest = await editionDigest(edition.dir, jobOptions);
      // The version enqueued last: a job for this digest that ended before another version was enqueued is no longer what the output folder holds.
      const previous = await client.hget(latest, edition.name);
      await client.hset(latest, edition.name, digest);
      const existing = await queue.getJob(digest);
      if (existing) {
        const state = await existing.getState();
        if (previous !== null && previous !== digest && (state === 'completed' || state === 'failed')) {
          // Back to a version built before (a correction reverted): its job runs again, and writes this version's outputs.
          await existing.retry(state, { resetAttemptsMade: true });
          added.push(edition.name);
        } else known.push({ name: edition.name, state });
        continue;
      }
      // Added by id: should another `queue add` add it meanwhile, BullMQ keeps one.
      await queue.add(edition.name, { edition, digest, options: jobOptions }, { jobId: digest, attempts: ATTEMPTS, backoff: { type: 'exponential', delay: BACKOFF_MS }, removeOnComplete: false, removeOnFail: false });
      added.push(edition.name);
    }
    return { added, known };
  } finally {
    await queue.close();
    client.disconnect();
  }
}

export interface QueueStatus {
  counts: Record<'waiting' | 'active' | 'completed' | 'failed' | 'delayed', number>;
  failed: Array<{ name: string; id: string; reason: string; attempts: number }>;
  completed: Array<{ name: string; id: string; result: EditionJobResult | undefined }>;
}

export async function queueStatus(redis: { url: string; queue?: string }): Promise<QueueStatus> {
  const client = connection(redis.url);
  const queue = new Queue<EditionJob, EditionJobResult>(redis.queue ?? DEFAULT_QUEUE, { connection: client });
  queue.on('error', () => undefined);
  try {
    const c = await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized', 'waiting-children');
    const failed = (await queue.getFailed(0, -1)).map((j) => ({ name: j.name, id: j.id ?? '', reason: j.failedReason, attempts: j.attemptsMade }));
    const completed = (await queue.getCompleted(0, -1)).map((j) => ({ name: j.name, id: j.id ?? '', result: j.returnvalue }));
    return {
      counts: { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0), active: c.active ?? 0, completed: c.completed ?? 0, failed: c.failed ?? 0, delayed: c.delayed ?? 0 },
      failed: failed.sort((a, b) => a.name.localeCompare(b.name)),
      completed: completed.sort((a, b) => a.name.localeCompare(b.name)),
    };
  } finally {
    await queue.close();
    client.disconnect();
  }
}

export interface WorkerOptions {
  url: string;
  queue?: string;
  out: string;
  cacheDir?: string;
  fontCache?: string;
  chromium?: string;
  /** How long a job's lock holds without renewal before the job counts as stalled (BullMQ's lockDuration). */
  lockMs?: number;
  /** Stop when no job is waiting (a batch run); otherwise wait for jobs forever. */
  drain?: boolean;
  /** Told as jobs start and end. */
  log: (line: string) => void;
}

/** Why a job failed, for `queue status`: the summary, then the edition's messages (file:line:col …). */
function failure(outcome: EditionOutcome, summary: string): string {
  const lines = sortMessages(outcome.messages.map(restoreMessage)).filter((m) => m.fatal !== undefined).map((m) => formatMessage(m));
  return [summary, ...lines, ...outcome.lines.filter((l) => /not (built|written)/.test(l))].join('\n');
}

/** Takes jobs until closed (or, with `drain`, until none waits). Resolves when it has stopped. */
export async function runWorker(options: WorkerOptions): Promise<{ close: () => Promise<void>; done: Promise<void> }> {
  const executablePath = findChromium(options.chromium);
  const browser = lazyBrowser(() => launchBrowser({ executablePath }));
  const id = `${process.pid}`;
  const queueName = options.queue ?? DEFAULT_QUEUE;
  const processor = async (job: Job<EditionJob, EditionJobResult>): Promise<EditionJobResult> => {
    const { edition, digest } = job.data;
    const superseded: EditionJobResult = { name: edition.name, status: 'superseded', pages: 0, upToDate: false, worker: id };
    // Another version of the edition was enqueued since: its job writes the outputs (this one would only be overwritten, or overwrite them).
    const latest = await client.hget(latestKey(queueName), edition.name);
    if (latest !== null && latest !== digest) return superseded;
    options.log(`${edition.name}: building (job ${digest.slice(0, 12)}, attempt ${job.attemptsMade + 1})`);
    const buildOptions: CollectionBuildOptions = { ...job.data.options, out: options.out, ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}), ...(options.fontCache ? { fontCache: options.fontCache } : {}), chromium: executablePath };
    let outcome: EditionOutcome;
    try {
      ({ outcome } = await buildCollectionEdition(edition, buildOptions, browser, { digest, gate: latestOnly(client, queueName, edition.name, digest) }));
    } catch (error) {
      // Reading the edition failed (its folder is not on this machine's storage …): another worker may do better.
      throw new Error(`${edition.name}: ${(error as Error).message}`);
    }
    // Enqueued again at another version while it was built: the later job writes the outputs and the record (checked under the edition's write lock).
    if (outcome.superseded) return superseded;
    await writeCatalogue(options.out);
    for (const line of outcome.messages.map(restoreMessage).map((m) => formatMessage(m))) await job.log(line);
    for (const line of outcome.lines) await job.log(line);
    if (outcome.internal) throw new UnrecoverableError(failure(outcome, `${edition.name}: internal error (a bug in diaoban, not in the manuscript)`));
    if (outcome.entry.errors > 0) throw new UnrecoverableError(failure(outcome, `${edition.name}: ${outcome.entry.errors} error${outcome.entry.errors === 1 ? '' : 's'} in the manuscript (outputs written)`));
    if (!outcome.ok) {
      // An output not written for a reason of the machine (Chromium crashed …): tried again, on whichever worker takes it.
      await browser.close();
      throw new Error(failure(outcome, `${edition.name}: not built`));
    }
    return { name: edition.name, status: outcome.entry.status, pages: outcome.entry.pages, upToDate: outcome.upToDate, worker: id };
  };
  const client = connection(options.url, true);
  const worker = new Worker<EditionJob, EditionJobResult>(options.queue ?? DEFAULT_QUEUE, processor, {
    connection: client,
    concurrency: 1,
    // The lock is renewed every half of this; a long synchronous layout must not outlast it.
    lockDuration: options.lockMs ?? 60_000,
    stalledInterval: Math.min(30_000, options.lockMs ?? 30_000),
    maxStalledCount: 1,
    autorun: false,
  });
  // Said when BullMQ has taken the job as done (a job whose lock was lost meanwhile is not done by this worker).
  worker.on('completed', (job, result) =>
    options.log(result.status === 'superseded' ? `${result.name}: superseded (job ${job.id?.slice(0, 12)}): a later version was enqueued, whose job writes the outputs` : `${result.name}: built (${result.pages} pages${result.upToDate ? ', up to date' : ''})`),
  );
  worker.on('failed', (job, error) => options.log(`${job?.data.edition.name ?? '?'}: failed: ${error.message.split('\n')[0]}`));
  // Redis gone: ioredis reconnects; BullMQ reports the errors meanwhile.
  let lastError = '';
  worker.on('error', (error) => {
    if (error.message !== lastError) options.log(`worker: ${error.message}`);
    lastError = error.message;
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= worker.close().then(() => browser.close()).finally(() => client.disconnect()));
  // Each edition's end rewrites the catalogue from the records; two workers ending at once may each miss the other's record: when the queue is empty, it is rewritten from them all.
  worker.on('drained', () => {
    void writeCatalogue(options.out).catch((error: Error) => options.log(`catalogue: ${error.message}`));
    if (options.drain) void close();
  });
  const done = worker.run().then(() => closing);
  return { close, done: done.then(() => undefined) };
}
