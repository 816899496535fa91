import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { visit } from 'unist-util-visit';
import type { Root, Text } from '../tree/types.js';
import { loadEdition } from './load.js';
import { readingOfText } from './text-defaults.js';

const textOf = (tree: Root): string => {
  let s = '';
  visit(tree, 'text', (t: Text) => void (s += t.value));
  return s;
};

test('a lone file with no edition.yaml is set as init would set it: a simplified text in traditional characters, its title too; a punctuated one in the modern template', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-defaults-'));
  try {
    // 明宫史 as 殆知閣 gives it, simplified (a 提要 naming the work, then its text).
    const simplified = path.join(dir, 'mg.txt');
    writeFileSync(simplified, '钦定四库全书\n史部十二\n明宫史\n明 吕毖 撰\n明宫史卷一\n宫殿规制\n紫禁城内之东南有御马监所属之马房与各处宫殿之门皆以黄瓦覆之其余则以琉璃为饰\n');
    const a = await loadEdition(simplified);
    assert.equal(a.config?.meta.sourceScript, 'simplified');
    assert.equal(a.config?.meta.template, 'siku');
    assert.match(textOf(a.tree), /宮殿規制/u);
    assert.equal(a.config?.meta.title, '明宮史', 'the title taken from the text, in the edition’s script');
    const said = a.messages.find((m) => m.ruleId === 'text-defaults');
    assert.ok(said && /simplified/u.test(said.reason));
    // At a place, as every message: the file's start, where its text begins.
    assert.deepEqual([said.line, said.column], [1, 1]);
    // Controls: a traditional unpunctuated text keeps the defaults and says nothing; a punctuated one is modern.
    const traditional = path.join(dir, 'tr.txt');
    writeFileSync(traditional, '明宮史卷一\n宮殿規制\n紫禁城內之東南有御馬監所屬之馬房與各處宮殿之門皆以黃瓦覆之其餘則以琉璃為飾\n');
    const b = await loadEdition(traditional);
    assert.equal(b.config?.meta.sourceScript, undefined);
    assert.equal(b.config?.meta.template, 'siku');
    assert.ok(!b.messages.some((m) => m.ruleId === 'text-defaults'));
    const modern = path.join(dir, 'md.txt');
    writeFileSync(modern, '明宮史卷一\n宮殿規制\n紫禁城內之東南，有御馬監所屬之馬房。各處宮殿之門，皆以黃瓦覆之；其餘，則以琉璃為飾。\n');
    const c = await loadEdition(modern);
    assert.equal(c.config?.meta.template, 'modern');
    assert.equal(c.config?.meta.sourceScript, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readingOfText: the script that changes fewer characters, the template by the share of modern marks', () => {
  assert.deepEqual(readingOfText('乡射之礼主人戒宾宾出迎再拜'), { script: 'simplified', template: 'siku' });
  assert.deepEqual(readingOfText('鄉射之禮，主人戒賓，賓出迎，再拜。'), { script: 'traditional', template: 'modern' });
});
