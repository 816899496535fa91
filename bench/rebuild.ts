/**
 * Benchmark of rebuilding 禮經本義 (PDF + EPUB) after a correction, each
 * figure a ratio to a clean build measured in the same run, as an editor's
 * session sees it (one process, the browser kept between builds, as `diaoban
 * watch` does):
 * - clean: empty build cache (the font cache warm, as on any machine that
 *   has built once; the cold font cost is in bench/pdf.ts),
 * - nothing changed,
 * - a correction changing one character to a character already in the book,
 * - a correction bringing in a character new to the book (its volume's font
 *   subset changes; the other volumes' do not).
 * Each rebuild is checked: the PDF and EPUB are byte-identical to a clean
 * build of the same manuscript, and the one-character fix changes one page.
 * Targets: ≤ 10 %, ≤ 20 %, ≤ 5 % of clean.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BuildCache } from '../build/cli/cache.js';
import { buildEdition, type BuildResult } from '../build/cli/build.js';
import { lazyBrowser } from '../build/cli/lazy-browser.js';
import { loadEdition } from '../build/cli/load.js';
import { REPO } from '../build/layout/sample-trees.js';
import { peakMemory } from './pdf.js';

const WORK = join(REPO, 'manuscript', 'lijing-benyi');

/** A run of `n` characters that occurs once in the source, in volume `volume` (by its text), and a character to put in its middle. */
export async function uniqueSpot(dir: string, volumeIndex: number): Promise<string> {
  const { tree, parsed } = await loadEdition(dir);
  const source = JSON.stringify(parsed.children);
  const text = JSON.stringify(tree.children[volumeIndex]).match(/"value":"([^"\\]{12,})"/g) ?? [];
  for (const value of text.slice(Math.floor(text.length / 2))) {
    const run = value.slice(9, 9 + 6);
    if (/^\p{Script=Han}{6}$/u.test(run) && source.split(run).length === 2) return run;
  }
  throw new Error('no unique run of six characters found');
}

export async function run(): Promise<Record<string, number | string>> {
  const root = await mkdtemp(join(tmpdir(), 'diaoban-bench-rebuild-'));
  const dir = join(root, 'lijing-benyi');
  const out = join(root, 'dist');
  const fontCache = join(root, 'fonts');
  await cp(WORK, dir, { recursive: true });
  // The edition as an editor has it: a corrections file with the example.
  await writeFile(join(dir, 'edition.yaml'), `${await readFile(join(dir, 'edition.yaml'), 'utf8')}corrections: corrections.yaml\n`);
  const base = '- find: 前儒所未及\n  replace: 先儒所未及\n  note: 據文淵閣本改\n  source: 文淵閣本\n';
  await writeFile(join(dir, 'corrections.yaml'), base);
  const browser = lazyBrowser();
  // One cache a session, as watch keeps it: its memory (parsed sources, transformed volumes, layouts) lives with it.
  const caches = new Map<string, BuildCache>();
  const build = async (cacheDir: string): Promise<{ ms: number; result: BuildResult; pdf: Buffer; epub: Buffer; pss: number }> => {
    const cache = caches.get(cacheDir) ?? new BuildCache(cacheDir);
    caches.set(cacheDir, cache);
    const t0 = performance.now();
    const { result, pss } = await peakMemory(() =>
      buildEdition(dir, { out, targets: { pdf: true, epub: true }, progress: false, cache, fontCache, browser: browser.get }),
    );
    const ms = performance.now() - t0;
    if (!result.ok) throw new Error(result.lines.join('\n'));
    return { ms, result, pss, pdf: await readFile(join(out, 'lijing-benyi.pdf')), epub: await readFile(join(out, 'lijing-benyi.epub')) };
  };
  try {
    // Warm-up, not timed: the font cache, Chromium started, the code's first run.
    const warm = join(root, 'cache-warm');
    await build(warm);

    const session = join(root, 'cache');
    const clean = await build(session);
    const none = await build(session);

    const spot = await uniqueSpot(dir, 8);
    const [a, b, c, ...rest] = Array.from(spot);
    const existing = b === '之' ? '也' : '之';
    await writeFile(join(dir, 'corrections.yaml'), `${base}- find: ${spot}\n  replace: ${a}${existing}${c}${rest.join('')}\n  note: 一字之改\n`);
    const one = await build(session);
    const oneClean = await build(join(root, 'cache-clean-1'));

    const later = await uniqueSpot(dir, 12);
    const [x, , ...tail] = Array.from(later);
    const fresh = '龘';
    await writeFile(join(dir, 'corrections.yaml'), `${base}- find: ${spot}\n  replace: ${a}${existing}${c}${rest.join('')}\n  note: 一字之改\n- find: ${later}\n  replace: ${x}${fresh}${tail.join('')}\n`);
    const newChar = await build(session);
    const newClean = await build(join(root, 'cache-clean-2'));

    const identical = (p: typeof one, q: typeof one): string => (p.pdf.equals(q.pdf) && p.epub.equals(q.epub) ? 'yes' : 'NO');
    // Pages of the text (the 校勘記's own pages change too: they list the new entry).
  const pagesChanged = (r: BuildResult): number => (r.changes ?? []).reduce((n, v) => n + v.pages.length, 0);
    const pct = (ms: number): number => Math.round((ms / clean.ms) * 1000) / 10;
    return {
      pages: clean.result.manifest?.pages.length ?? 0,
      clean_s: Math.round(clean.ms / 100) / 10,
      nothing_changed_ms: Math.round(none.ms),
      nothing_changed_pct_of_clean: pct(none.ms),
      one_char_ms: Math.round(one.ms),
      one_char_pct_of_clean: pct(one.ms),
      one_char_pages_changed: pagesChanged(one.result),
      one_char_report: (one.result.lines.find((l) => /changed \(/.test(l)) ?? '').trim(),
      one_char_identical_to_clean: identical(one, oneClean),
      new_char_ms: Math.round(newChar.ms),
      new_char_pct_of_clean: pct(newChar.ms),
      new_char_pages_changed: pagesChanged(newChar.result),
      new_char_identical_to_clean: identical(newChar, newClean),
      clean_peak_pss_mb: Math.round(clean.pss / 1e6),
    };
  } finally {
    await browser.close();
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
