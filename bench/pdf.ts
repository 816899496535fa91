/**
 * Benchmark of the PDF stage: the 禮經本義 PDF (about 900 pages on the siku
 * grid) through Paged.js, against the floor — the same HTML pages printed by
 * Chromium alone (no Paged.js), through the same runs, tabs and
 * post-processing. Reports ms/page of both, their ratio, and peak memory
 * (the Chromium processes' RSS summed, and their PSS summed — shared
 * pages such as the mapped fonts counted once — sampled from /proc every 100 ms).
 *
 * Uses the real layout of manuscript/lijing-benyi. BENCH_TABS=1 prints on one
 * tab instead of two (less memory, about twice the time).
 *
 * Also times the TrueType subset of Noto Serif CJK TC the PDF prints with
 * (subset-font + scripts/cff2ttf.py): cold (empty cache, the first build of
 * a text) and warm (cache hit, every rebuild); both builds above are warm.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser, processTreeMemory } from '../build/cli/browser.js';
import { printFontSources, renderOptionsFor, writePdf } from '../build/cli/pdf.js';
import { planPages, printedChars } from '../build/render/pdf/index.js';
import { layoutBook, pageSpecFor } from '../build/layout/index.js';
import type { BookLayout } from '../build/layout/types.js';
import type { EditionConfig } from '../build/tree/edition.js';
import { loadSample } from '../build/cli/samples.js';

async function lijingBenyi(): Promise<{ layout: BookLayout; config: EditionConfig }> {
  const { config, tree } = await loadSample('lijing-benyi');
  return { layout: layoutBook(tree, pageSpecFor(config.meta.template, config.layout)), config };
}

async function measure(
  layout: BookLayout,
  config: EditionConfig,
  mode: 'paged' | 'plain',
  out: string,
): Promise<{ ms: number; pages: number; peakRss: number; peakPss: number }> {
  const browser = await launchBrowser();
  let peak = 0;
  let peakPss = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      if (browser.pid) {
        const m = await processTreeMemory(browser.pid);
        peak = Math.max(peak, m.rss);
        peakPss = Math.max(peakPss, m.pss);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    const t0 = performance.now();
    const result = await writePdf(layout, config, out, { browser, mode, concurrency: Number(process.env.BENCH_TABS ?? 2) });
    const ms = performance.now() - t0;
    return { ms, pages: result.pages, peakRss: peak, peakPss };
  } finally {
    sampling = false;
    await sampler;
    await browser.close();
  }
}

async function fontPreparation(layout: BookLayout, config: EditionConfig, dir: string): Promise<{ cold: number; warm: number; chars: number }> {
  const { options, fonts } = await renderOptionsFor(layout, config);
  const text = [...printedChars(planPages(layout), options)].join('');
  const cache = join(dir, 'font-cache');
  const time = async (): Promise<number> => {
    const t0 = performance.now();
    await printFontSources(config.fonts.main, fonts, text, dir, cache);
    return performance.now() - t0;
  };
  const cold = await time();
  const warm = await time();
  return { cold, warm, chars: [...text].length };
}

export async function run(): Promise<Record<string, number | string>> {
  const { layout, config } = await lijingBenyi();
  const dir = await mkdtemp(join(tmpdir(), 'diaoban-bench-'));
  try {
    const font = await fontPreparation(layout, config, dir);
    const floor = await measure(layout, config, 'plain', join(dir, 'floor.pdf'));
    const paged = await measure(layout, config, 'paged', join(dir, 'paged.pdf'));
    const mb = (b: number): number => Math.round(b / 1e6);
    return {
      pages: paged.pages,
      paged_ms_per_page: Math.round((paged.ms / paged.pages) * 10) / 10,
      floor_ms_per_page: Math.round((floor.ms / floor.pages) * 10) / 10,
      ratio: Math.round((paged.ms / floor.ms) * 100) / 100,
      paged_total_s: Math.round(paged.ms / 100) / 10,
      floor_total_s: Math.round(floor.ms / 100) / 10,
      paged_peak_rss_mb: mb(paged.peakRss),
      floor_peak_rss_mb: mb(floor.peakRss),
      paged_peak_pss_mb: mb(paged.peakPss),
      floor_peak_pss_mb: mb(floor.peakPss),
      printed_chars: font.chars,
      ttf_subset_cold_ms: Math.round(font.cold),
      ttf_subset_warm_ms: Math.round(font.warm),
      ttf_subset_cold_per_page_ms: Math.round((font.cold / paged.pages) * 10) / 10,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
