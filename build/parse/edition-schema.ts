/**
 * The schema of edition.yaml: one row a key, giving its type, range, length
 * and count. `validateEdition` checks a parsed document against it before
 * anything reads a value, reports each bad value at its place in the file
 * (`file:line:col`, what is wrong, what to write instead) and removes it, so
 * the readers in edition.ts see only values of the right shape and fall back
 * to their defaults for the rest. A new key is a new row in EDITION_SCHEMA.
 */
import { isMap, isScalar, isSeq, type Document, type Node as YamlNode, type Pair } from 'yaml';
import { compilePattern, MAX_PATTERNS } from './pattern.js';
import { encodingName } from './decode.js';
import { FORMAT_NAMES } from './formats.js';
import { parsePageSize, lengthToMm } from '../render/pdf/geometry.js';
import { STANDARDS } from '../punctuation/config.js';
import { PDF_STANDARDS, PDFX_VERSIONS } from '../tree/edition.js';

export type Check =
  /** A string (a number is read as its text); `test` returns what is wrong, or null. */
  | { type: 'text'; max: number; oneOf?: readonly string[]; test?: (value: string) => string | null; hint?: string }
  | { type: 'number'; min: number; max: number; integer?: boolean; hint?: string }
  | { type: 'boolean'; hint?: string }
  | { type: 'list'; of: Check; max: number; hint?: string }
  /** A mapping of known keys; others are warned about and ignored. Without a good value for each `required` key the whole mapping is left out. */
  | { type: 'map'; keys: Readonly<Record<string, Check>>; required?: readonly string[]; hint?: string }
  /** A mapping of the edition's own keys (labels, conversion.prefer …). */
  | { type: 'dict'; key: Check; value: Check; max: number; hint?: string }
  /** The first alternative that fits (`layout: source` or a mapping). */
  | { type: 'either'; of: readonly Check[]; hint: string };

/** Where a problem is: the node's offsets in edition.yaml. */
export type Report = (severity: 'error' | 'warning', reason: string, start: number, end: number, ruleId: string) => void;

/** Longest text of a name, a title …: far above any real one, far below what slows a build. */
const NAME = 500;
const FILE = 1000;
const LONG_TEXT = 20_000;
/** Most sources an edition may list, and most entries in one of its mappings or lists. */
const MAX_SOURCES = 10_000;
const MAX_ENTRIES = 10_000;
/** The largest page side (mm) Chromium prints: an A0 sheet's long side with room to spare. */
export const MAX_PAGE_SIDE_MM = 1500;
const MAX_BLEED_MM = 25;
const MAX_SEAL_MM = 300;
/** A seal's page number: more than any book has. */
const MAX_SEAL_PAGE = 1_000_000;

