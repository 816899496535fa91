import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutVolume } from './engine.js';
import { layoutBook } from './book.js';
import { layoutToJson } from './json.js';
import type { NoteChunk, Page, TextRun } from './types.js';
import {
  chunks,
  commentary,
  glyph,
  heading,
  lacuna,
  layoutProblems,
  note,
  p,
  pagesChars,
  para,
  root,
  small,
  testSpec,
  volume,
  volumeChars,
} from './test-helpers.js';

const seg = (s: { text: string }[]): string => s.map((x) => x.text).join('');
const runsOf = (page: Page, column: number) => page.columns[column].runs;

test('main text fills a column, then the next, then the next page', () => {
  const spec = testSpec(2, 3);
  const v = volume('卷', p('一二三四五六七'));
  const { pages } = layoutVolume(v, 0, spec);
  assert.equal(pages.length, 2);
  assert.deepEqual(runsOf(pages[0], 0), [{ type: 'text', start: 0, text: '一二三', offset: 0 }]);
  assert.equal((runsOf(pages[0], 1)[0] as TextRun).text, '四五六');
  assert.equal((runsOf(pages[1], 0)[0] as TextRun).text, '七');
  assert.deepEqual(layoutProblems({ index: 0, title: '', pages }, spec), []);
});

test('jiazhu: a note starts where the text stops, balanced, and the text resumes after it', () => {
  const spec = testSpec(8, 10);
  const { pages } = layoutVolume(volume('卷', p('經文經', note('zhu', '注一二三四'), '文')), 0, spec);
  const runs = runsOf(pages[0], 0);
  assert.equal(runs.length, 3);
  const chunk = runs[1] as NoteChunk;
  assert.equal(chunk.type, 'note');
  assert.equal(chunk.start, 3);
  assert.equal(chunk.cells, 3);
  assert.equal(seg(chunk.right), '注一二');
  assert.equal(seg(chunk.left), '三四');
  assert.deepEqual(runs[2], { type: 'text', start: 6, text: '文', offset: 0 });
});

test('jiazhu: with r cells left a chunk takes 2r characters; the rest goes to the next column, balanced on its own', () => {
  const spec = testSpec(8, 6);
  const { pages } = layoutVolume(volume('卷', p('甲乙丙丁', note('zhu', '一二三四五六七八九'), '戊')), 0, spec);
  const cs = chunks(pages);
  assert.equal(cs.length, 2);
  assert.deepEqual([cs[0].start, cs[0].cells, seg(cs[0].right), seg(cs[0].left)], [4, 2, '一二', '三四']);
  assert.deepEqual([cs[1].start, cs[1].cells, seg(cs[1].right), seg(cs[1].left)], [0, 3, '五六七', '八九']);
  // main text resumes in the same column, right after the chunk
  assert.deepEqual(runsOf(pages[0], 1)[1], { type: 'text', start: 3, text: '戊', offset: 0 });
});

test('jiazhu: a note continues across a page break', () => {
  const spec = testSpec(2, 4);
  const { pages } = layoutVolume(volume('卷', p('一二三四五六', note('zhu', '甲乙丙丁戊己庚辛'))), 0, spec);
  assert.equal(pages.length, 2);
  const [a, b] = chunks(pages);
  assert.deepEqual([a.start, a.cells, seg(a.right), seg(a.left)], [2, 2, '甲乙', '丙丁']);
  assert.deepEqual([b.start, b.cells, seg(b.right), seg(b.left)], [0, 2, '戊己', '庚辛']);
  assert.equal(pages[1].columns[0].runs[0], b);
});

test('jiazhu: no lone one-character chunk, nor a tail of one character a sub-column, when moving characters fixes it', () => {
  const spec = testSpec(8, 6);
  // 4 cells left → greedy would take 8 and leave 1 for the next column; taking 7 would leave 八/九, one cell tall
  const { pages } = layoutVolume(volume('卷', p('甲乙', note('zhu', '一二三四五六七八九'))), 0, spec);
  const cs = chunks(pages);
  assert.deepEqual(cs.map((c) => seg(c.right) + '/' + seg(c.left)), ['一二三/四五六', '七八/九']);
  assert.ok(cs.every((c) => seg(c.right).length + seg(c.left).length > 2));
  // A note of four with one cell left goes to the next column whole (not 無/俎 then 故/也).
  const short = chunks(layoutVolume(volume('卷', p('甲乙丙丁戊', note('zhu', '無俎故也'))), 0, spec).pages);
  assert.deepEqual(short.map((c) => seg(c.right) + '/' + seg(c.left)), ['無俎/故也']);
});

