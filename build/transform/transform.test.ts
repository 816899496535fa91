import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { loadEdition } from '../cli/load.js';
import { conversionScore } from './accuracy.js';
import { applyCharmap } from './charmap.js';
import { classifyLayers, classifySegment, compileRules } from './layers.js';
import { reporterFor } from './report.js';
import { convertPlain, convertText } from './script.js';
import { measureScriptConversion } from './script-measure.js';
import { importDaizhige } from '../parse/importers/corpus.js';
import { sourceOf, treeText } from '../parse/test-helpers.js';
import type { Note, Root } from '../tree/types.js';

function treeOf(text: string): { tree: Root; file: VFile } {
  const src = sourceOf(text);
  return { tree: { type: 'root', edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: importDaizhige(src, 't').volumes }, file: src.file };
}

function notes(tree: Root): Note[] {
  const out: Note[] = [];
  const walk = (n: { children?: unknown[]; type: string }) => {
    if (n.type === 'note') out.push(n as Note);
    for (const c of (n.children ?? []) as Array<{ children?: unknown[]; type: string }>) walk(c);
  };
  walk(tree);
  return out;
}

test('a note of 注, 音義 and 疏 separated by full-width spaces becomes three notes, text kept', () => {
  const { tree } = treeOf('乃張侯【侯謂所射布也　射食亦反　疏曰周禮梓人云】不繫左下綱');
  const before = treeText(tree.children[0]);
  classifyLayers(tree);
  assert.deepEqual(notes(tree).map((n) => `${n.layer}:${treeText(n)}`), ['zhu:侯謂所射布也', 'yinyi:射食亦反', 'shu:疏曰周禮梓人云']);
  assert.equal(treeText(tree.children[0]).replace(/\s/gu, ''), before.replace(/\s/gu, ''));
});

test('疏曰 splits even without a space; a short trailing word is the source cited', () => {
  const { tree } = treeOf('乏【容謂之乏　為于偽反獲如字疏曰乏參侯道者】射於州序【序州黨之學也 地官】');
  classifyLayers(tree);
  assert.deepEqual(notes(tree).map((n) => `${n.layer}:${treeText(n)}`), ['zhu:容謂之乏', 'yinyi:為于偽反獲如字', 'shu:疏曰乏參侯道者', 'zhu:序州黨之學也', 'chuchu:地官']);
});

test('案 remarks, unknown segments stay 注, same-layer segments rejoin with their space', () => {
  const rules = compileRules([]);
  assert.equal(classifySegment('今按周禮梓人有皮侯', false, rules), 'an');
  assert.equal(classifySegment('敖君善曰士丧卜日之礼', false, rules), 'zhu');
  const { tree } = treeOf('筮【筮者以蓍問吉凶也 敖君善曰士喪卜日】');
  classifyLayers(tree);
  assert.deepEqual(notes(tree).map((n) => `${n.layer}:${treeText(n)}`), ['zhu:筮者以蓍問吉凶也 敖君善曰士喪卜日']);
});

test('an edition rule comes before the built-in table', () => {
  const { tree } = treeOf('筮【筮者以蓍問吉凶也 愚謂當從鄭】');
  classifyLayers(tree, [{ layer: 'an', pattern: '^愚謂' }]);
  assert.deepEqual(notes(tree).map((n) => n.layer), ['zhu', 'an']);
});

test('the charmap maps Private Use Area glyphs; unmapped ones are reported with a count', () => {
  const { tree, file } = treeOf('戒時\uEA20端\uE512');
  applyCharmap(tree, { '\uEA20': '玄' }, reporterFor([file]));
  const glyphs = (tree.children[0].children[0] as { children: Array<{ type: string; replacement?: string }> }).children.filter((c) => c.type === 'glyph');
  assert.deepEqual(glyphs.map((g) => g.replacement), ['玄', undefined]);
  assert.deepEqual(file.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['1:5 pua-unmapped', '1:5 pua-summary']);
});

test('classical overrides: 云 stays 云, 皇后 stays 后, 為 not 爲, 上个 not 上個', () => {
  assert.equal(convertText('郑司农云询谋也', 'simplified', 'traditional'), '鄭司農云詢謀也');
  assert.equal(convertText('王后之服', 'simplified', 'traditional'), '王后之服');
  assert.equal(convertText('然后为之上个五寻', 'simplified', 'traditional'), '然後為之上个五尋');
  assert.equal(convertPlain('为之上个', 'simplified', 'traditional'), '爲之上個');
});

test('the conversion score aligns texts and counts substitutions apart from content differences', () => {
  const s = conversionScore('甲乙丙丁戊', '甲乙X丁戊己庚');
  assert.equal(s.errors, 1);
  assert.equal(s.aligned, 5);
  assert.equal(s.unaligned, 2);
});

test('script conversion of the 經 of 儀禮注疏 against 禮書綱目: ours beats plain OpenCC', async () => {
  const simplified = (await loadEdition('manuscript/yili-zhushu', { raw: true })).parsed;
  const traditional = (await loadEdition('manuscript/lishu-gangmu', { raw: true })).parsed;
  const { plain, ours } = measureScriptConversion(simplified, traditional);
  console.log(`character error rate on ${plain.aligned} aligned characters: plain opencc-js ${(plain.rate * 100).toFixed(2)}% (${plain.errors}), diaoban ${(ours.rate * 100).toFixed(2)}% (${ours.errors})`);
  assert.ok(plain.aligned > 400, 'the passage is found and aligned');
  assert.ok(ours.rate < plain.rate);
  assert.ok(ours.rate < 0.01);
});
