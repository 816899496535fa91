/**
 * Benchmark of rebuilding 禮經本義 (PDF + EPUB) from a cold start: every
 * build is a new `diaoban build` process of the compiled bin, as a user or a
 * CI script runs it, so nothing is kept but what the build cache holds on
 * disk (the warm figures, one process with its memory, are bench/rebuild.ts).
 * Rounds of: a clean build (an empty build cache; the font cache warm, as on
 * any machine that has built once), nothing changed, a correction changing
 * one character to one the book has. Each figure is the median of five
 * rounds, each rebuild timed in a round with its own clean build (the
 * machine is shared and noisy), with its ratio to the clean build in the
 * same run. Rebuilds are checked against a clean build of the same
 * manuscript: the PDF and the EPUB must be byte-identical.
 * Targets: one character ≤ 10 %, nothing changed ≤ 3 % of clean.
 *
 * Beside them, the floor of any rebuild that prints (bench/printer-start.mjs:
 * a process that starts Node, the printing modules, Chromium and one tab
 * with Paged.js, and prints nothing), timed in the same rounds.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureCompiled, timedCliBuild } from './cli-build.js';
import { BASE_CORRECTIONS, editionWithCorrections, fixEntry, median, REPEAT, uniqueSpot } from './rebuild.js';

interface Built {
  ms: number;
  pdf: Buffer;
  epub: Buffer;
  stderr: string;
}

export async function run(): Promise<Record<string, number | string>> {
  ensureCompiled();
  const root = await mkdtemp(join(tmpdir(), 'diaoban-bench-cold-'));
  const dir = await editionWithCorrections(root);
  const out = join(root, 'dist');
  const fontCache = join(root, 'fonts');
  const setCorrections = (extra = ''): Promise<void> => writeFile(join(dir, 'corrections.yaml'), BASE_CORRECTIONS + extra);

  /** One `diaoban build` process with the build cache in `cacheDir`, timed from spawn to exit. */
  const build = async (cacheDir: string): Promise<Built> => {
    const { ms, stderr } = await timedCliBuild(dir, out, { DIAOBAN_CACHE: cacheDir, DIAOBAN_FONT_CACHE: fontCache });
    return { ms, stderr, pdf: await readFile(join(out, 'lijing-benyi.pdf')), epub: await readFile(join(out, 'lijing-benyi.epub')) };
  };
  let cleanRuns = 0;
  const clean = (): Promise<Built> => build(join(root, `clean-${cleanRuns++}`));
  const same = (p: Built, q: Built): string => (p.pdf.equals(q.pdf) && p.epub.equals(q.epub) ? 'yes' : 'NO');
  try {
    // Warm-up, not timed: the font cache and the page cache (the bin, node_modules, the fonts).
    await clean();
    const session = join(root, 'session');
    await build(session);
    const spots: string[] = [];
    for (let k = 0; k < REPEAT; k++) spots.push(await uniqueSpot(dir, 8, k));

    const starts: number[] = [];
    const cleans: Built[] = [];
    const nones: Built[] = [];
    const ones: Built[] = [];
    const identity: string[] = [];
    let fixes = '';
    for (let k = 0; k < REPEAT; k++) {
      cleans.push(await clean());
      if (k > 0) identity.push(`one-char ${same(ones[k - 1], cleans[k])}`);
      nones.push(await build(session));
      fixes += fixEntry(spots[k], '之', '一字之改');
      await setCorrections(fixes);
      ones.push(await build(session));
      starts.push(await printerStart());
    }
    identity.push(`one-char ${same(ones[REPEAT - 1], await clean())}`);

    const cleanMs = median(cleans.map((c) => c.ms));
    const pct = (ms: number): number => Math.round((ms / cleanMs) * 1000) / 10;
    const noneMs = median(nones.map((b) => b.ms));
    const oneMs = median(ones.map((b) => b.ms));
    return {
      clean_cold_s: Math.round(cleanMs / 100) / 10,
      clean_cold_runs_s: cleans.map((c) => (c.ms / 1000).toFixed(1)).join(' '),
      nothing_changed_cold_ms: Math.round(noneMs),
      nothing_changed_cold_runs_ms: nones.map((b) => Math.round(b.ms)).join(' '),
      nothing_changed_cold_pct_of_clean: pct(noneMs),
      one_char_cold_ms: Math.round(oneMs),
      one_char_cold_runs_ms: ones.map((b) => Math.round(b.ms)).join(' '),
      one_char_cold_pct_of_clean: pct(oneMs),
      printer_start_ms: Math.round(median(starts)),
      printer_start_pct_of_clean: pct(median(starts)),
      one_char_cold_report: (ones[1].stderr.split('\n').find((l) => /changed \(/.test(l)) ?? '').trim(),
      identical_to_clean_cold: identity.join(', '),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** bench/printer-start.mjs in a process of its own, timed from spawn to exit (ms). */
function printerStart(): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [new URL('./printer-start.mjs', import.meta.url).pathname], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done(performance.now() - t0) : fail(new Error(`printer-start.mjs exited ${code}`))));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
