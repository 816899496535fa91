/**
 * Benchmark of rebuilding 禮經本義 (PDF + EPUB) after a correction, each
 * figure a ratio to a clean build measured in the same run, as an editor's
 * session sees it (one process, the browser and the build cache's memory
 * kept between builds, as `diaoban watch` keeps them):
 * - clean: an empty build cache (the font cache warm, as on any machine that
 *   has built once; the cold font cost is in bench/pdf.ts),
 * - nothing changed,
 * - a correction changing one character to a character already in the book,
 * - a correction bringing in a character new to the book (its volume's font
 *   subsets change; the other volumes' do not).
 * Each figure is the median of five builds, each rebuild timed in a round
 * with its own clean build (the machine is shared and noisy: three were too few to
 * tell a figure from the noise). Rebuilds are checked
 * against clean builds of the same manuscript: the PDF and the EPUB must be
 * byte-identical; and a one-character fix must change one page of text.
 * Targets: ≤ 10 %, ≤ 20 %, ≤ 5 % of clean.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BuildCache } from '../build/engine/cache.js';
import { buildEdition, type BuildResult } from '../build/engine/build.js';
import { lazyBrowser } from '../build/engine/lazy-browser.js';
import { keepEpubThread } from '../build/engine/epub-thread.js';
import { loadEdition } from '../build/engine/load.js';
import { REPO } from '../build/engine/samples.js';
import { spawn } from 'node:child_process';
import { processTreeMemory } from '../build/engine/browser.js';
import { peakMemory } from './pdf.js';

export const WORK = join(REPO, 'manuscript', 'lijing-benyi');
export const REPEAT = 5;
/** Characters no sample has, one a round. */
export const NEW_CHARACTERS = ['龘', '齉', '龗', '靐', '齾'];
/** The edition as an editor has it: a corrections file with the example. */
export const BASE_CORRECTIONS = '- find: 前儒所未及\n  replace: 先儒所未及\n  note: 據文淵閣本改\n  source: 文淵閣本\n';

/** A correction entry changing the second character of `spot` to `to` (to 也 where it is `to` already). */
export function fixEntry(spot: string, to: string, note: string): string {
  const [a, b, ...rest] = Array.from(spot);
  return `- find: ${spot}\n  replace: ${a}${b === to ? '也' : to}${rest.join('')}\n  note: ${note}\n`;
}

/** A copy of 禮經本義 in `root` with the corrections file named in its edition.yaml. */
export async function editionWithCorrections(root: string): Promise<string> {
  const dir = join(root, 'lijing-benyi');
  await cp(WORK, dir, { recursive: true });
  await writeFile(join(dir, 'edition.yaml'), `${await readFile(join(dir, 'edition.yaml'), 'utf8')}corrections: corrections.yaml\n`);
  await writeFile(join(dir, 'corrections.yaml'), BASE_CORRECTIONS);
  return dir;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A run of six Han characters that occurs once in the book, from the second half of volume `index`. */
export async function uniqueSpot(dir: string, index: number, skip = 0): Promise<string> {
  const { tree, parsed } = await loadEdition(dir);
  const source = JSON.stringify(parsed.children);
  const values = JSON.stringify(tree.children[index]).match(/"value":"([^"\\]{12,})"/g) ?? [];
  let found = 0;
  for (const value of values.slice(Math.floor(values.length / 2))) {
    const run = value.slice(9, 9 + 6);
    if (/^\p{Script=Han}{6}$/u.test(run) && source.split(run).length === 2 && found++ === skip) return run;
  }
  throw new Error('no unique run of six characters found');
}

