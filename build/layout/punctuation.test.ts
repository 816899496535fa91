/**
 * Punctuation in the grid: widths and compression, 禁則 (with a phase sweep
 * and the corpus texts), hanging, 句讀 keeping the bare text's places,
 * 縱中橫 and rotated Latin, marks beside the text. Each assertion has a
 * negative control: the other standard, the option off, or the same text
 * with its marks set as plain characters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutBook } from './book.js';
import { pageSpecFor } from './spec.js';
import type { NoteSegment, Page, PageSpec, PunctuationSpec, TextRun } from './types.js';
import type { Inline, Mark, Root } from '../tree/types.js';
import { CHTXT, bareText, chtxtMarkdown, kinsokuBreaks, treeOfMarkdown, withoutKinsoku } from './punctuated.js';
import { layoutProblems, note, p, pagesChars, pos, root, testSpec, text, volume, volumeChars } from './test-helpers.js';
import { isMark, markOf } from '../punctuation/index.js';
import { loadSample, SAMPLES } from '../engine/samples.js';

const spec = (punctuation: Partial<PunctuationSpec>, cells = 12, columns = 8): PageSpec =>
  testSpec(columns, cells, {}, 0, { standard: 'mainland', grid: 'half', ...punctuation });

const pagesOf = (tree: Root, s: PageSpec): Page[] => layoutBook(tree, s).volumes.flatMap((v) => v.pages);
const one = (...children: Array<Inline | string>): Root => root(volume('卷', p(...children)));

/** Every main character with its place: page, column and the cell it starts at. */
function places(pages: readonly Page[]): Array<{ ch: string; page: number; column: number; at: number; advance: number }> {
  const out: Array<{ ch: string; page: number; column: number; at: number; advance: number }> = [];
  for (const page of pages) {
    for (const column of page.columns) {
      for (const run of column.runs) {
        if (run.type !== 'text') continue;
        let at = run.start;
        Array.from(run.text).forEach((ch, i) => {
          const advance = run.advances?.[i] ?? 1;
          out.push({ ch, page: page.number, column: column.index, at, advance });
          at += advance;
        });
      }
    }
  }
  return out;
}

/** Cells between the character before the marks and the one after them (same column). */
function between(tree: Root, s: PageSpec, before: string, after: string): number {
  const ps = places(pagesOf(tree, s));
  const a = ps.find((x) => x.ch === before);
  const b = ps.find((x) => x.ch === after);
  assert.ok(a && b && a.column === b.column, `${before} and ${after} in one column`);
  return b.at - a.at - 1;
}

test('widths: a mark between characters takes one cell, two adjacent 1.5, three 2; adjacent: 1 makes two take 1', () => {
  const half = spec({});
  assert.equal(between(one('甲水，玉'), half, '水', '玉'), 1);
  assert.equal(between(one('甲水。「玉'), half, '水', '玉'), 1.5);
  assert.equal(between(one('甲善。」「然'), half, '善', '然'), 2);
  assert.equal(between(one('甲水。「玉'), spec({ adjacent: 1 }), '水', '玉'), 1);
  assert.equal(between(one('甲善。」「然'), spec({ adjacent: 1 }), '善', '然'), 1.5);
  // Taiwan: centred points give up a quarter on each side; ？！ never shrink.
  assert.equal(between(one('甲水。「玉'), spec({ standard: 'taiwan' }), '水', '玉'), 1.5);
  assert.equal(between(one('甲何？」曰'), spec({ standard: 'taiwan' }), '何', '曰'), 1.5);
  // Negative control: on the rigid 四庫 grid every mark keeps its cell.
  assert.equal(between(one('甲水。「玉'), spec({ grid: 'rigid' }), '水', '玉'), 2);
  assert.equal(between(one('甲善。」「然'), spec({ grid: 'rigid' }), '善', '然'), 3);
});

