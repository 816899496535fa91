import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedPages, describeChanges, type PageRecord } from './changes.js';

const page = (volume: number, n: number, hash: string, extra: Partial<PageRecord> = {}): PageRecord => ({
  volume,
  volumeLabel: `卷${'一二三'[volume]}`,
  pdfPage: n,
  leaf: `${Math.ceil(n / 2)}${n % 2 ? 'a' : 'b'}`,
  hash,
  ...extra,
});

test('changed pages per volume: first and last, count, reflow end; the 校勘記 apart; blank versos are no plates', () => {
  const before = [page(0, 1, 'a'), page(0, 2, 'b'), page(0, 3, 'c'), page(0, 4, 'blank', { blank: true }), page(1, 5, 'x'), page(1, 6, 'y')];
  // Volume one: a fix on page 2 that reflows to page 3; its 校勘記 takes the blank verso's place. Volume two unchanged.
  const after = [page(0, 1, 'a'), page(0, 2, 'B'), page(0, 3, 'C'), page(0, 4, 'jiao', { collation: true }), page(1, 5, 'x'), page(1, 6, 'y')];
  const changes = changedPages(before, after);
  assert.equal(changes.length, 1);
  assert.deepEqual(changes[0].pages.map((p) => p.leaf), ['1b', '2a']);
  assert.deepEqual(changes[0].collation.map((p) => p.leaf), ['2b']);
  assert.deepEqual(describeChanges(changes), ['卷一: leaves 1b–2a changed (2 pages), reflow ends at 2a; 校勘記 leaf 2b (1 page, 1 page more)']);
  assert.deepEqual(describeChanges(changedPages(after, after)), ['no page changed']);
  // A volume that grows by a page: the new page is changed, the growth said.
  const longer = [...after.slice(0, 4), page(0, 5, 'more'), ...after.slice(4).map((p) => ({ ...p, pdfPage: p.pdfPage + 1 }))];
  assert.match(describeChanges(changedPages(after, longer))[0], /^卷一: leaf 3a changed \(1 page, 1 page more\)/);
});
