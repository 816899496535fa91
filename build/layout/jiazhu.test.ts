import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseChunk, makeChunk } from './jiazhu.js';
import type { NoteChar } from './flatten.js';
import { noteUnits, type Mode, type NoteUnit } from './units.js';
import { markOf } from '../punctuation/index.js';

const RIGID: Mode = { standard: 'taiwan', grid: 'rigid', adjacent: 1.5, hanging: false, kinsoku: 'gb' };
const HALF: Mode = { standard: 'mainland', grid: 'half', adjacent: 1.5, hanging: false, kinsoku: 'gb' };
const JUDOU: Mode = { standard: 'judou', grid: 'rigid', adjacent: 1.5, hanging: false, kinsoku: 'gb' };

const chars = (s: string, layer = 'zhu', depth = 1): NoteChar[] =>
  Array.from(s, (ch) => ({ kind: 'note' as const, ch, layer, depth }));
const units = (s: string, mode: Mode = RIGID): NoteUnit[] => noteUnits(chars(s), mode);
/** Units in the chunk (cap in half cells: 2 per cell left). */
const n = (s: string, p: number, cells: number, fresh = false, mode: Mode = RIGID): number => chooseChunk(units(s, mode), p, 2 * cells, fresh).n;

test('chooseChunk: greedy min(rest, 2r) when nothing is wrong', () => {
  assert.equal(n('一二三四五六七八九十', 0, 3), 6);
  assert.equal(n('一二三', 0, 3), 3);
  assert.equal(n('一二三四五六七八九十', 7, 3), 3);
});

test('chooseChunk: moves characters rather than leave a lone one or a one-cell tail', () => {
  // 3 cells: 6 would leave 七 alone, 5 a tail of one cell (六/七): 4, a cell blank, and 五六/七 in the next column
  assert.equal(n('一二三四五六七', 0, 3), 4);
  // Negative control: a tail of three (two cells) stays
  assert.equal(n('一二三四五六七八九', 0, 3), 6);
  // with one cell left, two characters then one lone: the note goes to the next column whole
  assert.equal(n('一二三', 0, 1), 0);
  // never 0 in a fresh column
  assert.equal(n('一二三', 0, 1, true), 2);
});

test('chooseChunk: keeps a closing mark off the head of a sub-column by moving the split', () => {
  // 6 in three cells: balanced split puts 。 at the left's head; the right takes it (4 + 2 does not fit three cells) …
  const a = chooseChunk(units('一二三。四五六七八'), 0, 6, false);
  const right = (c: { n: number; k: number }, s: string): string => Array.from(s).slice(0, c.k).join('');
  const left = (c: { n: number; k: number }, s: string): string => Array.from(s).slice(c.k, c.n).join('');
  assert.ok(!markOf(left(a, '一二三。四五六七八')[0])?.noStart, `left head ${left(a, '一二三。四五六七八')}`);
  // … and the next chunk does not start with 、
  const b = chooseChunk(units('一二三四五六、七八'), 0, 6, false);
  assert.ok(!markOf(Array.from('一二三四五六、七八')[b.n])?.noStart, `next head after ${b.n}`);
  // a short note that fits is never broken for punctuation
  assert.equal(n('一。二', 0, 10), 3);
  assert.deepEqual(right(chooseChunk(units('甲乙，丙丁'), 0, 20, false), '甲乙，丙丁'), '甲乙，');
  // A tail whose marks follow one character (史記三家注 卷一: 『眾』。」): no split within two units is legal, so the right takes all.
  for (const mode of [RIGID, HALF]) {
    const tail = chooseChunk(units('『眾』。」', mode), 0, 20, true);
    assert.equal(left(tail, '『眾』。」'), '', `${mode.standard}: left ${left(tail, '『眾』。」')}`);
  }
});

test('chooseChunk: no room for the closing mark after the note → the note continues in the next column', () => {
  // Six characters fill three cells exactly; the main text's 。 after the note would head the next column.
  const plain = chooseChunk(units('一二三四五六'), 0, 6, false, 0);
  assert.equal(plain.n, 6);
  const reserved = chooseChunk(units('一二三四五六七八'), 0, 6, false, 2);
  assert.ok(reserved.n < 8, `leaves part of the note for the next column (${reserved.n})`);
});

test('half cells: adjacent marks in a note take 1.5 cells, the split balances widths', () => {
  const us = units('曰：「號有熊。」', HALF);
  assert.deepEqual(us.map((u) => u.width), [2, 1, 2, 2, 2, 2, 1, 2]);
  const c = makeChunk(us, chooseChunk(us, 0, 40, false).k, 0);
  const w = (segs: typeof c.right): number => segs.reduce((s, g) => s + (g.advances ? g.advances.reduce((a, b) => a + b, 0) : Array.from(g.text).length), 0);
  assert.equal(c.cells, Math.max(w(c.right), w(c.left)));
  assert.ok(Math.abs(w(c.right) - w(c.left)) <= 1, `${w(c.right)} / ${w(c.left)}`);
});

