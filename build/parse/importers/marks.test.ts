/**
 * The Markdown convention's marks beside the text: 〖…〗 with a tag of the
 * mark's kind, read into `mark` nodes and written back by to-markdown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Inline, Mark, Root } from '../../tree/types.js';
import { importMarkdown } from './markdown.js';
import { toMarkdown } from '../../tree/to-markdown.js';
import { messagesOf, sourceOf, treeText } from '../test-helpers.js';

function inlines(markdown: string): { nodes: Inline[]; messages: string[] } {
  const src = sourceOf(`# 卷一\n\n${markdown}\n`, 'm.md');
  const [volume] = importMarkdown(src, 'x').volumes;
  return { nodes: volume.children[0].children, messages: messagesOf(src) };
}

const marks = (nodes: Inline[]): string[] =>
  nodes.flatMap((n): string[] => (n.type === 'mark' ? [`${n.kind}:${treeText(n)}`] : n.type === 'note' ? marks(n.children) : []));

test('〖…〗 makes a mark node: {專} 專名號, {書} 書名號, {圈} circles, {頓} sesame dots, none 著重號', () => {
  const { nodes, messages } = inlines('子曰〖{專}顏淵〗好學，讀〖{書}論語〗〖重在此〗〖{圈}圈之〗〖{頓}頓之〗【注〖{專}孔子〗】');
  assert.deepEqual(marks(nodes), ['proper:顏淵', 'book:論語', 'dot:重在此', 'circle:圈之', 'sesame:頓之', 'proper:孔子']);
  assert.deepEqual(messages, []);
  // The marks' characters keep their source positions; the brackets and the tag are not text.
  const proper = nodes.find((n): n is Mark => n.type === 'mark')!;
  const first = proper.children[0];
  assert.equal(first.position.start.offset, '# 卷一\n\n子曰〖{專}'.length);
  assert.equal(proper.position.start.offset, '# 卷一\n\n子曰'.length);
  assert.equal(treeText({ type: 'paragraph', role: 'text', children: nodes, position: proper.position }), '子曰顏淵好學，讀論語重在此圈之頓之注孔子');
});

test('a broken 〖 or 〗 is kept as text, with a warning at its place', () => {
  const unclosed = inlines('甲〖{專}乙丙');
  assert.deepEqual(marks(unclosed.nodes), []);
  assert.equal(unclosed.nodes.map((n) => treeText(n)).join(''), '甲〖{專}乙丙');
  assert.deepEqual(unclosed.messages, ['3:2 mark-unclosed']);
  const stray = inlines('甲〗乙');
  assert.equal(stray.nodes.map((n) => treeText(n)).join(''), '甲〗乙');
  assert.deepEqual(stray.messages, ['3:2 mark-unmatched']);
  const unknown = inlines('〖{紅}甲〗');
  assert.deepEqual(marks(unknown.nodes), ['dot:甲']);
  assert.deepEqual(unknown.messages, ['3:1 mark-unknown']);
  // Negative control: without the syntax, the same characters are plain text.
  assert.deepEqual(marks(inlines('子曰顏淵好學').nodes), []);
});

test('to-markdown writes marks back; they read in again the same', () => {
  const src = sourceOf('# 卷一\n\n子曰〖{專}顏淵〗讀〖{書}論語〗〖重〗\n', 'm.md');
  const tree: Root = {
    type: 'root',
    edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' },
    children: importMarkdown(src, 'x').volumes,
  };
  const written = toMarkdown(tree);
  assert.match(written, /子曰〖\{專\}顏淵〗讀〖\{書\}論語〗〖重〗/u);
  const back = importMarkdown(sourceOf(written, 'back.md'), 'x').volumes;
  assert.deepEqual(marks(back[0].children[0].children), ['proper:顏淵', 'book:論語', 'dot:重']);
});
