import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedPages, describeChanges, pageRecords, type PageRecord } from './changes.js';
import type { PlannedPage } from '../render/pdf/index.js';
import type { Column, Page } from '../layout/types.js';

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

test('page hashes follow what the page prints, though its columns are the same objects from build to build', () => {
  const columns = [{ runs: [{ type: 'text', chars: [{ ch: '天' }] }] }] as unknown as Column[];
  const planned = (extra: Partial<Page> = {}): PlannedPage[] => [
    {
      page: { number: 1, pageInVolume: 1, leaf: 1, side: 'recto', volume: 0, volumeTitle: '卷一', bookmarks: [], columns, ...extra },
      side: 'recto',
      volume: 0,
      volumeTitle: '卷一',
      leaf: 1,
    },
  ];
  const hash = (p: PlannedPage[], salt = 'salt', numbers = true): string => pageRecords(p, '書', salt, numbers)[0].hash;
  const base = hash(planned());
  assert.equal(hash(planned()), base, 'the same page, the same hash');
  assert.equal(hash(planned({ number: 7 })), base, 'its number in the book is not printed');
  const mark = { number: 1, column: 0, cell: 0, sub: null, kind: '改' } as unknown as NonNullable<Page['corrections']>[number];
  const marked = hash(planned({ corrections: [mark] }));
  assert.notEqual(marked, base, 'a correction mark on the same columns changes the page');
  assert.notEqual(hash(planned({ corrections: [{ ...mark, number: 2 }] })), marked, 'a numbered mark that renumbers changes the page');
  assert.equal(hash(planned({ corrections: [{ ...mark, number: 2 }] }), 'salt', false), hash(planned({ corrections: [mark] }), 'salt', false), 'a ○ mark has no number to print');
  assert.notEqual(hash(planned(), 'other'), base, 'the salt (template, size, title) is in every hash');
});