test('…… and —— are 2-cell units that never split; ？！ written together are one unit too', () => {
  let split = 0;
  for (const mark of ['……', '——', '？！']) {
    for (let lead = 8; lead <= 12; lead++) {
      for (const s of [spec({}), spec({ grid: 'rigid', standard: 'taiwan' })]) {
        const tree = one('甲'.repeat(lead) + mark + '乙'.repeat(12));
        const ps = places(pagesOf(tree, s));
        const [a, b] = ps.filter((x) => mark.includes(x.ch));
        assert.equal(a.column, b.column, `${mark} after ${lead}: one column`);
        assert.equal(b.at - a.at, 1, `${mark}: one cell each`);
        // Negative control: set as plain characters, the pair splits at one of these places.
        const naive = places(withoutKinsoku(tree, s).volumes.flatMap((v) => v.pages)).filter((x) => mark.includes(x.ch));
        if (naive[0].column !== naive[1].column) split++;
      }
    }
  }
  assert.ok(split >= 3, `without the rule the pairs split ${split} times`);
});

test('an opening bracket at the head of a column gives up its leading half (not at a paragraph start)', () => {
  const s = spec({}, 6);
  const ps = places(pagesOf(one('甲乙丙丁戊己「庚辛」'), s));
  const open = ps.find((x) => x.ch === '「')!;
  assert.deepEqual([open.column, open.at, open.advance], [1, 0, 0.5]);
  assert.equal(ps.find((x) => x.ch === '庚')!.at, 0.5);
  const first = places(pagesOf(one('「庚辛」'), s)).find((x) => x.ch === '庚')!;
  assert.equal(first.at, 1, 'the paragraph-initial bracket keeps its cell');
  // Negative control: the rigid grid keeps the whole cell at a column head too.
  assert.equal(places(pagesOf(one('甲乙丙丁戊己「庚辛」'), spec({ grid: 'rigid' }, 6))).find((x) => x.ch === '庚')!.at, 1);
});

test('禁則, phase sweep: a mark at every place near a column end, in main text and in notes, never heads or ends a column', () => {
  const cells = 10;
  const endings = ['。', '，', '。」', '」，', '：「', '？」', '」。「', '……'];
  for (const s of [spec({}, cells), spec({ standard: 'taiwan' }, cells), spec({ grid: 'rigid', standard: 'taiwan' }, cells), spec({ hanging: true }, cells)]) {
    let naive = 0;
    for (const ending of endings) {
      for (let lead = 1; lead <= 2 * cells + 2; lead++) {
        const body = '天'.repeat(lead) + ending + '地玄黃宇宙洪荒，日月盈昃。';
        for (const tree of [one(body), one('經'.repeat(3), note('zhu', body)), one(...Array.from({ length: 2 }, () => '經文' + '，天地'.repeat(lead % 4)), note('zhu', body), '。')]) {
          const pages = pagesOf(tree, s);
          assert.deepEqual(kinsokuBreaks(pages), [], `${JSON.stringify(s.punctuation)} ${lead} ${ending}`);
          assert.equal(pagesChars(pages), volumeChars(tree.children[0]));
          assert.deepEqual(layoutProblems({ index: 0, title: '', pages }, s), []);
          naive += kinsokuBreaks(withoutKinsoku(tree, s).volumes.flatMap((v) => v.pages)).length;
        }
      }
    }
    // Negative control: set without 禁則, the same texts break it often.
    assert.ok(naive > 50, `without 禁則: ${naive} breaks`);
  }
});

test('pulling in: a closing mark that would head a column joins the column, whose marks give up half cells', () => {
  const s = spec({}, 10);
  // 10 cells: 甲乙，丙丁戊己庚辛 fills the column; 。 would head the next.
  const ps = places(pagesOf(one('甲乙，丙丁戊己庚辛壬。癸'), s));
  const stop = ps.find((x) => x.ch === '。')!;
  assert.equal(stop.column, 0, 'pulled into the column');
  assert.equal(stop.advance, 0.5, 'the mark at the foot takes half a cell');
  assert.equal(ps.find((x) => x.ch === '，')!.advance, 0.5, 'the comma gives up its blank half');
  assert.equal(ps.find((x) => x.ch === '癸')!.column, 1);
  // Negative control: the rigid grid cannot compress, so it pushes 壬 out with the mark.
  const rigid = places(pagesOf(one('甲乙，丙丁戊己庚辛壬。癸'), spec({ grid: 'rigid', standard: 'taiwan' }, 10)));
  assert.deepEqual([rigid.find((x) => x.ch === '壬')!.column, rigid.find((x) => x.ch === '壬')!.at], [1, 0]);
});

