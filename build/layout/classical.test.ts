/**
 * The classical page on the grid: 抬頭, printed labels, 眉批 and 側批
 * placed and moved when they collide, ruby readings, and `layout: source`
 * (the source's own lines and pages), each with a negative control.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { VFile } from 'vfile';
import type { Annotation, Mark, Raise, Root } from '../tree/types.js';
import { parseSource } from '../parse/index.js';
import { layoutBook, layoutVolume, pageSpecFor } from './index.js';
import type { NoteChunk, Page, PageSpec, TextRun } from './types.js';
import { commentary, layoutProblems, note, p, para, pos, testSpec, text, volume } from './test-helpers.js';
import { CORPORA } from './punctuated.js';

const raise = (level: Raise['level']): Raise => ({ type: 'raise', level, position: pos });
const annotation = (kind: Annotation['kind'], value: string): Annotation => ({ type: 'annotation', kind, children: [text(value)], position: pos });
const mark = (kind: Mark['kind'], value: string, ruby?: Mark['ruby']): Mark => ({ type: 'mark', kind, children: [text(value)], position: pos, ...(ruby ? { ruby } : {}) });
const runsText = (page: Page, column: number): string =>
  page.columns[column].runs.map((r) => (r.type === 'text' ? r.text : [...r.right, ...r.left].map((s) => s.text).join(''))).join('');

test('抬頭: the raised word starts a new column one or two cells above the grid; 平抬 at its top', () => {
  const spec = testSpec(8, 10, { text: { first: 1, rest: 1 } });
  const v = volume('卷', p('臣等謹案', raise(2), '皇上聖明', raise(1), '御製', raise(0), '國朝'));
  const [page] = layoutVolume(v, 0, spec).pages;
  assert.deepEqual(page.columns.map((c) => [c.raise ?? 0, (c.runs[0] as TextRun).start, runsText(page, c.index)]), [
    [0, 1, '臣等謹案'],
    [2, -2, '皇上聖明'],
    [1, -1, '御製'],
    // 平抬: the grid's top, whatever the paragraph's indent (1).
    [0, 0, '國朝'],
  ]);
  assert.deepEqual(layoutProblems(layoutVolume(v, 0, spec), spec), []);
  // A raised column holds cells + level characters; the next column is an ordinary one.
  const long = layoutVolume(volume('卷', p('甲', raise(2), '一二三四五六七八九十壹貳參肆伍')), 0, spec).pages[0];
  assert.equal(runsText(long, 1), '一二三四五六七八九十壹貳');
  assert.equal((long.columns[2].runs[0] as TextRun).start, 1);
  // Negative control: without the mark the words run on in the column.
  const plain = layoutVolume(volume('卷', p('臣等謹案', '皇上聖明')), 0, spec).pages[0];
  assert.equal(plain.columns.length, 1);
  assert.equal(plain.columns[0].raise, undefined);
});

test('labels the source prints: bracketed in cells (modern), as they are for 陰文 (四庫); 疏曰 at a note head set as a label only for 陰文', () => {
  const labelled = note('fuzhu', '藝種也');
  labelled.label = '附注';
  const para = commentary('fuzhu', '補注之文');
  para.label = '附注';
  const v = volume('卷', p('經', labelled, note('shu', '疏曰云云'), '文'), para);
  const segs = (spec: PageSpec) =>
    layoutVolume(v, 0, spec).pages.flatMap((pg) => pg.columns.flatMap((c) => c.runs.flatMap((r) => (r.type === 'note' ? [...r.right, ...r.left] : []))));
  const bracket = { ...testSpec(8, 40), label: { form: 'bracket', open: '〔', close: '〕' } as const };
  const yinwen = { ...testSpec(8, 40), label: { form: 'yinwen' } as const };
  const styled = (spec: PageSpec, style: string) => segs(spec).filter((s) => s.style === style).map((s) => s.text).join('|');
  assert.equal(styled(bracket, 'label'), '〔附注〕|〔附注〕');
  assert.equal(styled(yinwen, 'label'), '附注|附注');
  assert.equal(styled(yinwen, 'head'), '疏曰');
  // Negative controls: the bracketed form leaves 疏曰 plain; a note without a label prints none.
  assert.equal(styled(bracket, 'head'), '');
  const bare = volume('卷', p('經', note('fuzhu', '藝種也')));
  assert.equal(layoutVolume(bare, 0, yinwen).pages[0].columns[0].runs.flatMap((r) => (r.type === 'note' ? [...r.right, ...r.left] : [])).filter((s) => s.style === 'label').length, 0);
});

test('眉批 go over their column, in the top margin, in reading order; one that finds its lanes taken moves leftwards only, a lane apart, never over a raised column', () => {
  const spec = { ...testSpec(8, 10), meipiCells: 4 };
  const v = volume('卷', p('甲乙', annotation('meipi', '一二三四五'), '丙丁', annotation('meipi', '六七')), p(raise(2), '皇上', annotation('meipi', '八九')));
  const page = layoutVolume(v, 0, spec).pages[0];
  const meipi = (page.annotations ?? []).filter((a) => a.kind === 'meipi');
  assert.deepEqual(
    meipi.map((a) => a.pieces.map((x) => `${x.lane}:${x.text}`).join(' ')),
    // 六七 after the first (lanes 0–1): leftwards past the raised column's lanes (2–3) to 4; 八九, anchored over the raised column, left of 六七 and a lane apart.
    ['0:一二三四 1:五', '4:六七', '6:八九'],
  );
  assert.deepEqual(meipi.map((a) => a.moved ?? false), [false, true, true]);
  // Every character of every 眉批 is set once.
  assert.equal(meipi.flatMap((a) => a.pieces.map((x) => x.text)).join(''), '一二三四五六七八九');
  // Negative control: alone, the second 眉批 stays over its anchor's column.
  const alone = layoutVolume(volume('卷', p('甲乙丙丁', annotation('meipi', '六七'))), 0, spec).pages[0];
  assert.deepEqual(alone.annotations?.[0].pieces.map((x) => x.lane), [0]);
  assert.equal(alone.annotations?.[0].moved, undefined);
});

test('眉批 on every line: each over its words or left of the one before, in reading order, none over another; those that find no lane go to the next page with a warning at their place', () => {
  const spec = { ...testSpec(4, 6), meipiCells: 4 };
  // Twelve lines of six characters (a column each, four a page), each opened by a 眉批 of ten characters (three lanes): a page has 8 lanes for 12.
  const text = (i: number): string => `批${'一二三四五六七八九十壹貳'[i]}之文字甲乙丙丁戊`;
  const lines = Array.from({ length: 12 }, (_, i) => p(annotation('meipi', text(i)), '經文之字六個'));
  const layout = layoutVolume(volume('卷', ...lines), 0, spec);
  const placed = layout.pages.flatMap((pg, n) => (pg.annotations ?? []).filter((a) => a.kind === 'meipi').flatMap((a) => a.pieces.map((x, k) => ({ n, k, lane: x.lane!, text: x.text, anchor: a.anchor }))));
  // Every character once, in reading order (page by page, lane by lane).
  const order = [...placed].sort((a, b) => a.n - b.n || a.lane - b.lane);
  assert.equal(order.map((x) => x.text).join(''), lines.map((_, i) => text(i)).join(''));
  // No lane holds two pieces.
  const keys = placed.map((x) => `${x.n}:${x.lane}`);
  assert.equal(new Set(keys).size, keys.length, 'no 眉批 printed over another');
  // Each 眉批 over its words (line i is column i % 4 of page ⌊i/4⌋) or left of them; on a later page only when its own had no room.
  const firsts = placed.filter((x) => x.k === 0);
  let later = 0;
  firsts.forEach((x, i) => {
    const page = Math.floor(i / 4);
    assert.ok(x.n >= page, `${text(i)} not on an earlier page`);
    if (x.n === page) assert.ok(x.lane >= 2 * (i % 4), `${text(i)} at lane ${x.lane}, right of its words (lane ${2 * (i % 4)})`);
    else later++;
  });
  assert.ok(layout.pages.length > 3, 'a page after the text holds the last 眉批');
  // Those that found no lane over their words are reported at their places.
  const warnings = (layout.diagnostics ?? []).filter((d) => d.ruleId === 'meipi-overflow');
  assert.ok(later > 0);
  assert.equal(warnings.length, later, 'one warning a 眉批 moved to a later page');
  assert.ok(warnings.every((w) => w.severity === 'warning' && w.position !== undefined && /finds no free lane/.test(w.reason)));
  assert.deepEqual(layoutProblems(layout, spec), []);
  // Negative control: two such lines on a page leave room for both: no page after the text, no warning.
  const sparse = layoutVolume(volume('卷', ...lines.slice(0, 2)), 0, spec);
  assert.equal(sparse.pages.length, 1);
  assert.equal((sparse.diagnostics ?? []).length, 0);
});

test('側批 stand in the gutter beside the characters after them, half a cell a character; a second one at the same place moves down, one too long for the column runs on', () => {
  const spec = testSpec(8, 10);
  const v = volume('卷', p('甲乙', annotation('cepi', '妙語'), '丙丁戊', annotation('cepi', '又'), annotation('cepi', '再'), '己'));
  const page = layoutVolume(v, 0, spec).pages[0];
  const cepi = (page.annotations ?? []).map((a) => a.pieces.map((x) => `${x.column}@${x.start}:${x.text}`).join(' '));
  // 妙語 beside 丙 (cell 2); 又 beside 己 (cell 5); 再, anchored there too, below it.
  assert.deepEqual(cepi, ['0@2:妙語', '0@5:又', '0@5.5:再']);
  const long = layoutVolume(volume('卷', p('甲乙丙丁戊己庚辛', annotation('cepi', '一二三四五六七八九十一二三四五六七八九十一二三'), '壬')), 0, spec).pages[0];
  const pieces = long.annotations?.[0].pieces ?? [];
  assert.equal(pieces.map((x) => x.text).join(''), '一二三四五六七八九十一二三四五六七八九十一二三');
  assert.ok(pieces.length >= 2, 'runs on into the next gutter');
  // Negative control: with nothing before it, the second stays where its anchor is.
  const alone = layoutVolume(volume('卷', p('甲乙丙丁戊', annotation('cepi', '再'), '己')), 0, spec).pages[0];
  assert.equal(alone.annotations?.[0].pieces[0].start, 5);
});

test('ruby: one reading a character on its run; a gloss along the word, shared out where the word breaks across columns', () => {
  const spec = testSpec(8, 4);
  const v = volume('卷', p('甲', mark('ruby', '湯湯', { text: 'ㄕㄤ ㄕㄤ', by: 'char' }), mark('ruby', '岳陽樓', { text: 'Yueyang Tower', by: 'word' })));
  const runs = layoutVolume(v, 0, spec).pages[0].columns.flatMap((c) => c.runs).filter((r): r is TextRun => r.type === 'text' && r.mark?.kind === 'ruby');
  assert.deepEqual(runs.map((r) => [r.text, r.mark?.readings ?? null, r.mark?.ruby ?? null]), [
    ['湯湯', ['ㄕㄤ', 'ㄕㄤ'], null],
    ['岳', null, 'Yuey'],
    ['陽樓', null, 'ang Tower'],
  ]);
  // Negative control: readings that do not match the characters one to one are set along the word.
  const odd = layoutVolume(volume('卷', p(mark('ruby', '湯湯', { text: 'ㄕㄤ', by: 'char' }))), 0, spec).pages[0].columns[0].runs[0] as TextRun;
  assert.equal(odd.mark?.readings, undefined);
  assert.equal(odd.mark?.ruby, 'ㄕㄤ');
});

/** A Kanripo text as a tree, the book laid out with `layout: source` in the 四庫 template. */
function kanripo(source: string): Root {
  const file = new VFile({ path: 'k.txt', value: new TextEncoder().encode(source) });
  const { volumes } = parseSource(file, '試', 'kanripo');
  return { type: 'root', edition: { id: 't', title: '試', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: volumes };
}

test('layout: source — each ¶ line a column, each <pb:> a page, indents, the source\'s note split and labels; a long line reported at its ¶ and wrapped', () => {
  const text = [
    '# -*- mode: mandoku-view -*-',
    '<pb:X_001-1a>¶',
    '欽定四庫全書¶',
    '　儀禮卷一¶',
    '經文一二三音義(甲乙丙/丁戊)疏(子丑寅卯/辰巳)¶',
    '<pb:X_001-1b>¶',
    '經文甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥¶',
    '短行¶',
  ].join('\n');
  const spec = pageSpecFor('siku', { source: true });
  const book = layoutBook(kanripo(text), spec);
  const [v] = book.volumes;
  assert.deepEqual(v.pages.map((pg) => `${pg.sourcePage?.leaf}:${pg.leaf}${pg.side}`), ['1a:1recto', '1b:1verso']);
  const [first, second] = v.pages;
  assert.deepEqual(first.columns.map((c) => runsText(first, c.index)), ['欽定四庫全書', '儀禮卷一', '經文一二三音義甲乙丙丁戊疏子丑寅卯辰巳']);
  // The indent of the source's line; the note piece with the source's split; the labels one cell each.
  assert.equal((first.columns[1].runs[0] as TextRun).start, 1);
  const line = first.columns[2].runs;
  const chunks = line.filter((r): r is NoteChunk => r.type === 'note');
  assert.deepEqual(chunks.map((c) => [c.start, c.cells, c.right.map((s) => s.text).join(''), c.left.map((s) => s.text).join('')]), [
    [5, 1, '音', '義'],
    [6, 3, '甲乙丙', '丁戊'],
    [10, 4, '子丑寅卯', '辰巳'],
  ]);
  assert.deepEqual(line.filter((r): r is TextRun => r.type === 'text' && r.style === 'label').map((r) => [r.start, r.text]), [[9, '疏']]);
  // The 26-cell line is wrapped onto a second column and reported where its ¶ stands.
  assert.deepEqual(second.columns.map((c) => [c.sourceLine, runsText(second, c.index)]), [
    [1, '經文甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申'],
    [1, '酉戌亥'],
    [2, '短行'],
  ]);
  const warning = v.diagnostics?.find((d) => d.ruleId === 'source-line-long');
  assert.ok(warning, 'the long line is reported');
  assert.equal(warning.position?.start.line, 7);
  assert.match(v.diagnostics?.find((d) => d.ruleId === 'source-layout')?.reason ?? '', /5 source lines on 2 source pages/);
  // Negative control: on the template's grid the lines run on and the page markers start no page.
  const grid = layoutBook(kanripo(text), pageSpecFor('siku')).volumes[0];
  assert.equal(grid.pages.length, 1);
});

/** The text's lines after each page marker: the first character of every source line, page by page (what `layout: source` must head its columns with). */
function sourceHeads(raw: string): string[][] {
  const pages: string[][] = [];
  for (const line of raw.split('\n')) {
    if (/^<pb:[^>]+>¶?$/u.test(line)) {
      pages.push([]);
      continue;
    }
    if (!line.endsWith('¶') || pages.length === 0) continue;
    const first = /[\p{Script=Han}○□]/u.exec(line.replace(/&[A-Za-z0-9]+;/gu, '〓'));
    pages[pages.length - 1].push(first ? first[0] : '');
  }
  return pages;
}

/** The first character our layout sets in each column (reading order: a chunk's right sub-column first), page by page. */
function layoutHeads(pages: readonly Page[]): string[][] {
  return pages.map((pg) =>
    pg.columns.map((c) => {
      const r = c.runs[0];
      if (!r) return '';
      return Array.from(r.type === 'text' ? r.text : (r.right[0] ?? r.left[0])?.text ?? '')[0] ?? '';
    }),
  );
}

test('layout: source on the Kanripo 儀禮注疏 卷五 (文淵閣): one page a <pb:>, one column a line, each headed by the character after its ¶', () => {
  const raw = readFileSync(`${CORPORA}/kanripo-KR1d0028-WYG-juan05.txt`, 'utf8');
  const tree = kanripo(raw);
  const book = layoutBook(tree, pageSpecFor('siku', { source: true }));
  const pages = book.volumes.flatMap((v) => v.pages);
  const want = sourceHeads(raw);
  assert.equal(want.length, 66);
  assert.equal(pages.length, want.length, 'one page per <pb:>');
  assert.deepEqual(layoutHeads(pages), want);
  for (const v of book.volumes) assert.deepEqual(layoutProblems(v, book.spec), []);
  // The source's leaves: 1a 1b 2a … in the 版心's numbering.
  assert.deepEqual(pages.slice(0, 4).map((pg) => `${pg.leaf}${pg.side === 'recto' ? 'a' : 'b'}`), ['1a', '1b', '2a', '2b']);
  // Negative control: the same text on the template's grid is not the source's pages.
  const grid = layoutBook(tree, pageSpecFor('siku')).volumes.flatMap((v) => v.pages);
  assert.notDeepEqual(layoutHeads(grid), want);
});

test('a volume without ¶ under layout: source is laid out on the grid, and says so', () => {
  const spec = pageSpecFor('siku', { source: true });
  const tree: Root = { type: 'root', edition: { id: 't', title: 't', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku' }, children: [volume('卷', p('經文'))] };
  const v = layoutBook(tree, spec).volumes[0];
  assert.equal(v.diagnostics?.[0].ruleId, 'source-layout-none');
  assert.equal(v.pages[0].columns[0].runs.length, 1);
});

test('句讀 after a note stands by the main text before it (湯湯【音義】，): at the note\'s start, taking no place; the text after the note where it was', () => {
  const spec = testSpec(8, 20, {}, 0, { standard: 'judou' });
  const runsOf = (page: Page) => page.columns[0].runs.map((r) => (r.type === 'text' ? [r.start, r.text] : [r.start, 'note']));
  const noted = layoutVolume(volume('卷', p('浩浩湯湯', note('yinyi', '湯音傷'), '，橫無際涯。')), 0, spec).pages[0];
  // The note (2 cells) starts at 4, where 湯湯 ends: the comma's circle is drawn at the lower right of 湯 (the cell before 4).
  assert.deepEqual(runsOf(noted), [[0, '浩浩湯湯'], [4, 'note'], [4, '，'], [6, '橫無際涯。']]);
  assert.deepEqual(layoutProblems(layoutVolume(volume('卷', p('浩浩湯湯', note('yinyi', '湯音傷'), '，橫無際涯。')), 0, spec), spec), []);
  // Negative control: without the note the comma glues to 湯 at the same place (4, no cell of its own).
  const bare = layoutVolume(volume('卷', p('浩浩湯湯，橫無際涯。')), 0, spec).pages[0];
  const run = bare.columns[0].runs[0] as TextRun;
  assert.equal(run.text, '浩浩湯湯，橫無際涯。');
  assert.deepEqual(run.advances?.slice(3, 6), [1, 0, 1]);
  // A note that opens its column (continued from the column before) has no main text before it here: the mark stays after it.
  const long = layoutVolume(volume('卷', p('一二三四五六七八九十一二三四五六七八', note('yinyi', '甲乙丙丁戊己庚辛壬癸子丑'), '，後')), 0, spec).pages[0];
  const second = long.columns[1].runs;
  assert.equal(second[0].type, 'note');
  assert.equal((second[1] as TextRun).start, second[0].start + (second[0] as NoteChunk).cells);
});

test('a 提要\'s closing date (乾隆四十四年十月恭校上) starts a column of its own; the same words elsewhere run on', () => {
  const spec = testSpec(8, 10);
  const tiyao = para('front', '臣等謹案某書十卷於經義深為有裨也乾隆四十四年十月恭校上');
  const page = layoutVolume(volume('卷', tiyao, p('正文')), 0, spec).pages[0];
  assert.deepEqual(page.columns.map((c) => runsText(page, c.index)), ['臣等謹案某書十卷於經', '義深為有裨也', '乾隆四十四年十月恭校', '上']);
  // Negative controls: in the text, and in a 提要 whose date is not its end, the words run on.
  const text = layoutVolume(volume('卷', p('於經義深為有裨也乾隆四十四年十月恭校上')), 0, spec).pages[0];
  assert.deepEqual(text.columns.map((c) => runsText(text, c.index)), ['於經義深為有裨也乾隆', '四十四年十月恭校上']);
  const inside = layoutVolume(volume('卷', para('front', '乾隆四十四年十月恭校上其後又記')), 0, spec).pages[0];
  assert.equal(inside.columns.length, 2);
});
