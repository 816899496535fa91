import { loadEdition } from '../cli/load.js';
import { conversionScore } from './accuracy.js';
import { convertPlain, convertText } from './script.js';
import { classifyLayers } from './layers.js';
import type { Root, Inline } from '../tree/types.js';
function texts(nodes: Inline[], keep: (n: Inline) => boolean): string { return nodes.map(c => c.type === 'text' ? c.value : c.type === 'note' && keep(c) ? texts(c.children, keep) : '').join(''); }
function allText(tree: Root, notes: boolean): string {
  let out = '';
  for (const v of tree.children) for (const b of v.children) if (b.type === 'paragraph' && b.role !== 'commentary') out += texts(b.children, (n) => notes && n.type === 'note' && n.layer === 'zhu');
  return out.replace(/[\s\u3000]/g, '');
}
const t4 = classifyLayers(structuredClone((await loadEdition('manuscript/yili-zhushu', { raw: true })).parsed));
const t0 = classifyLayers(structuredClone((await loadEdition('manuscript/lishu-gangmu', { raw: true })).parsed));
for (const notes of [false, true]) {
  const src = allText(t4, notes); const ref0 = allText(t0, notes);
  const start = ref0.indexOf('乃張侯下綱');
  const ref = ref0.slice(start, start + Array.from(src).length + 300);
  for (const [name, conv] of [['plain', convertPlain(src, 'simplified', 'traditional')], ['ours', convertText(src, 'simplified', 'traditional')]] as const) {
    const s = conversionScore(conv, ref);
    console.log(notes ? 'with 注' : '經 only', name, s.aligned, s.errors, (s.rate * 100).toFixed(2) + '%', 'unaligned', s.unaligned, [...s.confusions].sort((a, b) => b[1] - a[1]).map(([k, v]) => k + v).join(' '));
  }
}
