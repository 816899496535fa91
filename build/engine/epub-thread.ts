/**
 * The EPUB made in a worker thread (epub-worker.ts), one worker at a time,
 * started when first needed: the main thread stays free to drive Chromium
 * while the EPUB's JavaScript runs on the other core. The worker does not
 * keep the process alive between jobs, and ends after its job unless
 * keepEpubThread was called (watch): its heap, the fonts it read and
 * HarfBuzz's memory, which never shrinks (~300 MB for a big book), are given
 * back while Chromium still prints. It knows the fonts by their facts
 * (fonts-memo.ts) and reads a face only to make a subset the cache has not:
 * a rebuild's EPUB reads no font file.
 */
import { Worker } from 'node:worker_threads';
import type { FontSpec } from '../fonts/index.js';
import type { Root } from '../tree/types.js';
import type { EpubJob } from './epub-worker.js';

interface Pending {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
  onVolume?: (done: number, total: number) => void;
}

let worker: Worker | undefined;

/** Whether the worker stays between jobs (see keepEpubThread). */
let keep = false;

/**
 * Keeps the worker between jobs, for a session that builds one edition
 * again and again (watch): the worker remembers the last EPUB's volume
 * documents, font subsets and compressed entries, so a rebuild renders the
 * corrected volume only, without reading the others back from the cache.
 */
export function keepEpubThread(): void {
  keep = true;
}

/** The worker's error as the kind it was, so that the build tells a bug of ours (a TypeError …) from a user's problem (build.ts isInternal). */
function workerError(message: string, name?: string): Error {
  const kinds: Record<string, ErrorConstructor> = { TypeError, RangeError, ReferenceError, SyntaxError };
  return new (kinds[name ?? ''] ?? Error)(message);
}
const pending = new Map<number, Pending>();
let nextId = 1;

function start(): Worker {
  // Compiled (lib/), the worker is JavaScript; under tsx, epub-thread.mjs registers tsx in the worker first.
  // A small young generation (V8's default takes ~34 MB here): the worker's objects are few and long-lived (the tree, the
  // volume documents), and the EPUB is not on the build's critical path, so more frequent scavenges cost nothing the
  // build waits for; the old generation is left unlimited (a big book must not fail).
  const w = new Worker(new URL(import.meta.url.endsWith('.ts') ? './epub-thread.mjs' : './epub-worker.js', import.meta.url), {
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  w.on('message', (m: { id: number; bytes?: Uint8Array; error?: string; name?: string; progress?: [number, number] }) => {
    const job = pending.get(m.id);
    if (!job) return;
    if (m.progress) {
      job.onVolume?.(...m.progress);
      return;
    }
    pending.delete(m.id);
    if (pending.size === 0) {
      w.unref();
      if (!keep) {
        // The next job starts a new worker; this one's end is no failure.
        w.removeAllListeners('exit');
        void w.terminate();
        worker = undefined;
      }
    }
    if (m.bytes) job.resolve(new Uint8Array(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
    else job.reject(workerError(m.error ?? 'the EPUB worker failed', m.name));
  });
  const fail = (error: Error): void => {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
    if (worker === w) worker = undefined;
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the EPUB worker stopped (exit ${code})`)));
  // Started ahead of its first job (warmEpubThread): it does not keep the process alive until a job comes.
  if (pending.size === 0) w.unref();
  return w;
}

/** Starts the worker ahead of its job, so that it loads its modules on the other core while this thread loads and lays out the edition (a new process's EPUB does not begin with them). */
export function warmEpubThread(): void {
  worker ??= start();
}

export function renderEpubInThread(
  tree: Root,
  options: EpubJob['options'],
  specs: FontSpec[],
  cacheDir: string | undefined,
  onVolume?: (done: number, total: number) => void,
  volumeKeys?: string[],
): Promise<Uint8Array> {
  worker ??= start();
  const w = worker;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, onVolume });
    w.ref();
    w.postMessage({ id, tree, options, specs, ...(cacheDir ? { cacheDir } : {}), ...(volumeKeys ? { volumeKeys } : {}) } satisfies EpubJob);
  });
}
