/**
 * Benchmark of the grid layout: all 17 volumes of 禮經本義
 * (manuscript/lijing-benyi), tree loaded once, layout timed alone.
 * Target: the whole book in under one second.
 *
 * Uses build/cli/load.ts (parse + transform). While that cannot load yet (a
 * stage missing), falls back to the parser alone, untransformed — `source`
 * in the result says which.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { EditionConfig } from '../build/tree/edition.js';
import type { Root } from '../build/tree/types.js';
import { layoutBook, pageSpecFor } from '../build/layout/index.js';
import { findLoader, REPO } from '../build/layout/sample-trees.js';

const WORK = 'lijing-benyi';
const RUNS = 7;

interface Parser {
  parseEditionYaml(file: unknown, id: string): { config: EditionConfig | null };
  parseEdition(config: EditionConfig, files: unknown[]): { tree: Root };
}

/** The parser alone, for as long as load.ts cannot run. */
async function parseOnly(dir: string): Promise<{ config: EditionConfig; tree: Root }> {
  const parser = (await import(pathToFileURL(path.join(REPO, 'build/parse/index.ts')).href)) as Parser;
  const { VFile } = await import('vfile');
  const yamlPath = path.join(dir, 'edition.yaml');
  const { config } = parser.parseEditionYaml(new VFile({ path: yamlPath, value: await readFile(yamlPath, 'utf8') }), WORK);
  if (!config) throw new Error(`${yamlPath} is unusable`);
  const files = await Promise.all(
    config.sources.map(async (s) => new VFile({ path: s, value: new Uint8Array(await readFile(path.join(dir, s))) })),
  );
  return { config, tree: parser.parseEdition(config, files).tree };
}

export async function run(): Promise<Record<string, number | string>> {
  const dir = path.join(REPO, 'manuscript', WORK);
  const loader = await findLoader();
  let source: string;
  let loaded: { config: EditionConfig | null; tree: Root };
  if ('loadEdition' in loader) {
    source = 'loadEdition';
    loaded = await loader.loadEdition(dir);
  } else {
    source = 'parse only (load.ts not loadable yet)';
    loaded = await parseOnly(dir);
  }
  const { config, tree } = loaded;
  if (!config) throw new Error(`${WORK}: edition.yaml is unusable`);
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
    source,
    volumes: tree.children.length,
    pages,
    msFirst: round(msFirst),
    msTotal: round(msTotal),
    msPerPage: round(msTotal / pages),
    budgetShare: round(msFirst / 1000),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(await run());
}
