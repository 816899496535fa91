/**
 * Benchmark of the grid layout: all 17 volumes of 禮經本義
 * (manuscript/lijing-benyi), tree loaded once, layout timed alone.
 * Target: the whole book in under one second. `layoutPerLoad` compares
 * the layout with parse + transform of the same book, measured in this run.
 */
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { layoutBook, pageSpecFor } from '../build/layout/index.js';
import { loadSample } from '../build/engine/samples.js';

const WORK = 'lijing-benyi';
const RUNS = 7;

export async function run(): Promise<Record<string, number | string>> {
  const l0 = performance.now();
  const { config, tree } = await loadSample(WORK);
  const msLoad = performance.now() - l0;
  const spec = pageSpecFor(config.meta.template, config.layout);

  const times: number[] = [];
  let pages = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const book = layoutBook(tree, spec);
    times.push(performance.now() - t0);
    pages = book.volumes.reduce((n, v) => n + v.pages.length, 0);
  }
  const msFirst = times[0];
  const sorted = [...times].sort((a, b) => a - b);
  const msTotal = sorted[Math.floor(sorted.length / 2)];
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    volumes: tree.children.length,
    pages,
    msFirst: round(msFirst),
    msTotal: round(msTotal),
    msPerPage: round(msTotal / pages),
    budgetShare: round(msFirst / 1000),
    msLoad: round(msLoad),
    layoutPerLoad: round(msTotal / msLoad),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await run());
}
