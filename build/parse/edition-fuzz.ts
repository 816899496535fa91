/**
 * Generated edition.yaml files for the property test (edition-fuzz.test.ts, a
 * small fixed sample) and `npm run fuzz` (figures and seed printed): every
 * key of the schema and unknown ones, values of every YAML type, lengths from
 * empty to 100,000 characters, Unicode classes (Han, astral, Private Use,
 * combining), control characters (ESC sequences, C1, bidi overrides),
 * numbers out of every range, Object's own names as keys, patterns that
 * backtrack, and text that is not YAML at all. `checkEdition` loads one as
 * `check` and `build` do (schema, then parse, transform and layout of a small
 * source with what was accepted) and says what went wrong, if anything:
 * an internal error, a hang, an error without a position, or an accepted
 * value a later stage refuses.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { VFile } from 'vfile';
import { parseEditionYaml } from './edition.js';
import { EDITION_SCHEMA, MAX_PAGE_SIDE_MM } from './edition-schema.js';
import { parseEdition } from './index.js';
import { transformTree } from '../transform/index.js';
import { layoutBook, pageSpecFor } from '../layout/index.js';
import { lengthToMm, parsePageSize } from '../render/pdf/geometry.js';

const SOURCE = '# 鄉射禮\n\n主人戒賓【主人州長也】，賓出迎再拜〖{專}孔子〗\uE000\n\n> {附注}補注之文\n\n右戒賓 記大夫與\n';

const KEYS = [...Object.keys(EDITION_SCHEMA), 'colour', '__proto__', 'constructor', 'toString'];
const NESTED_KEYS = ['size', 'bleed', 'marks', 'columns', 'cells', 'tracking', 'align', 'source', 'main', 'popup', 'layer', 'pattern', 'label', 'image', 'page', 'position', 'notes', 'split', 'labels', 'commentary-lines', 'headings', 'metadata', 'keep', 'prefer', 'phrases', 'standard', 'adjacent', 'hanging', 'kinsoku', 'title', 'constructor', '__proto__'];

const controlChar = fc.constantFrom('\u001b[2K', '\u001b]0;title\u0007', '\r', '\n', '\u0000', '\u0085', '\u009b31m', '\u202e', '\u2066', '\u007f', '\t');
const unicodeChar = fc.constantFrom('主', '戒', '賓', '𠀀', '\uE000', '\u0301', '　', '（', '【', '】', '〖', '{', '}', '\\', '"', "'", '#', ':', '- ', '&', '*', '!', '%', '@', '`', '|', '>', 'a', '1', ' ');
const word = fc.array(fc.oneof({ weight: 8, arbitrary: unicodeChar }, { weight: 1, arbitrary: controlChar }), { maxLength: 20 }).map((a) => a.join(''));

const textValue = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 3, arbitrary: fc.constantFrom('siku', 'modern', 'traditional', 'simplified', 'A5', 'B5', 'JIS-B5', '148mm 210mm', '100000mm 100000mm', '0mm 0mm', '3mm', '1e9mm', 'source', 'zhu', 'shu', 'an', 'yinyi', 'first', 'last', 'lower-left', 'center', 'end-of-volume', 'off', 'UTF-8', 'GB18030', 'kanripo', 'markdown', 'taiwan', 'judou', 'none', 'a.txt', '../a.txt', '/etc/passwd', 'zh-Hant', '2026-01-01', '2026-13-45', 'constructor', '__proto__', 'toString') },
  { weight: 2, arbitrary: fc.constantFrom('^(主+)+$', '(a|aa)+$', '^(?=主)戒', '(a)\\1', '[', '(', '\\p{Script=Han}+', '^(\\S+)$', '^%%(\\S+) (.*)$', '^愚謂', 'a{1001}', '((((((((((a))))))))))') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('主', 'a', '(a+)+', '\u001b', '【'), fc.integer({ min: 100, max: 100_000 })).map(([s, n]) => s.repeat(Math.ceil(n / s.length))) },
);
const numberValue = fc.oneof(fc.integer({ min: -10, max: 100 }), fc.constantFrom(0, -1, 1.5, 0.1, 2.5, 1e19, -1e19, 1.2e19, 2 ** 31, 2 ** 53 + 1, Number.MAX_VALUE, Infinity, -Infinity, NaN), fc.double());
const scalar = fc.oneof({ weight: 6, arbitrary: textValue }, { weight: 3, arbitrary: numberValue }, { weight: 1, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant(null) });

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small', withCrossShrink: true }, { weight: 5, arbitrary: scalar }, { weight: 2, arbitrary: tie('list') }, { weight: 2, arbitrary: tie('map') }),
  list: fc.array(tie('any'), { maxLength: 6 }),
  map: fc.dictionary(fc.oneof(fc.constantFrom(...NESTED_KEYS), word), tie('any'), { maxKeys: 6 }),
})).any;

/** One generated edition.yaml: a document of keys and values, or text that YAML cannot read. */
export const editionYaml: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .record({
        keys: fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 12 }),
        title: fc.oneof(fc.constant('試'), textValue),
        sources: fc.oneof(fc.constant(['a.md']), value),
      })
      .map(({ keys, title, sources }) => {
        const doc: Record<string, unknown> = { title, author: '某', sources };
        for (const [k, v] of Object.entries(keys)) if (k !== '__proto__') doc[k] = v;
        // A key YAML keeps but JavaScript would take as the prototype: written by hand.
        return stringify(doc, { lineWidth: 0 }) + ('__proto__' in keys ? `__proto__: ${JSON.stringify(keys.__proto__ ?? null)}\n` : '');
      }),
  },
  { weight: 1, arbitrary: fc.tuple(word, fc.constantFrom('title: [unclosed\n', 'a: &x [*x]\n', '{{{{', ': :\n', '- - -\n', 'title: "\\u\n', '\ufeff', '\t\tx: y\n')).map(([w, bad]) => `title: 試\n${bad}${w}\n`) },
);

