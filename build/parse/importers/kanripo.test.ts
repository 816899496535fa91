/**
 * The Kanripo reading of what whole works hold (importers/lines.ts, the
 * kanripo row of formats.ts): notes that open on one line and close lines
 * later, CBETA-derived org markup (verse blocks, table rows, tab-set
 * transliterations, org headings as sections), a juan's title that stands
 * only at its end, a second byline. Each with a negative control; the whole
 * corpus is read in kanripo-works.slow.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSource } from '../index.js';
import type { Block, Inline, Volume } from '../../tree/types.js';
import { fileOf } from '../test-helpers.js';

const HEADER = '# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: JUAN 1\n';

function read(body: string) {
  const parsed = parseSource(fileOf(HEADER + body, 't.txt'), '', 'kanripo');
  return { volumes: parsed.volumes, errors: parsed.file.messages.filter((m) => m.fatal).map((m) => `${m.line}:${m.column} ${m.ruleId}`) };
}

/** A block as text: its role, notes as (layer:…), a ruby as [term/gloss], line ends as ¶. */
function shown(b: Block): string {
  const text = (ns: readonly Inline[]): string =>
    ns.map((n) => (n.type === 'text' ? n.value : n.type === 'note' ? `(${n.layer}:${text(n.children)})` : n.type === 'anchor' ? (n.kind === 'line' ? '¶' : '') : n.type === 'mark' && n.kind === 'ruby' ? `[${text(n.children)}/${n.ruby?.text}]` : 'children' in n ? text(n.children as Inline[]) : '')).join('');
  return `${b.type === 'heading' ? `h${b.depth}` : b.role}${b.type === 'paragraph' && b.data?.verse ? '/verse' : ''}: ${text(b.children)}`;
}
const blocks = (volumes: readonly Volume[]): string[] => volumes.flatMap((v) => v.children.map(shown));

// A column of 20 characters, as the print's lines are, so that the file's lines read as columns.
const COLUMNS = Array.from({ length: 24 }, (_, i) => `${'天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往'.slice(i % 5)}${'秋收冬藏閏餘成歲律呂'.slice(0, i % 5)}¶`).join('\n') + '\n終。¶';

test('a note that opens on one line and closes lines later is one note; the column that ends early inside it ends no paragraph', () => {
  const { volumes, errors } = read(`${COLUMNS}\n¶\n子謂公冶長可妻也雖在縲紲之中非其罪也以其子¶\n妻之疏(子謂至妻之云子謂公冶長可妻也者¶\n<pb:KR1h0006_WYG_003-1b>¶\n公冶長弟子也可妻者孔子欲以女嫁之故先評論而謂可¶\n妻也)¶\n¶\n子謂南容邦有道不廢¶\n`);
  assert.deepEqual(errors, []);
  const notes = blocks(volumes).filter((b) => b.includes('(shu:'));
  assert.deepEqual(notes, ['text: ¶子謂公冶長可妻也雖在縲紲之中非其罪也以其子¶妻之(shu:子謂至妻之云子謂公冶長可妻也者¶¶公冶長弟子也可妻者孔子欲以女嫁之故先評論而謂可¶妻也)¶']);
  // Negative control: a bracket that no later line of its paragraph closes stays an error at its place, and the text after
  // the paragraph's end is text, not swallowed into a note.
  const unclosed = read(`${COLUMNS}\n¶\n子謂公冶長可妻也疏(子謂至妻之¶\n公冶長弟子也¶\n\n子謂南容邦有道不廢¶\n`);
  assert.deepEqual(unclosed.errors, ['30:9 bracket-unclosed']);
  assert.ok(blocks(unclosed.volumes).includes('text: 子謂南容邦有道不廢¶'));
});

