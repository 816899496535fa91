/**
 * Untrusted input at scale (issue 20): corrections on a 200,000-character
 * volume with 1,000–8,000 entries (each a unique six-character run with its
 * middle character changed), and 2,000 entries that match nothing in a
 * simplified text converted to traditional. The index makes N entries cost
 * about N lookups: entries8000 / entries1000 near 8 is linear, near 64 was
 * quadratic. And a pattern that backtracks (^(主+)+$) on RE2.
 */
import { performance } from 'node:perf_hooks';
import { VFile } from 'vfile';
import { defaultEdition } from '../build/parse/edition.js';
import { parseEdition } from '../build/parse/index.js';
import { applyCorrections, parseCorrections } from '../build/transform/corrections.js';
import { compilePattern } from '../build/parse/pattern.js';
import type { Root } from '../build/tree/types.js';

/** A seeded generator, so that every run times the same text and entries. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TRADITIONAL = Array.from('天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽雲騰致雨露結為霜金生麗水玉出崑岡劍號巨闕珠稱夜光果珍李柰菜重芥薑海鹹河淡鱗潛羽翔龍師火帝鳥官人皇始制文字乃服衣裳推位讓國有虞陶唐弔民伐罪周發殷湯坐朝問道垂拱平章愛育黎首臣伏戎羌遐邇壹體率賓歸王鳴鳳在竹白駒食場化被草木賴及萬方蓋此身髮四大五常恭惟鞠養豈敢毀傷女慕貞絜男效才良知過必改得能莫忘罔談彼短靡恃己長信使可覆器欲難量墨悲絲染詩讚羔羊景行維賢克念作聖德建名立形端表正空谷傳聲虛堂習聽禍因惡積福緣善慶尺璧非寶寸陰是競資父事君曰嚴與敬孝當竭力忠則盡命臨深履薄夙興溫凊似蘭斯馨如松之盛川流不息淵澄取映容止若思言辭安定篤初誠美慎終宜令榮業所基籍甚無竟學優登仕攝職從政存以甘棠去而益詠');

function volumeText(chars: number, rnd: () => number, alphabet: readonly string[]): string {
  const lines: string[] = [];
  let n = 0;
  while (n < chars) {
    let line = '';
    for (let i = 0; i < 200; i++) line += alphabet[Math.floor(rnd() * alphabet.length)];
    lines.push(line);
    n += 200;
  }
  return lines.join('\n\n') + '\n';
}

function treeOf(text: string, script: 'traditional' | 'simplified'): Root {
  const config = defaultEdition('bench', ['a.txt']);
  config.meta.script = script;
  return parseEdition(config, [new VFile({ path: 'a.txt', value: new TextEncoder().encode(text) })]).tree;
}

/** `count` entries, each a six-character run found once in the text, its middle character changed. */
function entriesFor(text: string, count: number, rnd: () => number): string {
  const out: string[] = [];
  const seen = new Set<string>();
  while (out.length < count) {
    const at = Math.floor(rnd() * (text.length - 6));
    const run = text.slice(at, at + 6);
    if (/\s/u.test(run) || seen.has(run) || text.indexOf(run) !== text.lastIndexOf(run)) continue;
    seen.add(run);
    out.push(`- find: ${run}\n  replace: ${run.slice(0, 3)}〇${run.slice(4)}\n`);
  }
  return out.join('');
}

function timeCorrections(text: string, yaml: string, script: 'traditional' | 'simplified', scripts?: { from: 'simplified'; to: 'traditional' }): { ms: number; applied: number } {
  const tree = treeOf(text, script);
  const file = new VFile({ path: 'corrections.yaml', value: yaml });
  const entries = parseCorrections(file);
  const t0 = performance.now();
  applyCorrections(tree, entries, scripts);
  const ms = performance.now() - t0;
  return { ms, applied: entries.length - file.messages.filter((m) => m.ruleId === 'correction-unmatched').length };
}

export async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  const rnd = random(20);
  const text = volumeText(200_000, rnd, TRADITIONAL);
  for (const n of [1000, 2000, 4000, 8000]) {
    const { ms, applied } = timeCorrections(text, entriesFor(text, n, rnd), 'traditional');
    figures[`corrections ${n} entries ms`] = ms;
    figures[`corrections ${n} entries applied`] = applied;
  }
  figures['corrections 8000/1000 (8 = linear)'] = (figures['corrections 8000 entries ms'] as number) / (figures['corrections 1000 entries ms'] as number);
  // A simplified text, entries in text it does not have: each is looked for as printed too.
  const simplified = volumeText(200_000, rnd, Array.from('天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜'));
  const nothing = Array.from({ length: 2000 }, (_, i) => `- find: 無此${String.fromCodePoint(0x4e00 + i)}文\n  replace: 無彼${String.fromCodePoint(0x4e00 + i)}文\n`).join('');
  const unmatched = timeCorrections(simplified, nothing, 'traditional', { from: 'simplified', to: 'traditional' });
  figures['corrections 2000 unmatched, simplified ms'] = unmatched.ms;
  figures['corrections 2000 unmatched applied'] = unmatched.applied;
  const redos = compilePattern('^(主+)+$');
  if ('problem' in redos) throw new Error(redos.problem);
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) redos.pattern.test(`${'主'.repeat(40)}戒`);
  figures['^(主+)+$ on 40×主+戒, 100 tests ms'] = performance.now() - t0;
  return figures;
}
