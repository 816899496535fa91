/**
 * How the planned pages are cut into browser runs (pdf.ts runsOf): a work
 * in many short volumes is not a run per volume, a volume that grows moves
 * no run boundary outside its group of volumes, every run starts on a recto
 * and a long volume is cut as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlannedPage } from '../render/pdf/html.js';
import { runsOf, VOLUME_GROUP } from './pdf.js';

/** Planned pages of volumes with these page counts (each an even count: volumes start on a recto). */
function book(pages: readonly number[]): PlannedPage[] {
  return pages.flatMap((n, volume) => Array.from({ length: n }, (_, k): PlannedPage => ({ page: null, side: k % 2 === 0 ? 'recto' : 'verso', volume, volumeTitle: `卷${volume + 1}`, leaf: (k >> 1) + 1 })));
}

/** Each run as the volumes and pages it holds: `v:first-last`. */
const at = (p: PlannedPage): string => `${p.volume}:${p.leaf}${p.side === 'recto' ? 'a' : 'b'}`;
const shape = (runs: PlannedPage[][]): string[] => runs.map((r) => `${at(r[0])}-${at(r[r.length - 1])}`);

test('1,000 volumes of one leaf are runs of a group of volumes each, not a run a volume; every run starts on a recto', () => {
  const planned = book(Array.from({ length: 1000 }, () => 2));
  const runs = runsOf(planned, 32);
  assert.equal(runs.length, Math.ceil(1000 / VOLUME_GROUP));
  assert.ok(runs.every((r) => r.length <= 32 && r[0].side === 'recto'));
  assert.equal(runs.flat().length, planned.length, 'every page in one run');
  assert.ok(runs.every((r) => new Set(r.map((p) => Math.floor(p.volume / VOLUME_GROUP))).size === 1), 'a run holds volumes of one group');
});

test('a volume that grows moves no run boundary outside its group; one in the same group may move them within it', () => {
  const sizes = Array.from({ length: 3 * VOLUME_GROUP }, () => 6);
  const before = shape(runsOf(book(sizes), 32));
  const grown = [...sizes];
  grown[VOLUME_GROUP + 3] += 8;
  const after = shape(runsOf(book(grown), 32));
  const outside = (runs: string[]): string[] => runs.filter((r) => Math.floor(Number(r.split(':')[0]) / VOLUME_GROUP) !== 1);
  assert.deepEqual(outside(after), outside(before), 'the runs of the other groups are as they were');
  assert.notDeepEqual(after, before, 'negative control: the grown volume’s group is cut anew');
});

test('long volumes are cut as before: a run starts at each, and every 32 pages within one', () => {
  const runs = runsOf(book([70, 40, 2]), 32);
  assert.deepEqual(shape(runs), ['0:1a-0:16b', '0:17a-0:32b', '0:33a-0:35b', '1:1a-1:16b', '1:17a-2:1b']);
});
