import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { importDaizhige } from '../parse/importers/corpus.js';
import { defaultEdition } from '../parse/edition.js';
import { sourceOf, treeText } from '../parse/test-helpers.js';
import type { Correction, Root } from '../tree/types.js';
import { applyCorrections, correctionsIn, inferKind, narrowChange, parseCorrections } from './corrections.js';
import { transformTree } from './index.js';

function treeOf(text: string): Root {
  const src = sourceOf(text, 'a.txt');
  return { type: 'root', edition: defaultEdition('t', ['a.txt']).meta, children: importDaizhige(src, 't').volumes };
}

function entries(yaml: string) {
  const file = new VFile({ path: 'corrections.yaml', value: yaml });
  return { list: parseCorrections(file), file };
}

const messages = (file: VFile): string[] => file.messages.map((m) => `${m.line}:${m.column} ${m.fatal ? 'error' : 'warning'} ${m.ruleId}`);

test('a replacement keeps only what changed: 前儒所未及 → 先儒所未及 records 前 → 先, kind 改, note and witness', () => {
  const tree = treeOf('此說前儒所未及也');
  const { list, file } = entries('- find: 前儒所未及\n  replace: 先儒所未及\n  note: 據文淵閣本改\n  source: 文淵閣本\n');
  applyCorrections(tree, list);
  assert.deepEqual(file.messages, []);
  assert.equal(treeText(tree.children[0]), '此說先儒所未及也');
  const [c] = correctionsIn(tree);
  assert.equal(c.kind, '改');
  assert.equal(c.old, '前');
  assert.equal(treeText(c), '先');
  assert.equal(c.note, '據文淵閣本改');
  assert.equal(c.witness, '文淵閣本');
  // The entry's own place in the corrections file, and the old text's place in the source.
  assert.deepEqual([c.entry.file, c.entry.start.line, c.entry.start.column], ['corrections.yaml', 1, 3]);
  assert.deepEqual([c.position.file, c.position.start.line, c.position.start.column, c.position.end.column], ['a.txt', 1, 3, 4]);
});

test('deletion, insertion and transposition: 刪, 補 and 乙, inferred or given', () => {
  const tree = treeOf('甲乙丙丁戊己庚辛壬癸子丑');
  const { list, file } = entries(
    [
      '- find: 丙丁',
      '  replace: 丙',
      '- find: ""',
      '  after: 戊',
      '  replace: 巳',
      '- find: 庚辛',
      '  replace: 辛庚',
      '- find: 子丑',
      '  replace: 子寅',
      '  kind: 补',
    ].join('\n'),
  );
  applyCorrections(tree, list);
  assert.deepEqual(file.messages, []);
  assert.equal(treeText(tree.children[0]), '甲乙丙戊巳己辛庚壬癸子寅');
  const got = correctionsIn(tree).map((c: Correction) => `${c.kind}:${c.old}→${treeText(c)}`);
  assert.deepEqual(got, ['刪:丁→', '補:→巳', '乙:庚辛→辛庚', '補:丑→寅']);
  const deletion = correctionsIn(tree)[0];
  assert.deepEqual(deletion.children, [], 'a deletion has no new text');
});

test('an entry that matches nothing or more than once is an error at its own line:col; the rest still applies', () => {
  const tree = treeOf('天子諸侯\n諸侯卿大夫\n');
  const { list, file } = entries(
    ['- find: 無此文', '  replace: 有此文', '- find: 諸侯', '  replace: 諸公', '- find: 卿大夫', '  replace: 卿士', '- find: 諸侯', '  replace: 列侯', '  at: a.txt:2'].join('\n'),
  );
  applyCorrections(tree, list);
  assert.deepEqual(messages(file), ['1:3 error correction-unmatched', '3:3 error correction-unmatched']);
  assert.match(file.messages[0].reason, /matches nothing/);
  assert.match(file.messages[1].reason, /matches 2 places.*a\.txt:1, a\.txt:2/);
  assert.equal(treeText(tree.children[0]).replace(/\s/g, ''), '天子諸侯列侯卿士');
});