test('jiazhu: no sub-column starts with closing punctuation', () => {
  const spec = testSpec(8, 10, {}, 0, { standard: 'taiwan' });
  // the chunk at the column end would start its left sub-column with 。
  const v1 = volume('卷', p('甲乙丙丁', note('zhu', '一二三四五六。七八九十百')));
  const cs1 = chunks(layoutVolume(v1, 0, spec).pages);
  // and here the next column would start with 。
  const v2 = volume('卷', p('甲乙丙丁戊己庚', note('zhu', '一二三四五六。七八九')));
  const cs2 = chunks(layoutVolume(v2, 0, spec).pages);
  for (const cs of [cs1, cs2]) {
    for (const c of cs) {
      assert.doesNotMatch(seg(c.right), /^[。，、]/u, seg(c.right));
      assert.doesNotMatch(seg(c.left), /^[。，、]/u, seg(c.left));
    }
    assert.ok(cs.length >= 2);
  }
  assert.equal(pagesChars(layoutVolume(v1, 0, spec).pages), volumeChars(v1));
  assert.equal(pagesChars(layoutVolume(v2, 0, spec).pages), volumeChars(v2));
});

test('jiazhu: consecutive notes of different layers run on as one note, their boundary kept', () => {
  const spec = testSpec(8, 20);
  const v = volume('卷', p('經', note('zhu', '鄭注文'), '　', note('yinyi', '音義'), note('shu', '疏曰云云'), '文'));
  const cs = chunks(layoutVolume(v, 0, spec).pages);
  assert.equal(cs.length, 1);
  assert.deepEqual(cs[0].right, [
    { layer: 'zhu', depth: 1, text: '鄭注文' },
    { layer: 'yinyi', depth: 1, text: '音義' },
  ]);
  // 疏曰, the label the 疏's text begins with, is set as a label (陰文 in the 四庫 template, the default).
  assert.deepEqual(cs[0].left, [{ layer: 'shu', depth: 1, style: 'head', text: '疏曰' }, { layer: 'shu', depth: 1, text: '云云' }]);
});

test('jiazhu: whitespace in notes (U+3000 between layers) is not set', () => {
  const spec = testSpec(8, 20);
  const v = volume('卷', p('經', note('zhu', '注　文 一'), note('yinyi', '\u3000音')));
  const cs = chunks(layoutVolume(v, 0, spec).pages);
  assert.equal(seg(cs[0].right) + seg(cs[0].left), '注文一音');
});

test('a note inside a note is set apart: its own depth', () => {
  const spec = testSpec(8, 20);
  const v = volume('卷', p('經', note('zhu', '注', note('an', '其語'), '注')));
  const cs = chunks(layoutVolume(v, 0, spec).pages);
  assert.deepEqual(cs[0].right, [
    { layer: 'zhu', depth: 1, text: '注' },
    { layer: 'an', depth: 2, text: '其' },
  ]);
  assert.deepEqual(cs[0].left, [
    { layer: 'an', depth: 2, text: '語' },
    { layer: 'zhu', depth: 1, text: '注' },
  ]);
});

test('commentary paragraphs run on as jiazhu from the paragraph before', () => {
  const spec = testSpec(8, 10);
  const v = volume('卷', p('經文', note('zhu', '注')), commentary('zhu', '說一二三'), p('又'));
  const { pages } = layoutVolume(v, 0, spec);
  const col0 = pages[0].columns[0];
  assert.equal(col0.runs.length, 2);
  const chunk = col0.runs[1] as NoteChunk;
  assert.equal(chunk.start, 2);
  assert.equal(seg(chunk.right) + seg(chunk.left), '注說一二三');
  // the paragraph after starts a new column
  assert.deepEqual(pages[0].columns[1].runs, [{ type: 'text', start: 0, text: '又', offset: 0 }]);
});

