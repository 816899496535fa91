/**
 * A collection of the sample editions and one edition per corpus text
 * (made by `diaoban init`), built clean three ways in one run: one process
 * (`build DIR --jobs 1`), `--jobs 2`, and through the queue with two workers
 * (a redis-server of its own on loopback). Each way has a fresh build cache;
 * the font cache is warmed first (converted fonts are shared by every build
 * of a machine, and converting them is not what is compared). Figures:
 * editions per minute, pages per second, the queue's overhead per edition
 * (its time over --jobs 2's, the same parallelism, and `queue add`'s own time)
 * and the peak memory (PSS, process and its Chromium) per build process or
 * worker. DIAOBAN_BENCH_EDITIONS=N keeps the N smallest editions (a quick look).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processTreeMemory } from '../build/engine/browser.js';
import { REPO } from '../build/engine/samples.js';
import { initEdition } from '../build/cli/init.js';

const CLI = path.join(REPO, 'bin', 'diaoban.js');
const CORPORA = path.join(REPO, '..', 'shared', 'corpora');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs the CLI; resolves with its time and the peak PSS of its process tree (sampled every 250 ms). */
function timed(args: string[], env: NodeJS.ProcessEnv, cwd: string): { child: ChildProcess; done: Promise<{ seconds: number; peak: number; code: number | null }> } {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let peak = 0;
  const sampler = setInterval(() => {
    void processTreeMemory(child.pid!).then((m) => (peak = Math.max(peak, m.pss)), () => undefined);
  }, 250);
  const done = new Promise<{ seconds: number; peak: number; code: number | null }>((resolve) => {
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0 && code !== 1) process.stderr.write(stderr);
      resolve({ seconds: (performance.now() - started) / 1000, peak, code });
    });
  });
  return { child, done };
}

/** The PDFs and EPUBs of an output folder: name → bytes. */
async function outputs(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const name of (await readdir(dir)).sort()) if (/\.(pdf|epub)$/.test(name) && !name.startsWith('.')) files.set(name, await readFile(path.join(dir, name)));
  return files;
}

/** 'yes', or what differs from the reference (missing, extra or other bytes) and how many editions the catalogue lists. */
async function sameAs(reference: Map<string, Buffer>, dir: string, editions: number): Promise<string> {
  const got = await outputs(dir);
  const names = new Set([...reference.keys(), ...got.keys()]);
  const differ = [...names].filter((n) => !reference.has(n) || !got.has(n) || !reference.get(n)!.equals(got.get(n)!));
  const listed = (JSON.parse(await readFile(path.join(dir, 'catalogue.json'), 'utf8')) as { editions: unknown[] }).editions.length;
  const catalogue = listed === editions ? '' : `; catalogue lists ${listed} of ${editions}`;
  return differ.length === 0 && catalogue === '' ? 'yes' : `no: ${differ.join(', ')}${catalogue}`;
}

/** The pages of a built collection, by its catalogue. */
async function pages(out: string): Promise<number> {
  const catalogue = JSON.parse(await readFile(path.join(out, 'catalogue.json'), 'utf8')) as { editions: Array<{ pages: number }> };
  return catalogue.editions.reduce((n, e) => n + e.pages, 0);
}