test('judou: marks take no place and stay with the character before them', () => {
  const us = units('號有熊。徐廣曰：「然。」', JUDOU);
  assert.deepEqual(us.map((u) => u.chars.map((c) => c.ch).join('')), ['號', '有', '熊。', '徐', '廣', '曰：', '「然。」']);
  assert.ok(us.every((u) => u.width === 2));
  const c = makeChunk(us, 4, 0);
  assert.deepEqual(c.right.map((s) => [s.text, s.advances]), [['號有熊。徐', [1, 1, 1, 0, 1]]]);
  assert.equal(c.cells, 4);
});

test('makeChunk: right ceil(n/2), left the rest, segments by layer and depth', () => {
  const cs = [...chars('注文', 'zhu'), ...chars('音', 'yinyi'), ...chars('案', 'an', 2), ...chars('疏', 'shu')];
  const c = makeChunk(noteUnits(cs, RIGID), 3, 7);
  assert.deepEqual(c, {
    type: 'note',
    start: 7,
    cells: 3,
    right: [
      { layer: 'zhu', depth: 1, text: '注文' },
      { layer: 'yinyi', depth: 1, text: '音' },
    ],
    left: [
      { layer: 'an', depth: 2, text: '案' },
      { layer: 'shu', depth: 1, text: '疏' },
    ],
  });
});

/** Sets a note chunk by chunk as the engine does: the first column has `first` cells left, the next ones `cells`. */
function setNote(us: NoteUnit[], first: number, cells: number): { breaks: number; bad: number } {
  let cap = 2 * first;
  let fresh = false;
  let p = 0;
  let set = 0;
  let breaks = 0;
  let bad = 0;
  while (p < us.length) {
    const c = chooseChunk(us, p, cap, fresh);
    if (c.n > 0) {
      if (c.k < c.n && (us[p + c.k].noStart || us[p + c.k - 1].noEnd)) bad++;
      if (p + c.n < us.length && (us[p + c.n].noStart || us[p + c.n - 1].noEnd)) bad++;
      set += c.n;
      p += c.n;
    }
    if (p < us.length) breaks++;
    cap = 2 * cells;
    fresh = true;
  }
  assert.equal(set, us.length, 'every unit set once');
  return { breaks, bad };
}

/** Punctuated prose as the corpora write it: clauses, quotes opened after a colon and closed after a stop. */
function prose(rnd: () => number, length: number): string {
  const han = Array.from('禮經本義士冠筮于廟門主人玄端爵韠即位西方東面徐廣曰號有熊');
  let s = '';
  let quoted = false;
  while (Array.from(s).length < length) {
    s += Array.from({ length: 2 + Math.floor(rnd() * 7) }, () => han[Math.floor(rnd() * han.length)]).join('');
    const r = rnd();
    if (!quoted && r < 0.15) {
      s += '曰：「';
      quoted = true;
    } else if (quoted && r < 0.4) {
      s += rnd() < 0.7 ? '。」' : '？」';
      quoted = false;
    } else s += r < 0.7 ? '，' : r < 0.8 ? '、' : r < 0.9 ? '；' : '。';
  }
  return s;
}

test('chooseChunk on punctuated prose (phase sweep of note lengths and column starts): no 禁則 break', () => {
  let a = 12345;
  const rnd = (): number => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
  for (const mode of [RIGID, HALF]) {
    let breaks = 0;
    let bad = 0;
    for (let i = 0; i < 600; i++) {
      const us = noteUnits(chars(prose(rnd, 10 + Math.floor(rnd() * 90))), mode);
      const cells = 8 + Math.floor(rnd() * 17);
      const r = setNote(us, 1 + Math.floor(rnd() * cells), cells);
      breaks += r.breaks;
      bad += r.bad;
    }
    assert.ok(breaks > 300, `${breaks} breaks`);
    assert.equal(bad, 0, `${mode.grid}: ${bad} 禁則 breaks at ${breaks} column breaks`);
  }
});

test('chooseChunk on dense random punctuation: far fewer 禁則 breaks than the greedy split', () => {
  let a = 12345;
  const rnd = (): number => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
  const pool = Array.from('禮經本義士冠筮于廟門主人玄端爵韠即位西方東面。，、；「」');
  let bad = 0;
  let greedy = 0;
  for (let i = 0; i < 1500; i++) {
    const text = Array.from({ length: 5 + Math.floor(rnd() * 80) }, () => pool[Math.floor(rnd() * pool.length)]).join('');
    const us = noteUnits(chars(text), RIGID);
    const cells = 3 + Math.floor(rnd() * 20);
    const first = 1 + Math.floor(rnd() * cells);
    bad += setNote(us, first, cells).bad;
    // The peers' greedy chunks: min(rest, 2r), right ceil(n/2).
    let p = 0;
    let cap = 2 * first;
    while (p < us.length) {
      const n = Math.min(us.length - p, cap);
      const k = Math.ceil(n / 2);
      if (n >= 2 && (us[p + k]?.noStart || us[p + k - 1].noEnd)) greedy++;
      if (p + n < us.length && (us[p + n].noStart || us[p + n - 1].noEnd)) greedy++;
      p += n;
      cap = 2 * cells;
    }
  }
  assert.ok(bad * 10 < greedy, `${bad} 禁則 breaks vs ${greedy} greedy`);
});
