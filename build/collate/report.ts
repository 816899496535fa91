/**
 * The apparatus as `diaoban collate` prints it: one record an entry (volume,
 * place in the base text, base reading, each witness's reading, kind), the
 * variant forms folded, and the figures by witness; as JSON or as lines of
 * text. Pure: from the tree and its collation.
 */
import type { Root, WitnessReading } from '../tree/types.js';
import type { Collation, WitnessStats } from './collate.js';
import { entryText } from './collate.js';
import { unitPlace } from './stream.js';
import { countWords } from './phrase.js';

export interface ApparatusRecord {
  /** The volume: its index in the edition and its title. */
  volume: number;
  volumeTitle: string;
  /** Where in the base text: file:line:col of its first character (of the one before, for an addition), and the character's index in the volume (punctuation set aside). */
  place: string;
  index: number;
  /** The base reading ('' where a witness adds). */
  base: string;
  readings: WitnessReading[];
  /** The first reading's kind, or `mixed` where the witnesses differ in kind. */
  kind: WitnessReading['kind'] | 'mixed';
  /** The entry as the 校勘記 prints it. */
  text: string;
}

export interface ApparatusReport {
  entries: ApparatusRecord[];
  variants: Array<{ volume: number; index: number; base: string; reading: string; witness: string }>;
  witnesses: WitnessStats[];
}

export function apparatusReport(tree: Root, collation: Collation): ApparatusReport {
  const entries = collation.entries.map((e): ApparatusRecord => {
    const units = collation.units[e.volume];
    const unit = units[e.span.start] ?? units[e.span.start - 1];
    const kinds = new Set(e.apparatus.readings.map((r) => r.kind));
    return {
      volume: e.volume,
      volumeTitle: tree.children[e.volume]?.title ?? '',
      place: unit ? unitPlace(unit, collation.texts) : '',
      index: e.span.start,
      base: e.apparatus.base,
      readings: e.apparatus.readings,
      kind: kinds.size === 1 ? e.apparatus.readings[0].kind : 'mixed',
      text: entryText(e),
    };
  });
  return { entries, variants: collation.variants, witnesses: collation.stats };
}

/** The report as lines: each entry with its volume and place, then the figures by witness. */
export function apparatusLines(report: ApparatusReport): string[] {
  const lines = report.entries.map((e) => `${e.volumeTitle}\t${e.place}\t${e.text}`);
  for (const w of report.witnesses) {
    const share = w.units > 0 ? ((100 * w.aligned) / w.units).toFixed(1) : '0';
    lines.push(`${w.siglum}: ${w.aligned} of ${w.units} characters aligned (${share}%), ${w.readings} readings, ${w.variants} variant forms folded (${countWords(w.variants)}處)`);
  }
  return lines;
}
