/**
 * edition.yaml → EditionConfig. Every problem is a message at its place in the
 * file; a broken field falls back to its default so the rest still builds.
 * The format is documented in manuscript/README.md.
 */
import { VFile } from 'vfile';
import { location } from 'vfile-location';
import { isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { PDF_STANDARDS, PDFX_VERSIONS, type BookParts, type ConventionOverrides, type ConversionChoices, type EditionConfig, type LayerRuleConfig, type PdfSettings, type PdfStandard, type PdfxVersion, type SealConfig, type SealPosition, type SourceFormat, type WitnessConfig } from '../tree/edition.js';
import type { Point, Script } from '../tree/types.js';
import { createSource, type Source } from './source.js';
import { editionFonts, fontEntryFile } from '../fonts/stack.js';
import { readPunctuationSetting } from '../punctuation/config.js';

import { FORMAT_NAMES as FORMATS } from './formats.js';
import { encodingName } from './decode.js';
import { validateEdition } from './edition-schema.js';
import { nameTable } from '../tree/append.js';
export const TEMPLATES = ['siku', 'modern'] as const;
export interface EditionResult {
  /** Null when the file is unusable (not YAML, or no sources). */
  config: EditionConfig | null;
  /** Every file the edition names, where it names it: what the loader checks against the edition's folder. */
  paths: EditionPath[];
}

/** A file named in edition.yaml, with the place of its name (for messages about that file). */
export interface EditionPath {
  /** The key naming it: sources, charmap, corrections, fonts.<role> (fonts.main, fonts.zhu …: isFontPath), seals. */
  key: string;
  /** The file as written (for a font, the file part of the entry). */
  name: string;
  place: { start: Point; end: Point };
}

/** Whether a file edition.yaml names is a font (`fonts.<role>`): checked as a font, found in the system's font folders too. */
export function isFontPath(ref: Pick<EditionPath, 'key'>): boolean {
  return ref.key.startsWith('fonts.');
}

/** Defaults for an edition made from a lone source file (`diaoban tree FILE`). */
export function defaultEdition(id: string, sources: string[]): EditionConfig {
  return {
    meta: { id, title: id, author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' },
    sources,
    charmap: {},
    layout: {},
    page: {},
    fonts: {},
    popupLayers: [],
    layerRules: [],
  };
}

function range(node: YamlNode | null | undefined): [number, number] {
  const r = node?.range;
  return r ? [r[0], r[1]] : [0, 0];
}

export function parseEditionYaml(file: VFile, id: string): EditionResult {
  const text = String(file.value ?? '');
  const src = createSource(file, text);
  const paths: EditionPath[] = [];
  const named = (key: string, name: string, node: YamlNode | undefined): void => {
    const [start, end] = range(node);
    paths.push({ key, name, place: { start: src.point(start), end: src.point(end) } });
  };
  if (text.trim() === '') {
    src.report('error', 'edition.yaml is empty; it needs at least title, author and sources (see manuscript/README.md)', 0, 0, 'edition-empty');
    return { config: null, paths };
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  for (const error of doc.errors) {
    src.report('error', `edition.yaml is not valid YAML: ${error.message.split('\n')[0]}`, error.pos[0], error.pos[1], 'edition-yaml');
  }
  if (doc.errors.length > 0) return { config: null, paths };
  const root = doc.contents;
  if (!isMap(root)) {
    src.report('error', 'edition.yaml must be a mapping of keys (title: …, author: …, sources: …)', 0, text.length, 'edition-yaml');
    return { config: null, paths };
  }
  const config = defaultEdition(id, []);
  const get = (key: string): YamlNode | undefined => root.get(key, true) as YamlNode | undefined;
  const str = (key: string): string | undefined => {
    const node = get(key);
    if (node === undefined) return undefined;
    if (isScalar(node) && (typeof node.value === 'string' || typeof node.value === 'number')) return String(node.value).trim();
    if (isScalar(node) && node.value instanceof Date) return node.value.toISOString().slice(0, 10);
    src.report('error', `${key} must be text`, ...range(node), 'edition-field');
    return undefined;
  };

  // Types, ranges, lengths and counts (edition-schema.ts): a bad value is a message at its place and is gone from here on.
  validateEdition(doc, (severity, reason, start, end, ruleId) => src.report(severity, reason, start, end, ruleId));

  const meta = config.meta;
  // A title or author edition.yaml leaves out is the text's (parseEdition finds it; the loader says which it took).
  meta.title = str('title') ?? '';
  meta.author = str('author') ?? '';
  meta.dynasty = str('dynasty');
  const witness = str('witness');
  if (witness) meta.witness = witness;
  meta.description = str('description');
  meta.date = str('date');
  const script = (key: string): Script | undefined => {
    const value = str(key);
    if (value === undefined) return undefined;
    return value === 'traditional' || value === 'simplified' ? value : undefined;
  };
  meta.script = script('script') ?? 'traditional';
  const sourceScript = script('source-script');
  if (sourceScript && sourceScript !== meta.script) meta.sourceScript = sourceScript;
  meta.language = str('language') ?? (meta.script === 'traditional' ? 'zh-Hant' : 'zh-Hans');
  const template = str('template') ?? 'siku';
  if ((TEMPLATES as readonly string[]).includes(template)) meta.template = template;

  const sources = get('sources');
  if (isSeq(sources)) {
    for (const item of sources.items as YamlNode[]) {
      if (isScalar(item) && typeof item.value === 'string' && item.value.trim() !== '') {
        config.sources.push(item.value.trim());
        named('sources', item.value.trim(), item);
      } else src.report('error', 'each source must be a file name', ...range(item), 'edition-field');
    }
  } else if (sources !== undefined) {
    src.report('error', 'sources must be a list of file names ("- juan01.txt")', ...range(sources), 'edition-field');
  }
  if (config.sources.length === 0) {
    src.report('error', 'edition.yaml lists no sources; add "sources:" with one "- file.txt" line a file', 0, 0, 'edition-missing');
    return { config: null, paths };
  }

  const format = str('format');
  if (format !== undefined) {
    if ((FORMATS as readonly string[]).includes(format)) config.format = format as SourceFormat;
  }
  const encoding = str('encoding');
  if (encoding !== undefined) {
    if (encodingName(encoding)) config.encoding = encoding;
  }
  const conventions = readConventions(src, get('conventions'));
  if (conventions) config.conventions = conventions;
  const conversion = readConversion(src, get('conversion'));
  if (conversion) config.conversion = conversion;
  const conversionNode = get('conversion');
  const witnessNode = isMap(conversionNode) ? (conversionNode.get('witness', true) as YamlNode | undefined) : undefined;
  if (conversion?.witness) named('conversion.witness', conversion.witness, witnessNode);
  config.corrections = str('corrections');
  if (config.corrections) named('corrections', config.corrections, get('corrections'));
  readCollation(get('collation'), config);
  const witnesses = readWitnesses(src, get('witnesses'), named);
  if (witnesses.length > 0) config.witnesses = witnesses;
  const charmapFile = str('charmap');
  if (charmapFile) named('charmap', charmapFile, get('charmap'));

  const punctuation = get('punctuation');
  if (punctuation !== undefined) {
    const { setting, problems } = readPunctuationSetting(punctuation.toJSON());
    for (const problem of problems) src.report('error', problem, ...range(punctuation), 'edition-field');
    meta.punctuation = setting;
  }
  readLayout(src, get('layout'), config);
  readPage(src, get('page'), config);
  const fonts = get('fonts');
  if (isMap(fonts)) {
    // Each role's faces (main, label, a layer), in the file's order; a file is named as `fonts.<role>`.
    for (const pair of fonts.items) {
      const role = isScalar(pair.key) ? String(pair.key.value) : '';
      const list = pair.value as YamlNode | null;
      if (!role || !isSeq(list)) continue;
      const entries: string[] = [];
      for (const item of (list.items as YamlNode[]).filter(isScalar)) {
        const entry = String(item.value);
        try {
          editionFonts([entry]);
          entries.push(entry);
          const font = fontEntryFile(entry);
          if (font) named(`fonts.${role}`, font.file, item);
        } catch (error) {
          src.report('error', `${(error as Error).message} (left out)`, ...range(item), 'edition-field');
        }
      }
      config.fonts[role] = entries;
    }
  }
  const notes = get('notes');
  if (isMap(notes)) {
    const popup = notes.get('popup', true) as YamlNode | undefined;
    if (isSeq(popup)) config.popupLayers = (popup.items as YamlNode[]).filter(isScalar).map((n) => String(n.value));
    else if (popup !== undefined) src.report('error', 'notes.popup must be a list of layers ([shu, fuzhu])', ...range(popup), 'edition-field');
  }
  config.layerRules = readLayerRules(src, get('layers'));
  const seals = readSeals(src, get('seals'), named);
  if (seals.length > 0) config.seals = seals;
  const pdf = readPdf(src, get('pdf'));
  if (pdf) config.pdf = pdf;
  config.book = readBook(get('book'));
  return { config, paths };
}

/** `collation: off | end-of-volume`, or `{ place: …, variants: list | count | omit }` (the schema checked the values). */
function readCollation(node: YamlNode | undefined, config: EditionConfig): void {
  const value = (n: unknown): string | undefined => (isScalar(n) && typeof n.value === 'string' ? n.value.trim() : undefined);
  const place = isMap(node) ? value(node.get('place', true)) : value(node);
  if (place === 'end-of-volume' || place === 'off') config.collation = place;
  const variants = isMap(node) ? value(node.get('variants', true)) : undefined;
  if (variants === 'list' || variants === 'count' || variants === 'omit') config.variants = variants;
}

/** `witnesses:`: each { siglum, path, branch?, script? }; its path is named (key `witnesses`) for the sandbox. Two with one siglum: the second is left out. */
function readWitnesses(src: Source, node: YamlNode | undefined, named: (key: string, name: string, node: YamlNode | undefined) => void): WitnessConfig[] {
  if (!isSeq(node)) return [];
  const out: WitnessConfig[] = [];
  for (const item of node.items as YamlNode[]) {
    if (!isMap(item)) continue;
    const field = (key: string): string | undefined => {
      const n = item.get(key, true) as YamlNode | undefined;
      return isScalar(n) && (typeof n.value === 'string' || typeof n.value === 'number') ? String(n.value).trim() : undefined;
    };
    const siglum = field('siglum');
    const path = field('path');
    if (!siglum || !path) continue;
    if (out.some((w) => w.siglum === siglum)) {
      src.report('error', `witness ${siglum} is named twice; give each witness its own siglum (this one is left out)`, ...range(item), 'edition-field');
      continue;
    }
    const [start, end] = range(item);
    const witness: WitnessConfig = { siglum, path, place: { start: src.point(start), end: src.point(end) } };
    const branch = field('branch');
    if (branch) witness.branch = branch;
    const script = field('script');
    if (script === 'traditional' || script === 'simplified') witness.script = script;
    named('witnesses', path, item.get('path', true) as YamlNode | undefined);
    out.push(witness);
  }
  return out;
}

/** `book:` — the PDF's cover, title page and 牌記, each on unless false (the schema checked the values). */
function readBook(node: YamlNode | undefined): BookParts {
  const value = (key: string): unknown => (isMap(node) ? (node.get(key) as unknown) : undefined);
  const text = (key: string): string | undefined => {
    const v = value(key);
    return typeof v === 'string' || typeof v === 'number' ? String(v).trim() || undefined : undefined;
  };
  const parts: BookParts = { cover: value('cover') !== false, titlePage: value('title-page') !== false, colophon: value('colophon') !== false };
  const edition = text('edition');
  const source = text('source');
  if (edition) parts.edition = edition;
  if (source) parts.source = source;
  return parts;
}

function positiveInt(src: Source, node: YamlNode | undefined, key: string, max: number): number | undefined {
  if (node === undefined) return undefined;
  if (isScalar(node) && typeof node.value === 'number' && Number.isInteger(node.value) && node.value > 0 && node.value <= max) return node.value;
  src.report('error', `${key} must be a whole number from 1 to ${max}`, ...range(node), 'edition-field');
  return undefined;
}

function readLayout(src: Source, node: YamlNode | undefined, config: EditionConfig): void {
  if (node === undefined) return;
  // `layout: source`: the source's own lines and pages (Kanripo ¶ and <pb:>); `source: true` in the mapping with other keys.
  if (isScalar(node) && node.value === 'source') {
    config.layout.source = true;
    return;
  }
  if (!isMap(node)) {
    src.report('error', 'layout must be source (the source\'s own lines and pages) or a mapping (columns: 8, cells: 21)', ...range(node), 'edition-field');
    return;
  }
  const source = node.get('source', true) as YamlNode | undefined;
  if (source !== undefined) {
    if (isScalar(source) && typeof source.value === 'boolean') config.layout.source = source.value || undefined;
    else src.report('error', 'layout.source must be true or false', ...range(source), 'edition-field');
  }
  config.layout.columns = positiveInt(src, node.get('columns', true) as YamlNode | undefined, 'layout.columns', 40);
  config.layout.cells = positiveInt(src, node.get('cells', true) as YamlNode | undefined, 'layout.cells', 60);
  const tracking = node.get('tracking', true) as YamlNode | undefined;
  if (tracking !== undefined) {
    if (isScalar(tracking) && typeof tracking.value === 'number' && tracking.value >= -0.3 && tracking.value <= 2) config.layout.tracking = tracking.value;
    else src.report('error', 'layout.tracking must be a number of em from -0.3 to 2 (space between characters)', ...range(tracking), 'edition-field');
  }
  const align = node.get('align', true) as YamlNode | undefined;
  if (isMap(align)) {
    config.layout.align = {};
    for (const pair of align.items) {
      const role = isScalar(pair.key) ? String(pair.key.value) : '';
      const value = isScalar(pair.value) ? String(pair.value.value) : '';
      if (!['text', 'ji', 'label', 'title', 'byline', 'commentary', 'front'].includes(role) || !['start', 'center', 'end', 'justify'].includes(value)) {
        src.report('error', `layout.align takes a role (text, ji, label, title, byline, commentary, front) and start, center, end or justify, not ${role}: ${value}`, ...range(pair.key as YamlNode), 'edition-field');
        continue;
      }
      config.layout.align[role as 'title'] = value as 'center';
    }
  } else if (align !== undefined) {
    src.report('error', 'layout.align must be a mapping of roles (title: center)', ...range(align), 'edition-field');
  }
}

function readPage(src: Source, node: YamlNode | undefined, config: EditionConfig): void {
  if (node === undefined) return;
  if (!isMap(node)) {
    src.report('error', 'page must be a mapping (size: A5, bleed: 3mm, marks: true)', ...range(node), 'edition-field');
    return;
  }
  // The schema checked each value (a page size Chromium prints, a length): what is left is good.
  const size = node.get('size');
  if (typeof size === 'string') config.page.size = size.trim();
  const bleed = node.get('bleed');
  if (typeof bleed === 'string') config.page.bleed = bleed.trim();
  const marks = node.get('marks');
  if (typeof marks === 'boolean') config.page.marks = marks;
  const frame = node.get('frame');
  if (frame === 'black' || frame === 'red') config.page.frame = frame;
}

/**
 * `pdf:` — `screen` (the default), `print`, `archive`, or a mapping
 * `{ standard: print, pdfx: x-1a }`. A bad value is reported and the screen
 * file is built.
 */
function readPdf(src: Source, node: YamlNode | undefined): PdfSettings | undefined {
  if (node === undefined) return undefined;
  const example = 'pdf: print, or pdf: { standard: print, pdfx: x-1a }';
  const standardOf = (n: YamlNode | undefined): PdfStandard | undefined => {
    const v = isScalar(n) ? n.value : undefined;
    if (typeof v === 'string' && (PDF_STANDARDS as readonly string[]).includes(v)) return v as PdfStandard;
    src.report('error', `pdf must be one of ${PDF_STANDARDS.join(', ')}, not ${JSON.stringify(n?.toJSON() ?? null)} (${example}); the screen PDF is built`, ...range(n ?? node), 'edition-field');
    return undefined;
  };
  if (isScalar(node)) {
    const standard = standardOf(node);
    return standard ? { standard } : undefined;
  }
  if (!isMap(node)) {
    src.report('error', `pdf must be a standard or a mapping (${example}); the screen PDF is built`, ...range(node), 'edition-field');
    return undefined;
  }
  for (const item of node.items) {
    const key = isScalar(item.key) ? String(item.key.value) : '';
    if (key !== 'standard' && key !== 'pdfx') src.report('warning', `unknown key pdf.${key} (known: standard, pdfx); ignored`, ...range(item.key as YamlNode), 'edition-field');
  }
  const standard = standardOf(node.get('standard', true) as YamlNode | undefined);
  if (!standard) return undefined;
  const settings: PdfSettings = { standard };
  const pdfx = node.get('pdfx', true) as YamlNode | undefined;
  if (pdfx !== undefined) {
    const v = isScalar(pdfx) ? String(pdfx.value).toLowerCase() : '';
    if (!(PDFX_VERSIONS as readonly string[]).includes(v)) {
      src.report('error', `pdf.pdfx must be ${PDFX_VERSIONS.join(' or ')}, not ${JSON.stringify(pdfx.toJSON())}; x-4 is used`, ...range(pdfx), 'edition-field');
    } else if (standard !== 'print') {
      src.report('warning', `pdf.pdfx applies to standard: print only; ignored for ${standard}`, ...range(pdfx), 'edition-field');
    } else settings.pdfx = v as PdfxVersion;
  }
  return settings;
}

const SEAL_POSITIONS: readonly SealPosition[] = ['lower-left', 'lower-right', 'upper-left', 'upper-right', 'center'];
const CSS_LENGTH = /^\s*\d+(?:\.\d+)?\s*(?:mm|cm|in|pt|px|q)\s*$/i;

/** `seals:` — a list of { image, page, position, size, name }; each image is a file the sandbox checks (key `seals`). */
function readSeals(src: Source, node: YamlNode | undefined, named: (key: string, name: string, node: YamlNode | undefined) => void): SealConfig[] {
  if (node === undefined) return [];
  const example = 'seals: [{ image: seal.png, page: 1, position: lower-left, size: 20mm }]';
  if (!isSeq(node)) {
    src.report('error', `seals must be a list of seals (${example})`, ...range(node), 'edition-field');
    return [];
  }
  const out: SealConfig[] = [];
  for (const item of node.items as YamlNode[]) {
    if (!isMap(item)) {
      src.report('error', `each seal is a mapping (${example})`, ...range(item), 'edition-field');
      continue;
    }
    const field = (key: string): YamlNode | undefined => item.get(key, true) as YamlNode | undefined;
    const image = field('image');
    if (!isScalar(image) || typeof image.value !== 'string' || image.value.trim() === '') {
      src.report('error', 'a seal needs image: the PNG or SVG file of the seal, in the edition folder', ...range(image ?? item), 'edition-field');
      continue;
    }
    const seal: SealConfig = { image: image.value.trim(), page: 1, position: 'lower-left', size: '20mm' };
    const page = field('page');
    if (page !== undefined) {
      const v = isScalar(page) ? page.value : undefined;
      if (v === 'last' || v === 'first') seal.page = v === 'last' ? 'last' : 1;
      else if (typeof v === 'number' && Number.isInteger(v) && v >= 1) seal.page = v;
      else src.report('error', 'seal page must be a page number (1 = the first page), first or last; page 1 is used', ...range(page), 'edition-field');
    }
    const position = field('position');
    if (position !== undefined) {
      const v = isScalar(position) ? String(position.value) : '';
      if ((SEAL_POSITIONS as readonly string[]).includes(v)) seal.position = v as SealPosition;
      else src.report('error', `seal position must be one of ${SEAL_POSITIONS.join(', ')}; lower-left is used`, ...range(position), 'edition-field');
    }
    const size = field('size');
    if (size !== undefined) {
      const v = isScalar(size) ? String(size.value) : '';
      if (CSS_LENGTH.test(v)) seal.size = v.trim();
      else src.report('error', 'seal size must be a length such as 20mm; 20mm is used', ...range(size), 'edition-field');
    }
    const name = field('name');
    if (name !== undefined) {
      const v = isScalar(name) ? String(name.value ?? '').trim() : '';
      if (v) seal.name = v;
      else src.report('error', 'seal name must be the words the seal bears (name: 文淵閣寶), for readers who cannot see it', ...range(name), 'edition-field');
    }
    named('seals', seal.image, image);
    out.push(seal);
  }
  return out;
}

function readLayerRules(src: Source, node: YamlNode | undefined): LayerRuleConfig[] {
  if (node === undefined) return [];
  if (!isSeq(node)) {
    src.report('error', 'layers must be a list of rules (- layer: an, pattern: "^愚謂")', ...range(node), 'edition-field');
    return [];
  }
  const rules: LayerRuleConfig[] = [];
  for (const item of node.items as YamlNode[]) {
    if (!isMap(item)) continue;
    const layer = item.get('layer');
    const pattern = item.get('pattern');
    const label = item.get('label');
    if (typeof layer !== 'string' || typeof pattern !== 'string') {
      src.report('error', 'a layer rule needs layer and pattern', ...range(item), 'edition-field');
      continue;
    }
    rules.push({ layer, pattern, ...(typeof label === 'string' ? { label } : {}) });
  }
  return rules;
}

/** Two characters → a bracket pair: `（）` → ['（', '）']. */
function pairOf(value: unknown): [string, string] | null {
  const chars = typeof value === 'string' ? Array.from(value.trim()) : [];
  return chars.length === 2 ? [chars[0], chars[1]] : null;
}

function stringMap(node: unknown): Record<string, string> | null {
  if (!isMap(node)) return null;
  const out = nameTable<string>();
  for (const pair of node.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : '';
    const v = isScalar(pair.value) ? String((pair.value as { value: unknown }).value) : '';
    if (k && v) out[k] = v;
  }
  return out;
}

function stringList(node: unknown): string[] | null {
  if (!isSeq(node)) return null;
  return (node.items as YamlNode[]).filter(isScalar).map((n) => String(n.value));
}

/** `conventions:` keys that choose a reading the whole text would decide otherwise (parse/decide.ts). */
const CHOICES = {
  paragraphs: { values: ['line', 'blank'], set: (o: ConventionOverrides, v: string) => void (o.paragraphs = v as 'line' | 'blank') },
  descriptions: { values: ['true', 'false'], set: (o: ConventionOverrides, v: string) => void (o.descriptions = v === 'true') },
  subcolumns: { values: ['right-first', 'left-first'], set: (o: ConventionOverrides, v: string) => void (o.subcolumns = v as 'right-first' | 'left-first') },
};

/** `conventions:` — overrides of the format's table row (build/parse/formats.ts). */
function readConventions(src: Source, node: YamlNode | undefined): ConventionOverrides | undefined {
  if (node === undefined) return undefined;
  if (!isMap(node)) {
    src.report('error', 'conventions must be a mapping (notes: ["()"], split: "/", labels: { 集解: jijie }, commentary-lines: ["〔〕"], headings: [...], metadata: [...])', ...range(node), 'edition-field');
    return undefined;
  }
  const out: ConventionOverrides = {};
  const known = new Set(['notes', 'split', 'labels', 'commentary-lines', 'headings', 'metadata', ...Object.keys(CHOICES)]);
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value as YamlNode;
    if (!known.has(key)) {
      src.report('warning', `unknown key "${key}" in conventions is ignored; known: ${[...known].join(', ')}`, ...range(pair.key as YamlNode), 'edition-unknown-key');
      continue;
    }
    if (key in CHOICES) {
      const choice = CHOICES[key as keyof typeof CHOICES];
      const given = isScalar(value) ? String(value.value) : '';
      if (!choice.values.includes(given)) src.report('error', `conventions.${key} must be one of: ${choice.values.join(', ')}`, ...range(value), 'edition-field');
      else choice.set(out, given);
      continue;
    }
    if (key === 'notes' || key === 'commentary-lines') {
      const list = stringList(value);
      const pairs = list?.map(pairOf);
      if (!pairs || pairs.some((p) => p === null)) {
        src.report('error', `conventions.${key} must be a list of bracket pairs, two characters each ("（）")`, ...range(value), 'edition-field');
        continue;
      }
      if (key === 'notes') out.notes = pairs as Array<[string, string]>;
      else out.commentaryLines = pairs as Array<[string, string]>;
    } else if (key === 'split') {
      out.split = isScalar(value) ? String(value.value ?? '') : '';
    } else if (key === 'labels') {
      const map = stringMap(value);
      if (map) out.labels = map;
      else src.report('error', 'conventions.labels must map labels to layers ({ 集解: jijie })', ...range(value), 'edition-field');
    } else {
      // Each pattern compiled for RE2 by the schema: those left run in linear time.
      const list = stringList(value);
      if (!list) continue;
      if (key === 'headings') out.headings = list;
      else out.metadata = list;
    }
  }
  return out;
}

/** `conversion:` — keep: [于], prefer: { 为: 爲 }, phrases: { 后稷: 后稷 }. */
function readConversion(src: Source, node: YamlNode | undefined): ConversionChoices | undefined {
  if (node === undefined) return undefined;
  if (!isMap(node)) {
    src.report('error', 'conversion must be a mapping (keep: [于], prefer: { 为: 爲 }, phrases: { 后稷: 后稷 })', ...range(node), 'edition-field');
    return undefined;
  }
  const out: ConversionChoices = { keep: [], prefer: nameTable(), phrases: nameTable() };
  const witness = node.get('witness', true) as YamlNode | undefined;
  if (witness !== undefined) {
    if (isScalar(witness) && typeof witness.value === 'string' && witness.value.trim() !== '') out.witness = witness.value.trim();
    else src.report('error', 'conversion.witness must be a file name (a traditional copy of the same work)', ...range(witness), 'edition-field');
  }
  const keep = node.get('keep', true) as YamlNode | undefined;
  if (keep !== undefined) {
    const list = stringList(keep);
    if (list) out.keep = list.flatMap((k) => Array.from(k));
    else src.report('error', 'conversion.keep must be a list of characters ([于, 后])', ...range(keep), 'edition-field');
  }
  for (const key of ['prefer', 'phrases'] as const) {
    const value = node.get(key, true) as YamlNode | undefined;
    if (value === undefined) continue;
    const map = stringMap(value);
    if (!map) {
      src.report('error', `conversion.${key} must map ${key === 'prefer' ? 'a character to the form this edition uses ({ 为: 爲 })' : 'a phrase to its conversion ({ 后稷: 后稷 })'}`, ...range(value), 'edition-field');
      continue;
    }
    for (const [from, to] of Object.entries(map)) {
      if (key === 'prefer' && (Array.from(from).length !== 1 || Array.from(to).length !== 1)) {
        src.report('error', `conversion.prefer maps one character to one character, not "${from}: ${to}"`, ...range(value), 'edition-field');
        continue;
      }
      if (key === 'phrases' && Array.from(from).length !== Array.from(to).length) {
        src.report('error', `conversion.phrases must keep the length: "${from}" and "${to}" differ`, ...range(value), 'edition-field');
        continue;
      }
      out[key][from] = to;
    }
  }
  return out;
}

/** The longest replacement a charmap entry may give (characters): a character, or a short description of one. */
export const MAX_CHARMAP_VALUE = 32;

/** charmap.yaml: `U+E512: 埶` (or the character itself as the key) → { '\uE512': '埶' }. */
export function parseCharmap(file: VFile): Record<string, string> {
  const text = String(file.value ?? '');
  const src = createSource(file, text);
  if (/^KR\d+\t/mu.test(text.slice(0, 2000))) return parseKanripoCharlist(text);
  // The YAML library's own check of unique keys compares each key with every one before it (100,000 entries: 101 s);
  // keys are checked here instead, in one pass (a key given twice: an error at the second, the first kept).
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  for (const error of doc.errors) src.report('error', `charmap is not valid YAML: ${error.message.split('\n')[0]}`, error.pos[0], error.pos[1], 'charmap-yaml');
  const map = nameTable<string>();
  if (doc.errors.length > 0 || doc.contents === null) return map;
  if (!isMap(doc.contents)) {
    src.report('error', 'charmap must map code points to characters (U+E512: 埶)', 0, text.length, 'charmap-yaml');
    return map;
  }
  const seen = new Map<string, number>();
  const lines = location(text);
  for (const pair of doc.contents.items) {
    const keyNode = pair.key as YamlNode;
    const key = isScalar(keyNode) ? String(keyNode.value) : '';
    const first = seen.get(key);
    if (first !== undefined) {
      src.report('error', `charmap entry "${key}" is given twice (first on line ${lines.toPoint(first)?.line ?? '?'}); the first is kept`, ...range(keyNode), 'charmap-entry');
      continue;
    }
    if (isScalar(keyNode)) seen.set(key, range(keyNode)[0]);
    const value = isScalar(pair.value) ? String((pair.value as { value: unknown }).value) : '';
    const hex = /^U\+([0-9A-F]{4,6})$/i.exec(key);
    // Past U+10FFFF is no code point (String.fromCodePoint would throw).
    if (hex && parseInt(hex[1], 16) > 0x10ffff) {
      src.report('error', `charmap entry "${key}" is past U+10FFFF, the last code point`, ...range(keyNode), 'charmap-entry');
      continue;
    }
    // Entities and compositions as the source writes them: &KR0433; (or KR0433), {艹虑}.
    const entity = /^&?(KR\d+);?$/i.exec(key);
    const char = hex ? String.fromCodePoint(parseInt(hex[1], 16)) : entity ? `&${entity[1].toUpperCase()};` : /^\{[^{}]+\}$/u.test(key) ? key : Array.from(key).length === 1 ? key : null;
    if (char === null || value === '') {
      src.report('error', `charmap entry "${key}" must be U+XXXX (or the character) mapped to its replacement`, ...range(keyNode), 'charmap-entry');
      continue;
    }
    const length = Array.from(value).length;
    if (length > MAX_CHARMAP_VALUE) {
      src.report('error', `charmap entry "${key}" is replaced by ${length} characters; a replacement may have at most ${MAX_CHARMAP_VALUE} (it is left out: printed as 〓)`, ...range(pair.value as YamlNode), 'charmap-entry');
      continue;
    }
    map[char] = value;
  }
  return map;
}

/**
 * Kanripo's own character list (KR-Gaiji charlist.org: `KR0007 TAB count TAB
 * 𤣥 TAB 玄 TAB image`), used as a charmap: the exact character where Unicode
 * has it, else the standard form; entries with neither (or several) are left out.
 */
function parseKanripoCharlist(text: string): Record<string, string> {
  const map = nameTable<string>();
  const single = (s: string | undefined) => {
    const chars = Array.from((s ?? '').trim());
    const cp = chars[0]?.codePointAt(0) ?? 0;
    return chars.length === 1 && cp >= 0x3400 && !(cp >= 0xe000 && cp <= 0xf8ff) ? chars[0] : null;
  };
  for (const line of text.split(/\r?\n/)) {
    const cols = line.split('\t');
    if (!/^KR\d+$/.test(cols[0] ?? '')) continue;
    const value = single(cols[2]) ?? single(cols[3]);
    if (value) map[`&${cols[0]};`] = value;
  }
  return map;
}