test('broken entries say what is wrong where: no replace, both find and after, an unknown kind, not YAML', () => {
  const { list, file } = entries(['- find: 甲', '- find: 甲', '  after: 乙', '  replace: 丙', '- find: 甲', '  replace: 乙', '  kind: 換', '- 甲'].join('\n'));
  assert.equal(list.length, 1, 'the entry with an unknown kind is kept, its kind inferred');
  assert.equal(list[0].kind, undefined);
  assert.deepEqual(messages(file), ['1:3 error corrections', '2:3 error corrections', '7:9 error corrections', '8:3 error corrections']);
  const broken = entries('- find: [甲\n');
  assert.deepEqual(broken.list, []);
  assert.equal(broken.file.messages[0].ruleId, 'corrections-yaml');
});

test('a control character in an entry (ESC, BEL, a bidi override) is an error at its value, and the entry is left out', () => {
  const yaml = ['- find: 戒賓', '  replace: "戒\\e]0;pwned\\a賓"', '- find: 主人', '  replace: 主君', '  note: "據\\e[2K某本"', '- find: "\\u202E賓"', '  replace: 客', '- find: 再拜', '  replace: 再再拜', '  note: "一\\n二"'].join('\n');
  const { list, file } = entries(yaml);
  assert.deepEqual(messages(file), ['2:12 error corrections', '5:9 error corrections', '6:9 error corrections']);
  assert.match(file.messages[0].reason, /^replace contains the control character U\+001B: "戒\\u001b\]0;pwned\\u0007賓"; the correction is left out/);
  assert.match(file.messages[2].reason, /^find contains the control character U\+202E/);
  assert.deepEqual(list.map((e) => e.find), ['再拜'], 'a line feed in a note is text');
});

test('an entry written in the printed script matches a source in the other script; old is printed converted', () => {
  const parsed = treeOf('礼者天地之序也');
  const config = defaultEdition('t', ['a.txt']);
  config.meta = { ...config.meta, script: 'traditional', sourceScript: 'simplified' };
  const { list, file } = entries('- find: 禮者天地之序\n  replace: 禮者天地之秩\n');
  const tree = transformTree(parsed, config, { corrections: list });
  assert.deepEqual(file.messages, []);
  assert.equal(treeText(tree.children[0]), '禮者天地之秩也');
  const [c] = correctionsIn(tree);
  assert.equal(c.old, '序');
  assert.equal(treeText(c), '秩');
});

test('narrowChange and inferKind', () => {
  assert.deepEqual(narrowChange('前儒所未及', '先儒所未及'), { at: 0, old: '前', new: '先' });
  assert.deepEqual(narrowChange('所未及', '所及'), { at: 1, old: '未', new: '' });
  assert.deepEqual(narrowChange('𠀀甲乙', '𠀀乙甲'), { at: 2, old: '甲乙', new: '乙甲' });
  assert.equal(inferKind('', '甲'), '補');
  assert.equal(inferKind('甲', ''), '刪');
  assert.equal(inferKind('甲乙', '乙甲'), '乙');
  assert.equal(inferKind('甲', '乙'), '改');
});

test('entries find their text in what earlier entries left: the pieces of a node split by a correction, and its new text', () => {
  const tree = treeOf('天地玄黃宇宙洪荒日月盈昃\n辰宿列張寒來暑往\n');
  const { list, file } = entries(
    ['- find: 玄黃', '  replace: 元黃', '- find: 洪荒', '  replace: 鴻荒', '- find: 地玄', '  replace: 地元', '- find: 元', '  replace: 玄', '- find: 寒來', '  replace: 寒至'].join('\n'),
  );
  applyCorrections(tree, list);
  // 地玄 no longer stands anywhere (玄 became a correction); 元 stands once, as the first correction's new text.
  assert.deepEqual(messages(file), ['5:3 error correction-unmatched']);
  assert.equal(treeText(tree.children[0]).replace(/\s/g, ''), '天地玄黃宇宙鴻荒日月盈昃辰宿列張寒至暑往');
  assert.deepEqual(
    correctionsIn(tree).map((c: Correction) => `${c.old}→${treeText(c)}`),
    ['玄→玄', '元→玄', '洪→鴻', '來→至'],
  );
});
