import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { VFile } from 'vfile';
import { parseSource } from '../parse/index.js';
import { ContextCounts, contextModel, estimate, habitsOf, overall, sitesOf, writtenReadings } from './context-model.js';
import { countTraditional, roundTrip } from './script-measure.js';
import { convertParts, convertPlain, convertText, habitsOfText, textStreams, type Decision } from './script.js';

const decide = (text: string, options = {}, mode: 'text' | 'name' = 'text') => {
  const decisions: Decision[] = [];
  const out = convertText(text, 'simplified', 'traditional', undefined, (d) => decisions.push(d), mode, options);
  return { out, decisions };
};

test("the samples' errors are gone: 乾豆, 其餘, 餘禽, 夫乾婦坤, a cloud 雲, 云 'to say'; plain OpenCC and the table before the model had them", () => {
  const cases: Array<[string, string]> = [
    ['射自左膘达于右腢以为干豆荐之宗庙', '乾豆'],
    ['其余皆如初', '其餘'],
    ['三杀之外余禽谁取', '餘禽'],
    ['夫干妇坤', '夫乾婦坤'],
    ['白云在天', '白雲'],
    ['郑司农云询谋也', '農云'],
  ];
  for (const [simplified, expected] of cases) assert.ok(decide(simplified).out.includes(expected), `${simplified} → ${decide(simplified).out}`);
  // Negative control: without the model (the fixed decisions alone) the errors come back.
  const before = cases.filter(([s, e]) => !convertText(s, 'simplified', 'traditional', undefined, undefined, 'text', { model: false }).includes(e));
  assert.ok(before.length >= 4, `the table alone gets ${before.map(([s]) => s).join(', ')} wrong`);
  assert.ok(cases.some(([s, e]) => !convertPlain(s, 'simplified', 'traditional').includes(e)), 'plain OpenCC has some of them wrong');
});

test('a byline: its place converted (無錫, not 无錫), a person\'s name with an ambiguous character kept as written', () => {
  assert.equal(decide('无锡蔡德晋撰', {}, 'name').out, '無錫蔡德晉撰');
  // 于 the surname: the model has not seen 于慎 enough to be sure of 於, so the name keeps it.
  const name = decide('于慎行撰', {}, 'name');
  assert.equal(name.out, '于慎行撰');
  assert.equal(name.decisions.find((d) => d.char === '于')?.how, 'name');
  // Negative control: the same characters as running text are converted as a word.
  assert.notEqual(decide('于慎行撰').out.slice(0, 1), undefined);
});

test('a text that writes 於 itself keeps 于 for 于 (a source that keeps the traditional form where its original has it); one that does not is left to the model', () => {
  const mixed = '王立于庭。公坐於堂。於是乎退。君在於朝。奠于席。';
  const written = writtenReadings(mixed);
  assert.deepEqual([...(written.get('于') ?? [])], ['於']);
  const kept = decide(mixed, { written });
  assert.equal(kept.out.match(/于/g)?.length, 2, kept.out);
  // Negative control: the same 于 in a source with no 於 of its own follow their contexts.
  const plain = decide('王立于庭。公坐于堂。于是乎退。君在于朝。奠于席。', { written: writtenReadings('王立于庭。公坐于堂。') });
  assert.ok((plain.out.match(/於/g)?.length ?? 0) >= 2, plain.out);
});

test('every choice carries its confidence; a context the model has not seen stays with the doubtful flag; a seen one is sure', () => {
  // 于 between characters no text of the table has beside it: the model falls back on 于's own counts, which do not decide.
  const unseen = decide('㐀于㐁').decisions.find((d) => d.char === '于')!;
  assert.equal(unseen.how, 'model');
  assert.ok(unseen.doubtful, `confidence ${unseen.confidence}, not flagged`);
  assert.deepEqual(unseen.weighed?.map((w) => w.reading).sort(), ['于', '於']);
  const sum = unseen.weighed!.reduce((n, w) => n + w.score, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9, 'the scores are probabilities');
  // Negative control: 其余 is seen thousands of times: sure, not doubtful.
  const seen = decide('其余皆如初').decisions.find((d) => d.char === '余')!;
  assert.ok(seen.confidence > 0.95 && !seen.doubtful, `confidence ${seen.confidence}`);
});

