/**
 * The classical marks of the Markdown convention (manuscript/README.md):
 * 抬頭 `{雙抬}`, 眉批 and 側批 `【{眉批}…】`, 圈點 `〖{雙圈}…〗` `〖{重}…〗`,
 * ruby `〖{音:…}…〗` `〖{譯:…}…〗`, labels the source prints `{【附注】}` —
 * read into the tree, and written back by to-markdown (`diaoban import`)
 * to the same tree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { visit } from 'unist-util-visit';
import type { Inline, Root } from '../../tree/types.js';
import { importMarkdown } from './markdown.js';
import { toMarkdown } from '../../tree/to-markdown.js';
import { messagesOf, sourceOf, treeText } from '../test-helpers.js';

function parse(markdown: string): { root: Root; messages: string[] } {
  const src = sourceOf(markdown, 'm.md');
  const root: Root = {
    type: 'root',
    edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' },
    children: importMarkdown(src, 'x').volumes,
  };
  return { root, messages: messagesOf(src) };
}

/** The tree without positions: what a round trip must keep. */
function shape(root: Root): unknown {
  return JSON.parse(JSON.stringify(root.children, (key, value) => (key === 'position' ? undefined : value)));
}

/** The kinds of what the classical marks make, in order. */
function marks(root: Root): string[] {
  const out: string[] = [];
  visit(root, (n) => {
    const x = n as Inline & { label?: string; role?: string };
    if (x.type === 'raise') out.push(`raise${x.level}`);
    else if (x.type === 'annotation') out.push(`${x.kind}:${treeText(x)}`);
    else if (x.type === 'mark') out.push(`${x.kind}${x.ruby ? `(${x.ruby.by}:${x.ruby.text})` : ''}:${treeText(x)}`);
    else if (x.label) out.push(`label ${x.label} ${(x as { layer?: string }).layer}`);
  });
  return out;
}

test('the classical marks read into the tree: 抬頭, 眉批, 側批, 圈點, ruby, printed labels', () => {
  const { root, messages } = parse(
    [
      '# 卷一',
      '',
      '臣等謹案恭逢{雙抬}皇上几暇{單抬}御製{平抬}國朝',
      '',
      '{雙抬}聖祖仁皇帝',
      '',
      '【{眉批}總寫大觀】予觀夫巴陵勝狀【{側批}八字寫盡】〖{雙圈}銜遠山〗〖{重}吞長江〗〖{音:ㄕㄤ ㄕㄤ}湯湯〗〖{譯:Yueyang Tower}岳陽樓〗【{【音義】}湯音傷】【{注【鄭注】}注文】',
      '',
      '> {【附注】}補注之文',
    ].join('\n'),
  );
  assert.deepEqual(messages, []);
  assert.deepEqual(marks(root), [
    'raise2', 'raise1', 'raise0', 'raise2',
    'meipi:總寫大觀', 'cepi:八字寫盡', 'double:銜遠山', 'heavy:吞長江', 'ruby(char:ㄕㄤ ㄕㄤ):湯湯', 'ruby(word:Yueyang Tower):岳陽樓',
    'label 音義 yinyi', 'label 鄭注 zhu', 'label 附注 fuzhu',
  ]);
  // The marks are not text: the paragraph's characters are the manuscript's without them.
  assert.equal(treeText(root.children[0].children[0]), '臣等謹案恭逢皇上几暇御製國朝');
  // A paragraph opening with 抬頭 is main text, not an unknown role tag.
  assert.equal(root.children[0].children[1].type === 'paragraph' && root.children[0].children[1].role, 'text');
  // Negative control: the same words without the marks make none of these nodes.
  assert.deepEqual(marks(parse('# 卷一\n\n臣等謹案恭逢皇上【總寫大觀】銜遠山').root), []);
});

test('a ruby tag without its annotation, or an unknown tag, is said where it stands', () => {
  const { root, messages } = parse('# 卷一\n\n〖{音}湯湯〗〖{紅}甲〗');
  assert.deepEqual(messages, ['3:1 mark-unknown', '3:8 mark-unknown']);
  assert.deepEqual(marks(root), ['dot:湯湯', 'dot:甲']);
});

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

test('diaoban import writes the classical marks back: the 評點本 sample reads back to the same tree', () => {
  const text = readFileSync(path.join(REPO, 'manuscript', 'pingdian', 'yueyanglou.md'), 'utf8');
  const first = parse(text);
  assert.deepEqual(first.messages, []);
  const kinds = marks(first.root);
  for (const kind of ['raise2', 'raise1', 'meipi:', 'cepi:', 'circle:', 'sesame:', 'double:', 'heavy:', 'ruby(char:', 'ruby(word:', 'label 音義', 'label 案']) {
    assert.ok(kinds.some((k) => k.startsWith(kind)), `the sample uses ${kind}`);
  }
  const written = toMarkdown(first.root);
  const second = parse(written);
  assert.deepEqual(second.messages, []);
  assert.deepEqual(shape(second.root), shape(first.root));
  assert.equal(toMarkdown(second.root), written);
});
