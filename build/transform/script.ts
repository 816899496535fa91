/**
 * Script conversion: simplified → traditional (or back) with opencc-js, then
 * the one-to-many decisions (one-to-many.ts) made in the open: the edition's
 * phrases first, then what it keeps and prefers, then the table's contexts and
 * classical defaults; where none speaks, OpenCC's pick stands. Every decision
 * can be listed (`check --script`). Linear in the text's length.
 */
import { createRequire } from 'node:module';
import { visit } from 'unist-util-visit';
import type { ConversionChoices } from '../tree/edition.js';
import type { Parent, Root, Script, SourcePosition, Text, Volume } from '../tree/types.js';
import { distinctReadings, oneToManyByChar } from './one-to-many.js';
import { contextModel, estimate, habitsOf, sitesOf, writtenReadings, type ContextCounts, type Estimate, type HabitEvidence, type Weighed } from './context-model.js';
import { witnessAgreement, type Witness, type WitnessReading } from './witness.js';
import { own } from '../tree/append.js';
import { sourceLayerLabel } from '../tree/layers.js';

type Convert = (text: string) => string;
const converters = new Map<string, Convert>();
// opencc-js and its dictionaries load when a text is first converted: most texts are in their script already.
const require = createRequire(import.meta.url);
let opencc: typeof import('opencc-js') | undefined;

function converter(from: Script, to: Script): Convert {
  const key = `${from}>${to}`;
  const cached = converters.get(key);
  if (cached) return cached;
  const OpenCC = (opencc ??= require('opencc-js') as typeof import('opencc-js'));
  const convert: Convert = OpenCC.Converter(from === 'simplified' ? { from: 'cn', to: 't' } : { from: 't', to: 'cn' });
  converters.set(key, convert);
  return convert;
}

/**
 * Makes ready what converting from `from` to `to` needs (OpenCC's
 * dictionaries, the one-to-many table: ~0.2 s), so that a caller can do it
 * between turns of its event loop rather than inside its first conversion.
 */
export function prepareConversion(from: Script, to: Script): void {
  if (from === to) return;
  converter(from, to);
  if (from === 'simplified') oneToManyByChar();
}

/** Plain OpenCC, no decisions of ours: the baseline the benchmark compares with. */
export function convertPlain(text: string, from: Script, to: Script): string {
  return from === to ? text : converter(from, to)(text);
}

export type DecisionSource = 'phrase' | 'keep' | 'prefer' | 'witness' | 'model' | 'context' | 'classical' | 'name' | 'opencc';

/**
 * `text`: running text, converted by word (OpenCC's phrases). `name`: a
 * person's name or a byline, converted character by character — a
 * character that is itself one of its distinct readings keeps its form (宋咸
 * stays 咸, 于 the surname stays 于) unless the context model has seen its
 * neighbours and is sure (無錫 of a byline's place, not 无錫), since a name
 * is not a word OpenCC's phrases know.
 */
export type ConversionMode = 'text' | 'name';

export interface Decision {
  /** The source character. */
  char: string;
  reading: string;
  /** Offset of the character in the converted string (UTF-16 units). */
  index: number;
  how: DecisionSource;
  /** How sure the choice is (0–1): the context model's probability of the reading taken; 1 for the edition's own choices. */
  confidence: number;
  /** The readings the context model weighed, with their scores (the likeliest first), where it spoke. */
  weighed?: Weighed[];
  /** A choice a person should look at: the model was not sure, or the witness differs around it. */
  doubtful: boolean;
  /** The witness's character where the witness was read and differs here, or does not align. */
  witness?: string;
}

/** Below this confidence the context model's choice is doubtful (check --script lists it). */
export const DOUBTFUL_BELOW = 0.8;
/** A name keeps its own form unless the model is at least this sure, having seen its neighbours; below it a choice made on no neighbour seen is doubtful. */
const NAME_SURE = 0.95;

/** What the conversion reads besides the text itself. */
export interface ConversionOptions {
  /** The context model: the shipped table by default; `false` converts with the fixed decisions only (as before the model). */
  model?: ContextCounts | false;
  /** Readings the text writes itself in traditional form (context-model.ts writtenReadings): not what its simplified form stands for. */
  written?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The witness's reading at an index of the text (UTF-16 units): `char` where it agrees around the character, `differs` where it does not. */
  witnessAt?: (index: number) => WitnessReading | undefined;
  /** The text's own habits (context-model.ts habitsOf, habitsOfText): each reading's weight in this text against the model's texts. */
  habits?: ReadonlyMap<string, ReadonlyMap<string, number>>;
}

