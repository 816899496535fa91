/**
 * The remembered parse and transform give the trees and messages of the
 * stages run afresh: on the five samples, on an edition with corrections,
 * and again after a correction changed one volume (which alone is redone).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SAMPLES, REPO } from './samples.js';
import { BuildCache } from './cache.js';
import { fixMiddle, twoVolumeEdition, uniqueRun, VOLUME_ONE, VOLUME_TWO } from './edition.test-util.js';
import { loadEdition } from './load.js';
import { loadMemo } from './load-memo.js';

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-load-memo-'));
});
after(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function same(dir: string, memo: ReturnType<typeof loadMemo>): Promise<void> {
  const fresh = await loadEdition(dir);
  const remembered = await loadEdition(dir, { memo });
  assert.equal(JSON.stringify(remembered.tree), JSON.stringify(fresh.tree), `${dir}: the tree`);
  assert.equal(JSON.stringify(remembered.parsed), JSON.stringify(fresh.parsed), `${dir}: the parsed tree`);
  assert.deepEqual(remembered.messages.map(String).sort(), fresh.messages.map(String).sort(), `${dir}: the messages`);
}

test('remembered parse and transform equal the stages run afresh, first time and again', async () => {
  const memo = loadMemo(new BuildCache(path.join(root, 'cache')));
  for (const work of SAMPLES) {
    await same(path.join(REPO, 'manuscript', work), memo);
    await same(path.join(REPO, 'manuscript', work), memo);
  }
  const dir = await twoVolumeEdition(root);
  const one = fixMiddle(await uniqueRun(dir, VOLUME_ONE), '之');
  await writeFile(path.join(dir, 'corrections.yaml'), one + '- find: 無此文\n  replace: 有此文\n');
  await same(dir, memo);
  const before = await loadEdition(dir, { memo });
  await writeFile(path.join(dir, 'corrections.yaml'), one + fixMiddle(await uniqueRun(dir, VOLUME_TWO), '龘'));
  await same(dir, memo);
  const after = await loadEdition(dir, { memo });
  assert.equal(after.tree.children[0], before.tree.children[0], 'the volume no correction reached is the one remembered');
  assert.notEqual(after.tree.children[1], before.tree.children[1]);
});
