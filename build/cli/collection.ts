/**
 * `diaoban build DIR` for a collection: which editions (collection.yaml,
 * --shard), how many at once (--jobs), a progress bar on a terminal
 * (editions, pages per second, time left), each edition's messages as it
 * ends, and a summary table.
 */
import cliProgress from 'cli-progress';
import { forTerminal, say } from './terminal.js';
import type { VFileMessage } from 'vfile-message';
import { restoreMessage } from '../engine/build.js';
import { buildCollection, type CollectionBuildOptions, type EditionOutcome } from '../engine/collection-build.js';
import { inShard, readCollection, type CollectionEdition } from '../engine/collection.js';
import { findChromium, launchBrowser } from '../engine/browser.js';
import { lazyBrowser } from '../engine/lazy-browser.js';
import { countBySeverity, foldMessages, formatFolded, formatMessage, sortMessages } from '../engine/report.js';

export interface CollectionCommandOptions extends CollectionBuildOptions {
  jobs: number;
  shard?: { k: number; n: number };
  quiet?: boolean;
  verbose?: boolean;
}

function messageLines(messages: readonly VFileMessage[], options: { quiet?: boolean; verbose?: boolean }): string[] {
  const shown = messages.filter((m) => !(options.quiet && m.fatal === undefined));
  return options.verbose ? sortMessages(shown).map((m) => formatMessage(m)) : foldMessages(shown).map(formatFolded);
}

/** The summary: one row per edition, columns aligned (CJK titles count two columns). */
export function summaryTable(outcomes: readonly EditionOutcome[]): string[] {
  const width = (s: string): number => [...s].reduce((w, ch) => w + (/[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u.test(ch) ? 2 : 1), 0);
  const kib = (bytes: number | undefined): string => (bytes === undefined ? '-' : `${(bytes / 1024).toFixed(0)} KiB`);
  const rows = [
    ['edition', 'title', 'status', 'pages', 'PDF', 'EPUB', 'errors', 'warnings'],
    ...outcomes.map((o) => [o.name, o.entry.title, o.upToDate ? `${o.entry.status} (up to date)` : o.entry.status, String(o.entry.pages), kib(o.entry.pdf?.bytes), kib(o.entry.epub?.bytes), String(o.entry.errors), String(o.entry.warnings)]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => width(r[c]!))));
  const numeric = new Set([3, 4, 5, 6, 7]);
  return rows.map((r) => r.map((cell, c) => (numeric.has(c) ? ' '.repeat(widths[c]! - width(cell)) + cell : cell + ' '.repeat(widths[c]! - width(cell)))).join('  ').trimEnd());
}

/** Builds the collection in `dir`; returns the process's exit code (2 our bug, 1 an edition with errors or not built, 0 otherwise). */
export async function buildCollectionCommand(dir: string, options: CollectionCommandOptions): Promise<number> {
  const collection = await readCollection(dir, options.allowRead);
  const fileMessages = collection.file?.messages ?? [];
  for (const line of messageLines(fileMessages, options)) say(process.stderr, line);
  if (countBySeverity(fileMessages).error > 0) {
    say(process.stderr, `diaoban: ${dir}: collection.yaml cannot be used as it is; see the messages above`);
    return 1;
  }
  const editions: CollectionEdition[] = options.shard ? collection.editions.filter((e) => inShard(e.name, options.shard!)) : collection.editions;
  if (collection.editions.length === 0) {
    say(process.stderr, `diaoban: ${dir}: no edition folders here (folders with an edition.yaml), nor a collection.yaml naming them`);
    return 1;
  }
  // A missing browser stops the build before it starts, with the command that installs one.
  const executablePath = options.targets.pdf ? findChromium(options.chromium) : undefined;
  const buildOptions: CollectionBuildOptions = { ...options, ...(collection.shared ? { shared: collection.shared } : {}), ...(executablePath ? { chromium: executablePath } : {}) };
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let pages = 0;
  const bars = tty ? new cliProgress.MultiBar({ stream: process.stderr, format: 'editions [{bar}] {value}/{total} | {pps} pages/s | {eta_formatted} left | {last}', hideCursor: true, clearOnComplete: true, etaBuffer: 8 }, cliProgress.Presets.shades_classic) : undefined;
  const bar = bars?.create(editions.length, 0, { pps: '0.0', last: '' });
  const print = (text: string): void => {
    if (bars) bars.log(forTerminal(text) + '\n');
    else say(process.stderr, text);
  };
  if (options.shard) print(`shard ${options.shard.k}/${options.shard.n}: ${editions.length} of ${collection.editions.length} editions`);
  const outcomes = await buildCollection(editions, buildOptions, options.jobs, (outcome) => {
    pages += outcome.pagesBuilt;
    const messages = outcome.messages.map(restoreMessage);
    for (const line of [...messageLines(messages, options), ...(options.quiet ? outcome.lines.filter((l) => /not (built|written)/.test(l)) : outcome.lines)]) print(line);
    bar?.increment(1, { pps: (pages / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1), last: forTerminal(outcome.name) });
  }, () => lazyBrowser(() => launchBrowser({ executablePath })));
  bars?.stop();
  const seconds = (Date.now() - started) / 1000;
  for (const line of summaryTable(outcomes)) say(process.stdout, line);
  const failed = outcomes.filter((o) => !o.ok).length;
  const withErrors = outcomes.filter((o) => o.entry.errors > 0).length;
  say(process.stderr, `${editions.length} editions in ${seconds.toFixed(1)} s (${pages} pages printed, ${(pages / Math.max(seconds, 0.001)).toFixed(1)} pages/s); ${failed} not built, ${withErrors} with errors; catalogue: ${options.out}/index.html`);
  if (outcomes.some((o) => o.internal)) return 2;
  return failed > 0 || withErrors > 0 ? 1 : 0;
}