const stickyContexts = new Map<RegExp, RegExp>();
function sticky(pattern: RegExp): RegExp {
  let re = stickyContexts.get(pattern);
  if (!re) {
    re = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '') + 'y');
    stickyContexts.set(pattern, re);
  }
  return re;
}

/**
 * Converts `text`; `onDecision` hears every one-to-many character (and every
 * character the edition names) with the reading taken, why and how surely.
 */
export function convertText(text: string, from: Script, to: Script, choices?: ConversionChoices, onDecision?: (d: Decision) => void, mode: ConversionMode = 'text', options: ConversionOptions = {}): string {
  if (from === to) return text;
  // A name is converted a character at a time: no phrase of OpenCC's reaches across it.
  const converted = mode === 'name' ? Array.from(text, (c) => converter(from, to)(c)).join('') : converter(from, to)(text);
  if (from !== 'simplified') return converted;
  const target = Array.from(converted);
  const source = Array.from(text);
  // Decisions need the two texts aligned character for character (OpenCC nearly always is).
  if (source.length !== target.length) return converted;
  const phraseAt = new Map<number, string>();
  for (const [phrase, as] of Object.entries(choices?.phrases ?? {})) {
    const readings = Array.from(as);
    const lengths = Array.from(phrase).map((c) => c.length);
    for (let k = text.indexOf(phrase); k >= 0; k = text.indexOf(phrase, k + 1)) {
      let u = k;
      readings.forEach((r, j) => {
        phraseAt.set(u, r);
        u += lengths[j];
      });
    }
  }
  const model = options.model === undefined ? contextModel() : options.model;
  const estimates = new Map<number, Estimate>();
  if (model) for (const { index, site } of sitesOf(source, target, model.readings)) {
    const e = estimate(model, site, options.written?.get(site.char), options.habits?.get(site.char));
    if (e) estimates.set(index, e);
  }
  const distinct = distinctReadings();
  let unit = 0;
  const oneToMany = oneToManyByChar();
  source.forEach((s, i) => {
    const phrase = phraseAt.get(unit);
    const entry = oneToMany.get(s);
    const kept = choices?.keep.includes(s);
    const preferred = choices ? own(choices.prefer, s) : undefined;
    if (phrase !== undefined || entry || kept || preferred) {
      let reading = target[i];
      let how: DecisionSource = 'opencc';
      let confidence = 1;
      let doubtful = false;
      // The model speaks where its readings hold the table's classical form (个 stays 个: OpenCC never writes it).
    const estimated = entry?.classical !== undefined && !(model && model.readings.get(s)?.includes(entry.classical)) ? undefined : estimates.get(i);
      const witness = estimated || distinct.has(s) ? options.witnessAt?.(unit) : undefined;
      const sureName = estimated !== undefined && estimated.seen > 0 && estimated.weighed[0].score >= NAME_SURE;
      if (phrase !== undefined) [reading, how] = [phrase, 'phrase'];
      else if (kept) [reading, how] = [s, 'keep'];
      else if (mode === 'name' && distinct.get(s)?.includes(s) && !(sureName && estimated!.weighed[0].reading !== s)) [reading, how] = [s, 'name'];
      else if (preferred) [reading, how] = [preferred, 'prefer'];
      else if (witness?.char !== undefined) [reading, how] = [witness.char, 'witness'];
      else {
        const context = entry?.contexts?.find((c) => {
          const re = sticky(c.pattern);
          re.lastIndex = unit;
          return re.test(text);
        });
        if (estimated) [reading, how, confidence] = [estimated.weighed[0].reading, 'model', estimated.weighed[0].score];
        // The table's contexts (設几, 皇后, 卷上) decide where the model is not sure; its classical default where there is no model.
        if (context && (!estimated || confidence < DOUBTFUL_BELOW)) [reading, how] = [context.reading, 'context'];
        else if (!estimated && entry?.classical) [reading, how] = [entry.classical, 'classical'];
        // Doubtful: not sure, or sure only by the character's own counts (neither neighbour ever seen beside it), or the witness differs.
        doubtful = how === 'model' && (confidence < DOUBTFUL_BELOW || (estimated!.seen === 0 && confidence < NAME_SURE) || witness?.differs !== undefined);
      }
      target[i] = reading;
      onDecision?.({ char: s, reading, index: unit, how, confidence, ...(estimated ? { weighed: estimated.weighed } : {}), doubtful, ...(witness?.differs !== undefined ? { witness: witness.differs } : {}) });
    }
    unit += s.length;
  });
  return target.join('');
}

/**
 * Converts a stream of text that the tree holds in several nodes (a
 * paragraph's text around its notes, a note's text around its marks) as one
 * text, so that a character's neighbours across a node count; each part
 * comes back as long as it went in (else each is converted alone).
 * `onDecision` hears the part and the index in it.
 */