test('pushing out: with nothing to compress the last character goes too, and the column is justified (half grid) or left short (rigid)', () => {
  const text = '甲乙丙丁戊己庚辛壬癸。子丑';
  const half = places(pagesOf(one(text), spec({}, 10)));
  const gui = half.find((x) => x.ch === '癸')!;
  assert.deepEqual([gui.column, gui.at], [1, 0], '癸 pushed out with its 。');
  const ren = half.find((x) => x.ch === '壬')!;
  assert.ok(Math.abs(ren.at + ren.advance - 10) < 1e-3, `justified: 壬 ends at the foot (${ren.at}+${ren.advance})`);
  const rigid = places(pagesOf(one(text), spec({ grid: 'rigid', standard: 'taiwan' }, 10)));
  const r = rigid.find((x) => x.ch === '壬')!;
  assert.deepEqual([r.at, r.advance], [8, 1], 'rigid: the tenth cell stays blank');
});

test('hanging: true hangs a point below a full column; off, it is pulled in or pushed out', () => {
  const text = '甲乙丙丁戊己庚辛壬癸。子丑';
  const hung = places(pagesOf(one(text), spec({ hanging: true }, 10))).find((x) => x.ch === '。')!;
  assert.deepEqual([hung.column, hung.at], [0, 10]);
  const off = places(pagesOf(one(text), spec({}, 10))).find((x) => x.ch === '。')!;
  assert.ok(off.at < 10, 'without hanging the mark stays in the grid');
  // Only points hang: a closing quote is pulled in or pushed out instead.
  const quote = places(pagesOf(one('甲乙丙丁戊己庚辛壬癸」子丑'), spec({ hanging: true }, 10))).find((x) => x.ch === '」')!;
  assert.ok(quote.at < 10);
});

test('judou: marks take no cell, every character sits where the bare text puts it; none prints nothing but keeps the characters', () => {
  const body = '帝曰：「咨！四岳，湯湯洪水方割，蕩蕩懷山襄陵。」';
  const punctuated = one(body, note('zhu', '孔安國曰：「割，害也。」'), '僉曰：「於！鯀哉。」');
  const bare = one(bareText(body), note('zhu', bareText('孔安國曰：「割，害也。」')), bareText('僉曰：「於！鯀哉。」'));
  for (const standard of ['judou', 'none'] as const) {
    const s = testSpec(8, 7, {}, 0, { standard });
    const a = places(pagesOf(punctuated, s));
    const b = places(pagesOf(bare, s));
    assert.deepEqual(a.filter((x) => !isMark(x.ch)), b, standard);
    assert.ok(a.filter((x) => isMark(x.ch)).every((x) => x.advance === 0));
    assert.equal(pagesChars(pagesOf(punctuated, s)), volumeChars(punctuated.children[0]));
  }
  // Negative control: a modern standard on the same grid moves the characters.
  const modern = places(pagesOf(punctuated, testSpec(8, 7, {}, 0, { standard: 'taiwan' })));
  assert.notDeepEqual(modern.filter((x) => !isMark(x.ch)), places(pagesOf(bare, testSpec(8, 7, {}, 0, { standard: 'judou' }))));
});

test('defaults: modern takes mainland for zh-Hans and taiwan for zh-Hant; siku takes judou for a punctuated text and none for a bare one', () => {
  const tree = (language: string, body: string): Root => ({ ...one(body), edition: { ...one(body).edition, language } });
  const std = (t: Root, template: string): string | undefined => layoutBook(t, pageSpecFor(template)).spec.punctuation?.standard;
  const punctuated = '天地玄黃，宇宙洪荒。日月盈昃，辰宿列張。寒來暑往，秋收冬藏。';
  assert.equal(std(tree('zh-Hans', punctuated), 'modern'), 'mainland');
  assert.equal(std(tree('zh-Hant', punctuated), 'modern'), 'taiwan');
  assert.equal(std(tree('zh-Hant', punctuated), 'siku'), 'judou');
  assert.equal(std(tree('zh-Hant', bareText(punctuated)), 'siku'), 'none');
  const set = tree('zh-Hant', punctuated);
  set.edition = { ...set.edition, punctuation: { standard: 'mainland', adjacent: 1, hanging: true, kinsoku: 'strict' } };
  assert.deepEqual(layoutBook(set, pageSpecFor('siku')).spec.punctuation, { standard: 'mainland', adjacent: 1, hanging: true, kinsoku: 'strict', grid: 'rigid' });
});

