/**
 * The Markdown convention's escape (`\【`, `\〖`, `\{`, `\>` …) and `import`,
 * which escapes every character of a source that the convention would read
 * as markup: import then parse gives back the source's text, and no note,
 * mark, raise or commentary paragraph the source did not have.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSource } from './index.js';
import { toMarkdown } from '../tree/to-markdown.js';
import { fileOf, rootText } from './test-helpers.js';
import type { Node } from '../tree/types.js';

/** How many nodes of each type a tree has (notes, marks, raises, paragraphs by role …), text runs aside (an escape is a run of its own). */
function census(node: Node): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (n: Node): void => {
    if (n.type === 'text') return;
    const key = n.type === 'paragraph' ? `paragraph:${(n as unknown as { role: string }).role}` : n.type;
    out[key] = (out[key] ?? 0) + 1;
    for (const c of (n as unknown as { children?: Node[] }).children ?? []) walk(c);
  };
  walk(node);
  return out;
}

function tree(text: string, format: 'chtxt' | 'markdown') {
  const parsed = parseSource(fileOf(text, format === 'markdown' ? 'a.md' : 'a.txt'), '試', format);
  return { type: 'root' as const, edition: { id: 'x', title: '試', author: '', language: 'zh-Hant', script: 'traditional' as const, template: 'siku' }, children: parsed.volumes };
}

test('import escapes what the convention would read: a chtxt text comes back with the same text and structure', () => {
  const source = [
    '卷一',
    '天地玄黃【玄黃】宇宙〖洪荒〗日月{平抬}盈昃(注文)辰宿列張',
    '> 寒來暑往，秋收冬藏',
    '# 閏餘成歲',
    '- 律呂調陽',
    '1. 雲騰致雨',
    '{題}露結為霜',
    '金生麗水\\【玉出崑岡】<sub>劍</sub>號巨闕[^1]珠稱夜光',
    '〈臣〉果珍李柰 #',
  ].join('\n\n') + '\n';
  const before = tree(source, 'chtxt');
  const markdown = toMarkdown(before as never);
  const after = tree(markdown, 'markdown');
  assert.equal(rootText(after as never), rootText(before as never), markdown);
  assert.deepEqual(census(after as never), census(before as never), markdown);
  // chtxt's notes: (注文), and 【玄黃】, 【玉出崑岡】 (九經字樣's 【凡…】, 敦煌歌辭's 【上闕】).
  assert.equal(census(before as never).note, 3, 'the chtxt notes (注文) 【玄黃】 【玉出崑岡】 are notes on both sides');
  assert.ok(!census(after as never).mark && !census(after as never).raise);
});

test('the escape in a hand-written manuscript: \\【 \\〖 \\{ \\> are text', () => {
  const md = '# 卷一\n\n\\> 主人\\【戒賓\\】\\〖再拜\\〗\\{平抬}賓【{音義}辭音詞】\n\n\\{題}答拜 a\\b\n';
  const t = tree(md, 'markdown');
  assert.equal(rootText(t as never), '> 主人【戒賓】〖再拜〗{平抬}賓辭音詞{題}答拜 a\\b');
  const c = census(t as never);
  assert.equal(c.note, 1, 'the unescaped note is still a note');
  assert.equal(c['paragraph:text'], 2);
  assert.ok(!c.mark && !c.raise && !c['paragraph:commentary'] && !c['paragraph:title']);
});