export function convertParts(parts: readonly string[], from: Script, to: Script, choices?: ConversionChoices, onDecision?: (d: Decision, part: number) => void, mode: ConversionMode = 'text', options: ConversionOptions = {}): string[] {
  if (from === to) return [...parts];
  const starts: number[] = [];
  let joined = '';
  for (const p of parts) {
    starts.push(joined.length);
    joined += p;
  }
  const partOf = (index: number) => {
    let k = starts.length - 1;
    while (k > 0 && starts[k] > index) k--;
    return k;
  };
  const decisions: Decision[] = [];
  const converted = convertText(joined, from, to, choices, onDecision ? (d) => decisions.push(d) : undefined, mode, options);
  if (converted.length !== joined.length) {
    let offset = 0;
    return parts.map((p, k) => {
      const base = offset;
      offset += p.length;
      return convertText(p, from, to, choices, onDecision ? (d) => onDecision(d, k) : undefined, mode, { ...options, witnessAt: options.witnessAt && ((i) => options.witnessAt!(base + i)) });
    });
  }
  for (const d of decisions) {
    const k = partOf(d.index);
    onDecision!({ ...d, index: d.index - starts[k] }, k);
  }
  return parts.map((p, k) => converted.slice(starts[k], starts[k] + p.length));
}

/** The text nodes of `node` in streams: the direct text children of each parent, in order (a paragraph's text around its notes is one stream, each note's another). */
export function textStreams(node: Parent): Text[][] {
  const out: Text[][] = [];
  const walk = (n: Parent) => {
    const texts: Text[] = [];
    for (const c of n.children) if (c.type === 'text') texts.push(c);
    if (texts.length > 0) out.push(texts);
    for (const c of n.children) if ('children' in c) walk(c as Parent);
  };
  walk(node);
  return out;
}

/**
 * The edition's choices with the names the tree declares protected: a
 * commentator a 集注 was split on stays as written where the text names him
 * (○咸曰, 咸曰: 宋咸, not 鹹), whatever a phrase would make of the characters.
 */
export function protectNames(tree: Root, choices?: ConversionChoices, layers: Root['layers'] = tree.layers): ConversionChoices {
  const phrases: Record<string, string> = {};
  for (const layer of layers ?? []) {
    // The name as the source wrote it (the id keeps it; the label is converted with the text).
    const name = sourceLayerLabel(layer.id) ?? layer.label;
    if (!name || !Array.from(name).some((c) => oneToManyByChar().has(c))) continue;
    phrases[`○${name}`] = `○${name}`;
    phrases[`${name}曰`] = `${name}曰`;
  }
  return { keep: choices?.keep ?? [], prefer: choices?.prefer ?? {}, phrases: { ...phrases, ...(choices?.phrases ?? {}) } };
}

/** Blocks whose text is a name: converted character by character (ConversionMode `name`). */
const NAME_ROLES = new Set(['byline']);

/** What converting a tree reads besides its text: the context model, and a traditional witness of the same work. */
export interface TreeConversionOptions {
  model?: ContextCounts | false;
  witness?: Witness;
}

/**
 * A text's own habits (context-model.ts habitsOf), from a first pass over
 * its streams: the model's weighing at each of its places, and the
 * witness's reading where it decided. `options` as for each stream (with
 * `witnessAt` per stream: `witnessOf`).
 */
export function habitsOfText(streams: ReadonlyArray<readonly string[]>, from: Script, to: Script, choices: ConversionChoices | undefined, options: ConversionOptions, witnessOf?: (stream: number) => ConversionOptions['witnessAt']): Map<string, Map<string, number>> | undefined {
  const model = options.model === undefined ? contextModel() : options.model;
  if (!model || from !== 'simplified' || from === to) return undefined;
  const evidence: HabitEvidence[] = [];
  const hear = (d: Decision) => {
    if (d.how === 'model' && d.weighed) evidence.push({ char: d.char, weighed: d.weighed });
    else if (d.how === 'witness') evidence.push({ char: d.char, known: d.reading });
  };
  streams.forEach((parts, k) => {
    const witnessAt = witnessOf?.(k);
    convertParts(parts, from, to, choices, hear, 'text', { ...options, model, habits: undefined, ...(witnessAt ? { witnessAt } : {}) });
  });
  return habitsOf(model, evidence);
}

/**
 * One volume's text converted stream by stream (textStreams), each with the
 * readings the volume writes itself (writtenReadings), its writers' own
 * habits (habitsOfText: the front matter's apart) and the witness's characters where it agrees around
 * them. `write`: set the converted text in the nodes (else only `onDecision`
 * hears).
 */
