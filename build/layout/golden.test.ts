/**
 * The five sample editions, laid out for real: the invariants on every page,
 * and the first two pages of each against golden JSON
 * (build/layout/golden/<work>.json; rewrite with UPDATE_GOLDEN=1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { layoutBook } from './book.js';
import type { NoteChunk, Page } from './types.js';
import { formatLayout } from './text.js';
import { pageSpecFor } from './spec.js';
import { loadSample, REPO, SAMPLES } from '../engine/samples.js';
import { layoutProblems, pagesChars, volumeChars } from './test-helpers.js';

const GOLDEN = path.join(REPO, 'build/layout/golden');

/** Where each run of front-matter columns ends: the page side and index of the column after it. */
function frontEnds(pages: readonly Page[]): { side: Page['side']; index: number }[] {
  const columns = pages.flatMap((page) => page.columns.map((column) => ({ side: page.side, index: column.index, front: column.role === 'front' })));
  return columns.filter((c, i) => i > 0 && columns[i - 1].front && !c.front);
}

/** A chunk's height in cells when each sub-column holds one character at most. */
const noteCells = (r: NoteChunk): number => Math.max(...[r.right, r.left].map((side) => Array.from(side.map((x) => x.text).join('')).length));

/** Each sample is loaded once for both of its tests. */
const loaded = new Map<string, ReturnType<typeof loadSample>>();
function sample(work: string): ReturnType<typeof loadSample> {
  let result = loaded.get(work);
  if (!result) loaded.set(work, (result = loadSample(work)));
  return result;
}

for (const work of SAMPLES) {
  test(`${work}: every character laid out once, every page within the grid`, async () => {
    const { config, tree } = await sample(work);
    const spec = pageSpecFor(config.meta.template, config.layout);
    const book = layoutBook(tree, spec);
    assert.ok(book.volumes.length > 0);
    book.volumes.forEach((v, i) => {
      assert.equal(pagesChars(v.pages), volumeChars(tree.children[i]), `volume ${i}`);
      assert.deepEqual(layoutProblems(v, spec), [], `volume ${i}`);
      assert.equal(v.pages[0].number % 2, 1, `volume ${i} starts on a recto`);
      for (const t of frontEnds(v.pages)) assert.equal(`${t.side} column ${t.index}`, 'recto column 0', `volume ${i}: after the front matter`);
      // No blank column (after a volume's title, a byline or anywhere): the samples' sources have none.
      const blank = v.pages.flatMap((p) => p.columns.filter((c) => c.runs.every((r) => r.type === 'text' && r.text.trim() === '')).map((c) => `p. ${p.pageInVolume} column ${c.index}`));
      assert.deepEqual(blank, [], `volume ${i}: blank columns`);
      // No note ends in a tail of one character a sub-column at the head of a column (次｜也): layout/jiazhu.ts moves characters into it.
      const columns = v.pages.flatMap((p) => p.columns.map((c) => ({ page: p.pageInVolume, c })));
      const tails = columns.filter(({ c }, k) => {
        const [first] = c.runs;
        const before = columns[k - 1]?.c.runs.at(-1);
        return first?.type === 'note' && first.start === 0 && before?.type === 'note' && (c.runs.length === 1 || c.runs[1].type === 'text') && noteCells(first) <= 1;
      });
      assert.deepEqual(tails.map(({ page, c }) => `p. ${page} column ${c.index}`), [], `volume ${i}: one-cell note tails`);
    });
    if (work === 'lijing-benyi') assert.equal(frontEnds(book.volumes[0].pages).length, 1, '提要 at the head of volume 1');
  });

  test(`${work}: first two pages match golden/${work}.json`, async () => {
    const { config, tree } = await sample(work);
    const book = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
    const json = formatLayout(book, { json: true, pages: [1, 2] });
    const file = path.join(GOLDEN, `${work}.json`);
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, json);
    }
    assert.ok(existsSync(file), `no golden file ${path.relative(REPO, file)}: run with UPDATE_GOLDEN=1`);
    assert.equal(json, readFileSync(file, 'utf8'), `${work}: layout changed; check it and run with UPDATE_GOLDEN=1`);
  });
}
