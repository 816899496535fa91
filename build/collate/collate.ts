/**
 * The collation of an edition's base text with its witnesses: each source
 * file's volumes aligned with the witness's matching text (build/align/),
 * character by character, punctuation and markup set aside, notes with
 * notes; each difference that is a real reading becomes an entry, variant
 * forms of one character are tallied apart, script differences (a
 * simplified witness) are folded through the conversion. Pure: the texts
 * come in parsed, the entries go out, and annotate.ts marks them in the tree.
 */
import { alignUnits, blockLocator, type AlignOp, type Span } from '../align/index.js';
import type { Apparatus, Root, Script, Volume, WitnessReading } from '../tree/types.js';
import type { ConversionChoices } from '../tree/edition.js';
import { convertText } from '../transform/script.js';
import { unitPlace, volumeUnits, type SourceTexts, type StreamUnit } from './stream.js';
import { isVariantForm } from './variants.js';
import { apparatusText, BLOCK } from './phrase.js';

/** A witness's text as read: its files in order, each file's volumes parsed. */
export interface WitnessText {
  siglum: string;
  /** The script its files are written in (a simplified witness is folded through the conversion). */
  script: Script;
  files: Array<{ name: string; volumes: Volume[] }>;
  /** The files' decoded texts (places are found in them). */
  texts?: SourceTexts;
}

export interface CollateOptions {
  /** The edition's script (the base tree is in it) and its conversion choices. */
  script: Script;
  choices?: ConversionChoices;
  /** The base's sources' decoded texts (places are found in them). */
  texts?: SourceTexts;
}

/** One entry of the apparatus, at a span of a volume's units. */
export interface RawEntry {
  /** Index of the volume in the tree. */
  volume: number;
  /** Units of the volume's stream ([start, end); an addition: start = end, the place before units[start]). */
  span: Span;
  apparatus: Omit<Apparatus, 'text'>;
}

export interface VariantPlace {
  volume: number;
  index: number;
  base: string;
  reading: string;
  witness: string;
}

export interface WitnessStats {
  siglum: string;
  /** Base units aligned with a unit of the witness (equal, variant form, or in a reading of the same length). */
  aligned: number;
  /** Base units. */
  units: number;
  readings: number;
  variants: number;
}

export interface Collation {
  entries: RawEntry[];
  variants: VariantPlace[];
  stats: WitnessStats[];
  /** The base units of each volume (for annotate.ts). */
  units: StreamUnit[][];
  /** The base's texts, for places (report.ts). */
  texts?: SourceTexts;
}

/** A witness's units (its place is asked of unitPlace with the witness's texts, only for the entries). */
type WitnessUnit = StreamUnit;

/** A witness's files' units, and where a base file's text stands in a file or in the whole witness (each locator made once). */
class WitnessIndex {
  readonly files: WitnessUnit[][];
  private readonly whole: WitnessUnit[];
  private readonly locators = new Map<number, (a: readonly string[]) => Span | null>();
  constructor(witness: WitnessText) {
    this.files = witness.files.map((f) => f.volumes.flatMap((v) => volumeUnits(v)));
    this.whole = this.files.flat();
  }
  /** The stretch of file `k` (-1: the whole witness) where `base`'s text stands. */
  cut(k: number, base: readonly string[]): WitnessUnit[] | undefined {
    const units = k < 0 ? this.whole : this.files[k];
    let locate = this.locators.get(k);
    if (!locate) this.locators.set(k, (locate = blockLocator(units.map((u) => u.value))));
    const span = locate(base);
    return span ? units.slice(span.start, span.end) : undefined;
  }
}

const baseName = (file: string): string => file.replace(/^.*[\\/]/, '');

/**
 * Each base file's witness file: the one of the same name, else the one at
 * the same place in order (when no name matches at all); undefined where
 * the witness has none.
 */
