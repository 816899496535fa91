/**
 * The property over generated manuscripts (fuzz.ts), a small fixed sample:
 * parse and transform never throw, every Han character of the input reaches
 * the tree or a message, none appears that the input did not have, every
 * error has a position. `npm run fuzz` runs 300 (and counts hangs);
 * `npm run bench -- parse` measures time and memory at 10k, 100k and 1M characters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkInput, manuscript } from './fuzz.js';

test('generated manuscripts: no crash, nothing lost or garbled, every error positioned', () => {
  fc.assert(
    fc.property(manuscript, (m) => {
      const o = checkInput(m);
      assert.equal(o.crashed, undefined, o.crashed);
      assert.equal(o.lost, 0, 'characters lost');
      assert.equal(o.garbled, 0, 'characters garbled');
      assert.equal(o.unpositioned, 0, 'errors without a position');
    }),
    { seed: 7, numRuns: 40 },
  );
});

test('1,500 nested 【 and a line of 200,000 unclosed 【: reported, flattened, no crash', () => {
  for (const text of ['【'.repeat(1500) + '甲' + '】'.repeat(1500), '乙' + '【'.repeat(200000)]) {
    const o = checkInput({ text, path: 'deep.txt', encoding: 'utf-8', bad: [] });
    assert.equal(o.crashed, undefined, o.crashed);
    assert.equal(o.lost, 0);
  }
});