test('a chapter heading with its 疏 running on to later lines holds them', () => {
  const { volumes, errors } = read(`${COLUMNS}\n¶\n　　論語公冶長第五疏(公冶長者孔子弟子也此篇明時無明君賢人獲罪者也所以¶\n次前者言公冶雖在柱濫縲紲而為聖師證明若不近仁則曲直難辨故公冶次里仁也)¶\n¶\n　　子謂公冶長可妻也¶\n** 五伽耶(按駕洛記贊云。垂一紫纓。¶\n餘五各為五伽耶之主)¶\n\n阿羅伽耶¶\n`);
  assert.deepEqual(errors, []);
  const all = blocks(volumes);
  assert.ok(all.includes('h2: ¶論語公冶長第五(shu:公冶長者孔子弟子也此篇明時無明君賢人獲罪者也所以¶次前者言公冶雖在柱濫縲紲而為聖師證明若不近仁則曲直難辨故公冶次里仁也)¶'), all.join('\n'));
  assert.ok(all.includes('h2: 五伽耶(zhu:按駕洛記贊云。垂一紫纓。¶餘五各為五伽耶之主)¶'), all.join('\n'));
  assert.ok(all.includes('text: 阿羅伽耶¶'));
});

test('a verse block: its marker lines are no text, each line inside a verse line of its own; outside it lines run on', () => {
  const { volumes } = read('於彼處，而說偈言：¶\n\n#+BEGIN_VERSE\n「　一切諸眾生，\n　皆隨有生死，¶\n<pb:KR6a0007_T_001-0191c>¶\n　我今亦生死。」\n#+END_VERSE\n¶\n\n爾時，世尊說此偈已，\n默然而住。¶\n');
  assert.deepEqual(blocks(volumes), ['text: 於彼處，而說偈言：¶', 'text/verse: 「　一切諸眾生，', 'text/verse: 皆隨有生死，¶', 'text/verse: ¶我今亦生死。」', 'text: ¶爾時，世尊說此偈已，默然而住。¶']);
});

test('table rows: over lines to the closing mark, cells parted by a gap, empty cells and the marks no text', () => {
  const { volumes } = read('三國遺事王曆第一¶\n¶\n | 前漢宣帝　五鳳(甲子)四 |¶\n | 新羅 |高麗 |¶\n |  | |¶\n | 　甘露(戊辰)四¶\n元帝　初元(癸酉)五 |¶\n\n魏書云。乃往二千載有壇君王儉。¶\n');
  const rows = blocks(volumes).slice(1);
  assert.deepEqual(rows, ['text: ¶前漢宣帝　五鳳(zhu:甲子)四¶', 'text: 新羅　高麗¶', 'text: ¶甘露(zhu:戊辰)四¶元帝　初元(zhu:癸酉)五¶', 'text: 魏書云。乃往二千載有壇君王儉。¶']);
  // Negative control: a | inside a line of text is the text's.
  assert.deepEqual(blocks(read('甲|乙¶\n').volumes), ['text: 甲|乙¶']);
});

test('a transliteration set after a tab glosses the term set after a tab above it (a ruby); without the tab it is text', () => {
  const { volumes } = read('其名曰：阿若憍陳如、舍利¶\n弗、\t大目揵連¶\n\tMahāmaudgalyāyana.¶\n、摩訶迦旃延。¶\n若富單那、若¶\n\t吉遮¶\n\tKṛtya.¶\n、若鳩槃茶。¶\n');
  const text = blocks(volumes).join('|');
  assert.match(text, /弗、\[大目揵連\/Mahāmaudgalyāyana\.\]¶¶、摩訶迦旃延。/u);
  assert.match(text, /若¶\[吉遮\/Kṛtya\.\]¶¶、若鳩槃茶/u);
  assert.doesNotMatch(text, /\t/u);
  // Negative control: a Latin line not set after a tab, or under a line with no tab, is the text's.
  assert.match(blocks(read('弗、大目揵連¶\nMahāmaudgalyāyana.¶\n').volumes).join('|'), /大目揵連¶Mahāmaudgalyāyana\.¶/u);
  assert.match(blocks(read('弗、大目揵連¶\n\tMahāmaudgalyāyana.¶\n').volumes).join('|'), /大目揵連¶Mahāmaudgalyāyana\.¶/u);
});

