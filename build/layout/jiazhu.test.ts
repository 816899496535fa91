import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseChunk, isClosingPunct, makeChunk, segmentsOf } from './jiazhu.js';
import type { NoteChar } from './flatten.js';

const chars = (s: string, layer = 'zhu', depth = 1): NoteChar[] =>
  Array.from(s, (ch) => ({ kind: 'note' as const, ch, layer, depth }));

test('chooseChunk: greedy min(rest, 2r) when nothing is wrong', () => {
  assert.equal(chooseChunk(chars('一二三四五六七八九十'), 0, 6, false), 6);
  assert.equal(chooseChunk(chars('一二三'), 0, 6, false), 3);
  assert.equal(chooseChunk(chars('一二三四五六七八九十'), 7, 6, false), 3);
});

test('chooseChunk: moves one character rather than leave a lone one', () => {
  assert.equal(chooseChunk(chars('一二三四五六七'), 0, 6, false), 5);
  // with one cell left, two characters then one lone: the note goes to the next column whole
  assert.equal(chooseChunk(chars('一二三'), 0, 2, false), 0);
  // never 0 in a fresh column
  assert.equal(chooseChunk(chars('一二三'), 0, 2, true), 2);
});

test('chooseChunk: keeps closing punctuation off the head of a sub-column', () => {
  // split of 6 (and of 5) → left starts at index 3: take 4
  assert.equal(chooseChunk(chars('一二三。四五六七八'), 0, 6, false), 4);
  // next chunk would start with 、
  assert.equal(chooseChunk(chars('一二三四五六、七八'), 0, 6, false), 5);
  // a short note that fits is never broken for punctuation
  assert.equal(chooseChunk(chars('一。二'), 0, 20, false), 3);
});

test('isClosingPunct', () => {
  for (const ch of Array.from('、。，；：？！」』）〉》】')) assert.ok(isClosingPunct(ch), ch);
  for (const ch of Array.from('「『（〈《【一○𠀋')) assert.ok(!isClosingPunct(ch), ch);
});

test('makeChunk: right ceil(n/2), left the rest, segments by layer and depth', () => {
  const c = makeChunk([...chars('注文', 'zhu'), ...chars('音', 'yinyi'), ...chars('案', 'an', 2), ...chars('疏', 'shu')], 7);
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
  assert.deepEqual(segmentsOf([]), []);
});

test('chooseChunk on random notes: punctuation heads and lone chunks at column breaks mostly avoided, every character kept', () => {
  let a = 12345;
  const rnd = () => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296);
  const pool = Array.from('禮經本義士冠筮于廟門主人玄端爵韠即位西方東面。，、；');
  let heads = 0;
  let greedyHeads = 0;
  let lone = 0;
  let breaks = 0;
  for (let i = 0; i < 2000; i++) {
    const note = chars(Array.from({ length: 5 + Math.floor(rnd() * 80) }, () => pool[Math.floor(rnd() * pool.length)]).join(''));
    const cells = 3 + Math.floor(rnd() * 20);
    const first = 1 + Math.floor(rnd() * cells);
    const count = (choose: (p: number, cap: number, fresh: boolean) => number, ours: boolean): number => {
      let h = 0;
      let p = 0;
      let cap = 2 * first;
      let fresh = false;
      let set = 0;
      while (p < note.length) {
        const n = choose(p, cap, fresh);
        if (n > 0) {
          const rest = note.length - p;
          if (n < rest || p > 0) {
            // a chunk at a column break: its sub-column heads could have been chosen
            if (p > 0 && isClosingPunct(note[p].ch)) h++;
            if (n >= 2 && isClosingPunct(note[p + Math.ceil(n / 2)].ch)) h++;
          }
          if (ours && n === 1 && (p > 0 || n < rest)) lone++;
          set += n;
          p += n;
        }
        if (ours && p < note.length) breaks++;
        cap = 2 * cells;
        fresh = true;
      }
      assert.equal(set, note.length);
      return h;
    };
    heads += count((p, cap, fresh) => chooseChunk(note, p, cap, fresh), true);
    greedyHeads += count((p, cap) => Math.min(note.length - p, cap), false);
  }
  assert.ok(breaks > 1000, `${breaks} breaks`);
  assert.ok(heads * 4 < greedyHeads, `${heads} punctuation heads vs ${greedyHeads} greedy`);
  assert.ok(lone * 20 < breaks, `${lone} lone chunks at ${breaks} breaks`);
});