export async function run(): Promise<Record<string, number | string>> {
  const root = await mkdtemp(path.join(tmpdir(), 'diaoban-bench-collection-'));
  const coll = path.join(root, 'coll');
  const names: string[] = [];
  for (const entry of (await readdir(path.join(REPO, 'manuscript'), { withFileTypes: true })).filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!existsSync(path.join(REPO, 'manuscript', entry.name, 'edition.yaml'))) continue;
    await cp(path.join(REPO, 'manuscript', entry.name), path.join(coll, entry.name), { recursive: true });
    names.push(entry.name);
  }
  for (const file of (await readdir(CORPORA)).filter((f) => f.endsWith('.txt')).sort()) {
    const dir = path.join(coll, `corpus-${file.replace(/\.txt$/, '')}`);
    await mkdir(path.dirname(dir), { recursive: true });
    await initEdition(path.join(CORPORA, file), dir, '2026-01-01');
    names.push(path.basename(dir));
  }
  const limit = Number(process.env.DIAOBAN_BENCH_EDITIONS ?? 0);
  if (limit > 0) {
    // The smallest N: a quick look that a loaded machine can afford.
    const size = async (name: string): Promise<number> => {
      let bytes = 0;
      for (const f of await readdir(path.join(coll, name))) bytes += (await stat(path.join(coll, name, f))).size;
      return bytes;
    };
    const sizes = new Map(await Promise.all(names.map(async (n) => [n, await size(n)] as const)));
    names.sort((a, b) => sizes.get(a)! - sizes.get(b)! || a.localeCompare(b));
    for (const name of names.splice(limit)) await rm(path.join(coll, name), { recursive: true });
  }
  const editions = names.length;
  const env = (cache: string): NodeJS.ProcessEnv => ({ ...process.env, SOURCE_DATE_EPOCH: '1767225600', DIAOBAN_CACHE: path.join(root, cache), DIAOBAN_FONT_CACHE: path.join(root, 'fonts') });
  const figures: Record<string, number | string> = { editions };
  let redis: ChildProcess | undefined;
  try {
    // Warm the font cache (not measured).
    await timed(['build', 'coll', '--jobs', '2', '--out', 'warm'], env('cache-warm'), root).done;

    const one = await timed(['build', 'coll', '--jobs', '1', '--out', 'one'], env('cache-one'), root).done;
    const total = await pages(path.join(root, 'one'));
    figures['pages'] = total;
    figures['one process: s'] = one.seconds;
    figures['one process: editions/min'] = (editions / one.seconds) * 60;
    figures['one process: pages/s'] = total / one.seconds;
    figures['one process: peak MB'] = one.peak / 1048576;

    const two = await timed(['build', 'coll', '--jobs', '2', '--out', 'two'], env('cache-two'), root).done;
    figures['--jobs 2: s'] = two.seconds;
    figures['--jobs 2: editions/min'] = (editions / two.seconds) * 60;
    figures['--jobs 2: pages/s'] = total / two.seconds;
    figures['--jobs 2: speed-up over one'] = one.seconds / two.seconds;
    figures['--jobs 2: peak MB (all)'] = two.peak / 1048576;

    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 500));
    const add = await timed(['queue', 'add', 'coll', '--redis', url], env('cache-queue'), root).done;
    // The workers' font cache is --cache's: warmed like the others'.
    await cp(path.join(root, 'fonts'), path.join(root, 'qcache', 'fonts'), { recursive: true });
    const workers = [0, 1].map(() => timed(['worker', '--redis', url, '--root', root, '--out', 'queue', '--cache', path.join(root, 'qcache'), '--drain'], env('cache-queue'), root));
    const results = await Promise.all(workers.map((w) => w.done));
    const queueSeconds = Math.max(...results.map((r) => r.seconds));
    figures['queue, 2 workers: s'] = queueSeconds;
    figures['queue: editions/min'] = (editions / queueSeconds) * 60;
    figures['queue: pages/s'] = total / queueSeconds;
    figures['queue: overhead per edition, s'] = (queueSeconds - two.seconds) / editions;
    figures['queue add: s per edition'] = add.seconds / editions;
    figures['queue: peak MB per worker'] = Math.max(...results.map((r) => r.peak)) / 1048576;

    // Not timed: every way made the same bytes as one process, and each catalogue lists every edition;
    // three shards (on one process's cache) together make the same collection.
    const reference = await outputs(path.join(root, 'one'));
    figures['PDF + EPUB files'] = reference.size;
    figures['same bytes: --jobs 2'] = await sameAs(reference, path.join(root, 'two'), editions);
    // A worker writes a collection's outputs in its path inside --root.
    figures['same bytes: queue'] = await sameAs(reference, path.join(root, 'queue', 'coll'), editions);
    for (const k of [1, 2, 3]) await timed(['build', 'coll', '--shard', `${k}/3`, '--out', 'shards'], env('cache-one'), root).done;
    figures['same bytes: --shard 1/3 … 3/3'] = await sameAs(reference, path.join(root, 'shards'), editions);
  } finally {
    redis?.kill('SIGKILL');
    await rm(root, { recursive: true, force: true });
  }
  return figures;
}

