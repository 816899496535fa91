import { test } from 'node:test';
import assert from 'node:assert/strict';
import { popupLayersFromOption } from './notes-option.js';

test('--notes: inline, popup (edition list or 疏/附注), popup=<ids or labels>', () => {
  assert.deepEqual(popupLayersFromOption(undefined, ['fuzhu']), ['fuzhu']);
  assert.deepEqual(popupLayersFromOption('inline', ['fuzhu']), []);
  assert.deepEqual(popupLayersFromOption('popup', ['fuzhu']), ['fuzhu']);
  assert.deepEqual(popupLayersFromOption('popup', []), ['shu', 'fuzhu']);
  assert.deepEqual(popupLayersFromOption('popup=shu,yinyi', []), ['shu', 'yinyi']);
  assert.deepEqual(popupLayersFromOption('popup=疏、附註', []), ['shu', 'fuzhu']);
  assert.deepEqual(popupLayersFromOption('popup=mylayer', []), ['mylayer']);
  assert.throws(() => popupLayersFromOption('sometimes', []), /expected inline, popup/);
  assert.throws(() => popupLayersFromOption('popup=某層', []), /unknown layer/);
});
