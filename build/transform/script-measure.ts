/**
 * The measurement the issue asks for: the 經 text of 儀禮注疏 (simplified),
 * converted to traditional, against the same passage in 禮書綱目 (a 四庫
 * traditional text). Shared by the test and the benchmark.
 */
import type { Inline, Root } from '../tree/types.js';
import { conversionScore, type ConversionScore } from './accuracy.js';
import { convertPlain, convertText } from './script.js';

/** Main text (not notes, not commentary paragraphs), white space removed. */
export function mainText(tree: Root): string {
  const texts = (nodes: Inline[]): string => nodes.map((c) => (c.type === 'text' ? c.value : '')).join('');
  let out = '';
  for (const volume of tree.children) {
    for (const block of volume.children) if (block.type === 'paragraph' && block.role !== 'commentary') out += texts(block.children);
  }
  return out.replace(/[\s\u3000]/gu, '');
}

export interface ScriptMeasure {
  plain: ConversionScore;
  ours: ConversionScore;
}

/** `simplified`: the tree of 儀禮注疏 as parsed; `traditional`: the tree of 禮書綱目 as parsed. */
export function measureScriptConversion(simplified: Root, traditional: Root, startsWith = '乃張侯下綱'): ScriptMeasure {
  const source = mainText(simplified);
  const whole = mainText(traditional);
  const start = whole.indexOf(startsWith);
  if (start < 0) throw new Error(`the reference has no passage starting ${startsWith}`);
  // A margin past the excerpt's length lets the alignment find where the passage ends.
  const reference = whole.slice(start, start + Array.from(source).length + 300);
  return {
    plain: conversionScore(convertPlain(source, 'simplified', 'traditional'), reference),
    ours: conversionScore(convertText(source, 'simplified', 'traditional'), reference),
  };
}