export interface EditionOutcome {
  crashed?: string;
  ms: number;
  /** Errors in edition.yaml without a line. */
  unpositioned: number;
  /** Errors and warnings edition.yaml got. */
  messages: number;
  /** A value the schema let through that a later stage refused (what was checked up front is not checked again there). */
  accepted?: string;
  chars: number;
}

/** Loads one generated edition.yaml as check and build do, with a small source, and judges the result. */
export function checkEdition(yaml: string): EditionOutcome {
  const t0 = performance.now();
  const file = new VFile({ path: 'edition.yaml', value: yaml });
  try {
    const { config } = parseEditionYaml(file, 'fuzz');
    const unpositioned = file.messages.filter((m) => m.fatal === true && !m.line).length;
    let accepted: string | undefined;
    if (config) {
      if (config.page.size !== undefined) {
        const [w, h] = parsePageSize(config.page.size);
        if (w > MAX_PAGE_SIDE_MM || h > MAX_PAGE_SIDE_MM) accepted = `page.size ${config.page.size}`;
      }
      if (config.page.bleed !== undefined) lengthToMm(config.page.bleed);
      config.sources = ['a.md'];
      const source = new VFile({ path: 'a.md', value: new TextEncoder().encode(SOURCE) });
      const parsed = parseEdition(config, [source]).tree;
      const tree = transformTree(parsed, config, { files: [source] });
      layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
      structuredClone(tree);
    }
    return { ms: performance.now() - t0, unpositioned, messages: file.messages.length, ...(accepted ? { accepted } : {}), chars: yaml.length };
  } catch (error) {
    return { crashed: (error as Error).stack ?? String(error), ms: performance.now() - t0, unpositioned: 0, messages: file.messages.length, chars: yaml.length };
  }
}

export interface EditionFuzzFigures {
  seed: number;
  inputs: number;
  crashes: number;
  hangs: number;
  unpositioned: number;
  accepted: number;
  messages: number;
  slowestMs: number;
  largest: number;
  firstProblem?: { input: string; outcome: EditionOutcome };
}

/** A hang: one edition.yaml and its small source taking longer than this (a load takes milliseconds). */
export const EDITION_HANG_MS = 5000;

export function runEditionFuzz(seed: number, inputs: number): EditionFuzzFigures {
  const samples = fc.sample(editionYaml, { seed, numRuns: inputs });
  const figures: EditionFuzzFigures = { seed, inputs, crashes: 0, hangs: 0, unpositioned: 0, accepted: 0, messages: 0, slowestMs: 0, largest: 0 };
  for (const input of samples) {
    const outcome = checkEdition(input);
    figures.largest = Math.max(figures.largest, outcome.chars);
    figures.slowestMs = Math.max(figures.slowestMs, outcome.ms);
    const hang = outcome.ms > EDITION_HANG_MS;
    if (outcome.crashed) figures.crashes++;
    if (hang) figures.hangs++;
    if (outcome.accepted) figures.accepted++;
    figures.unpositioned += outcome.unpositioned;
    figures.messages += outcome.messages;
    if (!figures.firstProblem && (outcome.crashed || hang || outcome.unpositioned || outcome.accepted)) figures.firstProblem = { input, outcome };
  }
  return figures;
}