test('numbers and Latin: 1–3 digits upright in one cell (縱中橫); longer runs rotated, half a cell a character, a quarter cell of space around', () => {
  const ps = (t: string): TextRun[] => pagesOf(one(t), spec({}, 30))[0].columns[0].runs.filter((r): r is TextRun => r.type === 'text');
  const tcy = ps('第12章').find((r) => r.style === 'tcy')!;
  assert.deepEqual([tcy.text, tcy.start, tcy.advances], ['12', 1, [1, 0]]);
  const latin = ps('甲Hello world乙').find((r) => r.style === 'latin')!;
  assert.equal(latin.text, 'Hello world');
  assert.equal(latin.start, 1.25);
  assert.deepEqual(latin.advances, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.75]);
  const yi = ps('甲Hello world乙').find((r) => r.text === '乙')!;
  assert.equal(yi.start, 7);
  // Four digits are not 縱中橫 but rotated.
  assert.equal(ps('2024年').find((r) => r.text === '2024')?.style, 'latin');
});

test('marks beside the text: runs carry the mark, with where the marked stretch begins and ends', () => {
  const mark = (kind: Mark['kind'], value: string): Mark => ({ type: 'mark', kind, children: [text(value)], position: pos });
  const tree = one('子曰', mark('proper', '孔子'), mark('proper', '顏淵'), '讀', mark('book', '論語'), '。');
  const runs = pagesOf(tree, spec({}, 30))[0].columns[0].runs as TextRun[];
  const marked = runs.filter((r) => r.mark).map((r) => [r.text, r.mark?.kind, r.mark?.first, r.mark?.last]);
  assert.deepEqual(marked, [
    ['孔子', 'proper', true, true],
    ['顏淵', 'proper', true, true],
    ['論語', 'book', true, true],
  ]);
  // A marked stretch cut by a column end: first on the first piece, last on the second.
  const split = pagesOf(one('甲乙丙', mark('dot', '丁戊己')), spec({}, 4))[0].columns.flatMap((c) => c.runs as TextRun[]).filter((r) => r.mark);
  assert.deepEqual(split.map((r) => [r.text, r.mark?.first, r.mark?.last]), [['丁', true, false], ['戊己', false, true]]);
});

test('corpus texts (chtxt 宋書, 史記三家注) and the samples: 0 禁則 breaks in every standard and template', async () => {
  const variants: Array<[string, Partial<PunctuationSpec>]> = [
    ['modern', { standard: 'mainland' }],
    ['modern', { standard: 'taiwan' }],
    ['modern', { standard: 'mainland', adjacent: 1, hanging: true }],
    ['siku', { standard: 'mainland' }],
    ['siku', { standard: 'taiwan', hanging: true }],
    ['siku', { standard: 'judou' }],
  ];
  for (const file of CHTXT) {
    const tree = treeOfMarkdown(chtxtMarkdown(file));
    for (const [template, punctuation] of variants) {
      const s = pageSpecFor(template);
      s.punctuation = { ...s.punctuation!, ...punctuation };
      const pages = pagesOf(tree, s);
      assert.deepEqual(kinsokuBreaks(pages), [], `${file} ${template} ${JSON.stringify(punctuation)}`);
      assert.equal(pagesChars(pages), tree.children.map(volumeChars).join(''));
    }
    // Negative control: set without 禁則, the text breaks it in one column in ten or more.
    const s = pageSpecFor('siku');
    s.punctuation = { ...s.punctuation!, standard: 'taiwan' };
    const naive = withoutKinsoku(tree, s).volumes.flatMap((v) => v.pages);
    const columns = naive.reduce((n, pg) => n + pg.columns.length, 0);
    assert.ok(kinsokuBreaks(naive).length * 10 > columns, `${file}: ${kinsokuBreaks(naive).length} breaks in ${columns} columns without 禁則`);
  }
  for (const work of SAMPLES) {
    const { config, tree } = await loadSample(work);
    assert.deepEqual(kinsokuBreaks(pagesOf(tree, pageSpecFor(config.meta.template, config.layout))), [], work);
  }
});