test('org headings are sections of the juan the file is: * 經卷第四十一 opens no volume', () => {
  const { volumes } = read('新譯大方廣佛華嚴經音義卷下¶\n京兆靜法寺沙門慧菀述¶\n\n* 經卷第四十一¶\n\n** 十定品之二¶\n\n不處於陸¶\n\n* 經卷第四十二¶\n\n離垢¶\n');
  assert.equal(volumes.length, 1);
  assert.deepEqual(blocks(volumes), ['title: 新譯大方廣佛華嚴經音義卷下¶', 'byline: 京兆靜法寺沙門慧菀述¶', 'h1: 經卷第四十一¶', 'h2: 十定品之二¶', 'text: 不處於陸¶', 'h1: 經卷第四十二¶', 'text: 離垢¶']);
});

test('a juan whose title stands only at its end: the text above is the volume\'s, not front matter; 《》 do not make another title', () => {
  const { volumes } = read('如染恚癡亦如是。¶\n成。¶\n《中論》卷第一\n<pb:KR6m0001_T_001-0009a>¶\n');
  assert.equal(volumes.length, 1);
  assert.deepEqual(blocks(volumes), ['text: 如染恚癡亦如是。¶成。¶', 'title: 《中論》卷第一¶']);
  const closed = read('《妙法蓮華經》卷第四¶\n\n爾時富樓那¶\n妙法蓮華經卷第四¶\n');
  assert.equal(closed.volumes.length, 1);
  // Negative control: a title with text after it opens its volume, the text before it front matter as before.
  const opening = read('提要之文。¶\n《中論》卷第一¶\n論曰。¶\n');
  assert.deepEqual(blocks(opening.volumes), ['front: 提要之文。¶', 'title: 《中論》卷第一¶', 'text: 論曰。¶']);
});

test('a second contributor\'s line under a byline is a byline too', () => {
  const { volumes } = read('欽定四庫全書¶\n¶\n　　論語集解義疏卷三　　　魏　何晏　集解¶\n¶\n　　梁　皇侃　義疏¶\n¶\n　　子謂公冶長可妻也¶\n');
  assert.deepEqual(blocks(volumes).filter((b) => b.startsWith('byline')), ['byline: 魏　何晏　集解¶', 'byline: ¶梁　皇侃　義疏¶']);
});

test('a title at the text\'s end closes the volume of its number, however it is spelt (論語集觧義疏卷七 / 論語集解義疏卷七)', () => {
  const { volumes } = read('　　論語集觧義疏卷七　　　魏　何晏　集解¶\n　　子曰¶\n¶\n　　論語集解義疏卷七¶\n¶\n');
  assert.equal(volumes.length, 1);
  assert.deepEqual(blocks(volumes).at(-1), 'title: 論語集解義疏卷七¶¶');
  // Negative control: another number at the end is another volume, as the source says.
  assert.equal(read('　　論語集觧義疏卷七¶\n　　子曰¶\n¶\n　　論語集解義疏卷八¶\n').volumes.length, 2);
});

test('verse lines set one cell down are verse, not the 注 the indentation reading would make of them', () => {
  const verse = Array.from({ length: 8 }, () => '#+BEGIN_VERSE\n「　一切諸眾生，\n　皆隨有生死，¶\n　我今亦生死，\n　而不隨於有。」\n#+END_VERSE\n¶\n\n爾時世尊說此偈已¶\n　默然而住¶\n').join('\n');
  const roles = new Set(read(verse).volumes.flatMap((v) => v.children.map((b) => (b.type === 'paragraph' ? b.role : b.type))));
  assert.deepEqual([...roles], ['text']);
});

