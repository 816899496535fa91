/**
 * The property over generated manuscripts (fuzz.ts), a small fixed sample:
 * parse and transform never throw, every Han character of the input reaches
 * the tree or a message, none appears that the input did not have, every
 * error has a position, and the work stays linear. `npm run fuzz` runs 300.
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

test('the work stays linear: 8× the input takes well under 20× the time', () => {
  const line = '主人戒賓【戒猶警也〈告也〉】賓禮辭(許/諾)¶<pb:KR1_X_001-1a>&KR0002;{艹虑}【【【】\n';
  const time = (n: number) => {
    const text = line.repeat(n);
    const t0 = performance.now();
    checkInput({ text, path: 'big.txt', encoding: 'utf-8', bad: [] });
    return performance.now() - t0;
  };
  time(200); // warm-up
  const small = Math.min(time(500), time(500));
  const large = Math.min(time(4000), time(4000));
  assert.ok(large < small * 20, `500 lines ${small.toFixed(0)} ms, 4000 lines ${large.toFixed(0)} ms`);
});

test('1,500 nested 【 and a line of 200,000 unclosed 【: reported, flattened, no crash', () => {
  for (const text of ['【'.repeat(1500) + '甲' + '】'.repeat(1500), '乙' + '【'.repeat(200000)]) {
    const o = checkInput({ text, path: 'deep.txt', encoding: 'utf-8', bad: [] });
    assert.equal(o.crashed, undefined, o.crashed);
    assert.equal(o.lost, 0);
  }
});
