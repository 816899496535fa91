/**
 * A paragraph of any length: no stage spreads its characters as arguments
 * (`push(...units)` overflows the stack past ~100,000 of them; a 150,000
 * character paragraph failed the EPUB's page list so). Every character comes
 * out once, in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mainUnits, type Mode } from './units.js';
import type { MainChar } from './flatten.js';
import { append, fromCodePoints } from '../tree/append.js';

const MODE: Mode = { standard: 'mainland', grid: 'half', adjacent: 1, hanging: false, kinsoku: 'basic' };
const HAN = Array.from('主人戒賓賓禮辭許主人再拜賓答拜主人退賓拜辱');

test('one run of 150,000 characters makes its units with every character once, in order', () => {
  const chars: MainChar[] = Array.from({ length: 150_000 }, (_, i) => ({ kind: 'main', ch: HAN[i % HAN.length] }));
  // The negative control: what the layout did before is what overflows.
  assert.throws(() => [].push(...(chars as never[])), RangeError);
  const units = mainUnits(chars, MODE);
  let n = 0;
  let misplaced = 0;
  for (const unit of units) for (const c of unit.chars) if (c !== chars[n++]) misplaced++;
  assert.equal(n, chars.length);
  assert.equal(misplaced, 0);
});

test('append and fromCodePoints take any number of items', () => {
  const big = Array.from({ length: 200_000 }, (_, i) => 0x4e00 + (i % 20_000));
  const target = [1];
  append(target, big);
  assert.equal(target.length, 200_001);
  assert.equal(target[200_000], big[199_999]);
  const text = fromCodePoints(big);
  assert.equal(text.length, 200_000);
  assert.equal(text.codePointAt(199_999), big[199_999]);
  assert.throws(() => String.fromCodePoint(...big), RangeError);
});
