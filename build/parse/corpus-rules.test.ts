/**
 * The rules issue 33 added for the corpora's conventions, each found on the
 * development corpus (../shared/corpora/dev, kanripo/) and tested here on a
 * small text of our own in that convention, with a negative control: a text
 * that must not be read that way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block, Inline, Note, Volume } from '../tree/types.js';
import { notesOf, parsed, reportOf } from './conventions.test-util.js';
import { authorOf, findTitle, parseByline, splitTitleLine } from './title.js';
import { workTitle } from './index.js';

const plain = (nodes: readonly Inline[]): string => nodes.map((n) => (n.type === 'text' ? n.value : 'children' in n && n.type !== 'note' ? plain(n.children as Inline[]) : '')).join('');
const blocks = (volumes: readonly Volume[]): Block[] => volumes.flatMap((v) => v.children);
const headings = (volumes: readonly Volume[]): string[] => blocks(volumes).filter((b) => b.type === 'heading').map((b) => plain(b.children));
const role = (volumes: readonly Volume[], r: string): string[] => blocks(volumes).filter((b) => b.type === 'paragraph' && b.role === r).map((b) => plain(b.children));
const noteText = (n: Note): string => n.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
const HEADER = '#下載最新版本，請訪問: https://example.org/chtxt\n#創建日期: 2021/02/26\n\n';

test('chtxt title line `# 書名|〔漢〕某 撰`: the title and the byline, the separator left out; a title line without a byline is the title too', () => {
  const s = parsed(`${HEADER}# 某子|〔漢〕某甲 撰\n\n## 某篇第一\n\n某某曰：「某某。」\n`, { format: 'chtxt' });
  assert.deepEqual(role(s.volumes, 'title'), ['某子']);
  assert.deepEqual(role(s.volumes, 'byline'), ['〔漢〕某甲 撰']);
  assert.deepEqual(headings(s.volumes), ['某篇第一']);
  const r = reportOf(s);
  assert.equal(r.title?.text, '某子');
  assert.equal(r.title?.author, '某甲');
  assert.equal(r.verdict, 'ok', JSON.stringify(r.anomalies));
  // The title line with its dynasty and name and no role (六祖壇經 〔唐〕慧能; 北齊書〔唐〕李百藥), the other name in brackets.
  assert.deepEqual(findTitle(`${HEADER}# 某經 〔唐〕某乙\n`)?.contributors, [{ dynasty: '唐', name: '某乙', role: '' }]);
  assert.equal(findTitle(`${HEADER}# 某子〔某某真經〕\n\n## 某篇\n`)?.title, '某子');
  // Negative control: a first heading that names a volume opens it (## 宋書·卷十四 …), it is no title line.
  const volume = parsed(`## 某書·卷十四 志第四 禮一\n\n某某。\n`, { format: 'chtxt' });
  assert.equal(volume.volumes[0].number, 14);
  assert.deepEqual(role(volume.volumes, 'title'), ['某書·卷十四 志第四 禮一']);
});

test('a byline without its role: a dynasty set apart before a name; never a title that begins with a dynasty\'s character', () => {
  assert.deepEqual(parseByline('〔唐〕某乙'), [{ dynasty: '唐', name: '某乙', role: '' }]);
  assert.deepEqual(parseByline('清 某某某'), [{ dynasty: '清', name: '某某某', role: '' }]);
  assert.deepEqual(parseByline('汉·某某 注 宋·某某 疏'), [{ dynasty: '汉', name: '某某', role: '注' }, { dynasty: '宋', name: '某某', role: '疏' }]);
  assert.deepEqual(parseByline('〔南朝梁〕某某某 撰〔宋〕某某某 重修'), [{ dynasty: '南朝梁', name: '某某某', role: '撰' }, { dynasty: '宋', name: '某某某', role: '重修' }]);
  assert.deepEqual(parseByline('唐 某某次'), [{ dynasty: '唐', name: '某某', role: '次注' }]);
  assert.deepEqual(parseByline('東晉平陽沙門釋某某譯'), [{ dynasty: '東晉', name: '某某', role: '譯' }]);
  assert.deepEqual(parseByline('上陽子某某某註'), [{ name: '某某某', role: '註' }]);
  // Negative controls: a dynasty glued to a title (唐詩三百首), a sentence ending in 次 (廄庫為次), no dynasty at all.
  assert.equal(parseByline('唐詩三百首'), null);
  assert.equal(parseByline('廄庫為次'), null);
  assert.equal(parseByline('某某'), null);
  assert.deepEqual(splitTitleLine('某某小識　﹝明﹞某某某撰'), { title: '某某小識', contributors: [{ dynasty: '明', name: '某某某', role: '撰' }] });
});

test('the author is who wrote the work, never the commentator the byline names first; unless the work is the commentary', () => {
  assert.equal(authorOf('周易', [{ name: '王弼', role: '注' }]), undefined);
  assert.equal(authorOf('楚辭集注', [{ dynasty: '宋', name: '朱子', role: '集註' }])?.name, '朱子');
  assert.equal(authorOf('蒙求集註', [{ dynasty: '唐', name: '李瀚', role: '撰' }, { dynasty: '宋', name: '徐子光', role: '註' }])?.name, '李瀚');
  assert.equal(authorOf('某經', [{ name: '某某', role: '' }])?.name, '某某');
  // Through the import: 周易 with 王弼注 under its first line has no author; the contributor stays in the report.
  const s = parsed('# -*- mode: mandoku-view -*-\n#+TITLE: 某易\n<pb:KR0000_SBCK_001-1a>¶\n某易上經第一¶\n　　　　　　王某注¶\n某某某某(某某/某某)¶\n', { format: 'kanripo' });
  const r = reportOf(s);
  assert.deepEqual(r.title?.contributors, [{ name: '王某', role: '注' }]);
  assert.equal(r.title?.author, undefined);
  // Control: a byline with 撰 names the author.
  const c = reportOf(parsed('# -*- mode: mandoku-view -*-\n#+TITLE: 某記\n<pb:KR0000_WYG_001-1a>¶\n欽定四庫全書¶\n　某記卷一　　　　　宋　某某　撰¶\n某某某某¶\n', { format: 'kanripo' }));
  assert.equal(c.title?.author, '某某');
});

test('Kanripo: the byline on the volume line and the one under it are both read; a 提要 written (臣/)等謹案 names the author', () => {
  const two = findTitle('#+TITLE: 某求集註\n<pb:KR0000_WYG_001-1a>¶\n欽定四庫全書¶\n　某求集註卷上　　　　　唐　李　某　撰¶\n　　　　　　　　宋　徐某某　註¶\n某某某某¶\n', '某求集註');
  assert.deepEqual(two?.contributors.map((c) => `${c.dynasty}${c.name}${c.role}`), ['唐李某撰', '宋徐某某註']);
  const tiyao = findTitle('#+TITLE: 某經集傳\n<pb:KR0000_WYG_000-1a>¶\n欽定四庫全書¶\n　某集傳　　　書類¶\n　　　　(臣/)等謹案某集傳六卷宋某某撰某字某¶\n', '某經集傳');
  assert.deepEqual(tiyao?.contributors, [{ dynasty: '宋', name: '某某', role: '撰' }]);
  // Negative control: text lines under the title are no byline.
  assert.deepEqual(findTitle('#+TITLE: 某經\n某經卷一¶\n某某某某某某某某¶\n', '某經')?.contributors, []);
});

test('chtxt ○ lines: a section, a joke\'s or a poem\'s title (its poet after the slash a byline), without the ○; a ○ entry holding its text stays text', () => {
  const poems = Array.from({ length: 4 }, (_, k) => `○ 某調${k}·某題 / 某${'甲乙丙丁'[k]}\n\n某某某某，某某某某。\n`).join('\n');
  const s = parsed(`${HEADER}# 某詞選\n\n${poems}`, { format: 'chtxt' });
  assert.deepEqual(headings(s.volumes), ['某調0·某題', '某調1·某題', '某調2·某題', '某調3·某題']);
  assert.deepEqual(role(s.volumes, 'byline'), ['某甲', '某乙', '某丙', '某丁']);
  assert.equal(reportOf(s).verdict, 'ok', JSON.stringify(reportOf(s).anomalies));
  // 〔朝代〕 after the slash; a slice with no title line: the first poem's title is no work's title.
  const anthology = parsed(Array.from({ length: 4 }, (_, k) => `○ 某詩${k}/〔魏晉〕某乙\n\n某某某某，某某某某。\n`).join('\n'), { format: 'chtxt' });
  assert.equal(workTitle([anthology]), undefined);
  // A single ○ line with its translator at the head names the work (○ 般若波羅蜜多心經 〔唐〕玄奘 譯).
  assert.equal(workTitle([parsed(`${HEADER}○ 某某經 〔唐〕某某 譯\n\n某某某某。\n`, { format: 'chtxt' })])?.title, '某某經');
  // Negative control: a ○ entry whose colon opens its text.
  const entries = parsed('# 某易\n\n○ ䷀乾(1)：元亨利貞。(乾，健也。)\n\n○ ䷁坤(2)：元亨。\n', { format: 'chtxt' });
  assert.deepEqual(headings(entries.volumes), []);
});

test('chtxt notes: full-width （…） and 【…】 are notes; a short （曰） or one before its 〔correction〕 is the editor\'s, text; 【按語】 labels a remark; a 〔…〕 line alone is a sub-section', () => {
  const s = parsed('# 某書\n\n## 某篇\n\n〔守某〕\n\n某某某（某年設，仍以某某提控之。）某某。\n\n【按語】某某某某，某某某某。\n\n某某山東有石穴。（曰）〔昔〕某某生。說（文）云某。\n\n某某〔某某〕某某。\n', { format: 'chtxt' });
  assert.deepEqual(headings(s.volumes), ['某篇', '守某']);
  const n = notesOf(s.volumes);
  assert.deepEqual(n.map((x) => [x.layer, x.label ?? '', noteText(x)]), [['zhu', '', '某年設，仍以某某提控之。'], ['an', '按語', '某某某某，某某某某。']]);
  const text = role(s.volumes, 'text').join('\n');
  assert.match(text, /（曰）〔昔〕某某生。說（文）云某。/u);
  assert.match(text, /某某〔某某〕某某。/u);
  assert.doesNotMatch(text, /按語/u);
  // Negative control: 【集解】 inside a note is that note's label, not a note of its own.
  const sanjia = parsed('## 某書·卷一\n\n某某(【集解】某某曰：某。【索隱】某某。)某某。\n', { format: 'chtxt' });
  assert.deepEqual(notesOf(sanjia.volumes).map((x) => x.layer), ['jijie', 'suoyin']);
});

test('chtxt volumes written 第一卷 (## 第一卷·某部) open volume 1; a chapter heading 第一 opens none', () => {
  const s = parsed('# 某記\n\n## 第一卷·某部\n\n○ 某題\n\n某某。\n\n## 第二卷·某部\n\n某某。\n', { format: 'chtxt' });
  assert.deepEqual(s.volumes.map((v) => v.number), [1, 2]);
  const control = parsed('# 某記\n\n## 某篇第一\n\n某某。\n\n## 某篇第二\n\n某某。\n', { format: 'chtxt' });
  assert.equal(control.volumes.length, 1);
});

test('a page\'s title: the author before the work in 〈〉, the work before its part; a heading of many is no title, nor a chapter with its part', () => {
  assert.deepEqual(splitTitleLine('某某某〈某林賦〉'), { title: '某林賦', contributors: [{ name: '某某某', role: '' }] });
  assert.equal(findTitle('某某。\n', '某子-某勢解')?.title, '某子');
  assert.equal(findTitle('某某。\n', '某某遊記 某遊日記')?.title, '某某遊記');
  // Twenty-eight `##` pieces of a volume: none names the work.
  assert.equal(findTitle('## 目录\n\n-   1 某某\n\n##  某某某某\n\n某。\n\n##  某某某\n\n某。\n'), null);
  // Control: a lone `##` heading, or one with its byline (## 周書〔唐〕令狐德棻 over the volumes' ## lines), does.
  assert.equal(findTitle('##  某某某某\n\n某。\n')?.title, '某某某某');
  assert.equal(findTitle('## 某書〔唐〕某某某\n\n## 某書·卷一·某紀第一\n\n某。\n\n## 某書·卷二·某紀第二\n')?.title, '某書');
  assert.equal(workTitle([parsed('## 卷五十五·志第三十六 百官一\n\n某某。\n\n## 卷五十六·志第三十七 百官二\n\n某某。\n', { format: 'chtxt' })]), undefined);
});

const KR = (lines: string[]) => ['# -*- mode: mandoku-view -*-', '#+TITLE: 某書', '<pb:KR0000_WYG_001-1a>¶', '欽定四庫全書¶', '　某書卷一　　　　　宋　某某　撰¶', ...lines, ''].join('\n');
const FULL = '某某某某某某某某某某某某某某某某某某某某¶';

test('Kanripo: a short column two cells down or more over text is a heading (a tune\'s or a poem\'s name, its note running on); the last column of a block set down is not', () => {
  // Twenty full columns first: the file's lines are the print's columns.
  const s = parsed(KR([...Array.from({ length: 20 }, () => FULL), '某某。¶', '　　某調(某某/某某)¶', FULL, '某某某某。¶', '　　又(某某某某某某某某某某某某某某某/某某某某某某某某某某某某某某某)¶', '　　　(某某某某/某某某某)¶', FULL, '某某某。¶', '　　　　某序某某某某某某某某某某某某某某某¶', '　　　　某某某某¶', FULL, '某某某。¶']), { format: 'kanripo' });
  assert.deepEqual(headings(s.volumes), ['某調', '又']);
  assert.ok(s.file.messages.some((m) => m.ruleId === 'heading-by-depth'), 'the reading is said');
  // Negative control: a preface set four cells down ends in a short column: text, not a heading.
  assert.ok(role(s.volumes, 'text').map((t) => t.replace(/¶/gu, '')).includes('某某某某'));
});

test('Kanripo: names at the column\'s head, each with its text one cell down, are entries (headings and text), not a text and its 注', () => {
  const entries = Array.from({ length: 6 }, (_, k) => [`某名${'甲乙丙丁戊己'[k]}¶`, '　某某某某某某某某某某某某某某某某某某某¶', '　某某某某某某¶']).flat();
  const s = parsed(KR(entries), { format: 'kanripo' });
  assert.deepEqual(headings(s.volumes), ['某名甲', '某名乙', '某名丙', '某名丁', '某名戊', '某名己']);
  assert.equal(blocks(s.volumes).filter((b) => b.type === 'paragraph' && b.role === 'commentary').length, 0);
  // Negative control: a text's phrases at the head (蒙求: eight characters), each with its 注 one cell down.
  const glossed = Array.from({ length: 6 }, (_, k) => [`某某某${'甲乙丙丁戊己'[k]}某某某某¶`, '　某某某某某某某某某某某某某某某某某某某¶', '　某某某某某某¶']).flat();
  const g = parsed(KR(glossed), { format: 'kanripo' });
  assert.equal(blocks(g.volumes).filter((b) => b.type === 'paragraph' && b.role === 'commentary').length, 6);
  assert.deepEqual(headings(g.volumes), []);
});

test('contents lists: entries whose names stand again later, heading the text, are front matter (no volume, no heading); a volume line over its juan\'s contents stays its title', () => {
  // A juan's contents under its title (潛夫論), then each chapter over its text.
  const juan = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某論', '<pb:KR0000_SBCK_001-1a>¶', '某論卷第一¶', '　　　某學第一¶', '　　　某本第二¶', '某學第一¶', FULL, '某某。¶', '某本第二¶', FULL, '某某。¶', ''].join('\n'), { format: 'kanripo' });
  assert.deepEqual(headings(juan.volumes), ['某學第一', '某本第二']);
  assert.deepEqual(role(juan.volumes, 'front'), ['某學第一', '某本第二']);
  assert.equal(juan.volumes[0].number, 1);
  assert.ok(juan.file.messages.some((m) => m.ruleId === 'contents-reading'));
  // The work's contents, volume by volume, cut before its last volumes (卷第三 never comes): no volume of its own.
  const work = parsed(['某書集解', '　　卷第一', '　　某致第一', '　　某子第二', '　　卷第二', '　　某操第三', '　　卷第三', '　　某學第四', '', '　　卷第一', '　　某致第一', '　　某某某某，某某某某。', '　　某子第二', '　　某某某某，某某某某。', '　　卷第二', '　　某操第三', '　　某某某某，某某某某。', ''].join('\n'), { format: 'daizhige' });
  assert.deepEqual(work.volumes.map((v) => v.number), [1, 2]);
  // Negative control: a volume line and its first chapter's name over the text are no contents.
  const plainJuan = parsed(['某書', '　　卷第一', '　　某致第一', '　　某某某某，某某某某。', '　　卷第二', '　　某操第三', '　　某某某某，某某某某。', ''].join('\n'), { format: 'daizhige' });
  assert.deepEqual(role(plainJuan.volumes, 'front'), []);
  assert.deepEqual(plainJuan.volumes.map((v) => v.number), [1, 2]);
});

test('a volume\'s title again over each of its chapters (卷第一 … 卷第一) is the same volume; a volume title with its note after it is a title', () => {
  const s = parsed(['某經', '　　卷第一', '　　某論篇第一', '　　某某某某，某某某某。', '　　卷第一', '　　某論篇第二', '　　某某某某，某某某某。', '　　卷第二', '　　某論篇第三', '　　某某某某，某某某某。', ''].join('\n'), { format: 'daizhige' });
  assert.deepEqual(s.volumes.map((v) => v.number), [1, 2]);
  const noted = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶', '某經卷上(某某某某/某某某某)¶', FULL, '某某。¶', ''].join('\n'), { format: 'kanripo' });
  assert.deepEqual(role(noted.volumes, 'title').map((t) => t.replace(/¶/gu, '')), ['某經卷上']);
  assert.equal(notesOf(noted.volumes).length, 1);
});

test('CBETA verse set out one cell down inside #+BEGIN_VERSE is no 注 by indentation', () => {
  const verse = Array.from({ length: 12 }, (_, k) => ['某某某某，某某某某，¶', '#+BEGIN_VERSE', `「　某某某某${k}，`, '　某某某某，¶', '　某某某某，', '　某某某某。」', '#+END_VERSE']).flat();
  const s = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', 'No. 7 [No. 1(2), Nos. 5, 6]¶', ...Array.from({ length: 30 }, () => '某某某某某，某某某某。¶'), ...verse, ''].join('\n'), { format: 'kanripo' });
  assert.equal(blocks(s.volumes).filter((b) => b.type === 'paragraph' && b.role === 'commentary').length, 0);
  assert.doesNotMatch(role(s.volumes, 'text').join(''), /No\. 7/u);
});
