/**
 * The import report's verdict on a test set whose anomalies are known by
 * construction: each convention text of conventions.test.ts read right (no
 * anomaly: `ok`) and read by a convention that is not its own (markup left,
 * numbering taken for notes, a header printed: flagged), plus the six corpus
 * texts, whose only anomaly is the missing title of the two excerpts that do
 * not name their work. The report must flag every text that has an anomaly
 * and none that has none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { VFile } from 'vfile';
import type { ConventionOverrides, SourceFormat } from '../tree/edition.js';
import { parseSource, workTitle } from './index.js';
import { importReport, titleProblem, verdictLine, type AnomalyKind } from './import-report.js';
import { CHTXT_ZISHU, NUMBERED, NUMBERING, PANDOC, REVERSED, parsed, reportOf } from './conventions.test-util.js';

interface Case {
  name: string;
  text: string;
  format?: SourceFormat;
  conventions?: ConventionOverrides;
  /** The anomalies the text has, by construction. */
  has: AnomalyKind[];
}

const CASES: Case[] = [
  { name: 'numbered commentary, read as chtxt', text: NUMBERED, format: 'chtxt', has: [] },
  { name: 'numbered commentary, read as 殆知閣 text (its # headings printed too)', text: NUMBERED, format: 'daizhige', has: ['header-lines', 'markup-left', 'structure-as-text'] },
  { name: 'chtxt 字書 with its header', text: CHTXT_ZISHU, has: [] },
  { name: 'chtxt 字書 read as pandoc-like text', text: CHTXT_ZISHU, format: 'pandoc-txt', has: ['header-lines', 'markup-left'] },
  { name: 'numbering in parentheses, chtxt', text: NUMBERING, format: 'chtxt', has: [] },
  { name: 'numbering in parentheses, brackets as notes (and its # heading printed)', text: NUMBERING, format: 'bracketed', conventions: { notes: [['(', ')']] }, has: ['notes-without-han', 'header-lines', 'markup-left'] },
  { name: 'pandoc-like marks', text: PANDOC, has: [] },
  { name: 'pandoc-like marks read as 殆知閣 text (its # heading printed too)', text: PANDOC, format: 'daizhige', has: ['header-lines', 'markup-left'] },
  { name: 'sub-columns reversed, kept as written by the edition', text: REVERSED, conventions: { subcolumns: 'right-first' }, has: ['reversed-subcolumns'] },
  { name: 'sub-columns reversed beyond doubt, swapped by the measure', text: REVERSED, has: [] },
  // A whole chapter in one paragraph (its entries not parted): most of the main text in one block.
  { name: 'a chapter in one paragraph', text: `## 某書·卷一\n\n${'某某某某某某，某某某某某某。'.repeat(130)}\n\n末句。\n`, format: 'chtxt', has: ['one-paragraph'] },
  // Negative control: one 經 sentence with long notes is one paragraph by right (the share counts main text only).
  { name: 'one sentence with long notes', text: `## 某書·卷一\n\n經文一句(${'注文某某某某某某某某，'.repeat(200)})經文又一句。\n\n末句。\n`, format: 'chtxt', has: [] },
  { name: 'a text that names no work', text: '某某者，某某也。\n\n某某曰：某某。\n', format: 'chtxt', has: ['no-title'] },
  // A Kanripo stub: its header and nothing else.
  { name: 'a file with its header alone', text: '#-*- mode: mandoku-view; -*-\n#+TITLE: 某經\n#+PROPERTY: JUAN 0\n', has: ['empty-volumes'] },
];

test('check --json flags every text of the test set that has an anomaly, and none that has none', () => {
  for (const c of CASES) {
    const r = reportOf(parsed(c.text, { format: c.format, conventions: c.conventions }));
    assert.deepEqual(r.anomalies.map((a) => a.kind).sort(), [...c.has].sort(), `${c.name}: ${JSON.stringify(r.anomalies)}`);
    // A text that names no work is read right without one: said (a note), the verdict ok.
    assert.equal(r.verdict === 'ok', c.has.every((k) => k === 'no-title'), c.name);
    assert.match(verdictLine(r), new RegExp(`^own\\.txt (info|warning) verdict ${r.verdict}\\b.* \\(import-verdict\\)$`));
  }
});

