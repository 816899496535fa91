import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { loadEdition } from '../engine/load.js';
import { conversionScore } from './accuracy.js';
import { applyCharmap } from './charmap.js';
import { classifyLayers, classifySegment, compileRules } from './layers.js';
import { splitCommentators } from './commentators.js';
import { layerLabel } from '../tree/layers.js';
import { reporterFor } from './report.js';
import { convertPlain, convertScript, convertText, scriptReport } from './script.js';
import { openccOneToMany } from './one-to-many.js';
import { convertedNames } from './names.js';
import { measureScriptConversion } from './script-measure.js';
import { importDaizhige } from '../parse/importers/corpus.js';
import { rootText, sourceOf, treeText } from '../parse/test-helpers.js';
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

test('the 音 a ○ (or 〇) opens after a 注 is 音義, a tone (去聲) too; a ○ before anything else, or a 〇 in a numeral, splits nothing', () => {
  const { tree } = treeOf('孝【爲德本○夫音符後竝同】行【○行下孟反】言【曾參起對故使復坐○語去聲】且【集注○祕曰某某也】年【凡二〇五年】');
  const before = treeText(tree.children[0]);
  classifyLayers(tree);
  assert.deepEqual(notes(tree).map((n) => `${n.layer}:${treeText(n)}`), ['zhu:爲德本', 'yinyi:○夫音符後竝同', 'yinyi:○行下孟反', 'zhu:曾參起對故使復坐', 'yinyi:○語去聲', 'zhu:集注○祕曰某某也', 'zhu:凡二〇五年']);
  assert.equal(treeText(tree.children[0]), before, 'not a character added or lost');
  // 〇, as transcribers type the circle (U+3007), is read as ○ (U+25CB) is.
  const { tree: zero } = treeOf('孝【爲德本〇夫音符】');
  classifyLayers(zero);
  assert.deepEqual(notes(zero).map((n) => `${n.layer}:${treeText(n)}`), ['zhu:爲德本', 'yinyi:〇夫音符']);
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

test('one-to-many characters: 云 stays 云, 皇后 stays 后, 上个 not 上個; 为 is OpenCC\'s 爲 until the edition prefers 為', () => {
  assert.equal(convertText('郑司农云询谋也', 'simplified', 'traditional'), '鄭司農云詢謀也');
  assert.equal(convertText('王后之服', 'simplified', 'traditional'), '王后之服');
  assert.equal(convertText('然后为之上个五寻', 'simplified', 'traditional'), '然後爲之上个五尋');
  assert.equal(convertPlain('为之上个', 'simplified', 'traditional'), '爲之上個');
  const choices = { keep: ['于'], prefer: { 为: '為' }, phrases: { 于是: '於是' } };
  assert.equal(convertText('为之筵于户西于是', 'simplified', 'traditional', choices), '為之筵于戶西於是');
  assert.equal(convertText('主人设几于筵', 'simplified', 'traditional'), '主人設几於筵');
});

test('check --script lists each one-to-many character, its readings, how each was chosen and where', () => {
  const src = sourceOf('为之于户西\n于是为之');
  const tree: Root = { type: 'root', edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: importDaizhige(src, 't').volumes };
  const report = scriptReport(tree, 'simplified', 'traditional', { keep: [], prefer: { 为: '為' }, phrases: { 于是: '於是' } }).rows;
  const yu = report.find((r) => r.char === '于');
  assert.deepEqual(yu?.readings.map((r) => `${r.reading}:${r.count}:${r.how}:${r.places.map((p) => `${p.start.line}:${p.start.column}`).join(',')}`), ['於:1:model:1:3', '於:1:phrase:2:1']);
  assert.equal(yu?.count, 2);
  const wei = report.find((r) => r.char === '为');
  assert.deepEqual(wei?.readings.map((r) => [r.reading, r.count, r.how]), [['為', 2, 'prefer']]);
  assert.deepEqual(wei?.readings[0].places.map((p) => `${p.start.line}:${p.start.column}`), ['1:1', '2:3']);
});

test('the conversion score aligns texts and counts substitutions apart from content differences', () => {
  const s = conversionScore('甲乙丙丁戊', '甲乙X丁戊己庚');
  assert.equal(s.errors, 1);
  assert.equal(s.aligned, 5);
  assert.equal(s.unaligned, 2);
});

test('script conversion on two references: on the 四部叢刊 儀禮 fewer errors than plain OpenCC, a third with the edition\'s choices; on 禮書綱目 (於 where the 經 writes 于) every error past OpenCC\'s is flagged doubtful', async () => {
  const yili = await loadEdition('manuscript/yili-zhushu', { raw: true });
  const gangmu = (await loadEdition('manuscript/lishu-gangmu', { raw: true })).parsed;
  const a = measureScriptConversion(yili.parsed, gangmu, '乃張侯下綱', yili.config?.conversion);
  const benyi = (await loadEdition('manuscript/lijing-benyi', { raw: true })).parsed;
  const sbck = (await loadEdition('../shared/corpora/kanripo-KR1d0026-SBCK-juan02.txt', { raw: true })).parsed;
  const b = measureScriptConversion(benyi, sbck, '下達納采', SBCK_CHOICES, '下达纳采', 2600);
  for (const m of [a, b]) assert.ok(m.errors.aligned > 400, 'the passage is found and aligned');
  assert.ok(b.errors.ours <= b.errors.plain, `ours ${b.errors.ours} ≤ plain ${b.errors.plain}`);
  assert.ok(b.errors.chosen * 3 <= b.errors.plain, `with choices ${b.errors.chosen} ≤ plain ${b.errors.plain} / 3`);
  assert.ok(a.errors.ours - a.errors.plain <= a.errors.doubtful, `ours ${a.errors.ours} − plain ${a.errors.plain} ≤ doubtful ${a.errors.doubtful}`);
});

/** The choices of an edition that follows the 四部叢刊 儀禮 (于 as written, 爲). */
const SBCK_CHOICES = { keep: ['于'], prefer: { 为: '爲' }, phrases: {} };

test('集注 whose first commentator opens each note with no ○ (【咸曰：…○光曰：…】): both are layers; one ○-name alone is no 集注', () => {
  const text = ['【咸曰學而行之○光曰行其所學】', '【咸曰言而不行○光曰言其所學】', '【咸曰教人以學○光曰教之】'].join('文');
  const { tree, file } = treeOf(`經${text}終`);
  splitCommentators(tree, reporterFor([file]));
  assert.deepEqual(notes(tree).slice(0, 2).map((n) => `${layerLabel(n.layer)}:${treeText(n)}`), ['咸:咸曰學而行之', '光:○光曰行其所學']);
  // Negative control: notes that open with 某曰 where no commentator is marked with ○ are not split.
  const plain = treeOf(`經${['【鄭曰學也】', '【鄭曰言也】', '【鄭曰教也】'].join('文')}終`);
  splitCommentators(plain.tree, reporterFor([plain.file]));
  assert.ok(notes(plain.tree).every((n) => n.layer === 'zhu'));
});

test('集注: notes split at ○某曰 into one layer a commentator, named after them; other notes left alone', () => {
  const notes3 = ['【吾子之言○祕曰子雲自謂○光曰謂揚子也】', '【言聖人○祕曰聖人作○光曰作者】', '【道也○祕曰道○光曰德】', '【○朱子曰一說】'].join('文');
  const src = sourceOf(`經${notes3}終`);
  const tree: Root = { type: 'root', edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: importDaizhige(src, 't').volumes };
  const before = treeText(tree.children[0]);
  splitCommentators(tree, reporterFor([src.file]));
  assert.deepEqual(notes(tree).slice(0, 3).map((n) => `${layerLabel(n.layer)}:${treeText(n)}`), ['注:吾子之言', '祕:○祕曰子雲自謂', '光:○光曰謂揚子也']);
  assert.equal(notes(tree).at(-1)?.layer, 'zhu');
  assert.deepEqual(tree.layers?.map((l) => l.label), ['祕', '光']);
  assert.equal(treeText(tree.children[0]), before);
});

test('glyphs: the charmap first, then KR-Gaiji (its Unicode character, else its image with its reading) and compositions; a code the list lacks stays 〓 and is reported', () => {
  const src = sourceOf('甲');
  const glyph = (value: string, extra: object) => ({ type: 'glyph' as const, value, ...extra, position: src.position(0, 1) });
  const children = [
    glyph('&KR0433;', { entity: 'KR0433' }),
    glyph('&KR0007;', { entity: 'KR0007' }),
    glyph('&KR0764;', { entity: 'KR0764' }),
    glyph('&KR9999;', { entity: 'KR9999' }),
    glyph('&KR9999;', { entity: 'KR9999' }),
    glyph('[女*省]', { description: '女*省' }),
    glyph('[臊-品+巳]', { description: '臊-品+巳' }),
    glyph('{艹虑}', { description: '艹虑' }),
  ];
  const tree: Root = { type: 'root', edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: [{ type: 'volume', number: null, title: 't', position: src.position(0, 1), children: [{ type: 'paragraph', role: 'text', position: src.position(0, 1), children }] }] };
  // KR0764 is in the list (an image): the edition's entry wins.
  applyCharmap(tree, { '&KR0764;': '內' }, reporterFor([src.file]));
  const glyphs = tree.children[0].children[0].children.map((g) => (g.type === 'glyph' ? [g.replacement ?? null, g.drawing ? { ...g.drawing } : null] : null));
  assert.deepEqual(glyphs, [
    // No Unicode character: the image, its text the list's reading.
    [null, { image: 'KR0433', text: '蓍', from: 'kr-gaiji' }],
    // A Unicode character (printed where a font has it), the image its fallback.
    ['𤣥', { image: 'KR0007', text: '𤣥', from: 'kr-gaiji' }],
    ['內', null],
    [null, null],
    [null, null],
    // The list describes [女*省] itself (KR3126, an image): its text the IDS.
    [null, { image: 'KR3126', text: '⿰女省', from: 'kr-gaiji' }],
    [null, { formula: '臊-品+巳', text: '[臊-品+巳]', from: 'composition' }],
    [null, { formula: '艹虑', text: '{艹虑}', from: 'composition' }],
  ]);
  assert.deepEqual(src.file.messages.map((m) => m.ruleId), ['entity-unmapped', 'entity-unmapped', 'glyph-summary', 'entity-summary']);
  assert.match(src.file.messages[2].reason, /^5 glyphs .*1 as KR-Gaiji's image, 1 as KR-Gaiji's Unicode character, 1 compositions as the KR-Gaiji glyph they describe, 2 compositions as their formula/u);
  assert.match(src.file.messages[3].reason, /&KR9999;×2/u);
});

test('the one-to-many set is OpenCC\'s own: TSCharacters read backwards, plus characters that are traditional too', () => {
  const set = openccOneToMany();
  assert.ok(set.size >= 144, `${set.size} characters`);
  assert.deepEqual(new Set(set.get('发')), new Set(['發', '髮']));
  assert.deepEqual(new Set(set.get('咸')), new Set(['鹹', '咸']));
  assert.deepEqual(new Set(set.get('卷')), new Set(['捲', '卷']));
  assert.equal(set.get('干')?.[0], '幹', "OpenCC's own pick first");
  // Negative controls: a character with one traditional form is not in the set.
  assert.equal(set.has('书'), false);
  assert.equal(set.has('鄭'), false);
  // check --script hears about every character of the set, not only those we decided on.
  const report = scriptReport(treeOf('白发').tree, 'simplified', 'traditional').rows;
  assert.deepEqual(report.map((r) => r.char), ['发']);
});

test('卷 as a volume stays 卷 (卷上, 卷第一), in text and in titles; 捲 where OpenCC reads the verb', () => {
  assert.equal(convertText('礼记卷上', 'simplified', 'traditional'), '禮記卷上');
  assert.equal(convertText('卷第一', 'simplified', 'traditional'), '卷第一');
  assert.equal(convertPlain('卷上', 'simplified', 'traditional'), '捲上');
  assert.equal(convertText('美人卷帘坐', 'simplified', 'traditional'), convertPlain('美人卷帘坐', 'simplified', 'traditional'));
});

test('names are not converted as words: a 集注 commentator as the text names him, a byline; the title and labels converted with the text', () => {
  const notes3 = ['【吾子之言○咸曰子云自谓○光曰谓扬子也】', '【言圣人○咸曰圣人作○光曰作者】', '【道也○咸曰道○光曰德】'].join('文');
  const src = sourceOf(`宋咸注\n\n经${notes3}卷上终`);
  const tree: Root = { type: 'root', edition: { id: 't', title: '法言卷上', author: '宋咸', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: importDaizhige(src, 't').volumes };
  const first = tree.children[0].children[0];
  if (first.type === 'paragraph') first.role = 'byline';
  splitCommentators(tree, reporterFor([src.file]));
  // Even an edition that prefers 鹹 for 咸 keeps the commentator's name.
  const converted = convertScript(tree, 'simplified', 'traditional', { keep: [], prefer: { 咸: '鹹' }, phrases: {} });
  const all = rootText(converted);
  assert.match(all, /宋咸注/);
  assert.equal((all.match(/○咸曰/g) ?? []).length, 3);
  assert.doesNotMatch(all, /鹹曰/);
  assert.match(all, /卷上終/);
  assert.equal(converted.edition.title, '法言卷上');
  assert.equal(converted.edition.author, '宋咸');
  // Negative control: 咸 that is no name follows the edition's choice.
  assert.equal(convertText('咸味', 'simplified', 'traditional', { keep: [], prefer: { 咸: '鹹' }, phrases: {} }), '鹹味');
});

test('converted names are found for the import report: a commentator printed as a word, 卷 printed 捲 in a title; none when the conversion kept them', () => {
  const notes3 = ['【吾子之言○咸曰子云自谓○光曰谓扬子也】', '【言圣人○咸曰圣人作○光曰作者】', '【道也○咸曰道○光曰德】'].join('文');
  const make = () => {
    const src = sourceOf(`法言卷上\n\n经${notes3}终`);
    const tree: Root = { type: 'root', edition: { id: 't', title: '法言', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: importDaizhige(src, 't').volumes };
    splitCommentators(tree, reporterFor([src.file]));
    return tree;
  };
  const kept = make();
  assert.deepEqual(convertedNames(kept, convertScript(structuredClone(kept), 'simplified', 'traditional')), []);
  // An edition's phrases can undo what convertScript keeps: the report says so.
  const undone = make();
  const found = convertedNames(undone, convertScript(structuredClone(undone), 'simplified', 'traditional', { keep: [], prefer: {}, phrases: { '○咸': '○鹹', 咸曰: '鹹曰', 卷上: '捲上' } }));
  // 卷 twice: 法言卷上 is the volume's title (its running head) and the title line printed on its first page.
  assert.deepEqual(found.map((n) => `${n.name}→${n.became}×${n.count}`).sort(), ['卷→捲×2', '咸→鹹×3'].sort());
});

test("a volume's habits are its writers' own: the front matter (a 提要) keeps its 於 while the text that writes 于 throughout takes 于", () => {
  const front = '盖以蛤灰柎注于屦取其洁素说文所云魁蛤是其确证';
  const text = '光被四表格于上下。克明俊德以亲九族。黎民于变时雍。宾于四门。纳于大麓。归格于艺祖。肆类于上帝。禋于六宗。望于山川。徧于群神。'.repeat(3);
  const converted = (frontRole: 'front' | 'text') => {
    const src = sourceOf(front + text);
    const para = (role: 'front' | 'text', value: string) => ({ type: 'paragraph' as const, role, position: src.position(0, 1), children: [{ type: 'text' as const, value, position: src.position(0, 1) }] });
    const tree: Root = { type: 'root', edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: [{ type: 'volume', number: null, title: 't', position: src.position(0, 1), children: [para(frontRole, front), para('text', text)] }] };
    return rootText(convertScript(tree, 'simplified', 'traditional'));
  };
  const apart = converted('front');
  assert.ok(apart.includes('柎注於屨') && apart.includes('望于山川'), apart);
  // Negative control: the same paragraph as the work's text takes the text's habit.
  assert.ok(converted('text').includes('柎注于屨'), converted('text'));
});
