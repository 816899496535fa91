/**
 * Script conversion: simplified → traditional (or back) with opencc-js, then
 * an override table for classical usage where OpenCC's modern choices are
 * wrong for a 經 text. Overrides look at the source text, so they apply where
 * OpenCC converts character for character (it nearly always does).
 */
import * as OpenCC from 'opencc-js';
import { visit } from 'unist-util-visit';
import type { Root, Script, Text } from '../tree/types.js';

export interface Override {
  /** Matches in the source text; the whole match is replaced. */
  pattern: RegExp;
  replace: string;
  why: string;
}

/** Simplified → traditional, classical usage. */
export const CLASSICAL_OVERRIDES: readonly Override[] = [
  { pattern: /云/gu, replace: '云', why: '云 "to say" (鄭司農云) is 云, not 雲' },
  { pattern: /注/gu, replace: '注', why: 'commentary is 注 in 經 editions (鄭注, 注疏), not 註' },
  { pattern: /(?<=[皇王天帝夫太元])后|后(?=[妃稷土夫])/gu, replace: '后', why: '后 "queen, sovereign" stays 后' },
  { pattern: /伪/gu, replace: '偽', why: '四庫 texts write 偽, not 僞' },
  { pattern: /里(?=[面頭头边邊])/gu, replace: '裏', why: '里面 → 裏面' },
  { pattern: /里/gu, replace: '里', why: '里 "village, li" stays 里 in classical text' },
  { pattern: /余/gu, replace: '余', why: '余 "I" stays 余' },
  { pattern: /采/gu, replace: '采', why: '采 (五采, 采侯) stays 采' },
  { pattern: /于/gu, replace: '於', why: 'the 四庫 texts write 於 where simplified text has 于' },
  { pattern: /为/gu, replace: '為', why: '四庫 texts write 為; OpenCC gives the 康熙 form 爲' },
  { pattern: /个/gu, replace: '个', why: '个 (上个, the side of a target) is not 個 in 經 texts' },
  { pattern: /迹/gu, replace: '迹', why: '迹 stays 迹 (OpenCC gives 跡)' },
  { pattern: /辟/gu, replace: '辟', why: '辟 (少辟, 辟婢亦反) is 辟 "to step aside", not 闢' },
  { pattern: /捝/gu, replace: '捝', why: '捝 "to wipe" stays 捝 (OpenCC gives 挩)' },
];

type Convert = (text: string) => string;
const converters = new Map<string, Convert>();

function converter(from: Script, to: Script): Convert {
  const key = `${from}>${to}`;
  const cached = converters.get(key);
  if (cached) return cached;
  const convert: Convert = OpenCC.Converter(from === 'simplified' ? { from: 'cn', to: 't' } : { from: 't', to: 'cn' });
  converters.set(key, convert);
  return convert;
}

/** Plain OpenCC, no overrides: the baseline the benchmark compares with. */
export function convertPlain(text: string, from: Script, to: Script): string {
  return from === to ? text : converter(from, to)(text);
}

export function convertText(text: string, from: Script, to: Script, overrides: readonly Override[] = CLASSICAL_OVERRIDES): string {
  if (from === to) return text;
  const converted = converter(from, to)(text);
  if (from !== 'simplified' || overrides.length === 0) return converted;
  const source = Array.from(text);
  const target = Array.from(converted);
  // Overrides need the two texts aligned character for character.
  if (source.length !== target.length) return converted;
  const unitToIndex = (unitOffset: number) => Array.from(text.slice(0, unitOffset)).length;
  for (const rule of overrides) {
    for (const m of text.matchAll(rule.pattern)) {
      const at = unitToIndex(m.index ?? 0);
      const length = Array.from(m[0]).length;
      const replacement = Array.from(rule.replace);
      if (replacement.length !== length) continue;
      for (let k = 0; k < length; k++) target[at + k] = replacement[k];
    }
  }
  return target.join('');
}

/** Every text of the tree (text nodes, volume titles) into the edition's script. */
export function convertScript(tree: Root, from: Script, to: Script, overrides: readonly Override[] = CLASSICAL_OVERRIDES): Root {
  if (from === to) return tree;
  visit(tree, 'text', (node: Text) => {
    node.value = convertText(node.value, from, to, overrides);
  });
  for (const volume of tree.children) volume.title = convertText(volume.title, from, to, overrides);
  return tree;
}