const CORPORA = '../shared/corpora';
const CORPUS: Record<string, { verdict: string; title: string | null; has: AnomalyKind[] }> = {
  'kanripo-KR1d0026-SBCK-juan02.txt': { verdict: 'ok', title: '儀禮', has: [] },
  'kanripo-KR1d0028-WYG-juan05.txt': { verdict: 'ok', title: '儀禮注疏', has: [] },
  'kanripo-KR1d0052-tls-juan02.txt': { verdict: 'ok', title: '禮記', has: [] },
  // Excerpts that start at a chapter: they do not name their work (said, no misreading: ok).
  'chtxt-shiji-sanjiazhu-juan01.txt': { verdict: 'ok', title: null, has: ['no-title'] },
  'chtxt-songshu-juan14.txt': { verdict: 'ok', title: '宋書', has: [] },
  'guoxue-yili-zhushu-juan02.txt': { verdict: 'ok', title: null, has: ['no-title'] },
};

test('the corpus texts: format, figures, title and where it came from, and the verdict', async () => {
  for (const [file, want] of Object.entries(CORPUS)) {
    const bytes = new Uint8Array(await readFile(`${CORPORA}/${file}`));
    const source = parseSource(new VFile({ path: file, value: bytes }), '');
    const r = importReport({ source, title: workTitle([source]), messages: source.file.messages });
    assert.deepEqual(r.anomalies.map((a) => a.kind), want.has, `${file}: ${JSON.stringify(r.anomalies)}`);
    assert.equal(r.verdict, want.verdict, file);
    assert.equal(r.title?.text ?? null, want.title, file);
    assert.ok(r.figures.notes === source.stats.notes && r.figures.characters > 1000, file);
    assert.ok(r.detection.confidence > 0.25 && !r.detection.forced, file);
    // Round-trips as JSON: what --json prints.
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  }
});

