/**
 * Parse + transform: 禮經本義 (17 volumes, 680 KB); generated manuscripts of
 * 10k, 100k and 1M characters, ordinary (every convention mixed) and hostile
 * (a line of unclosed 【, deep nesting), to show the work is linear in time
 * and memory; and the script conversion's errors on two references — plain
 * opencc-js, ours without choices, ours with the edition's choices.
 */
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { VFile } from 'vfile';
import { loadEdition } from '../build/engine/load.js';
import { defaultEdition } from '../build/parse/edition.js';
import { parseEdition } from '../build/parse/index.js';
import { transformTree } from '../build/transform/index.js';
import { measureScriptConversion } from '../build/transform/script-measure.js';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MIXED = '主人戒賓【戒猶警也〈告也〉】賓禮辭(許/諾)¶<pb:KR1d0026_SBCK_002-1a>&KR0002;{艹虑}□\uE163右戒賓 記大夫\r\n〔注文一行〕\n';

/** What a run made, held while its memory is measured. */
let kept: unknown = null;

/** The fastest of three runs, and the memory its tree and messages hold (heap after a collection, tree alive). */
function measure(text: string): { ms: number; mb: number } {
  const bytes = new TextEncoder().encode(text);
  let best = Infinity;
  let mb = 0;
  for (let run = 0; run < 3; run++) {
    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const file = new VFile({ path: 'bench.txt', value: bytes });
    const config = defaultEdition('bench', ['bench.txt']);
    const t0 = performance.now();
    kept = [transformTree(parseEdition(config, [file]).tree, config, { files: [file] }), file];
    best = Math.min(best, performance.now() - t0);
    gc();
    mb = (process.memoryUsage().heapUsed - heap0) / 1e6;
    kept = null;
  }
  return { ms: best, mb };
}

export async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  await loadEdition('manuscript/lijing-benyi'); // warm-up: module loading, OpenCC dictionaries
  const runs: number[] = [];
  let rawMs = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await loadEdition('manuscript/lijing-benyi', { raw: true });
    const t1 = performance.now();
    await loadEdition('manuscript/lijing-benyi');
    const t2 = performance.now();
    rawMs += t1 - t0;
    runs.push(t2 - t1);
  }
  runs.sort((a, b) => a - b);
  figures['lijing-benyi parse ms'] = rawMs / 5;
  figures['lijing-benyi parse+transform ms'] = runs[2];

  const shapes: Record<string, (n: number) => string> = {
    mixed: (n) => MIXED.repeat(Math.ceil(n / MIXED.length)).slice(0, n),
    'unclosed 【 line': (n) => '甲' + '【'.repeat(n - 1),
    'nested 【…】': (n) => '【'.repeat(n / 2) + '】'.repeat(n / 2),
  };
  measure(shapes.mixed(10000)); // warm-up
  for (const [name, make] of Object.entries(shapes)) {
    const base = measure(make(10000));
    for (const n of [10000, 100000, 1000000]) {
      const m = n === 10000 ? base : measure(make(n));
      figures[`${name} ${n / 1000}k chars ms`] = m.ms;
      figures[`${name} ${n / 1000}k ms per 1k chars`] = m.ms / (n / 1000);
      if (n > 10000) figures[`${name} ${n / 1000}k / 10k time ratio`] = m.ms / base.ms;
      figures[`${name} ${n / 1000}k heap MB`] = m.mb;
    }
  }

  const yili = await loadEdition('manuscript/yili-zhushu', { raw: true });
  const gangmu = (await loadEdition('manuscript/lishu-gangmu', { raw: true })).parsed;
  const a = measureScriptConversion(yili.parsed, gangmu, '乃張侯下綱', yili.config?.conversion);
  const benyi = (await loadEdition('manuscript/lijing-benyi', { raw: true })).parsed;
  const sbck = (await loadEdition('../shared/corpora/kanripo-KR1d0026-SBCK-juan02.txt', { raw: true })).parsed;
  // An edition following the 四部叢刊 儀禮 documents: keep: [于], prefer: { 为: 爲 }.
  const b = measureScriptConversion(benyi, sbck, '下達納采', { keep: ['于'], prefer: { 为: '爲' }, phrases: {} }, '下达纳采', 2600);
  for (const [name, m] of [['鄉射禮 004→000', a], ['士昏禮 003→SBCK', b]] as const) {
    figures[`${name} aligned chars`] = m.errors.aligned;
    figures[`${name} errors plain opencc-js`] = m.errors.plain;
    figures[`${name} errors ours, no choices`] = m.errors.ours;
    figures[`${name} errors ours, edition choices`] = m.errors.chosen;
    figures[`${name} plain confusions`] = [...m.errors.confusions.plain].map(([k, n]) => `${k}×${n}`).join(' ');
    figures[`${name} chosen confusions`] = [...m.errors.confusions.chosen].map(([k, n]) => `${k}×${n}`).join(' ') || '-';
  }
  return figures;
}
