/**
 * The remembered parse and transform give the trees and messages of the
 * stages run afresh: on the five samples, on an edition with corrections,
 * and again after a correction changed one volume (which alone is redone).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
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

/** Entries of one kind in a build cache folder. */
async function entries(cacheDir: string, kind: string): Promise<string[]> {
  const shards = await readdir(path.join(cacheDir, kind)).catch(() => [] as string[]);
  return (await Promise.all(shards.map((s) => readdir(path.join(cacheDir, kind, s))))).flat().sort();
}

/** The volume keys in a kind's tables (one entry a book, a JSON object by volume key). */
async function tableKeys(cacheDir: string, kind: string): Promise<string[]> {
  const reader = new BuildCache(cacheDir);
  const keys: string[] = [];
  for (const name of await entries(cacheDir, kind)) keys.push(...Object.keys((await reader.getJson<Record<string, unknown>>(kind, name)) ?? {}));
  return keys.sort();
}

test('a new process finds parse, counts, split and conversion on disk: the same trees, and only a corrected volume is classified and converted again', async () => {
  const cacheDir = path.join(root, 'disk-cache');
  // A new BuildCache on the same folder is what a new `diaoban build` opens: nothing in memory.
  const fresh = (): ReturnType<typeof loadMemo> => loadMemo(new BuildCache(cacheDir));
  // A 集注 (○某曰 in the notes, in two volumes): the book's decision splits every volume, so the split path is taken too.
  const jizhu = path.join(root, 'jizhu');
  await mkdir(jizhu, { recursive: true });
  const notes = (a: string) => ['【吾子之言○祕曰子雲自謂○光曰謂揚子也】', `【言聖人${a}○祕曰聖人作○光曰作者】`, '【道也○祕曰道○光曰德】'].join('文');
  await writeFile(path.join(jizhu, 'fayan.txt'), `法言卷上\n\n經${notes('甲')}終\n\n法言卷下\n\n經${notes('乙')}終\n`);
  await writeFile(path.join(jizhu, 'edition.yaml'), 'title: 法言\nauthor: 揚雄\nlanguage: zh-Hant\nscript: traditional\ntemplate: siku\nsources:\n  - fayan.txt\ncorrections: corrections.yaml\n');
  await writeFile(path.join(jizhu, 'corrections.yaml'), '[]\n');
  const jizhuTree = await loadEdition(jizhu, { memo: fresh() });
  assert.ok(jizhuTree.tree.layers?.some((l) => l.label === '祕'), 'the 集注 is split');
  for (const dir of [path.join(REPO, 'manuscript', 'lijing-benyi'), path.join(REPO, 'manuscript', 'yili-zhushu'), jizhu]) {
    await loadEdition(dir, { memo: fresh() });
    await same(dir, fresh());
  }
  assert.ok((await entries(cacheDir, 'split')).length > 0, 'splits are kept');

  const dir = await twoVolumeEdition(path.join(root, 'disk'));
  await loadEdition(dir, { memo: fresh() });
  const before = { classify: await tableKeys(cacheDir, 'classify'), transform: await entries(cacheDir, 'transform') };
  await writeFile(path.join(dir, 'corrections.yaml'), fixMiddle(await uniqueRun(dir, VOLUME_TWO), '之'));
  await same(dir, fresh());
  const added = (now: string[], was: string[]): number => now.filter((k) => !was.includes(k)).length;
  // Negative control in the same run: the correction did change a volume (one new entry of each kind, not none).
  assert.equal(added(await tableKeys(cacheDir, 'classify'), before.classify), 1, 'one volume classified again');
  assert.equal(added(await entries(cacheDir, 'transform'), before.transform), 1, 'one volume converted again');
});