function convertVolume(volume: Volume, from: Script, to: Script, choices: ConversionChoices, options: TreeConversionOptions, onDecision?: (d: Decision, node: Text) => void, write = true): void {
  let whole = '';
  visit(volume, 'text', (t: Text) => void (whole += t.value));
  const written = writtenReadings(whole);
  const streams = volume.children.flatMap((block) => textStreams(block).map((texts) => ({ texts, mode: (block.type === 'paragraph' && NAME_ROLES.has(block.role) ? 'name' : 'text') as ConversionMode, front: block.type === 'paragraph' && block.role === 'front' })));
  const agreement = options.witness && from === 'simplified' ? witnessAgreement(streams.map((s) => s.texts), options.witness) : undefined;
  const witnessOf = (k: number) => (agreement?.[k] ? (i: number) => agreement[k].get(i) : undefined);
  // Each writer's own habits: the front matter (a 提要, by the 四庫's editors) apart from the work's text.
  const habitsOfPart = (front: boolean) => {
    const prose = streams.flatMap((s, k) => (s.mode === 'text' && s.front === front ? [k] : []));
    return habitsOfText(prose.map((k) => streams[k].texts.map((t) => t.value)), from, to, choices, { model: options.model, written }, (j) => witnessOf(prose[j]));
  };
  const habits = { front: streams.some((s) => s.front) ? habitsOfPart(true) : undefined, text: habitsOfPart(false) };
  streams.forEach(({ texts, mode, front }, k) => {
    const at = witnessOf(k);
    const habitsHere = front ? habits.front : habits.text;
    const out = convertParts(texts.map((t) => t.value), from, to, choices, onDecision && ((d, part) => onDecision(d, texts[part])), mode, { model: options.model, written, ...(habitsHere ? { habits: habitsHere } : {}), ...(at ? { witnessAt: at } : {}) });
    if (write) texts.forEach((t, part) => void (t.value = out[part]));
  });
}

/**
 * Every text of the tree into the edition's script: text nodes, volume
 * titles, the work's title and author and the labels of declared layers, so
 * that running heads and labels come out of the same conversion as the text.
 */
export function convertScript(tree: Root, from: Script, to: Script, choices?: ConversionChoices, options: TreeConversionOptions = {}): Root {
  if (from === to) return tree;
  const protectedChoices = protectNames(tree, choices);
  for (const volume of tree.children) {
    volume.title = convertText(volume.title, from, to, protectedChoices);
    convertVolume(volume, from, to, protectedChoices, options);
  }
  return convertTreeNames(tree, from, to, protectedChoices);
}

/**
 * The tree's own names into the edition's script: the work's title, its
 * author and dynasty (a name: a character at a time) and the declared
 * layers' labels. `protectedChoices` as protectNames gives them.
 */
export function convertTreeNames(tree: Root, from: Script, to: Script, protectedChoices: ConversionChoices): Root {
  if (from === to) return tree;
  tree.edition = { ...tree.edition, title: convertText(tree.edition.title, from, to, protectedChoices), author: convertText(tree.edition.author, from, to, protectedChoices, undefined, 'name') };
  if (tree.edition.dynasty) tree.edition.dynasty = convertText(tree.edition.dynasty, from, to, protectedChoices);
  if (tree.layers) tree.layers = tree.layers.map((l) => ({ ...l, label: convertText(l.label, from, to, protectedChoices, undefined, 'name') }));
  return tree;
}

export interface ScriptReading {
  reading: string;
  count: number;
  how: DecisionSource;
  /** Where it occurs (the first few). */
  places: SourcePosition[];
}

/** A doubtful choice: where, what was taken and the readings weighed (with the witness's where it differs). */
export interface DoubtfulChoice {
  char: string;
  reading: string;
  how: DecisionSource;
  confidence: number;
  weighed: Weighed[];
  witness?: string;
  place: SourcePosition;
  /** The text around it, converted, the character in 【】. */
  context: string;
}

export interface ScriptReport {
  char: string;
  count: number;
  readings: ScriptReading[];
  /** How many of its choices are doubtful. */
  doubtful: number;
}

export interface ScriptReportResult {
  rows: ScriptReport[];
  /** Every doubtful choice, in book order. */
  doubtful: DoubtfulChoice[];
  /** Characters converted (the Han characters of the text). */
  characters: number;
}

