/**
 * Names are names: a tag, layer, mark or label the input gives is looked up
 * in the table's own keys, never Object's. `{toString}`, `{valueOf}`,
 * `{constructor}`, `{__proto__}` and `{hasOwnProperty}` were functions found
 * on the prototype (an internal error, "could not be cloned", or `layers
 * constructor function Object()…` in the statistics).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { defaultEdition, parseEdition } from './index.js';
import { parseCharmap, parseEditionYaml } from './edition.js';
import { transformTree } from '../transform/index.js';
import { fileOf, rootText } from './test-helpers.js';

const NAMES = ['toString', 'valueOf', 'constructor', '__proto__', 'hasOwnProperty'];

test('tags named after Object\'s properties are unknown tags: warned about, every character kept, the tree clones', () => {
  const text = NAMES.map((n) => `主人〖{${n}}戒賓〗，{${n}}賓禮辭【{${n}}注文】{${n}}許\n\n{${n}}主人再拜\n`).join('\n');
  const config = { ...defaultEdition('x', ['a.md']), format: 'markdown' as const };
  const file = fileOf(text, 'a.md');
  const { tree, sources } = parseEdition(config, [file]);
  const out = transformTree(tree, config, { files: [file] });
  for (const m of file.messages) assert.doesNotMatch(m.reason, /function|native code|\[object/, m.reason);
  assert.doesNotMatch(JSON.stringify(sources[0].stats), /function/);
  // Each at its tag: 〖{toString} at 1:3, 【{toString} at 1:32, {toString} opening paragraph 3.
  const at = (rule: string, name: string) => file.messages.filter((m) => m.ruleId === rule && m.reason.includes(`{${name}}`)).map((m) => `${m.line}:${m.column}`);
  assert.deepEqual(at('mark-unknown', 'toString'), ['1:3']);
  assert.deepEqual(at('layer-unknown', 'toString'), ['1:32']);
  assert.deepEqual(at('role-unknown', 'toString'), ['3:1']);
  assert.deepEqual(at('layer-unknown', 'constructor'), ['9:38']);
  // Every Han character of the source is in the tree, in order.
  const han = (s: string) => s.replace(/[^\p{Script=Han}]/gu, '').replace(/toString|valueOf|constructor|hasOwnProperty/g, '');
  assert.equal(han(rootText(out)), han(text));
});

test('an edition\'s own names: labels, conversion and charmap keys named after Object\'s properties stay its own', () => {
  const file = new VFile({ path: 'edition.yaml', value: 'title: 試\nauthor: 某\nsources: [a.txt]\nconventions:\n  labels: { constructor: zhu, __proto__: shu }\nconversion:\n  phrases: { toString: toString }\n' });
  const { config } = parseEditionYaml(file, 'x');
  assert.deepEqual(file.messages.map((m) => m.reason), []);
  assert.equal(Object.hasOwn(config!.conventions!.labels!, '__proto__'), true);
  assert.equal(config!.conventions!.labels!.constructor, 'zhu');
  const charmap = parseCharmap(new VFile({ path: 'c.yaml', value: '"{__proto__}": 埶\n' }));
  assert.equal(Object.hasOwn(charmap, '{__proto__}'), true);
  assert.equal(Object.hasOwn(parseCharmap(new VFile({ path: 'c.yaml', value: 'U+E000: 埶\n' })), 'toString'), false);
});
