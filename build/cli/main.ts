/**
 * diaoban's command line. The only stage that touches the file system and the
 * browser: it reads editions, runs the pure stages, prints diagnostics and
 * writes outputs atomically.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { VFileMessage } from 'vfile-message';
import type { PdfSettings, SourceFormat } from '../tree/edition.js';
import { FORMAT_NAMES } from '../parse/formats.js';
import { parsePageList } from '../layout/text.js';
import type { LoadedEdition } from '../engine/load.js';
import { countBySeverity, foldMessages, formatFolded, formatMessage, reportLayout, sortMessages } from '../engine/report.js';
import type { BuildResult, BuildTargets } from '../engine/build.js';
import type { UpToDate } from '../engine/up-to-date.js';
import { installSignalCleanup } from '../engine/cleanup.js';
import { volumeProgress } from './progress.js';
import { BUILD_PEAK_BYTES, defaultJobs, parseShard } from '../engine/jobs.js';
import { DEFAULT_QUEUE, DEFAULT_REDIS } from '../engine/queue-names.js';
import { jsonForTerminal, say } from './terminal.js';

// Each command imports the stages it runs when it runs (parse and transform
// with opencc's dictionaries, layout, fonts, the renderers with Puppeteer and
// epub-gen-memory): `--help` and a mistyped option load none of them.

/**
 * The coverage of an edition's main faces (its fonts.main, else its
 * template's, before the Debian stack), as the PDF sees it; a missing font is the user's to install, not a crash.
 */
async function fontCoverage(main: readonly string[] | undefined): Promise<(codePoint: number) => boolean> {
  const { coverage, editionFonts, loadFontTables } = await import('../fonts/index.js');
  try {
    // The cmaps are all coverage reads: not the 80 MB of the stack's outlines.
    return coverage(await loadFontTables(editionFonts(main).specs, ['cmap']));
  } catch (error) {
    throw new UserError(`the fonts could not be read (${(error as Error).message}); run: apt-get install fonts-noto-cjk fonts-hanazono fonts-cns11643-kai (scripts/setup.sh), or fix fonts in edition.yaml`);
  }
}

const FORMATS: SourceFormat[] = [...FORMAT_NAMES];

/** A mistake of the user's: printed as a message, never as a stack trace. */
export class UserError extends Error {}

export const INTERNAL_ADVICE = 'This is a bug in diaoban, not in your manuscript; please report it with the command you ran (DIAOBAN_DEBUG=1 prints the details).';

function formatOption() {
  return new Option('--format <format>', 'importer to use instead of detecting it').choices(FORMATS);
}

async function ensureExists(target: string): Promise<void> {
  try {
    await stat(target);
  } catch {
    throw new UserError(`${target}: no such file or folder; give an edition folder (with edition.yaml) or a source file`);
  }
}

function printMessages(messages: readonly VFileMessage[], options: { quiet?: boolean; verbose?: boolean } = {}): void {
  const shown = messages.filter((m) => !(options.quiet && m.fatal === undefined));
  if (options.verbose) for (const m of sortMessages(shown)) say(process.stderr, formatMessage(m));
  else for (const group of foldMessages(shown)) say(process.stderr, formatFolded(group));
}

/** An edition folder, a source file, or the name of an edition in manuscript/. */
function editionTarget(target: string): string {
  if (existsSync(target)) return target;
  const named = path.join('manuscript', target);
  return existsSync(path.join(named, 'edition.yaml')) ? named : target;
}

