/**
 * A witness for the script conversion: a traditional copy of the same work
 * (`conversion: { witness: FILE }`). Each volume's simplified text is
 * aligned with it (build/align: where the volume stands in the witness,
 * then character by character, both sides keyed by their simplified form);
 * where the two agree around a one-to-many character — the character
 * matched, no other character beside it in the witness — the witness's character is the
 * reading; where they differ (a replacement there or beside it) the context
 * model decides and the place is listed with the witness's reading.
 */
import { createHash } from 'node:crypto';
import { alignUnits, locateBlock } from '../align/index.js';
import type { Text } from '../tree/types.js';
import { distinctReadings, simplifiedChar } from './one-to-many.js';

/** The witness's text: its Han characters in reading order. */
export interface Witness {
  /** A digest of the characters (a build cache's key). */
  digest: string;
  chars: string[];
  /** Each character's simplified form, the key both sides are aligned on. */
  keys: string[];
}

/** What the witness says at a one-to-many character: its reading where it agrees around it, else what it has there. */
export interface WitnessReading {
  char?: string;
  /** The witness's character(s) where they differ here ('' where it lacks the character). */
  differs?: string;
}

const HAN = /\p{Script=Han}/u;

/** A witness from its text (all its text nodes in reading order, joined). */
export function prepareWitness(text: string): Witness {
  const chars = Array.from(text).filter((c) => HAN.test(c));
  return { digest: createHash('sha256').update(chars.join('')).digest('hex'), chars, keys: chars.map(simplifiedChar) };
}

/**
 * For each stream (the text nodes converted as one text, script.ts
 * textStreams), the witness's reading at each of its one-to-many
 * characters, by UTF-16 index in the stream's joined text.
 */
export function witnessAgreement(streams: ReadonlyArray<ReadonlyArray<Pick<Text, 'value'>>>, witness: Witness): Array<Map<number, WitnessReading>> {
  const readings = distinctReadings();
  // The volume's Han characters in reading order, each with its stream and index there.
  const chars: string[] = [];
  const where: Array<[number, number]> = [];
  streams.forEach((texts, k) => {
    let unit = 0;
    for (const t of texts) {
      for (const c of t.value) {
        if (HAN.test(c)) {
          chars.push(c);
          where.push([k, unit]);
        }
        unit += c.length;
      }
    }
  });
  const out = streams.map(() => new Map<number, WitnessReading>());
  if (chars.length === 0 || witness.chars.length === 0) return out;
  const keys = chars.map(simplifiedChar);
  const block = locateBlock(keys, witness.keys);
  if (!block) return out;
  const w = witness.keys.slice(block.start, block.end);
  const alignment = alignUnits(keys, w, { minMove: 0 });
  // Which units of the volume are matched, and to which unit of the witness.
  const match = new Int32Array(keys.length).fill(-1);
  const differs = new Map<number, string>();
  for (const op of alignment.ops) {
    if (op.type === 'equal') for (let i = op.a.start; i < op.a.end; i++) match[i] = block.start + op.b.start + (i - op.a.start);
    else if (op.type === 'replace') {
      const theirs = witness.chars.slice(block.start + op.b.start, block.start + op.b.end).join('');
      for (let i = op.a.start; i < op.a.end; i++) differs.set(i, op.a.end - op.a.start === op.b.end - op.b.start ? witness.chars[block.start + op.b.start + (i - op.a.start)] : theirs);
    }
  }
  const matched = (i: number) => i < 0 || i >= keys.length || match[i] >= 0;
  // Agreement around a character: it is matched, neither neighbour stands where the witness has another character, and
  // two of the four nearest are matched (a character a copy dropped or could not read beside it does not silence the
  // witness; a different word does).
  const agrees = (i: number) => match[i] >= 0 && !differs.has(i - 1) && !differs.has(i + 1) && [i - 2, i - 1, i + 1, i + 2].filter(matched).length >= 2;
  for (let i = 0; i < chars.length; i++) {
    if (!readings.has(chars[i])) continue;
    const [k, unit] = where[i];
    if (agrees(i)) {
      const theirs = witness.chars[match[i]];
      // Only a reading of the character: a variant form the conversion never writes is the model's to choose.
      if (readings.get(chars[i])!.includes(theirs)) out[k].set(unit, { char: theirs });
    } else if (match[i] >= 0 || differs.has(i)) out[k].set(unit, { differs: match[i] >= 0 ? witness.chars[match[i]] : differs.get(i)! });
  }
  return out;
}
