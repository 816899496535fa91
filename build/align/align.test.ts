import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { alignText, alignUnits, unitSpanToOffsets, type AlignOp, type Alignment } from './index.js';

/** 潛夫論 卷一 (四部叢刊), its text only: a real text for the block tests. */
const QIANFU = readFileSync('../shared/corpora/kanripo/KR3a0010/KR3a0010_001.txt', 'utf8')
  .split('\n')
  .filter((line) => !line.startsWith('#'))
  .join('')
  .replace(/<[^>]*>|¶|\s/g, '');

const edits = (al: Alignment): AlignOp[] => al.ops.filter((op) => op.type !== 'equal');
const chars = (s: string, span: { start: number; end: number }): string => Array.from(s).slice(span.start, span.end).join('');

/** The ops cover both sequences once, in order. */
function assertCovers(al: Pick<Alignment, 'ops'>, n: number, m: number, from = { a: 0, b: 0 }): void {
  let i = from.a;
  let j = from.b;
  for (const op of al.ops) {
    assert.equal(op.a.start, i);
    assert.equal(op.b.start, j);
    if (op.type === 'equal' || op.type === 'replace') assert.ok(op.a.end > op.a.start && op.b.end > op.b.start);
    if (op.type === 'delete') assert.equal(op.b.end, op.b.start);
    if (op.type === 'insert') assert.equal(op.a.end, op.a.start);
    i = op.a.end;
    j = op.b.end;
  }
  assert.deepEqual([i, j], [n, m]);
}

test('identical texts are one equal run; a different character is one replacement at its place', () => {
  const same = alignUnits(Array.from(QIANFU), Array.from(QIANFU));
  assert.equal(same.ops.length, 1);
  assert.equal(same.matched, Array.from(QIANFU).length);
  const units = Array.from(QIANFU);
  const at = 2000;
  const changed = [...units.slice(0, at), '擴', ...units.slice(at + 1)];
  const al = alignUnits(units, changed);
  assert.deepEqual(edits(al), [{ type: 'replace', a: { start: at, end: at + 1 }, b: { start: at, end: at + 1 } }]);
  assertCovers(al, units.length, changed.length);
});

test('a missing block is one deletion, an added block one insertion, even where common characters inside it match elsewhere', () => {
  const units = Array.from(QIANFU);
  const from = 1500;
  const without = [...units.slice(0, from), ...units.slice(from + 120)];
  const al = alignUnits(units, without);
  assert.deepEqual(edits(al), [{ type: 'delete', a: { start: from, end: from + 120 }, b: { start: from, end: from } }]);
  const back = alignUnits(without, units);
  assert.deepEqual(edits(back), [{ type: 'insert', a: { start: from, end: from }, b: { start: from, end: from + 120 } }]);
  // Control: an unrelated block of the same size put in its place is a replacement, not a move or a deletion.
  const other = [...units.slice(0, from), ...Array.from('天地玄黃宇宙洪荒日月盈昃辰宿列張'.repeat(8)).slice(0, 120), ...units.slice(from + 120)];
  const replaced = edits(alignUnits(units, other));
  assert.equal(replaced.length, 1);
  assert.equal(replaced[0].type, 'replace');
});

test('a block moved is one move: a deletion where it was and an insertion where it went, linked', () => {
  const units = Array.from(QIANFU);
  const block = units.slice(1000, 1200);
  const moved = [...units.slice(0, 1000), ...units.slice(1200, 3000), ...block, ...units.slice(3000)];
  const al = alignUnits(units, moved);
  assert.equal(al.moves.length, 1);
  const [move] = al.moves;
  assert.deepEqual(move.a, { start: 1000, end: 1200 });
  assert.deepEqual(move.b, { start: 2800, end: 3000 });
  const del = al.ops.find((op) => op.type === 'delete');
  const ins = al.ops.find((op) => op.type === 'insert');
  assert.equal(del?.type === 'delete' && del.move, 0);
  assert.equal(ins?.type === 'insert' && ins.move, 0);
  assert.equal(edits(al).length, 2);
  assert.equal(al.matched, units.length);
  // Control: without moves (minMove 0) the same texts are a deletion and an insertion, unlinked.
  const plain = alignUnits(units, moved, { minMove: 0 });
  assert.equal(plain.moves.length, 0);
  assert.ok(edits(plain).every((op) => !('move' in op) || op.move === undefined));
});

test('the equivalence folds units: variant forms under a key match, and without it they do not', () => {
  const a = Array.from('師庶秀孔子師老聃');
  const b = Array.from('師庻秀孔子師老耼');
  const fold: Record<string, string> = { 庻: '庶', 耼: '聃' };
  assert.equal(edits(alignUnits(a, b, { key: (u) => fold[u] ?? u })).length, 0);
  assert.equal(edits(alignUnits(a, b)).length, 2);
});

test('alignText sets punctuation and markup aside and maps places back to the original strings', () => {
  const a = '天地之所貴者，人也；聖人之所尚者，義也。';
  const b = '<pb:1a>天地之所貴者人也¶聖人之所尚者誼也';
  const al = alignText(a, b, { keep: (c) => /\p{Script=Han}/u.test(c) });
  const [op] = edits(al);
  assert.equal(op.type, 'replace');
  const inA = unitSpanToOffsets(al.units.a, op.a);
  const inB = unitSpanToOffsets(al.units.b, op.b);
  assert.equal(a.slice(inA.start, inA.end), '義');
  assert.equal(b.slice(inB.start, inB.end), '誼');
  // An insertion stands right after the character before it.
  const ins = alignText('學問也', '學問者也');
  const insOp = edits(ins)[0];
  assert.equal(insOp.type, 'insert');
  assert.deepEqual(unitSpanToOffsets(ins.units.a, insOp.a), { start: 2, end: 2 });
});

test('property: the ops cover both texts in order, and equal runs hold equal units', () => {
  const alphabet = fc.constantFrom(...Array.from('之乎者也天地人'));
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 300 }), fc.array(alphabet, { maxLength: 300 }), fc.nat(300), (a, tail, cut) => {
      // b: a with a block moved to its end, then random units (moves get exercised)
      const b = [...a.slice(0, cut), ...a.slice(cut + 40), ...a.slice(cut, cut + 40), ...tail];
      const al = alignUnits(a, b, { minMove: 4 });
      assertCovers(al, a.length, b.length);
      for (const op of al.ops) if (op.type === 'equal') assert.equal(a.slice(op.a.start, op.a.end).join(''), b.slice(op.b.start, op.b.end).join(''));
      for (const move of al.moves) assertCovers({ ops: move.ops }, move.a.end, move.b.end, { a: move.a.start, b: move.b.start });
    }),
    { numRuns: 200, seed: 32 },
  );
});

test('a long text against itself with scattered edits: each edit is found at its place', () => {
  const units = Array.from(QIANFU);
  const places = [300, 1700, 2950, 4400];
  const b = units.slice();
  for (const p of places) b[p] = '擴';
  const found = edits(alignUnits(units, b)).map((op) => op.a.start);
  assert.deepEqual(found, places);
  assert.equal(chars(QIANFU, { start: places[0], end: places[0] + 1 }), units[places[0]]);
});