test('counts: made from traditional text through OpenCC, kept by context; serialized in a fixed order and read back the same; pruned; a fold taken out', () => {
  const a = new ContextCounts();
  countTraditional(a, '王立于庭公坐於堂');
  countTraditional(a, '於是乎退');
  const b = new ContextCounts();
  countTraditional(b, '於是乎退');
  countTraditional(b, '王立于庭公坐於堂');
  // The same counts in another order give the same bytes.
  assert.equal(a.serialize(['x']), b.serialize(['x']));
  const back = ContextCounts.parse(a.serialize());
  assert.equal(back.serialize(), a.serialize());
  assert.deepEqual(a.counts.get('于\t*\t'), [2, 1], '於 twice, 于 once (readings 於于)');
  assert.deepEqual(a.counts.get('于\tR1\t是'), [1, 0]);
  assert.deepEqual(a.counts.get('于\tL1\t立'), [0, 1]);
  const pruned = a.pruned(2);
  assert.equal(pruned.counts.has('于\tR1\t是'), false, 'seen once: pruned');
  assert.ok(pruned.counts.has('于\t*\t'), 'the character alone stays');
  const less = a.minus(b);
  assert.equal(less.counts.size, 0, 'the same counts taken out leave nothing');
  // A character seen in one reading only is no choice: left out of the table.
  const one = new ContextCounts();
  countTraditional(one, '於是於此');
  assert.doesNotMatch(one.serialize(), /^于\t=/mu);
});

test('sites: the nearest Han characters on both sides, punctuation and markup skipped, ^ and $ at the ends; traditional forms read as simplified', () => {
  const chars = Array.from('于，王立（于）庭於');
  const sites = sitesOf(chars, chars);
  assert.deepEqual(sites.map((s) => [s.index, s.site.before.join(''), s.site.after.join('')]), [
    [0, '^^', '王立'],
    [5, '立王', '庭于'],
  ]);
});

