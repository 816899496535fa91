/**
 * Parse + transform of 禮經本義 (17 volumes, 680 KB), and the script
 * conversion's character error rate: plain opencc-js against ours, on the 經
 * text of 儀禮注疏 compared with the same passage in 禮書綱目.
 */
import { performance } from 'node:perf_hooks';
import { loadEdition } from '../build/cli/load.js';
import { measureScriptConversion } from '../build/transform/script-measure.js';

export async function run(): Promise<Record<string, number | string>> {
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
  const simplified = (await loadEdition('manuscript/yili-zhushu', { raw: true })).parsed;
  const traditional = (await loadEdition('manuscript/lishu-gangmu', { raw: true })).parsed;
  const { plain, ours } = measureScriptConversion(simplified, traditional);
  return {
    'lijing-benyi parse ms': rawMs / 5,
    'lijing-benyi parse+transform ms': runs[2],
    'CER aligned chars': plain.aligned,
    'CER plain opencc-js %': plain.rate * 100,
    'CER diaoban %': ours.rate * 100,
  };
}
