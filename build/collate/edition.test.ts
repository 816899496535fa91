import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { parseEditionYaml } from '../parse/edition.js';

const parse = (yaml: string) => {
  const file = new VFile({ path: 'edition.yaml', value: `title: t\nauthor: a\nsources: [a.txt]\n${yaml}` });
  const { config, paths } = parseEditionYaml(file, 'x');
  return { config, paths, messages: file.messages.map((m) => `${m.line}:${m.column} ${m.reason}`) };
};

test('edition.yaml: witnesses (folder, or a repository\'s branch) and collation: { variants }; collation: off still reads', () => {
  const { config, paths, messages } = parse('witnesses:\n  - { siglum: 四庫本, path: wyg }\n  - { siglum: 四部叢刊本, path: ., branch: SBCK, script: traditional }\ncollation: { variants: list }\n');
  assert.deepEqual(messages, []);
  assert.deepEqual(config?.witnesses?.map((w) => [w.siglum, w.path, w.branch ?? null, w.place?.start.line]), [['四庫本', 'wyg', null, 5], ['四部叢刊本', '.', 'SBCK', 6]]);
  assert.equal(config?.variants, 'list');
  assert.equal(config?.collation, undefined);
  // Each witness's path is named for the sandbox, at its place.
  assert.deepEqual(paths.filter((p) => p.key === 'witnesses').map((p) => [p.name, p.place.start.line]), [['wyg', 5], ['.', 6]]);
  assert.equal(parse('collation: off\n').config?.collation, 'off');
  assert.equal(parse('collation: { place: off, variants: omit }\n').config?.collation, 'off');
});

test('edition.yaml: a witness without its path, a bad branch or variants, and a siglum given twice are said where they stand and left out', () => {
  const { config, messages } = parse('witnesses:\n  - { siglum: 四庫本 }\n  - { siglum: 甲本, path: a, branch: "../x" }\n  - { siglum: 乙本, path: b }\n  - { siglum: 乙本, path: c }\ncollation: { variants: some }\n');
  assert.deepEqual(config?.witnesses?.map((w) => [w.siglum, w.path, w.branch ?? null]), [['甲本', 'a', null], ['乙本', 'b', null]]);
  assert.equal(config?.variants, undefined);
  assert.equal(messages.length, 4, messages.join('\n'));
  assert.ok(messages.some((m) => m.startsWith('5:') && /needs path/.test(m)));
  assert.ok(messages.some((m) => /branch .*is not a branch name/.test(m)));
  assert.ok(messages.some((m) => m.startsWith('8:') && /乙本 is named twice/.test(m)));
  assert.ok(messages.some((m) => /variants/.test(m)));
});