test('judou on the chtxt texts: every character where the bare text puts it, page for page; the same page count', () => {
  for (const file of CHTXT) {
    const md = chtxtMarkdown(file);
    const s = pageSpecFor('siku');
    const a = pagesOf(treeOfMarkdown(md), s);
    const b = pagesOf(treeOfMarkdown(bareText(md)), s);
    assert.equal(layoutBook(treeOfMarkdown(md), s).spec.punctuation?.standard, 'judou');
    assert.equal(a.length, b.length, `${file}: pages`);
    const shown = places(a).filter((x) => !markOf(x.ch) || x.ch === '【' || x.ch === '】');
    assert.deepEqual(shown, places(b), file);
    // One mark per pause, none taking a place (in main text and notes).
    const pauses = a.flatMap((pg) => pg.columns.flatMap((c) => c.runs.flatMap((r): Array<TextRun | NoteSegment> => (r.type === 'text' ? [r] : [...r.right, ...r.left]))))
      .flatMap((r) => Array.from(r.text).map((ch, i) => ({ ch, advance: r.advances?.[i] ?? 1 })))
      .filter((x) => markOf(x.ch)?.judou);
    assert.equal(pauses.length, Array.from(md).filter((ch) => markOf(ch)?.judou).length);
    assert.ok(pauses.every((x) => x.advance === 0));
  }
});

test('禁則 levels: strict also keeps …… and —— off a column head, gb (the default) not; none keeps nothing but never splits them', () => {
  const text = '天地玄黃宇宙洪荒日月……盈昃';
  const head = (kinsoku: 'none' | 'basic' | 'gb' | 'strict', t = text): string => {
    const ps = places(pagesOf(one(t), spec({ kinsoku }, 10)));
    return ps.filter((x) => x.column === 1)[0].ch;
  };
  assert.equal(head('gb'), '…');
  assert.notEqual(head('strict'), '…');
  // basic keeps points off the head; none does not.
  assert.notEqual(head('basic', '天地玄黃宇宙洪荒日月。盈昃'), '。');
  assert.equal(head('none', '天地玄黃宇宙洪荒日月。盈昃'), '。');
  // An interpunct: gb keeps it off the head, basic does not.
  assert.notEqual(head('gb', '天地玄黃宇宙洪荒日月·盈昃'), '·');
  assert.equal(head('basic', '天地玄黃宇宙洪荒日月·盈昃'), '·');
  const pair = places(pagesOf(one('天地玄黃宇宙洪荒日……盈昃'), spec({ kinsoku: 'none' }, 10))).filter((x) => x.ch === '…');
  assert.equal(pair[0].column, pair[1].column, 'none: the ellipsis still never splits');
});

test('numbers keep their units and signs: ％ ℃ never head a column after digits, ￥ never ends one before them', () => {
  for (const [text, ch] of [['天地玄黃宇宙洪荒日月盈100％', '％'], ['天地玄黃宇宙洪荒日月盈12℃', '℃']] as const) {
    const ps = places(pagesOf(one(text + '天地'), spec({}, 12)));
    const unit = ps.find((x) => x.ch === ch)!;
    const digit = ps.filter((x) => /[0-9]/.test(x.ch)).at(-1)!;
    assert.equal(unit.column, digit.column, text);
  }
  const yen = places(pagesOf(one('天地玄黃宇宙洪荒日月盈￥100元'), spec({}, 12)));
  assert.equal(yen.find((x) => x.ch === '￥')!.column, yen.find((x) => x.ch === '1')!.column);
  // Negative control: after a Han character ％ may head a column.
  const han = places(pagesOf(one('天地玄黃宇宙洪荒日月盈昃％天地'), spec({ kinsoku: 'gb' }, 12)));
  assert.equal(han.find((x) => x.ch === '％')!.column, 1);
});

