/**
 * edition.yaml against its schema (edition-schema.ts): each bad value is an
 * error at its line and column, the value is left out, and the rest builds.
 * Each case was silently ignored (or crashed later) before the schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { parseEditionYaml } from './edition.js';
import { EDITION_SCHEMA, MAX_PAGE_SIDE_MM } from './edition-schema.js';
import { MAX_PATTERN_LENGTH } from './pattern.js';

const BASE = 'title: 試\nauthor: 某\nsources:\n  - a.txt\n';

function read(extra: string) {
  const file = new VFile({ path: 'edition.yaml', value: BASE + extra });
  const { config } = parseEditionYaml(file, 'x');
  const errors = file.messages.filter((m) => m.fatal === true).map((m) => ({ at: `${m.line}:${m.column}`, reason: m.reason }));
  return { config, errors, file };
}

const cases: Array<{ yaml: string; at: string; says: RegExp }> = [
  { yaml: 'page:\n  size: 5\n', at: '6:9', says: /page\.size .*not a length.*: 5; write a page size such as A5/ },
  { yaml: 'page:\n  bleed: [1]\n', at: '6:10', says: /page\.bleed is not a single value: \[1\]/ },
  { yaml: 'fonts: "x"\n', at: '5:8', says: /fonts is not a mapping: "x"; write a mapping of roles \(main, label/ },
  { yaml: 'fonts: { 1zhu: [TW-Kai] }\n', at: '5:10', says: /fonts key is not a role \(main, label or a layer id\)/ },
  { yaml: 'notes: [a]\n', at: '5:8', says: /notes is not a mapping/ },
  { yaml: 'seals:\n  - { image: s.png, page: 1.2e19 }\n', at: '6:27', says: /seals\[1\]\.page is not allowed here: 12000000000000000000; write a page number/ },
  { yaml: 'page: { size: 100000mm 100000mm }\n', at: '5:15', says: new RegExp(`page\\.size is 100000 × 100000 mm; Chromium prints pages up to ${MAX_PAGE_SIDE_MM} mm a side`) },
  { yaml: 'layout: { columns: 1000 }\n', at: '5:20', says: /layout\.columns is out of range: 1000; write a whole number from 1 to 40/ },
  { yaml: 'title2: x\nscript: 3\n', at: '6:9', says: /script is not one of the choices: 3; write one of traditional, simplified/ },
  { yaml: `description: ${'長'.repeat(30_000)}\n`, at: '5:14', says: /description is 30000 characters long; at most 20000/ },
  { yaml: 'dynasty: "清\\e]0;pwned\\a"\n', at: '5:10', says: /dynasty contains the control character U\+001B/ },
  { yaml: 'layers:\n  - { layer: an, pattern: "(?=愚)謂" }\n', at: '6:27', says: /layers\[1\]\.pattern cannot run in linear time .*lookahead/ },
  { yaml: `conventions:\n  headings: ["${'a'.repeat(100_000)}"]\n`, at: '6:14', says: new RegExp(`conventions\\.headings\\[1\\] is 100000 characters long; a pattern may have at most ${MAX_PATTERN_LENGTH}`) },
  { yaml: 'language: "zh\\u0129/OpenAction<</JS(a)"\n', at: '5:11', says: /language is not a language tag: "zhĩ\/OpenAction<<\/JS\(a\)"; write a BCP 47 language tag/ },
  { yaml: 'encoding: constructor\n', at: '5:11', says: /encoding is not an encoding diaoban reads/ },
  { yaml: 'conversion: { prefer: [为] }\n', at: '5:23', says: /conversion\.prefer is not a mapping/ },
];

for (const c of cases) {
  test(`schema: ${c.yaml.slice(0, 50).replace(/\n/g, '⏎')} is an error at ${c.at}, the rest builds`, () => {
    const { config, errors } = read(c.yaml);
    assert.ok(config, 'the edition still reads');
    assert.equal(config.meta.title, '試');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.equal(errors[0].at, c.at);
    assert.match(errors[0].reason, c.says);
    assert.ok(!/\u001b/.test(errors[0].reason), 'the message quotes the value escaped');
  });
}

test('schema: good values pass unchanged and say nothing', () => {
  const { config, file } = read(
    'page: { size: 148mm 210mm, bleed: 3mm, marks: true }\nlayout: { columns: 9, cells: 20, tracking: 0.2, align: { title: center } }\nfonts: { main: [Noto Serif CJK TC] }\nnotes: { popup: [shu] }\nseals: [{ image: s.png, page: last, size: 20mm }]\nlayers: [{ layer: an, pattern: "^愚謂" }]\npunctuation: { standard: taiwan, adjacent: 1.5 }\n',
  );
  assert.deepEqual(file.messages.map((m) => m.reason), []);
  assert.deepEqual(config?.page, { size: '148mm 210mm', bleed: '3mm', marks: true });
  assert.equal(config?.layout.columns, 9);
  assert.equal(config?.seals?.[0].page, 'last');
  assert.deepEqual(config?.popupLayers, ['shu']);
  assert.equal(config?.layerRules[0].pattern, '^愚謂');
});

test('schema: unknown keys are warnings at the key, nested ones too', () => {
  const { file } = read('colour: red\npage: { sise: A5 }\n');
  assert.deepEqual(file.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['5:1 edition-unknown-key', '6:9 edition-unknown-key']);
});

test('schema: one row a key — every key the readers know is in the table', () => {
  for (const key of ['title', 'author', 'sources', 'page', 'fonts', 'notes', 'layers', 'seals', 'conventions', 'conversion', 'punctuation', 'layout']) assert.ok(Object.hasOwn(EDITION_SCHEMA, key), key);
});

test('schema: a page size named after Object\'s properties is an unknown size, said plainly', () => {
  const { errors } = read('page: { size: constructor }\n');
  assert.equal(errors.length, 1);
  assert.match(errors[0].reason, /page\.size unknown page size "constructor"/);
});
