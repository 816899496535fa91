import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isKnownTemplate, pageSpecFor, templateNames } from './spec.js';

test('siku is 8 × 21, modern 10 × 24', () => {
  const siku = pageSpecFor('siku', {});
  const modern = pageSpecFor('modern', {});
  assert.deepEqual([siku.columns, siku.cells], [8, 21]);
  assert.deepEqual([modern.columns, modern.cells], [10, 24]);
  assert.ok(templateNames.includes('siku') && templateNames.includes('modern'));
});

test('edition overrides replace columns, cells and single indents', () => {
  const spec = pageSpecFor('siku', { columns: 9, cells: 20, indents: { label: { first: 3, rest: 1 } } });
  assert.deepEqual([spec.columns, spec.cells], [9, 20]);
  assert.deepEqual(spec.indents.label, { first: 3, rest: 1 });
  assert.deepEqual(spec.indents.text, pageSpecFor('siku').indents.text);
});

test('an unknown template gives the default grid; isKnownTemplate lets the caller warn', () => {
  assert.equal(isKnownTemplate('nonesuch'), false);
  assert.equal(isKnownTemplate('siku'), true);
  assert.deepEqual(pageSpecFor('nonesuch', {}), pageSpecFor('siku', {}));
});

test('overrides that make no grid throw a plain Error with a clear message', () => {
  assert.throws(() => pageSpecFor('siku', { columns: 0 }), /columns must be a positive integer/);
  assert.throws(() => pageSpecFor('siku', { cells: 2.5 }), /cells must be a positive integer/);
  assert.throws(() => pageSpecFor('siku', { indents: { ji: { first: -1, rest: 0 } } }), /indent ji\.first/);
});

test('the spec is a fresh object: changing it does not change the template', () => {
  const a = pageSpecFor('siku');
  a.indents.text.first = 5;
  assert.equal(pageSpecFor('siku').indents.text.first, 0);
});