test('a commentary paragraph at the start of a volume gets a column of its own at the commentary indent', () => {
  const spec = testSpec(8, 10, { commentary: { first: 1, rest: 1 } });
  const { pages } = layoutVolume(volume('卷', commentary('zhu', '說一二')), 0, spec);
  const cs = chunks(pages);
  assert.deepEqual([cs[0].start, seg(cs[0].right), seg(cs[0].left)], [1, '說一', '二']);
});

test('each paragraph starts a new column; indents of roles, continuation columns keep the indent', () => {
  const spec = testSpec(8, 5, { label: { first: 2, rest: 2 }, ji: { first: 1, rest: 3 } });
  const v = volume('卷', p('經'), para('label', '右戒賓'), para('ji', '記一二三四五'));
  const { pages } = layoutVolume(v, 0, spec);
  const cols = pages[0].columns;
  assert.deepEqual(
    cols.map((c) => [c.role, (c.runs[0] as TextRun).start, (c.runs[0] as TextRun).text]),
    [
      ['text', 0, '經'],
      ['label', 2, '右戒賓'],
      ['ji', 1, '記一二三'],
      ['ji', 3, '四五'],
    ],
  );
});

test('a byline is set low, bylineFoot cells above the foot', () => {
  const spec = testSpec(8, 10, {}, 2);
  const v = volume('卷', para('title', '書名卷一'), para('byline', '某某撰'));
  const { pages } = layoutVolume(v, 0, spec);
  assert.deepEqual(pages[0].columns[1].runs, [{ type: 'text', start: 5, text: '某某撰', offset: 0 }]);
});

test('headings start a new column at the title indent; a note right after a heading', () => {
  const spec = testSpec(8, 10, { title: { first: 1, rest: 1 } });
  const v = volume('卷', p('經文'), heading(2, '士冠禮', note('zhu', '篇注')), commentary('zhu', '說'));
  const { pages } = layoutVolume(v, 0, spec);
  const col = pages[0].columns[1];
  assert.equal(col.role, undefined);
  assert.deepEqual(col.runs[0], { type: 'text', start: 1, text: '士冠禮', offset: 0 });
  const chunk = col.runs[1] as NoteChunk;
  assert.deepEqual([chunk.start, seg(chunk.right), seg(chunk.left)], [4, '篇注', '說']);
});

test('a note at the start of a paragraph takes cell 0 of a fresh column', () => {
  const spec = testSpec(8, 10);
  const v = volume('卷', p('經'), p(note('zhu', '注文'), '經'));
  const { pages } = layoutVolume(v, 0, spec);
  const runs = pages[0].columns[1].runs;
  assert.equal(runs[0].type, 'note');
  assert.equal(runs[0].start, 0);
  assert.equal(runs[1].start, 1);
});

test('a note longer than a whole page keeps every character', () => {
  const spec = testSpec(2, 3);
  const long = '注'.repeat(5) + '一二三四五六七八九十'.repeat(3);
  const v = volume('卷', p('經', note('zhu', long)));
  const layout = layoutVolume(v, 0, spec);
  assert.ok(layout.pages.length >= 3);
  assert.equal(pagesChars(layout.pages), volumeChars(v));
  assert.deepEqual(layoutProblems(layout, spec), []);
});

test('edge cases: a one-character paragraph, an empty volume, a note at the end of a volume', () => {
  const spec = testSpec(8, 10);
  const one = layoutVolume(volume('卷', p('一')), 0, spec);
  assert.equal(pagesChars(one.pages), '一');
  const empty = layoutVolume(volume('空卷'), 0, spec);
  assert.equal(empty.pages.length, 1);
  assert.deepEqual(empty.pages[0].columns, []);
  assert.deepEqual(empty.pages[0].bookmarks, [{ level: 1, title: '空卷' }]);
  const endNote = volume('卷', p('經文'), p('又', note('zhu', '末注一二三')));
  assert.equal(pagesChars(layoutVolume(endNote, 0, spec).pages), '經文又末注一二三');
});