export function pairFiles(base: readonly string[], witness: readonly string[]): Array<number | undefined> {
  const byName = new Map(witness.map((w, i) => [baseName(w), i]));
  const named = base.map((b) => byName.get(baseName(b)));
  if (named.some((i) => i !== undefined)) return named;
  return base.map((_, i) => (i < witness.length ? i : undefined));
}

/** Each unit's key: notes apart from the text; both sides folded to one script when they differ. */
function keys(units: ReadonlyArray<{ value: string; note: boolean }>, from: Script, to: Script, choices?: ConversionChoices): string[] {
  let values = units.map((u) => u.value);
  if (from !== to) {
    // Through the conversion into simplified: a simplified witness cannot tell 後 from 后, so neither side does.
    const joined = values.join('');
    const converted = Array.from(convertText(joined, from, 'simplified', from === 'traditional' ? undefined : choices));
    values = converted.length === values.length ? converted : values.map((v) => convertText(v, from, 'simplified'));
  }
  return values;
}

/** Text of a span of units (as written). */
const textOf = (units: ReadonlyArray<{ raw: string }>, span: Span): string => {
  let s = '';
  for (let i = span.start; i < span.end; i++) s += units[i].raw;
  return s;
};

interface FileCollation {
  entries: RawEntry[];
  variants: VariantPlace[];
  aligned: number;
  readings: number;
}

/** The volume of each unit of a file's stream, and the units' index within their volume. */
interface BaseFile {
  units: StreamUnit[];
  volumeOf: Int32Array;
  indexIn: Int32Array;
}