test('the shipped table: a header that says how it was made, each line of one of the four kinds; it decides the common cases', () => {
  const text = readFileSync(new URL('./context-model.tsv', import.meta.url), 'utf8');
  assert.match(text, /^# .*GENERATED by scripts\/context-model\.ts/mu);
  for (const line of text.split('\n').slice(0, 2000)) if (line && !line.startsWith('#')) assert.match(line, /^.\t(=\t.+|[*]\t\t[\d ]+|(O|L1|R1|L2|R2|LR|L2R|LR2)\t.+\t[\d ]+)$/u, line);
  const model = contextModel();
  const site = { char: '余', before: ['其', '^'], after: ['皆', '如'], opencc: '餘' };
  assert.equal(estimate(model, site)?.weighed[0].reading, '餘');
});

test('the round trip counts a distinct reading set wrong, not a variant form', () => {
  // 於 made 于 is wrong; 爲 made 為 (a form OpenCC never writes) is not counted.
  const r = roundTrip('於是爲之', () => '于是為之');
  assert.equal(r.wrong, 1);
  assert.deepEqual([...r.confusions], [['於→于', 1]]);
  assert.equal(r.characters, 4);
});

test('the import report counts the doubtful choices; a text with many is not ok (check, with the reason), one with few is', async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { loadEdition } = await import('../engine/load.js');
  const { importReports } = await import('../cli/import-reports.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-doubt-'));
  try {
    const edition = (text: string) => {
      writeFileSync(path.join(dir, 'a.txt'), text);
      writeFileSync(path.join(dir, 'edition.yaml'), 'title: 試\nauthor: 某\nscript: traditional\nsource-script: simplified\nsources:\n  - a.txt\n');
      return loadEdition(dir).then(importReports);
    };
    // 于 between characters never seen beside it, again and again: most choices doubtful.
    const [many] = await edition('㐀于㐁㐂于㐃㐄于㐅㐆于㐇㐈于㐉，'.repeat(20) + '\n');
    const anomaly = many.anomalies.find((a) => a.kind === 'doubtful-conversion');
    assert.ok(anomaly, JSON.stringify(many.anomalies));
    assert.equal(many.verdict, 'check');
    assert.match(anomaly.message, /doubtful/u);
    assert.ok((many.conversion?.doubtful ?? 0) >= 90, JSON.stringify(many.conversion));
    // Negative control: plain running text the model knows, converted with few doubts: no such anomaly.
    const [few] = await edition('其余皆如初。白云在天。郑司农云询谋也。\n');
    assert.equal(few.anomalies.some((a) => a.kind === 'doubtful-conversion'), false, JSON.stringify(few.anomalies));
    assert.equal(few.conversion?.doubtful, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a text's own habits: a text that writes 于 throughout (尚書) takes 于 where the model alone leans to 於; one that writes 於 leans the other way", () => {
  const shangshu = '光被四表格于上下。克明俊德以亲九族。平章百姓协和万邦。黎民于变时雍。乃命羲和钦若昊天。宾于四门。纳于大麓。归格于艺祖。肆类于上帝。禋于六宗。望于山川。徧于群神。';
  const habits = habitsOfText([[shangshu]], 'simplified', 'traditional', undefined, {})!;
  assert.ok(habits.get('于')!.get('于')! > 1.2, `于 weighs ${habits.get('于')!.get('于')} in this text`);
  const out = convertText(shangshu, 'simplified', 'traditional', undefined, undefined, 'text', { habits });
  assert.ok(out.includes('望于山川'), out);
  // 於 the exclamation (黎民於變) stays: a habit weighs readings, it does not overrule a context the model is sure of.
  assert.ok(out.includes('黎民於變'), out);
  // Negative control: the model alone, with no habits, takes 於 there.
  assert.ok(convertText(shangshu, 'simplified', 'traditional').includes('望於山川'));
  // A text that writes 於 throughout weighs 于 down.
  const mengzi = habitsOfText([['君子之于天下也。王之于民也。人之于物也。其于人也。夫子之于是邦也。吾之于人也。']], 'simplified', 'traditional', undefined, {})!;
  assert.ok(mengzi.get('于')!.get('于')! < 1, `于 weighs ${mengzi.get('于')!.get('于')} in a text of 之於`);
});

test('habitsOf: the text proportions that explain the places best, pulled toward the table by HABIT_PRIOR places; a reading known at a place counts as certain', () => {
  const table = ContextCounts.parse('于\t=\t於于\n于\t*\t\t90 10\n');
  const leaning = Array.from({ length: 200 }, () => ({ char: '于', weighed: [{ reading: '於', score: 0.45 }, { reading: '于', score: 0.55 }] }));
  const many = habitsOf(table, leaning).get('于')!;
  assert.ok(many.get('于')! > 3 && many.get('於')! < 1, `${[...many]}`);
  // Few places move the weights less than many.
  const few = habitsOf(table, leaning.slice(0, 3)).get('于')!;
  assert.ok(few.get('于')! < many.get('于')! && few.get('于')! > 1, `${[...few]}`);
  // Known readings (a witness's) count whole: 40 of 于 against the table's 1 in 10.
  const known = habitsOf(table, Array.from({ length: 40 }, () => ({ char: '于', known: '于' }))).get('于')!;
  assert.ok(known.get('于')! > 5, `${[...known]}`);
  // Negative control: places that weigh as the table does (the context telling nothing) leave the weights at 1.
  const [yu, yu2] = overall(table, '于')!;
  const asTable = habitsOf(table, Array.from({ length: 200 }, () => ({ char: '于', weighed: [{ reading: '於', score: yu }, { reading: '于', score: yu2 }] }))).get('于')!;
  assert.ok(Math.abs(asTable.get('于')! - 1) < 0.05, `${[...asTable]}`);
});

test('a rare reading is never raised by the model\'s own weighings (万 beside 萬: 1 in 75), only by readings known; a common one is', () => {
  const table = ContextCounts.parse('万\t=\t萬万\n万\t*\t\t987 13\n于\t=\t於于\n于\t*\t\t70 30\n');
  // Places where the model leans a little toward the rare reading (a context such as 作万, from 元豐本作万 in a note).
  const leaning = (char: string, rare: string, common: string, score: number) => Array.from({ length: 50 }, () => ({ char, weighed: [{ reading: common, score: 1 - score }, { reading: rare, score }] }));
  const wan = habitsOf(table, leaning('万', '万', '萬', 0.3)).get('万')!;
  assert.ok(wan.get('万')! <= 1, `万 weighs ${wan.get('万')} in this text`);
  // Nor against 萬: the factors weigh readings against each other, and 萬 lowered would be 万 raised (a line of 天地万物之精
  // 40,000 times over was set 天地万物 throughout when only 万's own factor was held at 1).
  assert.ok(wan.get('万')! <= wan.get('萬')!, `万 weighs ${wan.get('万')} against 萬's ${wan.get('萬')}`);
  // The control: the same leaning on a reading the table's texts write often (于: 3 in 10) raises it.
  const yu = habitsOf(table, leaning('于', '于', '於', 0.5)).get('于')!;
  assert.ok(yu.get('于')! > 1, `于 weighs ${yu.get('于')}`);
  // A witness's readings (known) raise even a rare one.
  const witnessed = habitsOf(table, [...leaning('万', '万', '萬', 0.3), ...Array.from({ length: 20 }, () => ({ char: '万', known: '万' }))]).get('万')!;
  assert.ok(witnessed.get('万')! > 1, `万 weighs ${witnessed.get('万')} with a witness`);
});

test('a simplified 關尹子 (殆知閣) keeps 萬 in all its 54 places of 万 with its habits (天地萬物; 10 were 万 when habits could raise a rare reading)', () => {
  const file = path.resolve('../shared/corpora/dev/daizhige_guanyinzi.txt');
  const parsed = parseSource(new VFile({ path: file, value: readFileSync(file) }), path.basename(file));
  const streams = parsed.volumes.flatMap((v) => textStreams(v).map((texts) => texts.map((t) => t.value)));
  const habits = habitsOfText(streams, 'simplified', 'traditional', undefined, {});
  const out = streams.flatMap((parts) => convertParts(parts, 'simplified', 'traditional', undefined, undefined, 'text', habits ? { habits } : {})).join('');
  const source = streams.flat().join('');
  assert.equal(Array.from(source).filter((c) => c === '万').length, 54);
  assert.equal(Array.from(out).filter((c) => c === '万').length, 0, 'no 万 set for 萬');
  assert.ok(out.includes('天地萬物'), out.slice(0, 200));
});