test('pulling in shares the compression alike within a class (clreq 6.2.2.3): two commas give a quarter cell each', () => {
  // 10 cells: 甲，乙丙，丁戊己庚 + 辛 fill 11 cells less the foot mark's half; the 。 after 辛 needs one half more.
  const ps = places(pagesOf(one('甲，乙丙，丁戊己庚辛。壬'), spec({}, 10)));
  const commas = ps.filter((x) => x.ch === '，');
  assert.deepEqual(commas.map((x) => x.advance), [0.75, 0.75]);
  assert.equal(ps.find((x) => x.ch === '。')!.advance, 0.5);
  assert.equal(ps.find((x) => x.ch === '。')!.column, 0);
  // Negative control: a single comma gives its whole half.
  const one1 = places(pagesOf(one('甲乙丙，丁戊己庚辛壬。癸'), spec({}, 10)));
  assert.equal(one1.find((x) => x.ch === '，')!.advance, 0.5);
});

test('justifying a column shares its spare space around Latin words first (clreq 6.2.2.4, 6.2.3), then among all', () => {
  // 8 cells: 甲, Hi ho (3 cells with its spaces), 乙丙丁戊 fill it; the 。 after 戊 cannot be pulled in and pushes 戊 out: one cell to share.
  const ps = places(pagesOf(one('甲Hi ho乙丙丁戊。己'), spec({}, 8)));
  const latin = ps.filter((x) => /[a-z ]/i.test(x.ch));
  const ding = ps.find((x) => x.ch === '丁')!;
  assert.equal(ps.find((x) => x.ch === '戊')!.column, 1, '戊 pushed out with its 。');
  assert.equal(ps.find((x) => x.ch === '甲')!.advance, 1, 'the Han characters keep their cells');
  assert.ok(latin.reduce((s, x) => s + x.advance, 0) > 2.5, `Latin took the spare: ${latin.map((x) => x.advance)}`);
  assert.ok(Math.abs(ding.at + ding.advance - 8) < 1e-3, `the column is full (${ding.at}+${ding.advance})`);
  // Negative control: without Latin the spare goes to every gap.
  const han = places(pagesOf(one('甲乙丙丁戊己庚辛。壬'), spec({}, 8)));
  assert.ok(han.find((x) => x.ch === '甲')!.advance > 1);
});

test('single-line alignment (clreq 6.2.1.3) and 均排 (6.3.1.2): a title centred, at the end, or spread over its column', () => {
  const s = (align?: 'center' | 'end' | 'justify'): PageSpec => ({ ...spec({}, 20), ...(align ? { align: { title: align } } : {}) });
  const title = (align?: 'center' | 'end' | 'justify'): Array<ReturnType<typeof places>[number]> =>
    places(pagesOf(root(volume('卷', { ...p('禮書卷一百十'), role: 'title' })), s(align)));
  assert.equal(title()[0].at, 0);
  assert.equal(title('center')[0].at, 7);
  assert.equal(title('end')[0].at, 14);
  const spread = title('justify');
  assert.equal(spread[0].at, 0);
  assert.ok(Math.abs(spread.at(-1)!.at + spread.at(-1)!.advance - 20) < 1e-3, 'spread to the foot');
  assert.ok(spread.every((x, i) => i === 0 || Math.abs(x.at - spread[i - 1].at - spread[0].advance) < 1e-3), 'evenly');
});

test('孤字不成行, 孤行不成頁 (clreq 7.1.2), modern template: no lone character in a paragraph\'s last column, no last column alone atop a page', () => {
  // 10 cells, no indent: 21 characters would leave 1 in the third column.
  const text = '天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋';
  const last = (s: PageSpec): number => {
    const ps = places(pagesOf(one(text), s));
    const col = ps.at(-1)!.column;
    return ps.filter((x) => x.column === col).length;
  };
  assert.equal(last(spec({}, 10)), 2);
  assert.equal(last(spec({ grid: 'rigid', standard: 'taiwan' }, 10)), 1, 'negative control: the rigid grid keeps the lone character');
  // Widows: 3 columns a page; a paragraph of 4 columns would leave its last alone on page 2.
  const widow = (s: PageSpec): number[] => pagesOf(one('天'.repeat(35)), s).map((pg) => pg.columns.length);
  assert.deepEqual(widow(spec({}, 10, 3)), [2, 2]);
  assert.deepEqual(widow(spec({ grid: 'rigid', standard: 'taiwan' }, 10, 3)), [3, 1], 'negative control: the rigid grid');
});
