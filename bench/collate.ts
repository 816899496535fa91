/**
 * The collation of witnesses: 潛夫論 (11 juan) and 貞觀政要 (11 juan) of
 * Kanripo's 四部叢刊 text against the 文淵閣 branch (../shared/corpora/),
 * warm (one process: parse, align and classify, median of three) and cold
 * (a new process running `diaoban collate --json`); the alignment alone on
 * one juan against jsdiff's Myers on the same units, in the same run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { diffArrays } from 'diff';
import { VFile } from 'vfile';
import { defaultEdition, parseEdition } from '../build/parse/index.js';
import { collateEdition } from '../build/collate/index.js';
import { alignUnits } from '../build/align/index.js';
import { volumeUnits } from '../build/collate/stream.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPORA = path.join(ROOT, '..', 'shared', 'corpora');
const files = (dir: string): VFile[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => new VFile({ path: f, value: readFileSync(path.join(dir, f)) }));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  for (const [work, name] of [['KR3a0010', 'qianfulun'], ['KR2e0006', 'zhenguan']] as const) {
    const times: number[] = [];
    let result;
    for (let k = 0; k < 3; k++) {
      const config = defaultEdition(work, []);
      const start = performance.now();
      const { tree, sources } = parseEdition(config, files(path.join(CORPORA, 'kanripo', work)));
      result = collateEdition(tree, config, [{ siglum: '四庫本', files: files(path.join(CORPORA, 'witnesses', `${work}-WYG`)) }], sources)!;
      times.push(performance.now() - start);
    }
    const [stats] = result!.collation.stats;
    out[`${name} characters (base)`] = stats.units;
    out[`${name} places aligned`] = stats.aligned;
    out[`${name} readings (entries)`] = result!.collation.entries.length;
    out[`${name} variant forms folded`] = stats.variants;
    out[`${name} warm ms (parse+collate)`] = Math.round(median(times));
  }
  // One juan: 貞觀政要 卷二 (the longest), the alignment alone, and Myers on the same units.
  const config = defaultEdition('j', []);
  const juan = (dir: string): string[] => volumeUnits(parseEdition(config, files(dir).filter((f) => f.path === 'KR2e0006_002.txt')).tree.children[0]).map((u) => u.value);
  const a = juan(path.join(CORPORA, 'kanripo', 'KR2e0006'));
  const b = juan(path.join(CORPORA, 'witnesses', 'KR2e0006-WYG'));
  const anchored: number[] = [];
  for (let k = 0; k < 3; k++) {
    const t = performance.now();
    alignUnits(a, b);
    anchored.push(performance.now() - t);
  }
  out['one juan: characters'] = `${a.length} against ${b.length}`;
  out['one juan: align ms'] = Math.round(median(anchored));
  // Myers alone (jsdiff, once, given up after 60 s): what the anchors save.
  const t = performance.now();
  const plain = diffArrays(a, b, { timeout: 60_000 });
  const myers = performance.now() - t;
  out['one juan: jsdiff Myers ms'] = plain ? Math.round(myers) : `> ${Math.round(myers)} (gave up)`;
  out['one juan: Myers / align'] = plain ? myers / median(anchored) : `> ${(myers / median(anchored)).toFixed(0)}`;
  // Cold: a new process, the command as a user runs it.
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-bench-collate-'));
  try {
    const sources = readdirSync(path.join(CORPORA, 'kanripo', 'KR3a0010')).filter((f) => f.endsWith('.txt')).sort();
    writeFileSync(
      path.join(dir, 'edition.yaml'),
      `title: 潛夫論\nauthor: 王符\nsources:\n${sources.map((s) => `  - ${path.join(CORPORA, 'kanripo', 'KR3a0010', s)}`).join('\n')}\nwitnesses:\n  - { siglum: 四庫本, path: ${path.join(CORPORA, 'witnesses', 'KR3a0010-WYG')} }\n`,
    );
    const start = performance.now();
    execFileSync(process.execPath, [path.join(ROOT, 'bin', 'diaoban.js'), 'collate', dir, '--json', '--allow-read', CORPORA], { stdio: ['ignore', 'ignore', 'ignore'] });
    out['qianfulun cold ms (diaoban collate)'] = Math.round(performance.now() - start);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
