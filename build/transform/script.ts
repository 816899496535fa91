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
import type { Parent, Root, Script, SourcePosition, Text } from '../tree/types.js';
import { oneToManyByChar } from './one-to-many.js';
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

export type DecisionSource = 'phrase' | 'keep' | 'prefer' | 'context' | 'classical' | 'name' | 'opencc';

/**
 * `text`: running text, converted by word (OpenCC's phrases). `name`: a
 * person's name or a byline, converted character by character — a one-to-many
 * character whose own form is one of its readings keeps it (宋咸 stays 咸, 于
 * the surname stays 于), since a name is not a word OpenCC's phrases know.
 */
export type ConversionMode = 'text' | 'name';

export interface Decision {
  /** The source character. */
  char: string;
  reading: string;
  /** Offset of the character in the converted string (UTF-16 units). */
  index: number;
  how: DecisionSource;
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
 * character the edition names) with the reading taken and why.
 */
export function convertText(text: string, from: Script, to: Script, choices?: ConversionChoices, onDecision?: (d: Decision) => void, mode: ConversionMode = 'text'): string {
  if (from === to) return text;
  // A name is converted a character at a time: no phrase of OpenCC's reaches across it.
  const converted = mode === 'name' ? Array.from(text, (c) => converter(from, to)(c)).join('') : converter(from, to)(text);
  if (from !== 'simplified') return converted;
  const target = Array.from(converted);
  // Decisions need the two texts aligned character for character (OpenCC nearly always is).
  let count = 0;
  for (const _ of text) count++;
  if (count !== target.length) return converted;
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
  let unit = 0;
  let i = 0;
  const oneToMany = oneToManyByChar();
  for (const s of text) {
    const phrase = phraseAt.get(unit);
    const entry = oneToMany.get(s);
    const kept = choices?.keep.includes(s);
    const preferred = choices ? own(choices.prefer, s) : undefined;
    if (phrase !== undefined || entry || kept || preferred) {
      let reading = target[i];
      let how: DecisionSource = 'opencc';
      if (phrase !== undefined) [reading, how] = [phrase, 'phrase'];
      else if (kept) [reading, how] = [s, 'keep'];
      else if (mode === 'name' && entry?.readings.includes(s)) [reading, how] = [s, 'name'];
      else if (preferred) [reading, how] = [preferred, 'prefer'];
      else if (entry) {
        const context = entry.contexts?.find((c) => {
          const re = sticky(c.pattern);
          re.lastIndex = unit;
          return re.test(text);
        });
        if (context) [reading, how] = [context.reading, 'context'];
        else if (entry.classical) [reading, how] = [entry.classical, 'classical'];
      }
      target[i] = reading;
      onDecision?.({ char: s, reading, index: unit, how });
    }
    unit += s.length;
    i++;
  }
  return target.join('');
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

/**
 * Every text of the tree into the edition's script: text nodes, volume
 * titles, the work's title and author and the labels of declared layers, so
 * that running heads and labels come out of the same conversion as the text.
 */
export function convertScript(tree: Root, from: Script, to: Script, choices?: ConversionChoices): Root {
  if (from === to) return tree;
  const protectedChoices = protectNames(tree, choices);
  const convertIn = (node: Parent, mode: ConversionMode) => {
    visit(node, 'text', (t: Text) => {
      t.value = convertText(t.value, from, to, protectedChoices, undefined, mode);
    });
  };
  for (const volume of tree.children) {
    volume.title = convertText(volume.title, from, to, protectedChoices);
    for (const block of volume.children) convertIn(block, block.type === 'paragraph' && NAME_ROLES.has(block.role) ? 'name' : 'text');
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

export interface ScriptReport {
  char: string;
  count: number;
  readings: ScriptReading[];
}

/** `check --script`: each one-to-many character of the sources, what it became, how often and where. */
export function scriptReport(tree: Root, from: Script, to: Script, choices?: ConversionChoices, placesPerReading = 3, layers: Root['layers'] = tree.layers): ScriptReport[] {
  const byChar = new Map<string, Map<string, ScriptReading>>();
  // `layers`: the transformed tree's, where a 集注's commentators are declared (the parsed tree has none yet).
  const protectedChoices = protectNames(tree, choices, layers);
  const names = new Set<Text>();
  for (const v of tree.children) for (const b of v.children) if (b.type === 'paragraph' && NAME_ROLES.has(b.role)) visit(b, 'text', (t: Text) => void names.add(t));
  visit(tree, 'text', (node: Text) => {
    convertText(node.value, from, to, protectedChoices, (d) => {
      let readings = byChar.get(d.char);
      if (!readings) byChar.set(d.char, (readings = new Map()));
      const key = `${d.reading}|${d.how}`;
      let r = readings.get(key);
      if (!r) readings.set(key, (r = { reading: d.reading, count: 0, how: d.how, places: [] }));
      r.count++;
      if (r.places.length < placesPerReading) {
        const s = node.position.start;
        const at = { line: s.line, column: s.column + d.index, offset: (s.offset ?? 0) + d.index };
        r.places.push({ file: node.position.file, start: at, end: { ...at, column: at.column + 1, offset: at.offset + 1 } });
      }
    }, names.has(node) ? 'name' : 'text');
  });
  return [...byChar]
    .map(([char, readings]) => {
      const list = [...readings.values()].sort((a, b) => b.count - a.count || (a.places[0]?.start.offset ?? 0) - (b.places[0]?.start.offset ?? 0));
      return { char, count: list.reduce((n, r) => n + r.count, 0), readings: list };
    })
    .sort((a, b) => b.count - a.count || (a.char < b.char ? -1 : 1));
}
