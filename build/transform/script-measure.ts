/**
 * The measurement the issue asks for, shared by the test and the benchmark: a
 * simplified text's 經, converted to traditional, aligned with an independent
 * traditional edition of the same passage; conversion errors counted as
 * wrong picks of one-to-many characters (accuracy.ts). Plain opencc-js,
 * ours without choices, and ours with the edition's documented choices.
 */
import type { ConversionChoices } from '../tree/edition.js';
import type { Root } from '../tree/types.js';
import { conversionScore, oneToManyErrors, type ConversionScore } from './accuracy.js';
import { oneToManyByChar } from './one-to-many.js';
import { convertPlain, convertText } from './script.js';

/** Main text (not notes, not commentary paragraphs), white space removed. */
export function mainText(tree: Root): string {
  let out = '';
  const texts = (nodes: Root['children'][number]['children'][number]['children']): void => {
    for (const c of nodes) if (c.type === 'text') out += c.value;
  };
  for (const volume of tree.children) {
    for (const block of volume.children) if (block.type === 'paragraph' && block.role !== 'commentary') texts(block.children);
  }
  return out.replace(/[\s\u3000]/gu, '');
}

export interface ScriptMeasure {
  /** All aligned substitutions (any differing character), as before. */
  plain: ConversionScore;
  ours: ConversionScore;
  /** Conversion errors only (wrong reading of a one-to-many character). */
  errors: { aligned: number; plain: number; ours: number; chosen: number; confusions: { plain: Map<string, number>; ours: Map<string, number>; chosen: Map<string, number> } };
}

const readingsOf = (ch: string) => {
  const entry = oneToManyByChar().get(ch);
  return entry ? [...entry.readings, ch] : undefined;
};

/**
 * `simplified`, `traditional`: the trees as parsed. The passage starts at
 * `sourceStart` in the simplified main text (its whole main text when absent)
 * and at `startsWith` in the traditional one.
 */
export function measureScriptConversion(simplified: Root, traditional: Root, startsWith = '乃張侯下綱', choices?: ConversionChoices, sourceStart?: string, length?: number): ScriptMeasure {
  let source = mainText(simplified);
  if (sourceStart) {
    const at = source.indexOf(sourceStart);
    if (at < 0) throw new Error(`the source has no passage starting ${sourceStart}`);
    source = source.slice(at, length ? at + length : undefined);
  }
  const whole = mainText(traditional);
  const start = whole.indexOf(startsWith);
  if (start < 0) throw new Error(`the reference has no passage starting ${startsWith}`);
  // A margin past the excerpt's length lets the alignment find where the passage ends.
  const reference = whole.slice(start, start + Array.from(source).length + 300);
  const plainText = convertPlain(source, 'simplified', 'traditional');
  const oursText = convertText(source, 'simplified', 'traditional');
  const chosenText = convertText(source, 'simplified', 'traditional', choices);
  const p = oneToManyErrors(source, plainText, reference, readingsOf);
  const o = oneToManyErrors(source, oursText, reference, readingsOf);
  const c = oneToManyErrors(source, chosenText, reference, readingsOf);
  return {
    plain: conversionScore(plainText, reference),
    ours: conversionScore(oursText, reference),
    errors: { aligned: p.aligned, plain: p.errors, ours: o.errors, chosen: c.errors, confusions: { plain: p.confusions, ours: o.confusions, chosen: c.confusions } },
  };
}
