/**
 * Benchmark of the PDF: 禮經本義 (1,039 pages on the 四庫 grid) built end to
 * end as `diaoban build --pdf` builds it — load, layout, fonts, Chromium,
 * pdf-lib, write — with an empty build cache, against the floor
 * (bench/floor.ts: the same text naively laid out, printed by Chromium
 * alone), both from loading the edition to PDF bytes, in the same run.
 * The font cache is warm for both (made once before timing; its cold cost
 * is reported apart: it is paid once per machine and font, not per build).
 *
 * Memory: the whole process tree (this Node process and Chromium), RSS
 * summed and PSS summed (shared pages such as mapped fonts counted once),
 * sampled every 100 ms; for the book and for the book twice over (34
 * volumes, `doubled_*`), to see that it grows with the book no faster than
 * linearly.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser, processTreeMemory, type OfflineBrowser } from '../build/engine/browser.js';
import { BuildCache } from '../build/engine/cache.js';
import { buildEdition } from '../build/engine/build.js';
import { loadEdition } from '../build/engine/load.js';
import { printFontSources, renderOptionsFor } from '../build/engine/pdf.js';
import { layoutBook, pageSpecFor } from '../build/layout/index.js';
import { planPages, printedChars } from '../build/render/pdf/index.js';
import { REPO } from '../build/engine/samples.js';
import { naivePages, printFloor } from './floor.js';

const WORK = join(REPO, 'manuscript', 'lijing-benyi');
/** Floor and real builds timed side by side this many times (the median ratio is reported). */
const PAIRS = 3;

/** Peak memory of this process tree while `work` runs. */
export async function peakMemory<T>(work: () => Promise<T>): Promise<{ result: T; rss: number; pss: number }> {
  let rss = 0;
  let pss = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const m = await processTreeMemory(process.pid);
      rss = Math.max(rss, m.rss);
      pss = Math.max(pss, m.pss);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return { result: await work(), rss, pss };
  } finally {
    sampling = false;
    await sampler;
  }
}

/** Timed without memory sampling (reading /proc costs the work time); memory is measured in runs of its own. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await work();
  return { ms: performance.now() - t0, result };
}

/** The floor, end to end: load the edition, lay it out naively, print it. */
async function floor(dir: string, fontCache: string): Promise<{ pages: number }> {
  const { tree, config } = await loadEdition(dir);
  if (!config) throw new Error(`${dir}: edition.yaml unusable`);
  const pages = naivePages(tree, 8, 21);
  const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
  const { options, fonts } = await renderOptionsFor(layout, config);
  // The same fonts as the real build, for the whole book at once (already in the warm cache).
  const sources = await printFontSources(config.fonts.main, fonts, [...printedChars(planPages(layout), options)].join(''), fontCache);
  const browser: OfflineBrowser = await launchBrowser();
  try {
    return await printFloor(browser, pages, sources);
  } finally {
    await browser.close();
  }
}

/** The real build of the PDF, end to end, with an empty build cache (its own browser, launched when needed). */
async function real(dir: string, out: string, fontCache: string): Promise<{ pages: number }> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'diaoban-bench-cache-'));
  try {
    const result = await buildEdition(dir, { out, targets: { pdf: true, epub: false }, progress: false, cache: new BuildCache(cacheDir), fontCache });
    if (!result.ok) throw new Error(result.lines.join('\n'));
    return { pages: Number(/(\d+) pages/.exec(result.lines.join(' '))?.[1] ?? 0) };
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** The edition with its source listed twice: the book twice over. */
async function doubled(dir: string): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'diaoban-bench-double-'));
  await cp(dir, copy, { recursive: true });
  const yaml = await readFile(join(copy, 'edition.yaml'), 'utf8');
  await writeFile(join(copy, 'edition.yaml'), yaml.replace(/sources:\n((?:\s+- .*\n?)+)/, (_, list: string) => `sources:\n${list.trimEnd()}\n${list.trimEnd()}\n`));
  return copy;
}

export async function run(): Promise<Record<string, number | string>> {
  const dir = await mkdtemp(join(tmpdir(), 'diaoban-bench-pdf-'));
  const fontCache = join(dir, 'fonts');
  const twice = await doubled(WORK);
  try {
    // Cold font cache: the first build on a machine (per-volume TrueType subsets, converted glyphs banked).
    const cold = await timed(() => real(WORK, join(dir, 'out-cold'), fontCache));
    const floorPages = (await floor(WORK, fontCache)).pages; // warm-up, as the cold build is the real one's
    // Pairs of a floor and a real build, one after the other, so that each ratio compares builds made under the same
    // load of this shared machine; the median pair is the figure.
    const pairs: Array<{ floor: number; real: number; pages: number }> = [];
    for (let k = 0; k < PAIRS; k++) {
      const f = await timed(() => floor(WORK, fontCache));
      const r = await timed(() => real(WORK, join(dir, `out-${k}`), fontCache));
      pairs.push({ floor: f.ms, real: r.ms, pages: r.result.pages });
    }
    const ratios = pairs.map((p) => p.real / p.floor);
    const middle = pairs[ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor(PAIRS / 2)])];
    await real(twice, join(dir, 'out-double-warm'), fontCache);
    const double = await timed(() => real(twice, join(dir, 'out-double'), fontCache));
    const realMemory = await peakMemory(() => real(WORK, join(dir, 'out-mem'), fontCache));
    const floorMemory = await peakMemory(() => floor(WORK, fontCache));
    const doubleMemory = await peakMemory(() => real(twice, join(dir, 'out-double-mem'), fontCache));
    const mb = (b: number): number => Math.round(b / 1e6);
    const s = (ms: number): number => Math.round(ms / 100) / 10;
    return {
      pages: middle.pages,
      floor_pages: floorPages,
      real_s: s(middle.real),
      floor_s: s(middle.floor),
      ratio: Math.round((middle.real / middle.floor) * 100) / 100,
      ratios: ratios.map((r) => r.toFixed(2)).join(' '),
      real_runs_s: pairs.map((p) => (p.real / 1000).toFixed(1)).join(' '),
      floor_runs_s: pairs.map((p) => (p.floor / 1000).toFixed(1)).join(' '),
      real_ms_per_page: Math.round((middle.real / middle.pages) * 10) / 10,
      cold_font_cache_s: s(cold.ms),
      real_peak_rss_mb: mb(realMemory.rss),
      real_peak_pss_mb: mb(realMemory.pss),
      floor_peak_pss_mb: mb(floorMemory.pss),
      doubled_pages: double.result.pages,
      doubled_s: s(double.ms),
      doubled_peak_pss_mb: mb(doubleMemory.pss),
      pss_growth_per_1000_pages_mb: mb(((doubleMemory.pss - realMemory.pss) / (double.result.pages - middle.pages)) * 1000),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(twice, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