// C0 and C1 controls (tab and line feed kept), and bidi overrides and isolates: no value shows them.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** "contains the control character U+…" for a value that has one (edition.yaml and corrections.yaml), else null. */
export function noControl(value: string): string | null {
  const m = CONTROL.exec(value);
  return m ? `contains the control character U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}

const text = (max: number, extra: Partial<Extract<Check, { type: 'text' }>> = {}): Check => ({ type: 'text', max, ...extra });
const oneOf = (values: readonly string[]): Check => ({ type: 'text', max: 100, oneOf: values });
const list = (of: Check, max: number, hint?: string): Check => ({ type: 'list', of, max, hint });

function pageSize(value: string): string | null {
  try {
    const [w, h] = parsePageSize(value);
    if (w > MAX_PAGE_SIDE_MM || h > MAX_PAGE_SIDE_MM) return `is ${Math.round(w)} × ${Math.round(h)} mm; Chromium prints pages up to ${MAX_PAGE_SIDE_MM} mm a side`;
    return null;
  } catch (error) {
    return (error as Error).message.replace(/^page: /, '');
  }
}

const length = (maxMm: number) => (value: string): string | null => {
  try {
    const mm = lengthToMm(value);
    return mm > maxMm ? `is more than ${maxMm} mm` : null;
  } catch {
    return 'is not a length';
  }
};

function pattern(value: string): string | null {
  const compiled = compilePattern(value);
  return 'problem' in compiled ? compiled.problem : null;
}

const PATTERN: Check = { type: 'text', max: Infinity, test: pattern, hint: 'a regular expression' };
const BRACKET_PAIR: Check = { type: 'text', max: 10, test: (v) => (Array.from(v.trim()).length === 2 ? null : 'is not two characters'), hint: 'a bracket pair, two characters ("（）")' };
const LAYER_ID: Check = { type: 'text', max: 100, test: (v) => (/^[A-Za-z][A-Za-z0-9-]*$/.test(v) ? null : 'is not a layer id'), hint: 'a layer id (zhu, shu, yinyi, fuzhu, an …)' };
const ROLES = ['text', 'ji', 'label', 'title', 'byline', 'commentary', 'front'] as const;

/** Every key of edition.yaml (documented in manuscript/README.md). */
export const EDITION_SCHEMA: Readonly<Record<string, Check>> = {
  title: text(NAME),
  author: text(NAME),
  dynasty: text(NAME),
  language: text(35, { test: (v) => (/^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/.test(v) ? null : 'is not a language tag'), hint: 'a BCP 47 language tag such as zh-Hant' }),
  script: oneOf(['traditional', 'simplified']),
  'source-script': oneOf(['traditional', 'simplified']),
  template: oneOf(['siku', 'modern']),
  date: text(10, { test: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? null : 'is not a date'), hint: 'a date YYYY-MM-DD' }),
  description: text(LONG_TEXT),
  witness: text(NAME),
  sources: list(text(FILE), MAX_SOURCES, 'a list of file names ("- juan01.txt")'),
  format: oneOf(FORMAT_NAMES),
  encoding: text(40, { test: (v) => (encodingName(v) ? null : 'is not an encoding diaoban reads'), hint: 'one of UTF-8, GB18030, Big5, UTF-16LE, UTF-16BE' }),
  charmap: text(FILE),
  corrections: text(FILE),
  collation: {
    type: 'either',
    hint: 'end-of-volume, off, or a mapping (variants: list, count or omit)',
    of: [oneOf(['end-of-volume', 'off']), { type: 'map', keys: { place: oneOf(['end-of-volume', 'off']), variants: oneOf(['list', 'count', 'omit']) } }],
  },
  witnesses: list(
    {
      type: 'map',
      hint: 'a witness ({ siglum: 四庫本, path: wyg }, or a git repository\'s branch: { siglum: 四庫本, path: ., branch: WYG })',
      required: ['siglum', 'path'],
      keys: { siglum: text(NAME), path: text(FILE), branch: text(250, { test: (v) => (/^[\w][\w./-]*$/.test(v) && !v.includes('..') ? null : 'is not a branch name'), hint: 'a branch name (WYG)' }), script: oneOf(['traditional', 'simplified']) },
    },
    100,
    'a list of witnesses (- { siglum: 四庫本, path: wyg })',
  ),
  pdf: {
    type: 'either',
    hint: 'pdf: screen, print or archive, or pdf: { standard: print, pdfx: x-1a }',
    of: [oneOf(PDF_STANDARDS), { type: 'map', keys: { standard: oneOf(PDF_STANDARDS), pdfx: text(10, { test: (v) => ((PDFX_VERSIONS as readonly string[]).includes(v.toLowerCase()) ? null : `is not ${PDFX_VERSIONS.join(' or ')}`), hint: PDFX_VERSIONS.join(' or ') }) }, required: ['standard'] }],
  },
  layout: {
    type: 'either',
    hint: "source (the source's own lines and pages) or a mapping (columns: 8, cells: 21)",
    of: [
      oneOf(['source']),
      {
        type: 'map',
        keys: {
          source: { type: 'boolean' },
          columns: { type: 'number', min: 1, max: 40, integer: true },
          cells: { type: 'number', min: 1, max: 60, integer: true },
          tracking: { type: 'number', min: -0.3, max: 2, hint: 'a number of em from -0.3 to 2 (space between characters)' },
          align: { type: 'dict', key: oneOf(ROLES), value: oneOf(['start', 'center', 'end', 'justify']), max: ROLES.length, hint: 'a mapping of roles (title: center)' },
        },
      },
    ],
  },
  page: {
    type: 'map',
    hint: 'a mapping (size: A5, bleed: 3mm, marks: true)',
    keys: {
      size: text(100, { test: pageSize, hint: 'a page size such as A5, B5, JIS-B5, siku (a 四庫 leaf, 200 × 315 mm) or "148mm 210mm"' }),
      bleed: text(40, { test: length(MAX_BLEED_MM), hint: `a length such as 3mm, at most ${MAX_BLEED_MM}mm` }),
      marks: { type: 'boolean' },
      frame: { type: 'text', max: 10, oneOf: ['black', 'red'], hint: 'black (烏絲欄) or red (朱絲欄)' },
    },
  },
  fonts: {
    type: 'dict',
    hint: 'a mapping of roles (main, label, or a layer: zhu, meipi …) to faces (main: [TW-Kai, fonts/Song.otf])',
    key: { type: 'text', max: 100, test: (v) => (/^[A-Za-z][A-Za-z0-9-]*$/.test(v) ? null : 'is not a role (main, label or a layer id)'), hint: 'main, label or a layer id' },
    value: list(text(FILE), 20, 'a list of font files or family names'),
    max: 100,
  },
  book: {
    type: 'map',
    hint: 'a mapping (cover: true, title-page: true, colophon: true, edition: 據文淵閣四庫全書本排印, source: 中華文庫錄文)',
    keys: {
      cover: { type: 'boolean' },
      'title-page': { type: 'boolean' },
      colophon: { type: 'boolean' },
      edition: text(NAME, { hint: 'the edition statement of the title page and the 牌記 (據文淵閣四庫全書本排印)' }),
      source: text(NAME, { hint: 'where the text was taken from, for the 牌記 (中華文庫錄文)' }),
    },
  },
  notes: { type: 'map', hint: 'a mapping (popup: [shu, fuzhu])', keys: { popup: list(LAYER_ID, 100, 'a list of layers ([shu, fuzhu])') } },
  layers: list(
    { type: 'map', hint: 'a rule (- layer: an, pattern: "^愚謂")', required: ['layer', 'pattern'], keys: { layer: LAYER_ID, pattern: PATTERN, label: text(NAME) } },
    MAX_PATTERNS,
    'a list of rules (- layer: an, pattern: "^愚謂")',
  ),
  punctuation: {
    type: 'either',
    hint: `one of ${STANDARDS.join(', ')}, or a mapping (standard: …, adjacent: 1.5, hanging: true)`,
    of: [oneOf(STANDARDS), { type: 'dict', key: text(40), value: { type: 'either', of: [text(40), { type: 'number', min: 0, max: 10 }, { type: 'boolean' }], hint: 'a word, a number or true/false' }, max: 20 }],
  },
  conventions: {
    type: 'map',
    hint: 'a mapping (notes: ["()"], split: "/", labels: { 集解: jijie }, commentary-lines: ["〔〕"], headings: [...], metadata: [...])',
    keys: {
      notes: list(BRACKET_PAIR, 50),
      split: text(4),
      labels: { type: 'dict', key: text(20), value: LAYER_ID, max: 200, hint: 'a mapping of labels to layers ({ 集解: jijie })' },
      'commentary-lines': list(BRACKET_PAIR, 50),
      headings: list(PATTERN, MAX_PATTERNS, 'a list of regular expressions'),
      metadata: list(PATTERN, MAX_PATTERNS, 'a list of regular expressions'),
    },
  },
  conversion: {
    type: 'map',
    hint: 'a mapping (keep: [于], prefer: { 为: 爲 }, phrases: { 后稷: 后稷 }, witness: FILE)',
    keys: {
      witness: text(FILE),
      keep: list(text(100), MAX_ENTRIES, 'a list of characters ([于, 后])'),
      prefer: { type: 'dict', key: text(2), value: text(2), max: MAX_ENTRIES, hint: 'a mapping of a character to the form this edition uses ({ 为: 爲 })' },
      phrases: { type: 'dict', key: text(100), value: text(100), max: MAX_ENTRIES, hint: 'a mapping of a phrase to its conversion ({ 后稷: 后稷 })' },
    },
  },
  seals: list(
    {
      type: 'map',
      hint: 'a seal ({ image: seal.png, page: 1, position: lower-left, size: 20mm })',
      required: ['image'],
      keys: {
        image: text(FILE),
        page: { type: 'either', of: [{ type: 'number', min: 1, max: MAX_SEAL_PAGE, integer: true }, oneOf(['first', 'last'])], hint: 'a page number (1 = the first page), first or last' },
        position: oneOf(['lower-left', 'lower-right', 'upper-left', 'upper-right', 'center']),
        size: text(40, { test: length(MAX_SEAL_MM), hint: `a length such as 20mm, at most ${MAX_SEAL_MM}mm` }),
        name: text(100, { hint: 'the words the seal bears (文淵閣寶): the EPUB image\'s alt text' }),
      },
    },
    100,
    'a list of seals (seals: [{ image: seal.png, page: 1, position: lower-left, size: 20mm }])',
  ),
};

function describe(check: Check): string {
  if (check.hint) return check.hint;
  switch (check.type) {
    case 'text':
      return check.oneOf ? `one of ${check.oneOf.join(', ')}` : 'text';
    case 'number':
      return check.integer ? `a whole number from ${check.min} to ${check.max}` : `a number from ${check.min} to ${check.max}`;
    case 'boolean':
      return 'true or false';
    case 'list':
      return 'a list';
    case 'map':
    case 'dict':
      return 'a mapping';
    case 'either':
      return check.hint;
  }
}

/** A value as the message quotes it: short, and with nothing the terminal would act on. */
function shown(node: YamlNode): string {
  const value = isScalar(node) ? node.value : node.toJSON();
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 40 ? `${json.slice(0, 37)}…` : json;
}

function range(node: YamlNode): [number, number] {
  const r = node.range;
  return r ? [r[0], r[1]] : [0, 0];
}

/** What is wrong with a scalar, or null. */
function scalarProblem(node: YamlNode, check: Check): string | null {
  if (!isScalar(node)) return 'is not a single value';
  const value = node.value;
  if (check.type === 'boolean') return typeof value === 'boolean' ? null : 'is not true or false';
  if (check.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'is not a number';
    if (check.integer && !Number.isInteger(value)) return 'is not a whole number';
    return value < check.min || value > check.max ? 'is out of range' : null;
  }
  if (check.type !== 'text') return 'is not a single value';
  if (typeof value !== 'string' && typeof value !== 'number') return 'is not text';
  const s = String(value).trim();
  if (s.length > check.max) return `is ${s.length} characters long; at most ${check.max}`;
  const control = noControl(s);
  if (control) return control;
  if (check.oneOf && !check.oneOf.includes(s)) return 'is not one of the choices';
  return check.test?.(s) ?? null;
}

type Shape = 'list' | 'mapping' | 'value';
const shapeOfCheck = (c: Check): Shape => (c.type === 'list' ? 'list' : c.type === 'map' || c.type === 'dict' ? 'mapping' : 'value');
const shapeOfNode = (n: YamlNode): Shape => (isSeq(n) ? 'list' : isMap(n) ? 'mapping' : 'value');

/**
 * Checks `node` against `check`; false (and reported) when it does not fit.
 * Bad entries inside a list or mapping are reported and removed; the
 * container itself stays.
 */
function validate(node: YamlNode, check: Check, path: string, report: Report): boolean {
  const fail = (problem: string): false => {
    report('error', `${path} ${problem}: ${shown(node)}; write ${describe(check)} (this value is left out)`, ...range(node), 'edition-field');
    return false;
  };
  switch (check.type) {
    case 'either': {
      // The alternative of the node's shape: a mapping is checked entry by entry, a value against each value alternative.
      const alternatives = check.of.filter((alt) => shapeOfCheck(alt) === shapeOfNode(node));
      if (shapeOfNode(node) !== 'value' && alternatives.length > 0) return validate(node, alternatives[0], path, report);
      return alternatives.some((alt) => scalarProblem(node, alt) === null) || fail('is not allowed here');
    }
    case 'list': {
      if (!isSeq(node)) return fail('is not a list');
      if (node.items.length > check.max) return fail(`has ${node.items.length} entries; at most ${check.max}`);
      node.items = (node.items as YamlNode[]).filter((item, i) => validate(item, check.of, `${path}[${i + 1}]`, report));
      return true;
    }
    case 'map':
    case 'dict': {
      if (!isMap(node)) return fail('is not a mapping');
      if (check.type === 'dict' && node.items.length > check.max) return fail(`has ${node.items.length} entries; at most ${check.max}`);
      const missing = check.type === 'map' ? check.required?.filter((key) => !node.has(key) || node.get(key) === null) : undefined;
      if (missing?.length) return fail(`needs ${missing.join(' and ')}`);
      let requiredLost = false;
      node.items = node.items.filter((pair) => {
        const keyNode = pair.key as YamlNode;
        const key = isScalar(keyNode) ? String(keyNode.value) : '';
        const valueNode = (pair.value ?? null) as YamlNode | null;
        const child = `${path ? `${path}.` : ''}${key}`;
        if (check.type === 'map') {
          if (!Object.hasOwn(check.keys, key)) {
            report('warning', `unknown key ${shown(keyNode)} in ${path || 'edition.yaml'} is ignored; known keys: ${Object.keys(check.keys).join(', ')}`, ...range(keyNode), 'edition-unknown-key');
            return false;
          }
          // An empty value is no value: the reader says what is missing.
          const good = valueNode === null || (isScalar(valueNode) && valueNode.value === null) || validate(valueNode, check.keys[key], child, report);
          if (!good && check.required?.includes(key)) requiredLost = true;
          return good;
        }
        if (!validate(keyNode, check.key, `${path} key`, report)) return false;
        if (valueNode === null) return false;
        return validate(valueNode, check.value, child, report);
      });
      // Its own message said what is wrong with the required value: the mapping goes without another.
      return !requiredLost;
    }
    default: {
      const problem = scalarProblem(node, check);
      return problem === null || fail(problem);
    }
  }
}

/** Checks edition.yaml's document against EDITION_SCHEMA, reporting and removing every bad value. */
export function validateEdition(doc: Document, report: Report): void {
  if (!doc.contents) return;
  validate(doc.contents as YamlNode, { type: 'map', keys: EDITION_SCHEMA }, '', report);
}