/** `check --script`: one line a one-to-many character, then each doubtful choice with its place and the readings weighed. */
async function printScriptReport(loaded: LoadedEdition): Promise<void> {
  const { scriptReport } = await import('../transform/script.js');
  const config = loaded.config!;
  const from = config.meta.sourceScript ?? config.meta.script;
  if (from === config.meta.script) {
    say(process.stdout, `${config.meta.id}: no script conversion (the sources are ${from})`);
    return;
  }
  const { rows, doubtful, characters } = scriptReport(loaded.parsed, from, config.meta.script, config.conversion, 3, loaded.tree.layers, loaded.conversion);
  const place = (p: { file: string; start: { line?: number; column?: number } }) => `${p.file}:${p.start.line}:${p.start.column}`;
  for (const row of rows) {
    const readings = row.readings.map((r) => `${r.reading} ×${r.count} (${r.how}) at ${r.places.map(place).join(', ')}${r.count > r.places.length ? ', …' : ''}`);
    say(process.stdout, `${row.char} ×${row.count}${row.doubtful > 0 ? ` (${row.doubtful} doubtful)` : ''}: ${readings.join('; ')}`);
  }
  say(process.stdout, `${config.meta.id}: ${doubtful.length} doubtful choices in ${characters} characters (${((doubtful.length / Math.max(1, characters)) * 10000).toFixed(1)} per 10,000)`);
  for (const d of doubtful) {
    const weighed = d.weighed.map((w) => `${w.reading} ${w.score.toFixed(2)}`).join(' ');
    say(process.stdout, `${place(d.place)} ${d.char}→${d.reading} (${d.how}${d.witness !== undefined ? `; the witness has ${d.witness || 'nothing'} here` : ''}) ${d.context}${weighed ? `: ${weighed}` : ''}`);
  }
}

async function load(target: string, format?: SourceFormat, allowRead?: string[]): Promise<LoadedEdition> {
  await ensureExists(target);
  const { loadEdition } = await import('../engine/load.js');
  return loadEdition(target, { format, allowRead });
}

/** --allow-read DIR, repeatable: folders the person running diaoban lets an edition's files come from. */
function allowReadOption(description = 'let editions read files in this folder too (repeatable); an edition reads only its own folder otherwise') {
  return new Option('--allow-read <dir>', description)
    .argParser((dir: string, previous: string[] = []) => {
      if (!existsSync(dir)) throw new InvalidArgumentError(`${dir}: no such folder`);
      return [...previous, dir];
    });
}

/** Edition folders under manuscript/ (those with an edition.yaml). */
async function allEditions(root = 'manuscript'): Promise<string[]> {
  if (!existsSync(root)) throw new UserError(`no ${root}/ folder here; run diaoban from the project folder or name the editions to build`);
  const entries = await readdir(root, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && existsSync(path.join(root, e.name, 'edition.yaml')))
    .map((e) => path.join(root, e.name))
    .sort();
}

function pageRange(value: string): number[] {
  const pages = parsePageList(value);
  if (!pages) throw new InvalidArgumentError('give pages as 1-4 or 1,3,5');
  return pages;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('give a whole number, 1 or more');
  return n;
}

function shardOption(value: string): { k: number; n: number } {
  const shard = parseShard(value);
  if (!shard) throw new InvalidArgumentError('give K/N with 1 ≤ K ≤ N, e.g. 2/4');
  return shard;
}

/** Counts of each word: "3 completed, 1 failed". */
function summarise(words: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].map(([w, n]) => `${n} ${w}`).join(', ') || 'none';
}

/** A Redis that cannot be reached, or that answers what no Redis would, is the user's to start or name, not our bug. */
async function withRedis<T>(url: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const message = (error as Error).message;
    const { RedisReplyError, QueueRefusal, UNREACHABLE } = await import('../engine/queue.js');
    if (error instanceof RedisReplyError || error instanceof QueueRefusal) throw new UserError(message);
    if (UNREACHABLE.test(message) || /redis:\/\/ URL|Invalid URL/i.test(message)) {
      throw new UserError(`cannot reach Redis at ${url} (${message.split('\n')[0]}); start it (redis-server) or give --redis redis://host:port`);
    }
    throw error;
  }
}

/** `--wait-redis <s>`: seconds, 0 for ever. */
function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('give seconds, 0 or more (0: wait for ever)');
  return n;
}

const BUILD_PEAK_GB = (BUILD_PEAK_BYTES / 1024 ** 3).toFixed(1);

function pagesOption(value: string): 'print' | 'source' {
  if (value !== 'print' && value !== 'source') throw new InvalidArgumentError('give print or source');
  return value;
}

/** `--pdf-standard`: screen, print, archive, or x-4 / x-1a (a print file as that PDF/X). */
function pdfStandardOption(value: string): PdfSettings {
  const v = value.trim().toLowerCase();
  if (v === 'screen' || v === 'print' || v === 'archive') return { standard: v };
  if (v === 'x-4' || v === 'x-1a') return { standard: 'print', pdfx: v };
  throw new InvalidArgumentError('give screen, print (PDF/X-4), x-1a (PDF/X-1a) or archive (PDF/A-2u)');
}