function collateFile(base: BaseFile, wit: WitnessUnit[], siglum: string, script: { base: Script; witness: Script; choices?: ConversionChoices; shown: (s: string) => string; texts?: SourceTexts }): FileCollation {
  const placeOf = (u: WitnessUnit): string => unitPlace(u, script.texts);
  // Notes with notes where both have them; where one side has none, the other's are left out.
  const baseHasNotes = base.units.some((u) => u.note);
  const witHasNotes = wit.some((u) => u.note);
  const both = baseHasNotes && witHasNotes;
  const a = both || !baseHasNotes ? base.units.map((_, i) => i) : base.units.flatMap((u, i) => (u.note ? [] : [i]));
  const w = both || !witHasNotes ? wit : wit.filter((u) => !u.note);
  const aUnits = a.map((i) => base.units[i]);
  const aKeys = keys(aUnits, script.base, script.base === script.witness ? script.base : 'simplified', script.choices);
  const wKeys = keys(w, script.witness, script.base === script.witness ? script.witness : 'simplified', script.choices);
  const al = alignUnits(aKeys, wKeys);
  // Spans of a (the kept base units) back to the file's stream.
  const toFile = (span: Span): Span =>
    span.end > span.start ? { start: a[span.start], end: a[span.end - 1] + 1 } : { start: span.start < a.length ? a[span.start] : base.units.length, end: span.start < a.length ? a[span.start] : base.units.length };
  const out: FileCollation = { entries: [], variants: [], aligned: 0, readings: 0 };
  const entry = (span: Span, reading: WitnessReading): void => {
    const fileSpan = toFile(span);
    const at = Math.min(fileSpan.start, base.units.length - 1);
    const volume = base.volumeOf[Math.max(0, at)];
    const first = base.indexIn[Math.max(0, at)] + (fileSpan.start > at ? 1 : 0);
    const local: Span = { start: first, end: first + (fileSpan.end - fileSpan.start) };
    const inNote = span.end > span.start ? aUnits[span.start].note : (aUnits[span.start - 1]?.note ?? false) && (aUnits[span.start]?.note ?? true);
    // The base words around an addition, within its volume: 「某」下有, or 「某」上有 at the volume's start.
    const before = span.start > 0 && base.volumeOf[toFile({ start: span.start - 1, end: span.start }).start] === volume ? textOf(aUnits, { start: Math.max(0, span.start - 2), end: span.start }) : '';
    const following = textOf(aUnits, { start: span.end, end: Math.min(aUnits.length, span.end + 2) });
    out.entries.push({
      volume,
      span: local,
      apparatus: {
        base: textOf(aUnits, span),
        ...(before ? { before } : {}),
        ...(following ? { following } : {}),
        ...(inNote ? { inNote: true } : {}),
        readings: [reading],
      },
    });
    out.readings++;
  };
  const readingAt = (op: AlignOp): string => (op.b.end > op.b.start ? placeOf(w[op.b.start]) : '');
  for (const op of al.ops) {
    if (op.type === 'equal') {
      out.aligned += op.a.end - op.a.start;
      continue;
    }
    if (op.type === 'replace') {
      const n = op.a.end - op.a.start;
      if (n === op.b.end - op.b.start) {
        out.aligned += n;
        // Position by position: a variant form is tallied, real readings in a row are one entry.
        let run: number | undefined;
        const flush = (end: number): void => {
          if (run === undefined) return;
          const span = { start: op.a.start + run, end: op.a.start + end };
          const wSpan = { start: op.b.start + run, end: op.b.start + end };
          entry(span, { witness: siglum, text: script.shown(textOf(w, wSpan)), kind: 'reading', place: placeOf(w[wSpan.start]) });
          run = undefined;
        };
        for (let k = 0; k < n; k++) {
          const x = aUnits[op.a.start + k];
          const y = w[op.b.start + k];
          const same = aKeys[op.a.start + k] === wKeys[op.b.start + k];
          const variant = !same && variantForms(x, y, script.base === script.witness ? (v) => v : script.shown);
          if (same || variant) {
            flush(k);
            if (variant) {
              const at = toFile({ start: op.a.start + k, end: op.a.start + k + 1 }).start;
              out.variants.push({ volume: base.volumeOf[at], index: base.indexIn[at], base: x.raw, reading: y.raw, witness: siglum });
            }
          } else run ??= k;
        }
        flush(n);
      } else {
        entry(op.a, { witness: siglum, text: script.shown(textOf(w, op.b)), kind: 'reading', place: readingAt(op) });
      }
      continue;
    }
    if (op.type === 'delete') {
      if (op.move !== undefined) {
        const move = al.moves[op.move];
        const dest = al.ops.find((o) => o.type === 'insert' && o.move === op.move);
        const after = dest && dest.a.start > 0 ? textOf(aUnits, { start: Math.max(0, dest.a.start - 2), end: dest.a.start }) : '';
        out.aligned += move.ops.reduce((s, o) => s + (o.type === 'equal' ? o.a.end - o.a.start : 0), 0);
        entry(op.a, { witness: siglum, text: script.shown(textOf(w, move.b)), kind: 'move', place: placeOf(w[move.b.start]), ...(after ? { after } : {}) });
      } else entry(op.a, { witness: siglum, text: '', kind: 'omission' });
      continue;
    }
    // An insertion: the other end of a move is already one entry.
    if (op.move === undefined) entry(op.a, { witness: siglum, text: script.shown(textOf(w, op.b)), kind: 'addition', place: readingAt(op) });
  }
  return out;
}

/**
 * The witness text a base file is aligned with: its paired file, cut to
 * where the base's text stands in it when the file is much longer; or,
 * when the paired file holds little of it (or there is none), where the
 * base's text stands in the whole witness.
 */
function witnessRegion(base: BaseFile, index: WitnessIndex, paired: number | undefined): WitnessUnit[] {
  const baseKeys = base.units.map((u) => u.value);
  const candidate = paired !== undefined ? index.files[paired] : undefined;
  if (candidate && candidate.length <= 1.5 * base.units.length + 200 && candidate.length >= 0.5 * base.units.length) return candidate;
  const inPaired = candidate ? index.cut(paired!, baseKeys) : undefined;
  if (inPaired && inPaired.length >= 0.5 * base.units.length) return inPaired;
  return index.cut(-1, baseKeys) ?? inPaired ?? candidate ?? [];
}