/** `check --script`: each one-to-many character of the sources, what it became, how often, how surely and where; the doubtful choices one by one. */
export function scriptReport(tree: Root, from: Script, to: Script, choices?: ConversionChoices, placesPerReading = 3, layers: Root['layers'] = tree.layers, options: TreeConversionOptions = {}): ScriptReportResult {
  const byChar = new Map<string, Map<string, ScriptReading>>();
  const doubtful: DoubtfulChoice[] = [];
  const doubtfulByChar = new Map<string, number>();
  let characters = 0;
  if (from === to) return { rows: [], doubtful, characters };
  // `layers`: the transformed tree's, where a 集注's commentators are declared (the parsed tree has none yet).
  const protectedChoices = protectNames(tree, choices, layers);
  for (const volume of tree.children) {
    visit(volume, 'text', (t: Text) => void (characters += countHan(t.value)));
    const converted = structuredClone(volume);
    // The converted text, for the context of each doubtful choice: the same conversion, written into a copy.
    convertVolume(converted, from, to, protectedChoices, options);
    const convertedText = new Map<string, string>();
    visit(converted, 'text', (t: Text) => void convertedText.set(placeKey(t), t.value));
    convertVolume(volume, from, to, protectedChoices, options, (d, node) => {
      let readings = byChar.get(d.char);
      if (!readings) byChar.set(d.char, (readings = new Map()));
      const key = `${d.reading}|${d.how}`;
      let r = readings.get(key);
      if (!r) readings.set(key, (r = { reading: d.reading, count: 0, how: d.how, places: [] }));
      r.count++;
      const s = node.position.start;
      const at = { line: s.line, column: s.column + d.index, offset: (s.offset ?? 0) + d.index };
      const place = { file: node.position.file, start: at, end: { ...at, column: at.column + 1, offset: at.offset + 1 } };
      if (r.places.length < placesPerReading) r.places.push(place);
      if (d.doubtful) {
        doubtfulByChar.set(d.char, (doubtfulByChar.get(d.char) ?? 0) + 1);
        const text = convertedText.get(placeKey(node)) ?? node.value;
        const context = `${text.slice(Math.max(0, d.index - 6), d.index)}【${d.reading}】${text.slice(d.index + d.char.length, d.index + d.char.length + 6)}`;
        doubtful.push({ char: d.char, reading: d.reading, how: d.how, confidence: d.confidence, weighed: d.weighed ?? [], ...(d.witness !== undefined ? { witness: d.witness } : {}), place, context });
      }
    }, false);
  }
  const rows = [...byChar]
    .map(([char, readings]) => {
      const list = [...readings.values()].sort((a, b) => b.count - a.count || (a.places[0]?.start.offset ?? 0) - (b.places[0]?.start.offset ?? 0));
      return { char, count: list.reduce((n, r) => n + r.count, 0), readings: list, doubtful: doubtfulByChar.get(char) ?? 0 };
    })
    .sort((a, b) => b.count - a.count || (a.char < b.char ? -1 : 1));
  return { rows, doubtful, characters };
}

const placeKey = (t: Text) => `${t.position.file}\u0000${t.position.start.offset}\u0000${t.position.start.line}:${t.position.start.column}`;
const HAN_CHAR = /\p{Script=Han}/gu;
const countHan = (s: string) => s.match(HAN_CHAR)?.length ?? 0;

/** Doubtful choices of one source file: how many, among how many Han characters, the first few (`line:column char→reading`). */
export interface DoubtfulCount {
  count: number;
  characters: number;
  examples: string[];
}

/** The doubtful choices of the conversion, by source file (the import report counts them): one conversion of the tree, nothing written. */
export function doubtfulByFile(tree: Root, from: Script, to: Script, choices?: ConversionChoices, layers: Root['layers'] = tree.layers, options: TreeConversionOptions = {}): Map<string, DoubtfulCount> {
  const out = new Map<string, DoubtfulCount>();
  if (from === to || from !== 'simplified') return out;
  const of = (file: string) => {
    let c = out.get(file);
    if (!c) out.set(file, (c = { count: 0, characters: 0, examples: [] }));
    return c;
  };
  const protectedChoices = protectNames(tree, choices, layers);
  for (const volume of tree.children) {
    visit(volume, 'text', (t: Text) => void (of(t.position.file).characters += countHan(t.value)));
    convertVolume(volume, from, to, protectedChoices, options, (d, node) => {
      if (!d.doubtful) return;
      const c = of(node.position.file);
      c.count++;
      if (c.examples.length < 3) c.examples.push(`${node.position.start.line}:${node.position.start.column + d.index} ${d.char}→${d.reading} (${(d.weighed ?? []).map((w) => `${w.reading} ${w.score.toFixed(2)}`).join(' ')})`);
    }, false);
  }
  return out;
}
