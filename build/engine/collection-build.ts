/**
 * A collection built on one machine: each edition through buildEdition (the
 * engine's one entry point), `jobs` at a time. One job builds in this
 * process; more fork that many build processes (collection-child.ts), each
 * with its own Chromium, taking the next edition when done, so that a big
 * book does not hold the small ones up. An edition's failure, even its build
 * process dying, is its own: the others go on. Every outcome is recorded in
 * the output folder's catalogue.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { buildEdition, storeMessage, type BuildOptions, type BuildResult, type StoredMessage } from './build.js';
import { BuildCache } from './cache.js';
import { recordBuild, recordFailure, writeCatalogue, type CatalogueEntry } from './catalogue.js';
import type { CollectionEdition } from './collection.js';
import { lazyBrowser, type LazyBrowser } from './lazy-browser.js';
import type { SharedSettings } from './load.js';
import type { OutputGate } from './write.js';

const refuse: OutputGate = async () => false;

/** What a collection build asks of each edition's build: plain data, sent to the build processes as it is. */
export interface CollectionBuildOptions {
  out: string;
  targets: BuildOptions['targets'];
  notes?: string;
  pages?: 'print' | 'source';
  allowRead?: readonly string[];
  shared?: SharedSettings;
  /** The build cache's folder (default: the checkout's .cache/build or DIAOBAN_CACHE). */
  cacheDir?: string;
  /** The font cache's folder (default: .cache/fonts or DIAOBAN_FONT_CACHE). */
  fontCache?: string;
  /** The Chromium to print with. */
  chromium?: string;
}

/** One edition's build, as plain data (what a build process sends back, what the queue keeps). */
export interface EditionOutcome {
  name: string;
  entry: CatalogueEntry;
  messages: StoredMessage[];
  lines: string[];
  ok: boolean;
  internal: boolean;
  upToDate: boolean;
  /** A later version of the edition was enqueued while this one was built: not all of its outputs were written, nor its record. */
  superseded: boolean;
  /** Pages printed (0 when up to date). */
  pagesBuilt: number;
}

const caches = new Map<string, BuildCache>();
function cacheAt(dir: string | undefined): BuildCache | undefined {
  if (!dir) return undefined;
  let cache = caches.get(dir);
  if (!cache) caches.set(dir, (cache = new BuildCache(dir)));
  return cache;
}

/**
 * Where an edition of a collection writes its outputs: named by its path in
 * the collection (shiji/zhonghua → <out>/shiji/zhonghua.pdf), so that two
 * editions of one folder name in different places never write one file.
 */
export function editionOut(out: string, name: string): string {
  return path.join(out, path.dirname(name));
}

/** One edition of a collection built and recorded in the output folder's catalogue (not the index: the caller writes that). */
export async function buildCollectionEdition(
  edition: CollectionEdition,
  options: CollectionBuildOptions,
  browser?: LazyBrowser,
  queued?: { digest: string; gate: OutputGate },
): Promise<{ result: BuildResult; outcome: EditionOutcome }> {
  const cache = cacheAt(options.cacheDir);
  const result = await buildEdition(edition.dir, {
    out: editionOut(options.out, edition.name),
    targets: options.targets,
    ...(options.notes ? { notes: options.notes } : {}),
    ...(options.pages ? { pages: options.pages } : {}),
    ...(options.allowRead ? { allowRead: options.allowRead } : {}),
    ...(options.shared ? { shared: options.shared } : {}),
    ...(cache ? { cache } : {}),
    ...(options.fontCache ? { fontCache: options.fontCache } : {}),
    ...(browser ? { browser: browser.get } : {}),
    ...(queued ? { gate: queued.gate } : {}),
  });
  // A superseded build records nothing: the catalogue is the later version's to write.
  const { entry, recorded } = await recordBuild(options.out, edition.name, result, queued?.digest, result.superseded ? refuse : queued?.gate);
  const outcome: EditionOutcome = {
    name: edition.name,
    entry,
    messages: result.messages.map(storeMessage),
    lines: result.lines,
    ok: result.ok,
    internal: result.internal,
    upToDate: result.upToDate === true,
    superseded: !recorded,
    pagesBuilt: result.upToDate ? 0 : entry.pages,
  };
  return { result, outcome };
}

/** An outcome for an edition whose build process died under it: a fault of the machine, not the edition's; recorded as failed in the catalogue. */
async function deadOutcome(edition: CollectionEdition, why: string, out: string): Promise<EditionOutcome> {
  const line = `${edition.name}: not built: ${why}`;
  return { name: edition.name, entry: await recordFailure(out, edition.name, line), messages: [], lines: [line], ok: false, internal: false, upToDate: false, superseded: false, pagesBuilt: 0 };
}

/**
 * Builds `editions` (`jobs` at a time), calling `onOutcome` as each ends,
 * then writes the catalogue. Returns the outcomes in the editions' order.
 */
export async function buildCollection(
  editions: readonly CollectionEdition[],
  options: CollectionBuildOptions,
  jobs: number,
  onOutcome: (outcome: EditionOutcome) => void,
  launchBrowser: () => LazyBrowser,
): Promise<EditionOutcome[]> {
  const outcomes = new Map<string, EditionOutcome>();
  const done = (outcome: EditionOutcome): void => {
    outcomes.set(outcome.name, outcome);
    onOutcome(outcome);
  };
  if (jobs <= 1 || editions.length <= 1) {
    const browser = launchBrowser();
    try {
      for (const edition of editions) done((await buildCollectionEdition(edition, options, browser)).outcome);
    } finally {
      await browser.close();
    }
  } else {
    const queue = [...editions];
    await Promise.all(Array.from({ length: Math.min(jobs, editions.length) }, () => runChild(queue, options, done)));
  }
  await writeCatalogue(options.out);
  return editions.map((e) => outcomes.get(e.name)!);
}

/** A build process taking editions from `queue` until it is empty; a new one replaces it if it dies, and the edition it had fails. */
async function runChild(queue: CollectionEdition[], options: CollectionBuildOptions, done: (outcome: EditionOutcome) => void): Promise<void> {
  while (queue.length > 0) {
    const child: ChildProcess = fork(new URL(import.meta.url.endsWith('.ts') ? './collection-child.mjs' : './collection-child.js', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let current: CollectionEdition | undefined;
    const next = (): void => {
      current = queue.shift();
      child.send(current ? { edition: current, options } : { stop: true });
    };
    child.on('message', (m: { ready?: boolean; outcome?: EditionOutcome }) => {
      if (m.outcome) {
        current = undefined;
        done(m.outcome);
      }
      next();
    });
    const why = await new Promise<string>((resolve) => {
      child.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`));
      child.on('error', (error) => resolve(error.message));
    });
    if (current) done(await deadOutcome(current, `its build process ended (${why}); build it again`, options.out));
  }
}