/** Each misreading measure on a constructed text that has it, and on the same convention read right (no flag). */
const MISREAD: Case[] = [
  // A chapter heading right after a volume heading: a volume with no text (a contents list read as volumes does the same).
  { name: 'a volume with only its title', text: '# 某書\n\n## 卷一 某紀第一\n\n## 卷二 某紀第二\n\n某某，某人也。\n', format: 'chtxt', has: ['empty-volumes'] },
  // Kanripo ¶ inside the file's lines (another edition's line ends): a long paragraph is not the print's, and is flagged.
  { name: 'a text whose ¶ fall inside its lines, in one paragraph', text: ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_CK_001-1a>¶', ...Array.from({ length: 90 }, (_, k) => `某某某某某某某某某某某某某某某某¶某某某某${'一二三四五六七八九十'[k % 10]}某`)].join('\n') + '\n', has: ['one-paragraph'] },
  // Control: the same characters, each line ending at its ¶ (the print's columns): the long paragraph is the print's.
  // A phrase a line, each ending at a mark, with no blank line to part them: not the print's columns, so one paragraph is flagged.
  { name: 'punctuated phrases a line, in one paragraph', text: ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_CK_001-1a>¶', ...Array.from({ length: 260 }, (_, k) => `某某某某${'一二三四五六七八九十'[k % 10]}某，¶`)].join('\n') + '\n', has: ['one-paragraph'] },
  { name: 'control: ¶ ending the lines', text: ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_CK_001-1a>¶', ...Array.from({ length: 90 }, (_, k) => `某某某某某某某某某某某某某某某某某某某某${'一二三四五六七八九十'[k % 10]}某¶`)].join('\n') + '\n', has: [] },
  { name: 'control: each volume has text', text: '# 某書\n\n## 卷一 某紀第一\n\n某甲，某人也。\n\n## 卷二 某紀第二\n\n某乙，某人也。\n', format: 'chtxt', has: [] },
  // 【 inside 【: the first note's end missed, the second note read inside it.
  { name: 'a note inside a note of its layer', text: '欽定四庫全書\n某書卷一\n經文一句【注文一【注文二】】經文二句。\n', format: 'daizhige', has: ['nested-notes'] },
  { name: 'control: notes side by side', text: '欽定四庫全書\n某書卷一\n經文一句【注文一】經文二句【注文二】。\n', format: 'daizhige', has: [] },
  // A byline line run on into the first paragraph (the title line under the header is another name than #+TITLE's).
  { name: 'a byline glued into the text', text: '# -*- mode: mandoku-view -*-\n#+TITLE: 某經論\n<pb:KR6x0001_T_001-0001a>¶\n某經¶\n　　姚秦某某譯¶\n如是我聞。一時佛在某處。¶\n與大眾俱。¶\n', format: 'kanripo', has: ['glued-lines'] },
  { name: 'control: lines of text only', text: '# -*- mode: mandoku-view -*-\n#+TITLE: 某經論\n<pb:KR6x0001_T_001-0001a>¶\n某經論者如是我聞¶\n一時佛在某處¶\n與大眾俱¶\n', format: 'kanripo', has: [] },
  // Chapter lines with no heading mark in chtxt: printed as text; a 作者 line too.
  { name: 'chapter and author lines printed as text', text: '# 某書\n\n作者：漢 某某\n\n某篇第一\n\n某某曰：「某某。」\n', format: 'chtxt', has: ['structure-as-text'] },
  { name: 'control: the chapter as a heading, a short sentence as text', text: '# 某書\n\n## 某篇第一\n\n某某曰：「某某第一。」\n', format: 'chtxt', has: [] },
  // A 四庫 text with 注 and no 疏: too little for the whole-text decision to read the bare 注 as a label; two lines start with it.
  { name: 'bare 注 lines read as text', text: '# -*- mode: mandoku-view -*-\n#+TITLE: 某子注\n<pb:KR3x0001_WYG_001-1a>¶\n欽定四庫全書¶\n　某子注卷上¶\n經文一句¶\n注某某某也¶\n經文二句¶\n注某某某也¶\n', format: 'kanripo', has: ['labels-as-text'] },
  { name: 'control: 注 as a word in mid-line', text: '# -*- mode: mandoku-view -*-\n#+TITLE: 某子注\n<pb:KR3x0001_WYG_001-1a>¶\n欽定四庫全書¶\n　某子注卷上¶\n經文一句某注某也¶\n經文二句注某也¶\n', format: 'kanripo', has: [] },
  // A byline's （清） under a volume line, read as a note.
  { name: 'a dynasty read as a note', text: '某书\n●卷一某篇第一\n　　（清）某某撰\n　　某某，某人也。（某，地名。）\n', format: 'guoxue', has: ['dynasty-as-note', 'structure-as-text'] },
  { name: 'control: a note that starts with a dynasty-like word', text: '某书\n●卷一某篇第一\n　　某某，某人也。（清，水名也。）\n', format: 'guoxue', has: [] },
];

test('the misreading measures: each flags its constructed text and not the text read right', () => {
  for (const c of MISREAD) {
    const r = reportOf(parsed(c.text, { format: c.format, conventions: c.conventions }));
    assert.deepEqual(r.anomalies.map((a) => a.kind).sort(), [...c.has].sort(), `${c.name}: ${JSON.stringify(r.anomalies)}`);
  }
});

test('a title that is not the work\'s name alone is flagged; a work\'s name is not', () => {
  for (const t of ['扬子法言卷上', '墨子卷之二', '荀子集解目录', '五帝本紀第一', '儒家類', '集部一', '說苑 〔漢〕劉向 撰', '周礼注疏汉郑玄注', '% 論衡']) assert.ok(titleProblem(t), t);
  for (const t of ['春秋穀梁傳', '儀禮注疏', '金剛般若波羅蜜經', '史記三家注', '宋書', '潜夫论笺校正']) assert.equal(titleProblem(t), null, t);
  const source = parsed('某某，某人也。\n', { format: 'chtxt' });
  const flagged = importReport({ source, title: { title: '某書卷上', from: 'first line', contributors: [] }, messages: [] });
  assert.deepEqual(flagged.anomalies.map((a) => a.kind), ['suspect-title']);
  // A byline whose name holds a chapter or runs long is flagged; names as bylines give them are not.
  const byline = (names: string[]) => importReport({ source, title: { title: '某書', from: 'first line', contributors: names.map((name) => ({ name, role: '注' })) }, messages: [] }).anomalies.map((a) => a.kind);
  assert.deepEqual(byline(['隱公第一范甯']), ['suspect-byline']);
  assert.deepEqual(byline(['玄宗明皇帝御']), ['suspect-byline']);
  assert.deepEqual(byline(['玄宗明皇帝', '鳩摩羅什', '范甯', '鄭氏']), []);
  // The edition's own title is the user's word: never flagged.
  const given = importReport({ source, title: { title: '某書卷上', from: 'edition.yaml', contributors: [] }, messages: [] });
  assert.deepEqual(given.anomalies, []);
});
