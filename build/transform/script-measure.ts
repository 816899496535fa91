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
import { distinctReadings, oneToManyByChar } from './one-to-many.js';
import { sitesOf, writtenReadings, type ContextCounts } from './context-model.js';
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
  errors: { aligned: number; plain: number; ours: number; chosen: number; /** Our choices flagged doubtful in the passage. */ doubtful: number; confusions: { plain: Map<string, number>; ours: Map<string, number>; chosen: Map<string, number> } };
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
  // As the pipeline converts a volume: with the readings the text writes itself.
  const options = { written: writtenReadings(mainText(simplified)) };
  let doubtful = 0;
  const oursText = convertText(source, 'simplified', 'traditional', undefined, (d) => void (d.doubtful && doubtful++), 'text', options);
  const chosenText = convertText(source, 'simplified', 'traditional', choices, undefined, 'text', options);
  const p = oneToManyErrors(source, plainText, reference, readingsOf);
  const o = oneToManyErrors(source, oursText, reference, readingsOf);
  const c = oneToManyErrors(source, chosenText, reference, readingsOf);
  return {
    plain: conversionScore(plainText, reference),
    ours: conversionScore(oursText, reference),
    errors: { aligned: p.aligned, plain: p.errors, ours: o.errors, chosen: c.errors, doubtful, confusions: { plain: p.confusions, ours: o.confusions, chosen: c.confusions } },
  };
}

/**
 * Adds one traditional stream to the counts the context model is made of:
 * the stream made simplified by OpenCC (t → cn), each one-to-many character
 * of it counted in its context with the reading the traditional text has.
 */
export function countTraditional(counts: ContextCounts, traditional: string): void {
  const simplified = Array.from(convertPlain(traditional, 'traditional', 'simplified'));
  const original = Array.from(traditional);
  if (simplified.length !== original.length) return;
  const opencc = Array.from(convertPlain(simplified.join(''), 'simplified', 'traditional'));
  for (const { index, site } of sitesOf(simplified, opencc, counts.readings)) counts.add(site, original[index]);
}

export interface RoundTrip {
  /** Han characters compared. */
  characters: number;
  /** Characters set as another distinct reading of their simplified form (one-to-many.ts distinctReadings). */
  wrong: number;
  /** original→converted, with counts. */
  confusions: Map<string, number>;
}

export function emptyRoundTrip(): RoundTrip {
  return { characters: 0, wrong: 0, confusions: new Map() };
}

const HAN = /\p{Script=Han}/u;

/**
 * The round trip of a traditional text: made simplified by OpenCC, converted
 * back by `convert`, compared character by character. Wrong: a character
 * set as another distinct traditional character of the same simplified form
 * (于 for 於, 乾 for 幹), both readings OpenCC itself writes; variant forms
 * (為 for 爲, 即 for 卽) are not counted. Adds to `into`.
 */
export function roundTrip(traditional: string, convert: (simplified: string) => string, into: RoundTrip = emptyRoundTrip()): RoundTrip {
  const original = Array.from(traditional);
  const simplified = Array.from(convertPlain(traditional, 'traditional', 'simplified'));
  if (simplified.length !== original.length) return into;
  const converted = Array.from(convert(simplified.join('')));
  if (converted.length !== original.length) return into;
  const readings = distinctReadings();
  for (let i = 0; i < original.length; i++) {
    if (!HAN.test(original[i])) continue;
    into.characters++;
    if (converted[i] === original[i]) continue;
    const r = readings.get(simplified[i]);
    if (!r || !r.includes(original[i]) || !r.includes(converted[i])) continue;
    into.wrong++;
    const key = `${original[i]}→${converted[i]}`;
    into.confusions.set(key, (into.confusions.get(key) ?? 0) + 1);
  }
  return into;
}