test('a front-matter file (JUAN 0, JUAN 提要) opens no volume at its 卷N lines: they list the contents', () => {
  // (No 目録 line over them: the contents rule of any text is not what is tested.)
  const body = '欽定四庫全書¶\n　　巻一¶\n　　天文　　地理¶\n　　巻二¶\n　　人物　　風俗¶\n　　巻三¶\n　　物產　　古蹟¶\n';
  const front = (juan: string) => parseSource(fileOf(`# -*- mode: mandoku-view; -*-\n#+TITLE: 某書\n#+PROPERTY: JUAN ${juan}\n${body}`, 't.txt'), '', 'kanripo').volumes;
  for (const juan of ['0', '提要']) {
    const volumes = front(juan);
    assert.equal(volumes.length, 1, juan);
    assert.ok(blocks(volumes).map((b) => b.replace(/¶/gu, '')).includes('front: 巻二'), juan);
  }
  // Negative control: a juan's own file (JUAN 1, JUAN 卷一) opens a volume at each.
  assert.equal(front('1').length, 3);
  assert.equal(front('卷一').length, 3);
});

test('a title with the number of the volume open, not its own, is a chapter of it; its own title again closes it', () => {
  const { volumes } = read('某子内篇卷之一(二同/卷)¶\n　　　暢玄卷第一¶\n某子曰玄者自然之始祖¶\n¶\n某子内篇卷之一¶\n');
  assert.equal(volumes.length, 1);
  assert.deepEqual(blocks(volumes).filter((b) => /^h2|^title/u.test(b)).map((b) => b.replace(/¶/gu, '')), ['title: 某子内篇卷之一(zhu:二同卷)', 'h2: 暢玄卷第一', 'title: 某子内篇卷之一']);
  // Negative control: the next number opens the next volume.
  assert.equal(read('某子内篇卷之一¶\n某子曰玄者¶\n某子内篇卷之二¶\n某子曰道者¶\n').volumes.length, 2);
});

test('a title over two columns, the second one cell further down, is one heading; a 提要 credit is none', () => {
  const title = '　莊公問威當世服天下時耶晏子對以行也¶\n　　第一¶\n';
  const { volumes } = read(`${COLUMNS}\n${title}莊公問晏子曰威當世而服天下時耶晏子對曰行也公曰何行¶\n`);
  const heads = blocks(volumes).filter((b) => b.startsWith('h')).map((b) => b.replace(/¶/gu, ''));
  assert.deepEqual(heads, ['h2: 莊公問威當世服天下時耶晏子對以行也第一']);
  // Negative control: the credits' two columns (總纂官(臣/)…, 總校官…) are no title.
  const credit = read(`${COLUMNS}\n　總纂官(臣/)紀昀(臣/)陸錫熊(臣/)孫士毅¶\n　　總校官(臣/)陸費墀¶\n莊公問晏子曰威當世而服天下時耶晏子對曰行也公曰何行¶\n`);
  assert.ok(!blocks(credit.volumes).some((b) => b.startsWith('h') && b.includes('總纂官')));
});

test('a short column two cells down that ends as a sentence does (…一年事也) is no heading; one that names is', () => {
  const heads = (column: string) => blocks(read(`${COLUMNS}\n　　${column}¶\n莊公問晏子曰威當世而服天下時耶晏子對曰行也公曰何行¶\n`).volumes).filter((b) => b.startsWith('h')).map((b) => b.replace(/¶/gu, ''));
  assert.deepEqual(heads('之成整整一年事也'), []);
  // Negative control: a name there is a heading.
  assert.deepEqual(heads('州郡沿革'), ['h2: 州郡沿革']);
});

test('a category one cell down right over a piece\'s title two down is a heading; a paragraph\'s last column there is not', () => {
  const heads = (above: string) => blocks(read(`${COLUMNS}\n${above}　　靈泉頌¶\n維大唐之聖神靈泉出於庭中其味甘寒日汲不乏縣人異之¶\n`).volumes).filter((b) => b.startsWith('h')).map((b) => b.replace(/¶/gu, ''));
  assert.deepEqual(heads('　頌¶\n'), ['h2: 頌', 'h2: 靈泉頌']);
  // Negative control: the last column of a paragraph set one cell down (…國之大才) stays its text.
  assert.deepEqual(heads('　其詩發調既清修辭亦秀雜以鶯啼燕語誠可謂¶\n　國之大才¶\n'), ['h2: 靈泉頌']);
});