test('lacuna, glyphs and small text occupy cells with their styles', () => {
  const spec = testSpec(8, 20);
  const v = volume('卷', p('甲', lacuna(), glyph('\ue000', '𠀋'), glyph('\ue001'), small('臣'), '乙'));
  const runs = layoutVolume(v, 0, spec).pages[0].columns[0].runs as TextRun[];
  assert.deepEqual(
    runs.map((r) => [r.start, r.text, r.style ?? '']),
    [
      [0, '甲', ''],
      [1, '□', 'lacuna'],
      [2, '𠀋', ''],
      [3, '〓', 'glyph'],
      [4, '臣', 'small'],
      [5, '乙', ''],
    ],
  );
});

test('text runs carry source offsets that map each character back (runs split where whitespace was skipped)', () => {
  const spec = testSpec(8, 20);
  const at = (offset: number) => ({ file: 't', start: { line: 1, column: offset + 1, offset }, end: { line: 1, column: offset + 1, offset } });
  const t1 = { type: 'text' as const, value: '甲 乙𠀋丙', position: at(10) };
  const g = { ...glyph('\ue000'), position: at(30) };
  const runs = layoutVolume(volume('卷', p(t1, g)), 0, spec).pages[0].columns[0].runs;
  assert.deepEqual(runs, [
    { type: 'text', start: 0, text: '甲', offset: 10 },
    { type: 'text', start: 1, text: '乙𠀋丙', offset: 12 },
    { type: 'text', start: 4, text: '〓', style: 'glyph', offset: 30 },
  ]);
});

test('Extension B characters take one cell each', () => {
  const spec = testSpec(8, 3);
  const v = volume('卷', p('𠀋𡃁𢀖𣎴'));
  const { pages } = layoutVolume(v, 0, spec);
  assert.equal((pages[0].columns[0].runs[0] as TextRun).text, '𠀋𡃁𢀖');
  assert.equal((pages[0].columns[1].runs[0] as TextRun).text, '𣎴');
});

test('inline whitespace is not set', () => {
  const spec = testSpec(8, 10);
  const v = volume('卷', p('總 校 官'));
  assert.equal(pagesChars(layoutVolume(v, 0, spec).pages), '總校官');
});

test('pages: leaf and side within the volume; sections and bookmarks', () => {
  const spec = testSpec(1, 4);
  const v = volume('禮書卷一', p('一二三四'), heading(1, '嘉禮'), p('五六七八'), para('label', '右某'), p('九'));
  const { pages } = layoutVolume(v, 3, spec);
  assert.deepEqual(
    pages.map((pg) => [pg.pageInVolume, pg.leaf, pg.side, pg.volume, pg.section ?? '', pg.bookmarks]),
    [
      [1, 1, 'recto', 3, '', [{ level: 1, title: '禮書卷一' }]],
      [2, 1, 'verso', 3, '嘉禮', [{ level: 2, title: '嘉禮' }]],
      [3, 2, 'recto', 3, '嘉禮', []],
      [4, 2, 'verso', 3, '右某', []],
      [5, 3, 'recto', 3, '右某', []],
    ],
  );
});

test('a note running over into a new page before a heading keeps the old section on that page', () => {
  const spec = testSpec(1, 3);
  const v = volume('卷', heading(1, '甲'), p('一', note('zhu', '注注注注注注')), heading(1, '乙'), p('二'));
  const { pages } = layoutVolume(v, 0, spec);
  assert.deepEqual(
    pages.map((pg) => pg.section ?? ''),
    ['甲', '甲', '甲', '乙', '乙'],
  );
});

test('layoutBook: every volume starts on an odd book page, a blank verso inserted where needed', () => {
  const spec = testSpec(1, 4);
  const tree = root(volume('一', p('一二三四五')), volume('二', p('甲乙三四')), volume('三', p('丙')));
  const book = layoutBook(tree, spec);
  const summary = book.volumes.map((v) => v.pages.map((pg) => `${pg.number}:${pg.pageInVolume}${pg.side[0]}${pg.columns.length}`));
  assert.deepEqual(summary, [['1:1r1', '2:2v1'], ['3:1r1', '4:2v0'], ['5:1r1']]);
});

