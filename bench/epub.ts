/**
 * Benchmark of the EPUB renderer: 禮經本義 (manuscript/lijing-benyi, 17
 * volumes), the tree loaded once (parse + transform not timed), fonts read
 * from disk once (timed apart: the CLI may cache them). `render_ms` is
 * renderEpub whole — XHTML, font subsetting, cover, epub-gen-memory, zip.
 * Target: under 3 s. `first_render_ms` is the cold first build in the
 * process (what a one-shot `diaoban build` pays); `render_ms` the median of
 * the next runs.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadEdition } from '../build/engine/load.js';
import { loadSystemFonts } from '../build/fonts/load.js';
import { subsetFonts } from '../build/fonts/subset.js';
import { renderEpub } from '../build/render/epub/index.js';

const WORK = 'lijing-benyi';
const RUNS = 3;
const TARGET_MS = 3000;
const REPO = path.resolve(import.meta.dirname, '..');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<Record<string, number | string>> {
  const { tree, config } = await loadEdition(path.join(REPO, 'manuscript', WORK));
  let t = performance.now();
  const fonts = await loadSystemFonts();
  const fontLoadMs = performance.now() - t;
  const popupLayers = config?.popupLayers ?? [];

  t = performance.now();
  let bytes = await renderEpub(tree, { fonts, popupLayers }); // cold: HarfBuzz wasm compile, JIT
  const firstMs = performance.now() - t;
  const render: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    bytes = await renderEpub(tree, { fonts, popupLayers });
    render.push(performance.now() - t);
  }
  // Subsetting alone, on the book's text as the tree holds it (a close stand-in for the rendered text).
  const text = JSON.stringify(tree.children);
  const subset: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    await subsetFonts(fonts, text);
    subset.push(performance.now() - t);
  }
  const renderMs = median(render);
  const subsetMs = median(subset);
  return {
    work: WORK,
    volumes: tree.children.length,
    epub_bytes: bytes.byteLength,
    first_render_ms: Math.round(firstMs),
    render_ms: Math.round(renderMs),
    first_render_vs_target: firstMs / TARGET_MS,
    render_vs_target: renderMs / TARGET_MS,
    subset_ms: Math.round(subsetMs),
    subset_share_of_render: subsetMs / renderMs,
    font_load_ms_once: Math.round(fontLoadMs),
    render_plus_font_load_vs_target: (renderMs + fontLoadMs) / TARGET_MS,
  };
}