/** Peak PSS of `diaoban build --out out dir` and its children (Chromium), sampled every 100 ms. */
async function cliPeakMemory(dir: string, out: string, cacheDir: string, fontCache: string): Promise<number> {
  const child = spawn(process.execPath, [join(REPO, 'bin', 'diaoban.js'), 'build', '--quiet', '--out', out, dir], {
    env: { ...process.env, DIAOBAN_CACHE: cacheDir, DIAOBAN_FONT_CACHE: fontCache },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  let peak = 0;
  let running = true;
  void exited.then(() => (running = false));
  while (running) {
    peak = Math.max(peak, (await processTreeMemory(child.pid!)).pss);
    await new Promise((r) => setTimeout(r, 100));
  }
  if ((await exited) !== 0) throw new Error(`diaoban build failed:\n${stderr}`);
  return peak;
}

export async function run(): Promise<Record<string, number | string>> {
  const root = await mkdtemp(join(tmpdir(), 'diaoban-bench-rebuild-'));
  const dir = await editionWithCorrections(root);
  const out = join(root, 'dist');
  const fontCache = join(root, 'fonts');
  const setCorrections = (extra = ''): Promise<void> => writeFile(join(dir, 'corrections.yaml'), BASE_CORRECTIONS + extra);
  const browser = lazyBrowser();
  // The EPUB's worker kept between builds, as watch keeps it.
  keepEpubThread();
  // One cache a session, as watch keeps it: its memory (parsed sources, transformed volumes, layouts) lives with it.
  const caches = new Map<string, BuildCache>();
  // Timed builds are not sampled for memory (reading /proc costs the build time); one extra clean build is.
  const build = async (cacheDir: string): Promise<{ ms: number; result: BuildResult; pdf: Buffer; epub: Buffer }> => {
    const cache = caches.get(cacheDir) ?? new BuildCache(cacheDir);
    // Only the session's cache is kept (with its memory); a clean build's is let go after it.
    if (cacheDir.endsWith('session')) caches.set(cacheDir, cache);
    const t0 = performance.now();
    const result = await buildEdition(dir, { out, targets: { pdf: true, epub: true }, progress: false, cache, fontCache, browser: browser.get });
    const ms = performance.now() - t0;
    if (!result.ok) throw new Error(result.lines.join('\n'));
    return { ms, result, pdf: await readFile(join(out, 'lijing-benyi.pdf')), epub: await readFile(join(out, 'lijing-benyi.epub')) };
  };
  let cleanRuns = 0;
  const clean = () => build(join(root, `clean-${cleanRuns++}`));
  try {
    // Warm-up, not timed: the font cache, Chromium started, the code's first run.
    await clean();
    const session = join(root, 'session');
    await build(session);

    // One character to one the book has (之 or 也), in volume 9; one new to the book, in volume 13: one of each a round.
    const spots: string[] = [];
    const later: string[] = [];
    for (let k = 0; k < REPEAT; k++) {
      spots.push(await uniqueSpot(dir, 8, k));
      later.push(await uniqueSpot(dir, 12, k));
    }
    const identity: string[] = [];
    const same = (p: { pdf: Buffer; epub: Buffer }, q: { pdf: Buffer; epub: Buffer }): string => (p.pdf.equals(q.pdf) && p.epub.equals(q.epub) ? 'yes' : 'NO');
    // Rounds of: a clean build, nothing changed, one character, a new character — each rebuild timed near its clean build.
    const cleans: Array<Awaited<ReturnType<typeof build>>> = [];
    const nones: number[] = [];
    const ones: Array<Awaited<ReturnType<typeof build>>> = [];
    const news: Array<Awaited<ReturnType<typeof build>>> = [];
    let fixes = '';
    for (let k = 0; k < REPEAT; k++) {
      cleans.push(await clean());
      // A clean build of the manuscript the last rebuild made: the same bytes.
      if (k > 0) identity.push(`new-char ${same(news[k - 1], cleans[k])}`);
      nones.push((await build(session)).ms);
      fixes += fixEntry(spots[k], '之', '一字之改');
      await setCorrections(fixes);
      ones.push(await build(session));
      if (k === 0) identity.push(`one-char ${same(ones[0], await clean())}`);
      fixes += fixEntry(later[k], NEW_CHARACTERS[k], '新字');
      await setCorrections(fixes);
      news.push(await build(session));
    }
    identity.push(`new-char ${same(news[REPEAT - 1], await clean())}`);

    // Pages of the text (the 校勘記's own pages change too: they list the new entry).
    const pagesChanged = (r: BuildResult): number => (r.changes ?? []).reduce((n, v) => n + v.pages.length, 0);
    const cleanMs = median(cleans.map((c) => c.ms));
    const pct = (ms: number): number => Math.round((ms / cleanMs) * 1000) / 10;
    const oneMs = median(ones.map((o) => o.ms));
    const newMs = median(news.map((o) => o.ms));
    const noneMs = median(nones);
    return {
      pages: cleans[0].result.manifest?.pages.length ?? 0,
      clean_s: Math.round(cleanMs / 100) / 10,
      clean_runs_s: cleans.map((c) => (c.ms / 1000).toFixed(1)).join(' '),
      nothing_changed_ms: Math.round(noneMs),
      nothing_changed_pct_of_clean: pct(noneMs),
      one_char_ms: Math.round(oneMs),
      one_char_runs_ms: ones.map((o) => Math.round(o.ms)).join(' '),
      one_char_pct_of_clean: pct(oneMs),
      one_char_text_pages_changed: ones.map((o) => pagesChanged(o.result)).join(' '),
      one_char_report: (ones[1].result.lines.find((l) => /changed \(/.test(l)) ?? '').trim(),
      new_char_ms: Math.round(newMs),
      new_char_runs_ms: news.map((o) => Math.round(o.ms)).join(' '),
      new_char_pct_of_clean: pct(newMs),
      identical_to_clean: identity.join(', '),
      // A clean build as `diaoban build` runs it (a process of its own, an empty build cache), and one at the end of this session.
      clean_cli_peak_pss_mb: Math.round((await cliPeakMemory(dir, join(root, 'cli-out'), join(root, 'cli-cache'), fontCache)) / 1e6),
      clean_in_session_peak_pss_mb: Math.round((await peakMemory(() => clean())).pss / 1e6),
    };
  } finally {
    await browser.close();
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