/** Collates the base tree with each witness: the entries (by volume and place), the variant forms tallied, the figures. */
export function collate(tree: Root, witnesses: readonly WitnessText[], options: CollateOptions): Collation {
  const units = tree.children.map((v) => volumeUnits(v));
  // The base's files, in order, each with its volumes' units.
  const fileNames: string[] = [];
  const files: BaseFile[] = [];
  tree.children.forEach((volume, v) => {
    const file = volume.position?.file ?? '';
    let k = fileNames.lastIndexOf(file);
    if (k < 0 || k !== fileNames.length - 1) {
      fileNames.push(file);
      files.push({ units: [], volumeOf: new Int32Array(0), indexIn: new Int32Array(0) });
      k = files.length - 1;
    }
    const f = files[k];
    const volumeOf = new Int32Array(f.units.length + units[v].length);
    volumeOf.set(f.volumeOf);
    volumeOf.fill(v, f.units.length);
    const indexIn = new Int32Array(f.units.length + units[v].length);
    indexIn.set(f.indexIn);
    units[v].forEach((_, i) => (indexIn[f.units.length + i] = i));
    f.units.push(...units[v]);
    f.volumeOf = volumeOf;
    f.indexIn = indexIn;
  });
  const entries: RawEntry[] = [];
  const variants: VariantPlace[] = [];
  const stats: WitnessStats[] = [];
  for (const witness of witnesses) {
    const index = new WitnessIndex(witness);
    const pairs = pairFiles(fileNames, witness.files.map((f) => f.name));
    const shown = (s: string): string => (witness.script === options.script ? s : convertText(s, witness.script, options.script, options.choices));
    const stat: WitnessStats = { siglum: witness.siglum, aligned: 0, units: 0, readings: 0, variants: 0 };
    files.forEach((file, k) => {
      if (file.units.length === 0) return;
      const region = witnessRegion(file, index, pairs[k]);
      const found = collateFile(file, region, witness.siglum, { base: options.script, witness: witness.script, choices: options.choices, shown, texts: witness.texts });
      entries.push(...found.entries);
      variants.push(...found.variants);
      stat.aligned += found.aligned;
      stat.units += file.units.length;
      stat.readings += found.readings;
      stat.variants += found.variants.length;
    });
    stats.push(stat);
  }
  return { entries: mergeEntries(entries), variants, stats, units, ...(options.texts ? { texts: options.texts } : {}) };
}

/** Entries of several witnesses at the same span (and kind of place) are one entry naming each. */
function mergeEntries(entries: RawEntry[]): RawEntry[] {
  const sorted = entries
    .map((e, i) => ({ e, i }))
    .sort((x, y) => x.e.volume - y.e.volume || x.e.span.start - y.e.span.start || x.e.span.end - y.e.span.end || x.i - y.i)
    .map(({ e }) => e);
  const out: RawEntry[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && last.volume === e.volume && last.span.start === e.span.start && last.span.end === e.span.end) {
      last.apparatus.readings.push(...e.apparatus.readings);
      continue;
    }
    out.push({ ...e, apparatus: { ...e.apparatus, readings: [...e.apparatus.readings] } });
  }
  return out;
}

/** The entry's text in the classical form. */
export function entryText(e: RawEntry): string {
  return apparatusText(e.apparatus);
}

export { BLOCK };

/** Two units one character in two forms: a pair of the variant table, or a drawn glyph whose KR-Gaiji form is the other (or a form of it). */
function variantForms(x: StreamUnit, y: StreamUnit, shown: (value: string) => string): boolean {
  const a = x.normal ?? x.value;
  const b = shown(y.normal ?? y.value);
  if (x.normal === undefined && y.normal === undefined) return isVariantForm(a, b);
  return a === b || isVariantForm(a, b);
}
