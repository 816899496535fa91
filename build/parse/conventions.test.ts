/**
 * The long tail of corpus conventions (issue 21), each on a small text of our
 * own in that convention, with a negative control: a text that must not be
 * read that way. Every text goes through parseSource (detection, the
 * whole-text decisions, the importer) as a user's file would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Inline, Note, Volume } from '../tree/types.js';
import type { ParsedSource } from './index.js';
import { NUMBERED, notesOf, parsed, reportOf } from './conventions.test-util.js';

const plain = (nodes: readonly Inline[]): string => nodes.map((n) => (n.type === 'text' ? n.value : n.type === 'glyph' ? `[${n.description ?? n.value}]` : 'children' in n ? plain(n.children as Inline[]) : '')).join('');
const mainText = (volumes: readonly Volume[]): string =>
  volumes.map((v) => v.children.map((b) => plain(b.children.filter((n) => n.type !== 'note'))).join('\n')).join('\n');
const rules = (s: ParsedSource) => s.file.messages.map((m) => m.ruleId);

test('numbered commentary: each 〔N〕 paragraph becomes the note at its marker; the 〔N〕 markers are gone from the text', () => {
  const s = parsed(NUMBERED, { format: 'chtxt' });
  assert.deepEqual(notesOf(s.volumes).map((n) => plain(n.children)), ['某書曰：某郡在河南。', '某傳曰：某少時不治產業，好讀書。', '臣某案：吏，郡吏也。']);
  assert.doesNotMatch(mainText(s.volumes), /〔[一二三]〕/u);
  assert.match(mainText(s.volumes), /某者，某郡人也。少有大志，好讀書。/u);
  assert.ok(rules(s).includes('numbered-commentary'));
  assert.equal(reportOf(s).verdict, 'ok');
  // Negative control: a 〔…〕 correction in the text (〔子遠〕) is no marker and no note.
  const control = parsed('## 卷一 某紀第一\n\n　　曰：「（子卿遠）〔子遠，卿〕來，吾事濟矣！」\n', { format: 'chtxt' });
  assert.equal(notesOf(control.volumes).length, 0);
  assert.match(mainText(control.volumes), /〔子遠，卿〕/u);
});

test('chtxt 字書: the file header and URL lines are metadata, an entry a line, 【案】 in mid-line the 案 layer to the line\'s end, the title from the heading', () => {
  const text = [
    '#下載最新版本，請訪問: https://example.org/chtxt',
    '#創建日期: 2021/10/07',
    '',
    '# 某字書',
    '',
    '## 平聲',
    '',
    '聡聰 ○ 上通；下正。',
    '童僮 ○ 上童幼；下僮僕。【案】陳本脫此注，今據石刻補入。',
    '兇凶 ○ 上通；下正。',
    '鍾鐘 ○ 上酒器；下鐘磬字。',
    '彤肜 ○ 上赤色；下祭名。',
    '逄逢 ○ 上俗；下正。',
    '躬躳 ○ 並正。',
    '沖种 ○ 上沖和；下种幼。',
    '麾撝 ○ 上旌麾；下謙撝字。',
    '隋隨 ○ 上國名；下追隨。',
    '羈覊 ○ 上羈勒；下覊旅。',
    '祇秖 ○ 上神祇；下秖適。',
    '',
    '〔全文完〕',
    '',
  ].join('\n');
  const s = parsed(text);
  assert.equal(s.format, 'chtxt');
  const blocks = s.volumes.flatMap((v) => v.children);
  assert.ok(blocks.filter((b) => b.type === 'paragraph' && b.role === 'text').length >= 12, 'an entry a paragraph');
  assert.doesNotMatch(mainText(s.volumes), /https?:|下載|創建日期|全文完|【案】/u);
  const an = notesOf(s.volumes).filter((n) => n.layer === 'an');
  assert.deepEqual(an.map((n) => [n.label, plain(n.children)]), [['案', '陳本脫此注，今據石刻補入。']]);
  const r = reportOf(s);
  assert.equal(r.title?.text, '某字書');
  assert.equal(r.verdict, 'ok', JSON.stringify(r.anomalies));
  // Negative control: paragraphs parted by blank lines stay paragraphs of several lines.
  const prose = parsed('## 某書·卷一\n\n甲乙丙丁，\n戊己庚辛。\n\n壬癸子丑，\n寅卯辰巳。\n\n' + '午未申酉。\n\n'.repeat(12), { format: 'chtxt' });
  assert.equal(prose.volumes[0].children.filter((b) => b.type === 'paragraph' && b.role === 'text').length, 14);
});

test('a short 字書 chapter: an entry a line from four whole-sentence lines; two 【案】 in one entry are two notes, each to the next', () => {
  const s = parsed(['# 某韻', '', '## 上平聲', '', '東 ○ 德紅切。【案】說文從日。', '同 ○ 徒紅切。', '童 ○ 徒紅切。童子也。【案】一本作僮。【案】今從宋本。', '銅 ○ 徒紅切。', '桐 ○ 木名。【案】亦作梧。', ''].join('\n'), { format: 'chtxt' });
  const blocks = s.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'text');
  assert.equal(blocks.length, 5, 'an entry a paragraph');
  assert.deepEqual(notesOf(s.volumes).map((n) => plain(n.children)), ['說文從日。', '一本作僮。', '今從宋本。', '亦作梧。'], 'siblings, none inside another, none running into the next entry');
  // Negative control: prose wrapped mid-sentence, paragraphs parted by blank lines, runs on.
  const prose = parsed('## 某書·卷一\n\n甲乙丙丁戊己，\n庚辛壬癸子丑\n寅卯辰巳午未，\n申酉戌亥。\n\n甲乙丙丁戊己，\n庚辛壬癸。\n', { format: 'chtxt' });
  assert.equal(prose.volumes[0].children.filter((b) => b.type === 'paragraph' && b.role === 'text').length, 2);
  // Negative control: 【案】 inside a (…) note labels a part of that note (as 【集解】 does), and the text after the note stays main text.
  const inNote = parsed('## 某書·卷一\n\n甲乙(某某。【案】某某。)丙丁。\n', { format: 'chtxt' });
  assert.deepEqual(notesOf(inNote.volumes).map((n) => [n.label ?? '', plain(n.children)]), [['', '某某。'], ['案', '某某。']]);
  assert.match(mainText(inNote.volumes), /甲乙丙丁。/u);
});

test('a first line that is the title and its byline: a title and a byline paragraph, the (清) no note; a first line of text stays text', () => {
  const s = parsed('周礼正义　（清）孙诒让撰\n●卷一天官冢宰第一\n　　惟王建国，（建，立也。）辨方正位。\n', { format: 'guoxue' });
  const head = s.volumes[0].children.slice(0, 2);
  assert.deepEqual(head.map((b) => [b.type === 'paragraph' ? b.role : b.type, plain(b.children)]), [['title', '周礼正义'], ['byline', '（清）孙诒让撰']]);
  assert.deepEqual(notesOf(s.volumes).map((n) => plain(n.children)), ['建，立也。']);
  // Negative control: a first line of text with a note in it keeps its note.
  const text = parsed('惟王建国，（建，立也。）辨方正位。\n●卷一天官冢宰第一\n', { format: 'guoxue' });
  assert.equal(notesOf(text.volumes).length, 1);
  assert.ok(!text.volumes.flatMap((v) => v.children).some((b) => b.type === 'paragraph' && b.role === 'byline'));
});

test('a contents list (●目录 and the entries under it) is front matter: its 卷一 opens no volume; a sentence after it is text again', () => {
  const s = parsed('周礼正义　（清）孙诒让撰\n●目录\n卷一\n卷二\n●卷一天官冢宰第一\n　　惟王建国。\n●卷二天官冢宰第二\n　　乃立天官。\n', { format: 'guoxue' });
  assert.equal(s.volumes.length, 2);
  assert.deepEqual(s.volumes[0].children.filter((b) => b.type === 'paragraph' && b.role === 'front').map((b) => plain(b.children)), ['●目录', '卷一', '卷二']);
  // Negative control: with no 目录 line before them, the same 卷 lines open volumes.
  const bare = parsed('周礼正义　（清）孙诒让撰\n卷一\n　　惟王建国。\n卷二\n　　乃立天官。\n', { format: 'guoxue' });
  assert.deepEqual(bare.volumes.map((v) => v.title), ['卷一', '卷二']);
});

test('國學導航: ●卷一上 is the volume (its 上 no heading), ◎ a chapter heading; a Kanripo chapter line with its byline (隱公第一　范甯集解) a heading and a byline', () => {
  const s = parsed('《某注疏》 汉 某甲 注 宋 某乙 疏\n\n　　●卷一上\n\n　　◎某某章句上\n\n　　某某见某王。（某某，某也。）\n', { format: 'guoxue' });
  assert.deepEqual(s.volumes.map((v) => v.title), ['卷一上']);
  assert.ok(s.volumes[0].children.some((b) => b.type === 'heading' && plain(b.children) === '某某章句上'));
  assert.doesNotMatch(mainText(s.volumes), /◎/u);
  // Negative control: ◎ in mid-line is text.
  const mid = parsed('●卷一\n　　某某◎某某。\n', { format: 'guoxue' });
  assert.match(mainText(mid.volumes), /某某◎某某/u);
  const k = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某傳', '<pb:KR0000_SBCK_001-1a>¶', '某傳卷第一¶', '隱公第一　　某甲集解¶', '元年春王正月(某某/某某)¶', ''].join('\n'));
  assert.deepEqual(k.volumes[0].children.filter((b) => b.type !== 'paragraph' || b.role !== 'text').map((b) => `${b.type === 'paragraph' ? b.role : b.type}:${plain(b.children)}`), ['title:某傳卷第一', 'heading:隱公第一', 'byline:某甲集解']);
  assert.equal(reportOf(k).title?.contributors.map((c) => c.name).join(), '某甲');
  // Negative control: a chapter line followed by a section name (no role) is two headings.
  const h = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某傳', '<pb:KR0000_SBCK_001-1a>¶', '某傳卷第一¶', '隱公第一　　元年¶', '元年春王正月(某某/某某)¶', ''].join('\n'));
  assert.ok(!h.volumes[0].children.some((b) => b.type === 'paragraph' && b.role === 'byline'));
});

test('a volume title 某經註卷上 and its byline on the next line are the volume\'s title and byline, not text (a Kanripo 道藏 text)', () => {
  const s = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經註', '@fw 某經註卷一　一', '<md:KR0000_001-1a>¶', '某經註卷上¶', '　　某真人註¶', '道言昔於某天(某者/某也)¶', ''].join('\n'));
  const blocks = s.volumes.flatMap((v) => v.children);
  assert.deepEqual(blocks.map((b) => (b.type === 'paragraph' ? b.role : b.type)), ['title', 'byline', 'text']);
  assert.equal(s.volumes[0].title, '某經註卷上');
  // 卷下 later in the same text is the next volume.
  const two = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經註', '某經註卷上¶', '道言(某/某)¶', '某經註卷下¶', '道言(某/某)¶', ''].join('\n'));
  assert.deepEqual(two.volumes.map((v) => v.title), ['某經註卷上', '某經註卷下']);
  // Negative control: a column of text that ends in 卷上, after text, is text.
  const text = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶', '道言昔於某天(某者/某也)¶', '某某曰見卷上¶', ''].join('\n'));
  assert.equal(text.volumes.length, 1);
  assert.match(mainText(text.volumes), /某某曰見卷上/u);
});

test('numbering in parentheses is text: ○ ䷀乾(1) keeps its (1); a note in the same brackets stays a note', () => {
  const s = parsed('## 周易\n\n○ ䷀乾(1)：元亨利貞。(乾，健也。)\n\n○ ䷁坤(2)：元亨。\n', { format: 'chtxt' });
  assert.deepEqual(notesOf(s.volumes).map((n) => plain(n.children)), ['乾，健也。']);
  assert.match(mainText(s.volumes), /䷀乾\(1\)：元亨利貞。/u);
  assert.equal(reportOf(s).anomalies.filter((a) => a.kind === 'notes-without-han').length, 0);
});

test('〈…〉 around two or three components is a described character when the whole text writes it so; a note otherwise', () => {
  const described = parsed('其草〈艹嚣〉生於野，其木〈木咸〉其名。\n〈艹虑〉者，草名也。\n又有〈金冬〉焉。\n', { format: 'daizhige' });
  assert.equal(notesOf(described.volumes).length, 0);
  assert.match(mainText(described.volumes), /其草\[艹嚣\]生於野/u);
  assert.ok(rules(described).includes('composition-reading'));
  assert.equal(reportOf(described).figures.compositions, 4);
  // Negative control: a text whose 〈…〉 are notes of every length keeps them as notes.
  const glossed = parsed('天子〈天子者，王也〉出〈出行〉於郊〈郊在國外百里之地〉。\n諸侯〈諸侯謂公侯伯子男〉從之。\n', { format: 'daizhige' });
  assert.equal(notesOf(glossed.volumes).length, 4);
  // A 四庫 text as these corpora give it (the banner alone on its line, a category, the title line): detected, its descriptions read, nothing to check.
  const siku = parsed('欽定四庫全書\n子部一\n某書卷三\n宋某某撰\n其草〈艹嚣〉生於野，其木〈木咸〉其名。\n〈艹虑〉者，草名也。\n');
  assert.equal(siku.format, 'daizhige');
  assert.equal(notesOf(siku.volumes).length, 0);
  assert.equal(reportOf(siku).verdict, 'ok', JSON.stringify(reportOf(siku).anomalies));
  // The edition decides when it says: conventions: descriptions: false.
  const forced = parsed('其草〈艹嚣〉生於野，其木〈木咸〉其名。\n〈艹虑〉者，草名也。\n', { format: 'daizhige', conventions: { descriptions: false } });
  assert.equal(notesOf(forced.volumes).length, 3);
});

test('殆知閣 ■〈…〉: the mark and its description are one glyph, inside a note too, in a text whose 〈…〉 are notes; without the mark a note', () => {
  // 考古質疑 as 殆知閣 gives it: ■〈磬，召代石〉 twice, once inside 【原注…】, and a description one bracket deep.
  const text = '韶樂也周禮以爲■〈磬，召代石〉【原注■〈磬，召代石〉大司樂】而■〈木槖〉之與■〈木〈广外屰内〉〉爲不同。\n天子〈天子者，王也〉出〈出行於郊之時〉於郊〈郊在國外百里之地〉。\n';
  const s = parsed(text, { format: 'daizhige' });
  const notes = notesOf(s.volumes).map((n) => plain(n.children));
  assert.deepEqual(notes, ['原注[磬，召代石]大司樂', '天子者，王也', '出行於郊之時', '郊在國外百里之地']);
  assert.match(mainText(s.volumes), /周禮以爲\[磬，召代石\]而\[木槖\]之與\[木〈广外屰内〉\]爲不同/u);
  assert.equal(reportOf(s).figures.compositions, 4);
  assert.equal(reportOf(s).anomalies.filter((a) => a.kind === 'nested-notes').length, 0, JSON.stringify(reportOf(s).anomalies));
  // Negative control: the same description without its mark, inside a note, is a note in the note (and said so).
  const bare = parsed(text.replace('【原注■〈', '【原注〈'), { format: 'daizhige' });
  assert.equal(reportOf(bare).anomalies.filter((a) => a.kind === 'nested-notes').length, 1);
  // A mark alone, or before a bracket not closed on its line, stays as written.
  assert.match(mainText(parsed('某■某〈未閉\n', { format: 'daizhige' }).volumes), /某■某/u);
});

test('四庫 注疏: a bare 注 before full-size text is the 注 up to the next note; 注 in a title or inside a note stays', () => {
  const lines = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經注疏', '<pb:KR0000_WYG_001-1a>¶', '欽定四庫全書¶', '　某經注疏卷一¶'];
  for (let k = 0; k < 6; k++) lines.push(`經文第${'一二三四五六'[k]}句注此注文也音義(某音/某反)疏(注釋曰/某某)¶`, '');
  const s = parsed(lines.join('\n'));
  assert.equal(s.format, 'kanripo');
  const zhu = notesOf(s.volumes).filter((n) => n.label === '注');
  assert.equal(zhu.length, 6);
  assert.equal(plain(zhu[0].children), '此注文也');
  assert.match(mainText(s.volumes), /經文第一句/u);
  assert.doesNotMatch(mainText(s.volumes), /此注文也/u);
  assert.ok(s.volumes.some((v) => /某經注疏卷一/u.test(v.title)), 'the title keeps its 注');
  // Negative control: a text that writes 注 as a word once or twice keeps it as text.
  const text = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶', '水注於海(注入/也)¶', ''].join('\n'));
  assert.match(mainText(text.volumes), /水注於海/u);
  assert.ok(rules(text).includes('run-label-reading'));
});

test('a continued note whose next line starts with an indent is one note', () => {
  const s = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_WYG_001-1a>¶', '經文疏(注釋曰某某/某某)¶', '　(某某某某/某某)¶', '經文又一句¶', ''].join('\n'));
  const shu = notesOf(s.volumes).filter((n) => n.layer === 'shu');
  assert.equal(shu.length, 1);
  assert.equal(plain(shu[0].children).replace(/[\s\u3000]/gu, ''), '注釋曰某某某某某某某某某某');
  // Negative control: a new note on the next line after text is a note of its own.
  const two = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_WYG_001-1a>¶', '經文(某某/某某)¶', '經文(某某/某某)¶', ''].join('\n'));
  assert.equal(notesOf(two.volumes).length, 2);
});

test('@fw forme-work lines are metadata; <md:…> markers are anchors, not text', () => {
  const s = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '@fw 某經卷一　一', '<md:KR0000_001-1a>¶', '經文(注文/注文)¶', ''].join('\n'));
  assert.doesNotMatch(mainText(s.volumes), /@fw|<md:|某經卷一　一/u);
  assert.equal(s.stats.pageAnchors, 1);
  assert.equal(reportOf(s).verdict, 'ok');
  // Negative control: @fw in mid-line is no forme-work line; the line is kept.
  const mid = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<md:KR0000_001-1a>¶', '經文@fw某某(注文/注文)¶', ''].join('\n'));
  assert.match(mainText(mid.volumes), /經文@fw某某/u);
});

test('pandoc-like text: ~gloss~ in small type, *name* with a proper-name mark; a lone ~ or * stays text', () => {
  const s = parsed('# 某書\n\n*孔子*曰：學而時習之~習，溫習也~。\n\n*曾子*曰：吾日三省吾身~省，察也~。\n');
  assert.equal(s.format, 'pandoc-txt');
  const kinds: string[] = [];
  const walk = (nodes: readonly Inline[]) => {
    for (const n of nodes) {
      if (n.type === 'small') kinds.push(`small:${plain(n.children)}`);
      if (n.type === 'mark') kinds.push(`${n.kind}:${plain(n.children)}`);
      if ('children' in n) walk(n.children as Inline[]);
    }
  };
  for (const v of s.volumes) for (const b of v.children) walk(b.children);
  assert.deepEqual(kinds, ['proper:孔子', 'small:習，溫習也', 'proper:曾子', 'small:省，察也']);
  assert.doesNotMatch(mainText(s.volumes), /[~*]/u);
  // With chapters as ## headings and glosses that are sentences (~範，法也~), still this convention.
  const chapters = parsed('# 某書\n\n## 某篇第一\n\n*某甲*言為士則~則，法也~。\n\n*某乙*常云：「吾時月不見*某丙*~時月，一月也~。」\n');
  assert.equal(chapters.format, 'pandoc-txt');
  assert.equal(reportOf(chapters).verdict, 'ok', JSON.stringify(reportOf(chapters).anomalies));
  // Negative control: a lone asterisk is not a mark.
  const lone = parsed('# 某書\n\n甲乙*丙丁。\n', { format: 'pandoc-txt' });
  assert.match(mainText(lone.volumes), /甲乙\*丙丁/u);
});

test('sub-column order: measured from the whole text, reported; reversed beyond doubt swapped and said so; conventions: subcolumns decides', () => {
  // Notes whose part after / starts with the words just before the note: reversed-looking.
  const rows: string[] = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶'];
  const words = ['筵', '几', '尊', '洗', '席', '豆', '籩', '俎', '鼎', '爵', '觶', '篚'];
  for (const w of words) rows.push(`主人設${w}(之處也/${w}者某物)賓入¶`, '');
  const text = rows.join('\n');
  // Twelve of twelve read left first: swapped, the reading said, nothing to check.
  const s = parsed(text);
  const r = reportOf(s);
  assert.equal(plain(notesOf(s.volumes)[0].children), '筵者某物之處也');
  assert.ok(r.readings.some((x) => x.rule === 'subcolumn-order' && /left first/u.test(x.reading)), JSON.stringify(r.readings));
  assert.ok(!r.anomalies.some((a) => a.kind === 'reversed-subcolumns'));
  // The edition keeps them as written: then they look reversed, and the report says so.
  const kept = parsed(text, { conventions: { subcolumns: 'right-first' } });
  assert.equal(plain(notesOf(kept.volumes)[0].children), '之處也筵者某物');
  assert.ok(reportOf(kept).anomalies.some((a) => a.kind === 'reversed-subcolumns'));
  // Reversed-looking but not beyond doubt (nine of twelve, three in order): reported, not swapped.
  const mixed = parsed(text.split('\n').map((l, k) => ([5, 9, 13].includes(k) ? l.replace(/\((之處也)\/(\S+?)\)/u, '($2/$1)') : l)).join('\n'));
  assert.equal(plain(notesOf(mixed.volumes)[0].children), '之處也筵者某物');
  assert.ok(reportOf(mixed).anomalies.some((a) => a.kind === 'reversed-subcolumns'), JSON.stringify(reportOf(mixed).anomalies));
  // A 反切 written (反/扶又) reads 扶又反 only left first; (扶又/反) right first.
  const fanqie = (order: (a: string) => string) => parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶', ...Array.from({ length: 12 }, (_, k) => `某某某${'甲乙丙丁戊己庚辛壬癸子丑'[k]}${order('扶又')}某某¶`)].join('\n'));
  assert.equal(plain(notesOf(fanqie((x) => `(反/${x})`).volumes)[0].children), '扶又反');
  assert.equal(plain(notesOf(fanqie((x) => `(${x}/反)`).volumes)[0].children), '扶又反');
  // 靈樞 as SBCK gives it: 切 or 音 alone in one sub-column, (切/春遇) and (低/音), read 春遇切 and 音低 only left first.
  const sounds = (order: (k: number) => string) => parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶', ...Array.from({ length: 12 }, (_, k) => `某某某${'甲乙丙丁戊己庚辛壬癸子丑'[k]}${order(k)}某某¶`)].join('\n'));
  const leftFirst = sounds((k) => (k % 2 ? '(切/春遇)' : '(低/音)'));
  assert.deepEqual(notesOf(leftFirst.volumes).slice(0, 2).map((n) => plain(n.children)), ['音低', '春遇切']);
  // Control: written right first, they stay as written.
  assert.deepEqual(notesOf(sounds((k) => (k % 2 ? '(春遇/切)' : '(音/低)')).volumes).slice(0, 2).map((n) => plain(n.children)), ['音低', '春遇切']);
  // Negative control: notes in order (the gloss first) are not flagged.
  const inOrder = parsed(text.replace(/\((之處也)\/(\S+?)\)/gu, '($2/$1)'));
  assert.ok(!reportOf(inOrder).anomalies.some((a) => a.kind === 'reversed-subcolumns'));
});

test('注 by indentation: where the whole text sets lines one cell down, each run of them is a commentary paragraph; a few indented lines stay text', () => {
  const head = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經注疏', '<pb:KR0000_WYG_001-1a>¶', '欽定四庫全書¶', '　某經注疏卷一¶'];
  const body: string[] = [];
  // Each 經 passage ends where it ends, short of the column's foot; its 注 follows one cell down.
  for (let k = 0; k < 12; k++) body.push(`經文第${k}句某某某某某某某某¶`, `　此注文也某某某某某某某某某某某某某某¶`, `　注文之續某某某某某某某某某某某某某某¶`);
  const s = parsed([...head, ...body, ''].join('\n'));
  const commentary = s.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'commentary');
  assert.equal(commentary.length, 12);
  assert.match(plain(commentary[0].children), /^此注文也.*注文之續/u);
  assert.ok(rules(s).includes('indent-reading'));
  // A hanging indent (聖訓: 上諭…, the edict running on one cell down): every run follows a column filled to its foot.
  // Text, each edict one paragraph with its columns.
  const edicts: string[] = [];
  for (let k = 0; k < 12; k++) edicts.push(`上諭第${k}某某某某某某某某某某某某某某某¶`, `　其續某某某某某某某某某某某某某某某某¶`, `　某某終也¶`);
  const hanging = parsed([...head, ...edicts, ''].join('\n'));
  const blocks = hanging.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role !== 'title');
  assert.equal(blocks.filter((b) => b.type === 'paragraph' && b.role === 'commentary').length, 0);
  assert.equal(blocks.length, 12);
  assert.match(plain(blocks[0].children), /^上諭第0.*其續.*某某終也$/u);
  assert.ok(hanging.file.messages.some((m) => m.ruleId === 'indent-reading' && /hanging indent/u.test(m.reason)));
  // Control: the same, a gap inside each full column (華陽國志: the 讚, then its 注 begun on that column): the runs are 注.
  const gapped = parsed([...head, ...edicts.map((l) => l.replace(/^上諭第(\d+)某某/u, '上諭第$1　'))].join('\n'));
  assert.equal(gapped.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'commentary').length, 12);
  // Negative control: two indented lines in a text that sets everything flush are text.
  const flush = parsed([...head, ...Array.from({ length: 12 }, (_, k) => `經文第${k}句某某某某某某某某某某某某某¶`), '　偶有一行低一格某某某某某某某某¶', '　又一行某某某某某某某某某某某¶', ''].join('\n'));
  assert.equal(flush.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'commentary').length, 0);
  // Negative control: as many lines one cell down, but in two runs (a list of the works bound together at the head, a
  // postscript of sayings after the end title): no 注 glosses a text there, and they stay text.
  const list = Array.from({ length: 5 }, (_, k) => `　某某某經第${k}某某某某某某某某某¶`);
  const postscript = Array.from({ length: 8 }, (_, k) => `　某仙人曰某某某某某某某某某某${k}¶`);
  const bound = parsed([...head, '某經同卷¶', ...list, ...Array.from({ length: 40 }, (_, k) => `經文第${k}句某某某某某某某某某某某某某¶`), '某經¶', ...postscript, ''].join('\n'));
  assert.equal(bound.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'commentary').length, 0);
  assert.ok(bound.file.messages.some((m) => m.ruleId === 'indent-reading' && /read as text \(\d+ of \d+ lines in [1-4] runs? only/u.test(m.reason)), bound.file.messages.map((m) => m.reason).join('\n'));
});

test('國學導航: a title line above its byline line (●文心雕龙 / （南朝梁）刘勰著), a chapter line alone a heading, ●X目录 a contents list; the controls stay text', () => {
  const s = parsed('●某某雕龙\n　　（南朝梁）某某著\n●卷一\n　　原道第一\n　　某之为德也大矣。（某，某也。）\n', { format: 'guoxue' });
  const roles = s.volumes[0].children.map((b) => `${b.type === 'paragraph' ? b.role : b.type}:${plain(b.children)}`);
  assert.deepEqual(roles.slice(0, 4), ['title:某某雕龙', 'byline:（南朝梁）某某著', 'title:卷一', 'heading:原道第一']);
  assert.equal(notesOf(s.volumes).length, 1);
  // Negative controls: a line ending in 第一 with punctuation is text; a first line of text above a sentence is no title.
  const t = parsed('●卷一\n　　某曰：第一。\n　　（清）某某，某人也。\n', { format: 'guoxue' });
  assert.ok(t.volumes[0].children.every((b) => b.type === 'paragraph'));
  assert.equal(notesOf(t.volumes).length, 1);
  const c = parsed('　　●某经注疏目录\n　　卷一　某某章第一\n　　卷二　某某章第二\n　　●卷一某某章第一\n　　某某。（某。）\n　　●卷二某某章第二\n　　某某。\n', { format: 'guoxue' });
  assert.deepEqual(c.volumes.map((v) => v.title), ['卷一', '卷二']);
});

test('殆知閣 四庫 head: the category lines, the work\'s name and the 提要 are front matter; a chapter line alone is a heading; text after them is text', () => {
  const s = parsed('欽定四庫全書\n　子部十\n　　雜家類一\n　　提要\n　　　　臣等謹案某氏春秋二十六卷舊本題秦某某撰\n　　孟春紀第一\n一曰：孟春之月【孟春，夏之正月也】，昏參中。\n', { format: 'daizhige' });
  const roles = s.volumes[0].children.map((b) => `${b.type === 'paragraph' ? b.role : b.type}:${plain(b.children).trim()}`);
  assert.deepEqual(roles, ['title:欽定四庫全書', 'front:子部十', 'front:雜家類一', 'front:提要', 'front:臣等謹案某氏春秋二十六卷舊本題秦某某撰', 'heading:孟春紀第一', 'text:一曰：孟春之月孟春，夏之正月也，昏參中。']);
  // Negative control: with no banner the same lines are no front matter (the head is the 四庫's).
  const n = parsed('　　提要\n某某者，某也。\n', { format: 'daizhige' });
  assert.ok(!n.volumes[0].children.some((b) => b.type === 'paragraph' && b.role === 'front'));
});

test('Kanripo CBETA text: `No. 235` is data, the #+TITLE line at the head a title and the 譯 line its byline; the title inside a line of text stays text', () => {
  const head = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR6x0001_T_001-0001a>¶', 'No. 235¶'];
  const s = parsed([...head, '某經¶', '　　姚秦某三藏某某羅什譯¶', '如是我聞。¶', ''].join('\n'));
  assert.deepEqual(s.volumes[0].children.map((b) => `${b.type === 'paragraph' ? b.role : b.type}:${plain(b.children)}`), ['title:某經', 'byline:姚秦某三藏某某羅什譯', 'text:如是我聞。']);
  assert.equal(reportOf(s).title?.contributors.map((c) => `${c.dynasty} ${c.name} ${c.role}`).join(), '姚秦 某某羅什 譯');
  const t = parsed([...head, '某經者如是我聞¶', ''].join('\n'));
  assert.deepEqual(t.volumes[0].children.map((b) => `${b.type === 'paragraph' ? b.role : b.type}:${plain(b.children)}`), ['text:某經者如是我聞']);
});

test('a volume line 某書卷之二 (the 明 prints\' 卷之) opens volume 2; the same words in a sentence stay text', () => {
  const s = parsed('某書卷之二\n某某第八\n某某曰：「某。」\n', { format: 'daizhige' });
  assert.deepEqual(s.volumes.map((v) => [v.title, v.number]), [['某書卷之二', 2]]);
  const t = parsed('某某曰：某書卷之二，某某。\n', { format: 'daizhige' });
  assert.deepEqual(t.volumes.map((v) => v.number), [null]);
});

test('pandoc\'s title block (% 書名, % 作者) is data: not printed, the title and byline read from it; a % in mid-line is text', () => {
  const s = parsed('% 某衡\n% 〔漢〕某充 撰\n\n## 某遇篇\n\n操行有常賢~賢，善也~，仕宦無常遇。\n\n百分之五%也。\n', { path: 'own.txt' });
  assert.equal(s.format, 'pandoc-txt');
  assert.doesNotMatch(mainText(s.volumes), /[%~]某/u);
  assert.match(mainText(s.volumes), /五%也/u);
  assert.equal(reportOf(s).title?.text, '某衡');
});

test('Kanripo lines as the print\'s columns: a column at another depth starts a paragraph (a piece\'s title two cells down), a column with gaps inside is a line of its own (a row of a table)', () => {
  const col = (k: number) => `某某某某某某某某某某某某某某某某某某第${'一二三四五六七八九十'[k % 10]}`;
  const head = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某集', '<pb:KR0000_SBCK_001-1a>¶'];
  // Twenty-two full columns of prose, each ending a print line; a second witness's page marker after one of them.
  const prose = Array.from({ length: 22 }, (_, k) => (k === 5 ? `${col(k)}¶<md:KR0000_HFL_001-1b>¶` : `${col(k)}¶`));
  const s = parsed([...head, ...prose, '　　某某詩二首¶', '甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉¶', '　　某某賦¶', '甲天乙天丙天丁天　　　　戊帝己帝庚帝辛帝¶', '壬天癸天子天丑天　　　　寅帝卯帝辰帝巳帝¶', '某某某某某某某某某某某某某某某某某某某某¶', '某某某某。¶', ''].join('\n'));
  const paragraphs = s.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'text').map((b) => plain(b.children).replace(/¶/gu, ''));
  assert.deepEqual(paragraphs.slice(1), ['甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉', '甲天乙天丙天丁天　　　　戊帝己帝庚帝辛帝', '壬天癸天子天丑天　　　　寅帝卯帝辰帝巳帝', '某某某某某某某某某某某某某某某某某某某某某某某某。']);
  // A piece's title, a short column two cells down over its text, is a heading (issue 33).
  assert.deepEqual(s.volumes.flatMap((v) => v.children).filter((b) => b.type === 'heading').map((b) => plain(b.children).replace(/¶/gu, '')), ['某某詩二首', '某某賦']);
  assert.equal(paragraphs[0], prose.map((_, k) => col(k)).join(''), 'the prose one paragraph, all its columns');
  // Negative control: where ¶ does not end the file's lines (they are not the print's columns), lines at another depth run on.
  const loose = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某集', ...Array.from({ length: 22 }, (_, k) => `某某某¶某某某某${k}某某某`), '　　某某詩二首', '甲乙丙丁', ''].join('\n'));
  assert.equal(loose.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'text').length, 1);
});

test('Kanripo juan 0 (序, 提要, 目録 before 卷一) is a volume named by the work alone, not 卷〇; juan 3 is 卷三', () => {
  const front = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_HFL_000-001a>¶', '某經序¶', '某某某某。¶', ''].join('\n'));
  assert.deepEqual(front.volumes.map((v) => [v.number, v.title]), [[0, '某經']]);
  const third = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_HFL_003-001a>¶', '某某某某。¶', ''].join('\n'));
  assert.deepEqual(third.volumes.map((v) => [v.number, v.title]), [[3, '某經卷三']]);
});

test('Kanripo\'s mode line written without its space (#-*- mode: mandoku-view; -*-) is metadata, as with it', () => {
  for (const mode of ['#-*- mode: mandoku-view; -*-', '# -*- mode: mandoku-view -*-']) {
    const s = parsed([mode, '#+TITLE: 某經', '<pb:KR0000_T_001-0001a>¶', '如是我聞。¶', ''].join('\n'));
    assert.equal(mainText(s.volumes).replace(/[¶\s]/gu, ''), '如是我聞。', mode);
  }
});

test('Kanripo tls: a phrase a line, its ¶ the phrase\'s end, not a print column: the phrases of a section run on, a section a paragraph', () => {
  const section = (k: number) => [`# src: 某 ${k}`, `某某曰其${k}，¶`, '「某某某', '某某也！¶', '某者某某某某某某某某某某，¶', '某。」¶', ''];
  const s = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某子', '#+PROPERTY: BASEEDITION tls', '<pb:KR0000_tls_001-1a>¶', '** 1 《某某上》', '', ...Array.from({ length: 8 }, (_, k) => section(k)).flat()].join('\n'));
  const paragraphs = s.volumes.flatMap((v) => v.children).filter((b) => b.type === 'paragraph' && b.role === 'text').map((b) => plain(b.children).replace(/¶/gu, ''));
  assert.equal(paragraphs.length, 8);
  assert.equal(paragraphs[3], '某某曰其3，「某某某某某也！某者某某某某某某某某某某，某。」');
});

test('注 by indentation: the 注 on a chapter\'s title, three cells down right under it (篇題注), is commentary too; three cells down elsewhere is not', () => {
  const head = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某子', '<pb:KR0000_WYG_001-1a>¶', '欽定四庫全書¶'];
  const chapter = (k: number) => [`　　某某某篇第${'一二三四五六'[k]}¶`, '　　　此篇題之注也某某某某某某某某某某某¶', '　　　篇題注之續某某某某¶', ...Array.from({ length: 3 }, (_, j) => [`經文第${j}句某某某某某某某某某某¶`, '　此注文也某某某某某某某某某某某某某某¶'].flat())].flat();
  const s = parsed([...head, ...Array.from({ length: 6 }, (_, k) => chapter(k)).flat(), '　　　某某某某某某某某某某¶', ''].join('\n'));
  const blocks = s.volumes.flatMap((v) => v.children).map((b) => `${b.type === 'paragraph' ? b.role : b.type}:${plain(b.children).replace(/¶/gu, '')}`);
  assert.deepEqual(blocks.slice(1, 5), ['heading:某某某篇第一', 'commentary:此篇題之注也某某某某某某某某某某某篇題注之續某某某某', 'text:經文第0句某某某某某某某某某某', 'commentary:此注文也某某某某某某某某某某某某某某']);
  assert.equal(blocks.filter((b) => b.startsWith('commentary:此篇題之注')).length, 6);
  // Negative control: three cells down after a line of 注, not under a title, is not read as a title's 注.
  assert.equal(blocks[blocks.length - 1], 'text:某某某某某某某某某某');
});

test('the end title (卷尾題) closes its volume, written with 巻 as with 卷; a title of another juan opens one', () => {
  const head = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某語', '<pb:KR0000_WYG_001-1a>¶'];
  for (const end of ['　某語卷一¶', '　某語巻一¶']) {
    const s = parsed([...head, '某語卷一¶', '某某某某某某。¶', end, ''].join('\n'));
    assert.deepEqual(s.volumes.map((v) => v.title), ['某語卷一'], end);
  }
  // Control: 卷二 after 卷一 is a second volume.
  const two = parsed([...head, '某語卷一¶', '某某某某某某。¶', '某語卷二¶', '某某某某某某。¶', ''].join('\n'));
  assert.deepEqual(two.volumes.map((v) => v.title), ['某語卷一', '某語卷二']);
});

test('a chapter line with the note on its title (紀孝行章第十(○行下/孟反)) is a heading holding its note; a line of text with a note is not', () => {
  const s = parsed(['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶', '某某章第九¶', '某某某某。¶', '紀某行章第十(○行下/孟反)¶', '子曰某某某某(某某某/某某某)某某。¶', ''].join('\n'));
  const blocks = s.volumes.flatMap((v) => v.children);
  const headings = blocks.filter((b) => b.type === 'heading');
  assert.deepEqual(headings.map((h) => plain(h.children.filter((c) => c.type !== 'note'))), ['某某章第九', '紀某行章第十']);
  assert.deepEqual(headings[1]!.children.filter((c) => c.type === 'note').map((n) => plain((n as Note).children)), ['○行下孟反']);
  // Control: the line of text with its note stays text.
  assert.equal(blocks.filter((b) => b.type === 'paragraph' && b.role === 'text' && plain(b.children).startsWith('子曰')).length, 1);
});

test('Kanripo: a juan file holds its juan; a title numbered further off than the next (度人經直音: 品卷第三 … 卷第八 in JUAN 1) heads a part of it, not a volume', () => {
  const head = (juan: number) => ['# -*- mode: mandoku-view; -*-', '#+TITLE: 某經直音', `#+PROPERTY: JUAN ${juan}`, '<pb:KR0000_HFL_001-001a>¶'];
  const glossed = parsed([...head(1), ...['三', '四', '五', '六', '七', '八'].flatMap((n) => [`某某某某品卷第${n}¶`, '芬苾(上音分下/頻入聲)忮(音/至)清蕩(上音/淨)¶'])].join('\n'));
  assert.equal(glossed.volumes.length, 1);
  assert.equal(glossed.volumes[0].children.filter((b) => b.type === 'heading').length, 6);
  // Control: the juan and the start of the next in one file (廣雅 JUAN 4: 卷四, then 卷五) are two volumes.
  const two = parsed([...head(4), '某雅卷四¶', '某某某某某某某某¶', '某雅卷五¶', '某某某某某某某某¶'].join('\n'));
  assert.deepEqual(two.volumes.map((v) => v.number), [4, 5]);
});
