/**
 * edition.yaml's keys for the corpora: encoding, conventions (overrides of
 * the format's table row) and conversion choices; a bad value is an error at
 * its line and the rest still reads. A charmap may map entities too, or be
 * Kanripo's own character list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { parseCharmap, parseEditionYaml } from './edition.js';
import { parseEdition } from './index.js';
import { fileOf, rootText } from './test-helpers.js';

const BASE = 'title: 試\nauthor: 某\nsources:\n  - a.txt\n';

/** A value as plain data: the tables of an edition's names have no prototype (names are names). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

test('encoding, conventions and conversion are read; bad values are errors at their line', () => {
  const yaml = BASE + 'format: chtxt\nencoding: Big5\nconventions:\n  notes: ["（）"]\n  labels: { 鄭注: zhu }\n  split: ""\nconversion:\n  keep: [于]\n  prefer: { 为: 爲 }\n  phrases: { 于是: 於是 }\n';
  const file = new VFile({ path: 'edition.yaml', value: yaml });
  const { config } = parseEditionYaml(file, 'x');
  assert.equal(config?.format, 'chtxt');
  assert.equal(config?.encoding, 'Big5');
  assert.deepEqual(plain(config?.conventions), { notes: [['（', '）']], labels: { 鄭注: 'zhu' }, split: '' });
  assert.deepEqual(plain(config?.conversion), { keep: ['于'], prefer: { 为: '爲' }, phrases: { 于是: '於是' } });
  assert.deepEqual(file.messages, []);
  const bad = new VFile({ path: 'edition.yaml', value: BASE + 'encoding: EBCDIC\nconventions:\n  notes: ["(((" ]\nconversion:\n  prefer: { 为: 爲爲 }\n' });
  const r = parseEditionYaml(bad, 'x');
  assert.ok(r.config, 'the rest still reads');
  assert.deepEqual(bad.messages.map((m) => `${m.line} ${m.ruleId}`), ['5 edition-field', '7 edition-field', '9 edition-field']);
});

test('conventions override the format: notes in （） under chtxt', () => {
  const { config } = parseEditionYaml(new VFile({ path: 'edition.yaml', value: BASE + 'format: chtxt\nconventions:\n  notes: ["（）"]\n' }), 'x');
  const { tree } = parseEdition(config!, [fileOf('主人戒賓（戒猶警也）(不是注)\n', 'a.txt')]);
  const para = tree.children[0].children[0];
  assert.deepEqual(para.children.map((c) => c.type), ['text', 'note', 'text']);
  assert.equal(rootText(tree), '主人戒賓戒猶警也(不是注)');
});

test('a charmap maps entities and compositions; Kanripo\'s character list reads as a charmap', () => {
  assert.deepEqual(plain(parseCharmap(new VFile({ path: 'c.yaml', value: '"&KR0433;": 霤\nKR0764: 內\n"{艹虑}": 䕡\n' }))), { '&KR0433;': '霤', '&KR0764;': '內', '{艹虑}': '䕡' });
  assert.deepEqual(plain(parseCharmap(new VFile({ path: 'charlist.org', value: '#+STARTUP: x\nKR0007\t00022701\t𤣥\t玄\timg\nKR0002\t00039893\t\t若\timg\nKR0008\t00022501\t\t\timg\n' }))), { '&KR0007;': '𤣥', '&KR0002;': '若' });
});

test('pdf: a standard, or a mapping with pdfx; a bad value is an error at its place and the screen PDF is built', () => {
  const read = (pdf: string) => {
    const file = new VFile({ path: 'edition.yaml', value: BASE + pdf });
    return { config: parseEditionYaml(file, 'x').config, messages: file.messages.map((m) => `${m.line}:${m.column} ${m.fatal === true ? 'error' : 'warning'} ${m.reason}`) };
  };
  assert.equal(read('').config?.pdf, undefined, 'screen by default');
  assert.deepEqual(read('pdf: print\n').config?.pdf, { standard: 'print' });
  assert.deepEqual(read('pdf: archive\n').config?.pdf, { standard: 'archive' });
  assert.deepEqual(read('pdf: { standard: print, pdfx: X-1a }\n').config?.pdf, { standard: 'print', pdfx: 'x-1a' });
  const bad = read('pdf: printer\n');
  assert.equal(bad.config?.pdf, undefined);
  assert.equal(bad.messages.length, 1);
  assert.match(bad.messages[0], /^5:6 error pdf is not allowed here: "printer"; write pdf: screen, print or archive/);
  const pdfx = read('pdf:\n  standard: print\n  pdfx: x-3\n');
  assert.deepEqual(pdfx.config?.pdf, { standard: 'print' }, 'X-4 when the pdfx is bad');
  assert.match(pdfx.messages[0], /^7:9 error pdf.pdfx is not x-4 or x-1a/);
  const misplaced = read('pdf: { standard: archive, pdfx: x-1a, profile: a.icc }\n');
  assert.deepEqual(misplaced.config?.pdf, { standard: 'archive' });
  assert.equal(misplaced.messages.length, 2);
  assert.ok(misplaced.messages.every((m) => m.startsWith('5:')), misplaced.messages.join('\n'));
  assert.match(read('pdf: [print]\n').messages[0], /^5:6 error pdf is not allowed here: \["print"\]/);
});