test('volumes are laid out independently and the output is deterministic', () => {
  const spec = testSpec(2, 5);
  const v2 = volume('二', p('甲乙', note('zhu', '注文注文注文')), heading(1, '章'), p('丙'));
  const a = layoutBook(root(volume('一', p('一二三')), v2), spec);
  const b = layoutBook(root(volume('一', p('一二三四五六七八九十一二')), v2), spec);
  const strip = (pages: Page[]) => pages.map((pg) => ({ ...pg, number: 0 }));
  assert.deepEqual(strip(a.volumes[1].pages), strip(b.volumes[1].pages));
  assert.deepEqual(strip(a.volumes[1].pages), strip(layoutVolume(v2, 1, spec).pages));
  assert.equal(layoutToJson(a), layoutToJson(layoutBook(root(volume('一', p('一二三')), v2), spec)));
});

test('after the front matter the next block starts on a recto: rest of the page blank, a blank verso when needed', () => {
  const spec = testSpec(3, 4);
  const summary = (pages: Page[]) => pages.map((pg) => `${pg.pageInVolume}${pg.side[0]}:${pg.columns.map((c) => c.role ?? '').join(',')}`);
  // front ends on a recto: the rest of it and the verso stay blank
  const a = layoutVolume(
    volume('卷', para('title', '提要'), para('front', '臣等', note('zhu', '注注注注')), para('title', '卷一'), p('經文')),
    0,
    spec,
  );
  assert.deepEqual(summary(a.pages), ['1r:title,front', '2v:', '3r:title,text']);
  assert.equal(pagesChars(a.pages.slice(0, 1)), '提要臣等注注注注', 'a note at the end of the front matter stays with it');
  // front ends on a verso: the next page is a recto already
  const b = layoutVolume(volume('卷', para('front', '一二三四五六七八九十一二一二'), heading(1, '嘉禮'), p('經')), 0, spec);
  assert.deepEqual(summary(b.pages), ['1r:front,front,front', '2v:front', '3r:,text']);
  assert.deepEqual(b.pages[2].bookmarks, [{ level: 2, title: '嘉禮' }]);
  assert.equal(b.pages[2].section, '嘉禮');
  // a front page that is exactly full
  const c = layoutVolume(volume('卷', para('front', '一二三四五六七八九十一二'), p('經')), 0, spec);
  assert.deepEqual(summary(c.pages), ['1r:front,front,front', '2v:', '3r:text']);
  // leaves are counted again from the work proper, as 四庫 volumes number 提要 and 卷 apart
  assert.deepEqual(c.pages.map((pg) => `${pg.pageInVolume}:${pg.leaf}${pg.side[0]}`), ['1:1r', '2:1v', '3:1r']);
  // commentary right after the front matter does not run on into it
  const d = layoutVolume(volume('卷', para('front', '一'), commentary('zhu', '注文')), 0, spec);
  assert.deepEqual(summary(d.pages), ['1r:front', '2v:', '3r:commentary']);
  assert.equal(chunks(d.pages.slice(2)).length, 1);
  // front after front, and front with nothing after it: no break
  const e = layoutVolume(volume('卷', para('front', '一'), para('front', '二')), 0, spec);
  assert.deepEqual(summary(e.pages), ['1r:front,front']);
  for (const v of [a, b, c, d, e]) assert.deepEqual(layoutProblems(v, spec), []);
});

test('lacunae, glyph placeholders and small text inside notes keep their style in the segments', () => {
  const spec = testSpec(8, 20);
  const v = volume('卷', p('經', note('zhu', '注', lacuna(), lacuna('□□'), glyph('\ue001'), glyph('\ue000', '𠀋'), small('臣'), '文'), '經'));
  const [chunk] = chunks(layoutVolume(v, 0, spec).pages);
  assert.deepEqual(
    [...chunk.right, ...chunk.left].map((s) => [s.text, s.style ?? '']),
    [
      ['注', ''],
      ['□□□', 'lacuna'],
      ['〓', 'glyph'],
      ['𠀋', ''],
      ['臣', 'small'],
      ['文', ''],
    ],
  );
  assert.equal(seg(chunk.right), '注□□□');
  assert.equal(chunk.right[chunk.right.length - 1].style, 'lacuna');
});