export function program(): Command {
  const cli = new Command('diaoban')
    .description('Typesetting pipeline for classical Chinese books: vertical PDF with 雙行夾注, layered EPUB')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });

  cli
    .command('build')
    .description('build every edition in manuscript/ (or those named, or a collection folder) into dist/')
    .argument('[editions...]', 'edition folders, or one collection folder (edition folders inside, or a collection.yaml); all of manuscript/ when none')
    .option('--pdf', 'build only PDFs')
    .option('--epub', 'build only EPUBs')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--notes <mode>', 'EPUB notes: inline, popup (the layers edition.yaml names) or popup=shu,fuzhu')
    .option('--pages <source>', "EPUB page list: print (the PDF's pages) or source (the source edition's, where recorded)", pagesOption, 'print')
    .option('--pdf-standard <standard>', "the PDF's standard instead of edition.yaml's pdf: screen, print (PDF/X-4), x-1a (PDF/X-1a) or archive (PDF/A-2u)", pdfStandardOption)
    .option('-q, --quiet', 'print only warnings and errors')
    .option('--verbose', 'list every message, repeated ones too')
    .addOption(allowReadOption())
    .option('--chromium <path>', 'the Chromium (or Chrome) to print with (default: PUPPETEER_EXECUTABLE_PATH, /usr/bin/chromium, chromium on PATH)')
    .option('--jobs <n>', `a collection: editions built at once (default: the cores, no more than the free memory holds at ${BUILD_PEAK_GB} GB a build)`, positiveInteger)
    .option('--shard <k/n>', 'a collection: build part K of N (by a hash of each edition\'s path, stable as editions come and go)', shardOption)
    .action(async (editions: string[], opts: { pdf?: boolean; epub?: boolean; out: string; notes?: string; pages: 'print' | 'source'; pdfStandard?: PdfSettings; quiet?: boolean; verbose?: boolean; allowRead?: string[]; chromium?: string; jobs?: number; shard?: { k: number; n: number } }) => {
      const targets: BuildTargets = { pdf: opts.pdf || !opts.epub, epub: opts.epub || !opts.pdf };
      if (editions.length === 1 && (await (await import('../engine/collection.js')).isCollection(editions[0]!))) {
        const { buildCollectionCommand } = await import('./collection.js');
        process.exitCode = await buildCollectionCommand(editions[0]!, { out: opts.out, targets, notes: opts.notes, pages: opts.pages, quiet: opts.quiet, verbose: opts.verbose, allowRead: opts.allowRead, chromium: opts.chromium, jobs: opts.jobs ?? defaultJobs(), shard: opts.shard });
        return;
      }
      if (opts.jobs !== undefined || opts.shard) throw new UserError('--jobs and --shard build a collection: give one collection folder (edition folders inside, or a collection.yaml)');
      const list = editions.length > 0 ? editions.map(editionTarget) : await allEditions();
      for (const dir of list) await ensureExists(dir);
      const buildOptions = { out: opts.out, targets, notes: opts.notes, pages: opts.pages, pdfStandard: opts.pdfStandard, allowRead: opts.allowRead };
      // An edition with nothing changed is answered before the engine loads (its modules are most of such a run).
      const { checkUpToDate, defaultCache } = await import('../engine/up-to-date.js');
      let failed = 0;
      let manuscriptErrors = 0;
      let internal = 0;
      // The renderers pull in Puppeteer and epub-gen-memory: loaded for the first edition that must be built.
      let engine: { build: (dir: string, checked: UpToDate) => Promise<BuildResult>; close: () => Promise<void> } | undefined;
      const loadEngine = async (): Promise<NonNullable<typeof engine>> => {
        const { buildEdition } = await import('../engine/build.js');
        const { lazyBrowser } = await import('../engine/lazy-browser.js');
        const { findChromium, launchBrowser } = await import('../engine/browser.js');
        // A missing browser stops the build before it starts, with the command that installs one.
        const executablePath = targets.pdf ? findChromium(opts.chromium) : undefined;
        // Launched only when a volume must be printed.
        const browser = lazyBrowser(() => launchBrowser({ executablePath }));
        return { build: (dir, checked) => buildEdition(dir, { ...buildOptions, progress: volumeProgress, browser: browser.get }, checked), close: () => browser.close() };
      };
      try {
        for (const dir of list) {
          const checked = await checkUpToDate(dir, buildOptions, defaultCache());
          const result = checked.result ?? (await (engine ??= await loadEngine()).build(dir, checked));
          printMessages(result.messages, { quiet: opts.quiet, verbose: opts.verbose });
          for (const line of result.lines) say(process.stderr, line);
          if (!result.ok) failed++;
          if (result.internal) internal++;
          manuscriptErrors += countBySeverity(result.messages).error;
        }
      } finally {
        await engine?.close();
      }
      if (failed > 0) process.stderr.write(`diaoban: ${failed} of ${list.length} editions could not be built completely; see the messages above\n`);
      if (internal > 0) process.stderr.write(`${INTERNAL_ADVICE}\n`);
      // 2: our bug; 1: errors in a manuscript or an output not written (what was written is whole); 0: warnings at most.
      process.exitCode = internal > 0 ? 2 : failed > 0 || manuscriptErrors > 0 ? 1 : 0;
    });

  const redisOption = () => new Option('--redis <url>', 'the Redis the queue lives in').default(DEFAULT_REDIS);
  const queueOption = () => new Option('--queue <name>', 'the queue\'s name').default(DEFAULT_QUEUE);
  const queue = cli.command('queue').description('a collection built by many machines through a job queue (BullMQ on Redis)');
  queue
    .command('add')
    .description('enqueue one job per edition of a collection whose inputs (its digest) have no job yet')
    .argument('<collection>', 'collection folder (edition folders inside, or a collection.yaml), on storage every worker sees')
    .addOption(redisOption())
    .addOption(queueOption())
    .option('--root <dir>', 'the folder the workers are started with (worker --root): jobs name the collection by its path inside it (default: the collection\'s parent folder)')
    .option('--pdf', 'build only PDFs')
    .option('--epub', 'build only EPUBs')
    .option('--shard <k/n>', 'enqueue part K of N', shardOption)
    .addOption(allowReadOption('folders outside the editions their files come from, read to tell versions apart (the workers read only what their own --allow-read lets them)'))
    .action(async (dir: string, opts: { redis: string; queue: string; root?: string; pdf?: boolean; epub?: boolean; shard?: { k: number; n: number }; allowRead?: string[] }) => {
      await ensureExists(dir);
      const { readCollection, inShard } = await import('../engine/collection.js');
      const { enqueueCollection, collectionPath } = await import('../engine/queue.js');
      const allowRead = opts.allowRead?.map((d) => path.resolve(d));
      const collection = await readCollection(dir, allowRead);
      const fileMessages = collection.file?.messages ?? [];
      printMessages(fileMessages);
      if (countBySeverity(fileMessages).error > 0) throw new UserError(`${dir}: the collection cannot be used as it is; see the messages above`);
      if (collection.editions.length === 0) throw new UserError(`${dir}: no edition folders here (folders with an edition.yaml), nor a collection.yaml naming them`);
      const editions = opts.shard ? collection.editions.filter((e) => inShard(e.name, opts.shard!)) : collection.editions;
      const targets: BuildTargets = { pdf: opts.pdf || !opts.epub, epub: opts.epub || !opts.pdf };
      const name = await withRedis(opts.redis, () => collectionPath(opts.root ?? path.dirname(path.resolve(dir)), dir));
      const { added, known } = await withRedis(opts.redis, () => enqueueCollection(collection, editions, { targets, ...(allowRead ? { allowRead } : {}) }, { url: opts.redis, queue: opts.queue }, name));
      for (const label of added) say(process.stdout, `${label}: enqueued`);
      say(process.stderr, `${added.length} job${added.length === 1 ? '' : 's'} enqueued, ${known.length} edition${known.length === 1 ? '' : 's'} already queued or built (${summarise(known.map((k) => k.state))}); workers build them with --root ${opts.root ?? path.dirname(path.resolve(dir))} (the collection is ${name} there)`);
    });
  queue
    .command('status')
    .description('per collection: waiting, active, stalled, delayed, done, superseded and failed jobs; each failed job with its messages')
    .addOption(redisOption())
    .addOption(queueOption())
    .option('--json', 'print the status as JSON')
    .action(async (opts: { redis: string; queue: string; json?: boolean }) => {
      const { queueStatus } = await import('../engine/queue.js');
      const status = await withRedis(opts.redis, () => queueStatus({ url: opts.redis, queue: opts.queue }));
      if (opts.json) {
        process.stdout.write(jsonForTerminal(JSON.stringify(status, null, 1)) + '\n');
        if (status.collections.some((c) => c.failed.length > 0) || status.invalid.length > 0) process.exitCode = 1;
        return;
      }
      if (status.collections.length === 0 && status.invalid.length === 0) say(process.stdout, `queue ${opts.queue}: no jobs`);
      for (const c of status.collections) {
        const n = c.counts;
        say(process.stdout, `${c.collection}: waiting ${n.waiting}, active ${n.active} (stalled ${n.stalled}), delayed (to retry) ${n.delayed}, done ${n.completed}, superseded ${n.superseded}, failed ${n.failed}`);
        for (const j of c.stalled) say(process.stdout, `  stalled: ${j.name} (its worker stopped answering; a worker takes it again when its lock expires)`);
        for (const j of c.superseded) say(process.stdout, `  superseded: ${j.name} (a later version was enqueued; its job writes the outputs)`);
        for (const f of c.failed) {
          say(process.stdout, `  failed: ${f.name} (after ${f.attempts} attempt${f.attempts === 1 ? '' : 's'})`);
          for (const line of f.reason.split('\n')) say(process.stdout, `    ${line}`);
        }
      }
      if (status.invalid.length > 0) {
        say(process.stdout, `not jobs of diaoban: ${status.invalid.length} (written into Redis by something else than queue add; they fail when taken)`);
        for (const j of status.invalid.slice(0, 20)) say(process.stdout, `  ${j.state} ${j.id}: ${j.problem}`);
      }
      if (status.collections.some((c) => c.failed.length > 0) || status.invalid.length > 0) process.exitCode = 1;
    });

  cli
    .command('worker')
    .description('take jobs from the queue and build each edition into the shared output folder (runs until stopped)')
    .addOption(redisOption())
    .addOption(queueOption())
    .requiredOption('--root <dir>', 'the folder jobs name their collections in (queue add --root): nothing outside it is built')
    .option('--out <dir>', 'output folder, on storage every worker sees (a collection\'s outputs in its path inside --root)', 'dist')
    .option('--cache <dir>', 'the build and font caches (safe to share between workers): <dir>/build, <dir>/fonts')
    .addOption(allowReadOption())
    .option('--drain', 'stop when the queue has nothing left: none waiting, retrying or active (a stalled job is taken first)')
    .option('--wait-redis <s>', 'stop (exit 1) when Redis has not answered for this many seconds; 0: wait for ever', seconds, 300)
    .option('--lock-ms <ms>', 'how long a job stays locked to a worker that has stopped answering (BullMQ lockDuration)', positiveInteger)
    .option('--chromium <path>', 'the Chromium (or Chrome) to print with (default: PUPPETEER_EXECUTABLE_PATH, /usr/bin/chromium, chromium on PATH)')
    .action(async (opts: { redis: string; queue: string; root: string; out: string; cache?: string; allowRead?: string[]; drain?: boolean; waitRedis: number; lockMs?: number; chromium?: string }) => {
      if (!existsSync(opts.root) || !statSync(opts.root).isDirectory()) throw new UserError(`--root ${opts.root}: no such folder; give the folder that holds the collections (as queue add --root names it)`);
      const { runWorker } = await import('../engine/queue.js');
      const worker = await withRedis(opts.redis, () =>
        runWorker({
          url: opts.redis,
          queue: opts.queue,
          root: path.resolve(opts.root),
          out: path.resolve(opts.out),
          ...(opts.cache ? { cacheDir: path.resolve(opts.cache, 'build'), fontCache: path.resolve(opts.cache, 'fonts') } : {}),
          ...(opts.allowRead ? { allowRead: opts.allowRead.map((d) => path.resolve(d)) } : {}),
          ...(opts.chromium ? { chromium: opts.chromium } : {}),
          ...(opts.lockMs ? { lockMs: opts.lockMs } : {}),
          drain: opts.drain,
          waitRedisMs: opts.waitRedis * 1000,
          log: (line) => say(process.stderr, line),
        }),
      );
      say(process.stderr, `worker ${process.pid}: waiting for jobs on ${opts.redis} (queue ${opts.queue}, root ${opts.root})`);
      const { gaveUp } = await worker.done;
      // The worker closed all it opened; ioredis keeps timers of handshakes a vanished server never answered (30 s each): they do not hold the process.
      setTimeout(() => process.exit(), 1000).unref();
      if (gaveUp) throw new UserError(gaveUp);
    });

  cli
    .command('tree')
    .description('print the document tree of an edition or a source file as JSON')
    .argument('<target>', 'edition folder, source file, or a folder of a work\'s files')
    .addOption(formatOption())
    .option('--raw', 'the tree as parsed, before script conversion and layers')
    .addOption(allowReadOption())
    .action(async (target: string, opts: { format?: SourceFormat; raw?: boolean; allowRead?: string[] }) => {
      await ensureExists(target);
      const { loadEdition } = await import('../engine/load.js');
      const loaded = await loadEdition(target, { format: opts.format, raw: opts.raw, allowRead: opts.allowRead });
      printMessages(loaded.messages, { quiet: true });
      process.stdout.write(jsonForTerminal(JSON.stringify(opts.raw ? loaded.parsed : loaded.tree, null, 1)) + '\n');
    });

  cli
    .command('check')
    .description('report problems as file:line:col severity message (rule); exit 1 on errors')
    .argument('<targets...>', 'edition folders, source files, or folders of a work\'s files')
    .addOption(formatOption())
    .option('-q, --quiet', 'leave out info messages')
    .option('--no-fonts', 'do not check that the fonts draw every character')
    .option('--verbose', 'list every message, repeated ones too')
    .option('--script', 'list each one-to-many character of the script conversion: its readings, counts, how each was chosen and where')
    .option('--corrections', 'list each correction with where it stands after layout (leaf, side, line, PDF page)')
    .option('--json', 'print the import report of every source as JSON: format and how sure, figures, title and where it came from, anomalies, verdict (ok, check, wrong)')
    .addOption(allowReadOption())
    .action(async (targets: string[], opts: { format?: SourceFormat; quiet?: boolean; fonts: boolean; verbose?: boolean; script?: boolean; corrections?: boolean; json?: boolean; allowRead?: string[] }) => {
      let errors = 0;
      const { importReports } = await import('./import-reports.js');
      const { verdictLine } = await import('../parse/import-report.js');
      const reports: unknown[] = [];
      const { reportUncovered } = await import('../transform/coverage.js');
      const { reporterFor } = await import('../transform/report.js');
      // Editions share the Debian stack as a rule: read each distinct stack once.
      const coverages = new Map<string, Promise<(codePoint: number) => boolean>>();
      if (opts.fonts) {
        // The stack's cmaps are read while the first edition loads (most use the stack as it is).
        const stack = fontCoverage(undefined);
        stack.catch(() => undefined);
        coverages.set(JSON.stringify([]), stack);
      }
      for (const target of targets.map(editionTarget)) {
        const loaded = await load(target, opts.format, opts.allowRead);
        if (opts.script && loaded.config) await printScriptReport(loaded);
        if (opts.fonts) {
          const main = loaded.config ? (await import('../fonts/roles.js')).mainFaces(loaded.config) : undefined;
          const key = JSON.stringify(main ?? []);
          if (!coverages.has(key)) coverages.set(key, fontCoverage(main));
          reportUncovered(loaded.tree, await coverages.get(key)!, reporterFor(loaded.files));
        }
        // layout: source — the layout says how many source lines and pages it found, and which lines it wrapped.
        if (loaded.config?.layout.source) {
          const { layoutBook, pageSpecFor } = await import('../layout/index.js');
          reportLayout(layoutBook(loaded.tree, pageSpecFor(loaded.config.meta.template, loaded.config.layout)), loaded.files);
        }
        const messages = loaded.files.flatMap((f) => f.messages);
        printMessages(messages, { quiet: opts.quiet, verbose: opts.verbose });
        errors += countBySeverity(messages).error;
        // One verdict line a source: a batch reads only the texts it flags.
        const sourceReports = importReports(loaded);
        for (const r of sourceReports) if (!(opts.quiet && r.verdict === 'ok')) say(process.stderr, verdictLine(r));
        reports.push(...sourceReports);
        if (opts.corrections && loaded.config) {
          const { listCorrections } = await import('./corrections-list.js');
          for (const line of await listCorrections(loaded.tree, loaded.config)) say(process.stdout, line);
        }
      }
      if (opts.json) process.stdout.write(jsonForTerminal(JSON.stringify(reports, null, 1)) + '\n');
      if (errors > 0) process.exitCode = 1;
    });

  cli
    .command('collate')
    .description("collate an edition with its witnesses (edition.yaml witnesses:) and print the apparatus")
    .argument('<edition>', 'edition folder')
    .option('--json', 'print the apparatus as JSON (entries: volume, place, base, readings, kind; variant forms; figures)')
    .addOption(allowReadOption())
    .action(async (target: string, opts: { json?: boolean; allowRead?: string[] }) => {
      const loaded = await load(target, undefined, opts.allowRead);
      printMessages(loaded.messages, { quiet: true });
      if (!loaded.config) throw new UserError(`${target}: the edition cannot be read; see the messages above`);
      if (!loaded.collation) throw new UserError(`${target}: no witness to collate with; name them in edition.yaml (witnesses: - { siglum: 四庫本, path: wyg })`);
      const { apparatusLines, apparatusReport } = await import('../collate/report.js');
      const report = apparatusReport(loaded.tree, loaded.collation);
      if (opts.json) process.stdout.write(jsonForTerminal(JSON.stringify(report, null, 1)) + '\n');
      else for (const line of apparatusLines(report)) say(process.stdout, line);
    });

  cli
    .command('layout')
    .description('lay out an edition on its grid and print pages as text (or JSON)')
    .argument('<target>', 'edition folder or source file')
    .addOption(formatOption())
    .option('--json', 'print the layout as JSON')
    .option('--pages <list>', 'pages to print: 1-4 or 1,3,5', pageRange)
    .option('--template <name>', 'grid template (siku, modern) instead of the edition\'s')
    .addOption(allowReadOption())
    .action(async (target: string, opts: { format?: SourceFormat; json?: boolean; pages?: number[]; template?: string; allowRead?: string[] }) => {
      const loaded = await load(target, opts.format, opts.allowRead);
      printMessages(loaded.messages, { quiet: true });
      const config = loaded.config;
      if (!config) throw new UserError(`${target}: the edition cannot be read; see the messages above`);
      const { formatLayout, layoutBook, pageSpecFor } = await import('../layout/index.js');
      const spec = pageSpecFor(opts.template ?? config.meta.template, config.layout);
      const layout = layoutBook(loaded.tree, spec);
      const shown = formatLayout(layout, { json: opts.json, pages: opts.pages });
      // Pages as text are many lines, each encoded; JSON stays JSON.
      if (opts.json) process.stdout.write(jsonForTerminal(shown) + '\n');
      else for (const line of shown.split('\n')) say(process.stdout, line);
    });

  cli
    .command('watch')
    .description('rebuild an edition on every save and preview it in a browser (PDF beside EPUB, diagnostics, changed pages)')
    .argument('<edition>', 'edition folder')
    .option('--port <n>', 'port on 127.0.0.1 (default: any free port)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('give a port from 0 to 65535');
      return n;
    }, 0)
    .option('--out <dir>', 'output folder', 'dist')
    .addOption(allowReadOption())
    .option('--chromium <path>', 'the Chromium (or Chrome) to print with (default: PUPPETEER_EXECUTABLE_PATH, /usr/bin/chromium, chromium on PATH)')
    .action(async (dir: string, opts: { port: number; out: string; allowRead?: string[]; chromium?: string }) => {
      await ensureExists(dir);
      const { watchEdition } = await import('./watch.js');
      const { lazyBrowser } = await import('../engine/lazy-browser.js');
      const { findChromium, launchBrowser } = await import('../engine/browser.js');
      const executablePath = findChromium(opts.chromium);
      const browser = lazyBrowser(() => launchBrowser({ executablePath }));
      const session = await watchEdition(dir, { port: opts.port, out: opts.out, browser, allowRead: opts.allowRead });
      await new Promise<void>((done) => {
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => done());
      });
      await session.close();
    });

  cli
    .command('diff')
    .description('which pages the last build changed: per volume the first and last page and the count')
    .argument('<edition>', 'edition folder')
    .option('--out <dir>', 'output folder the edition was built into', 'dist')
    .option('--json', 'print the changed pages (PDF page numbers and leaves) and the new corrections as JSON')
    .option('--html', 'write <out>/<edition>.diff.html with before/after images of the changed pages')
    .action(async (dir: string, opts: { out: string; json?: boolean; html?: boolean }) => {
      await ensureExists(dir);
      const { defaultCache } = await import('../engine/build.js');
      const { diffReport, diffText, readManifest, writeDiffHtml } = await import('./diff.js');
      const cache = defaultCache();
      const manifest = await readManifest(cache, dir, opts.out);
      if (!manifest) throw new UserError(`${dir}: no build of this edition into ${opts.out}/ yet; run: diaoban build ${dir}`);
      if (opts.json) process.stdout.write(jsonForTerminal(JSON.stringify(diffReport(manifest).report, null, 1)) + '\n');
      else for (const line of diffText(manifest)) say(process.stdout, line);
      if (opts.html) {
        const target = await writeDiffHtml(manifest, cache, path.join(opts.out, `${manifest.edition}.diff.html`));
        say(process.stderr, `${target}: written`);
      }
    });

  cli
    .command('init')
    .description('make an edition folder from a source file, or from a folder of a work\'s files (a Kanripo repository): the sources and an edition.yaml filled in from what the text says')
    .argument('<source>', 'source file (.txt, .md), or a folder of a work\'s files (Kanripo: its KRxxxxx_NNN.txt juan files)')
    .argument('[dir]', 'edition folder to create (default: manuscript/<name>)')
    .action(async (source: string, dir: string | undefined) => {
      await ensureExists(source);
      const { initEdition } = await import('./init.js');
      try {
        const { initWitnesses } = await import('../engine/witnesses.js');
        const made = await initEdition(source, dir, { witnesses: (folder, base) => initWitnesses(folder, '.', base) });
        say(process.stderr, `${made.dir}/edition.yaml: ${made.title}: ${made.summary}`);
        say(process.stderr, `build it with: diaoban build ${made.dir}`);
      } catch (error) {
        throw new UserError((error as Error).message);
      }
    });

  cli
    .command('import')
    .description('write a source in diaoban\'s Markdown manuscript convention')
    .argument('<file>', 'source file')
    .addOption(formatOption())
    .option('-o, --output <file>', 'write here instead of standard output')
    .action(async (file: string, opts: { format?: SourceFormat; output?: string }) => {
      const loaded = await load(file, opts.format);
      printMessages(loaded.messages, { quiet: true });
      const { toMarkdown } = await import('../tree/to-markdown.js');
      const markdown = toMarkdown(loaded.parsed);
      if (opts.output) await (await import('../engine/write.js')).writeFileAtomic(opts.output, markdown);
      else process.stdout.write(markdown);
    });

  return cli;
}

export async function main(argv: string[], cli: Command = program()): Promise<void> {
  // Chromium's process group and the temp files go on any exit, Ctrl-C included.
  installSignalCleanup();
  try {
    await cli.parseAsync(argv);
  } catch (error) {
    // 1: the user's to fix (a missing folder, no build yet, no Chromium); 2: our bug.
    if (error instanceof UserError || (error instanceof Error && error.name === 'BrowserError')) {
      say(process.stderr, `diaoban: ${error.message}`);
      process.exitCode = 1;
      return;
    } else {
      const err = error as Error;
      say(process.stderr, `diaoban: internal error: ${err.message}`);
      say(process.stderr, INTERNAL_ADVICE);
      if (process.env.DIAOBAN_DEBUG) process.stderr.write(`${err.stack ?? ''}\n`);
    }
    process.exitCode = 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('main.ts')) {
  await main(process.argv);
}
