/**
 * The corrections workflow on the command line, run for real: check lists
 * each correction with its locator and reports an entry that matches nothing
 * at its own file:line:col (exit 1, the rest still listed); after a rebuild,
 * diff names the changed page, and --json gives it as a PDF page and a leaf.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { twoVolumeEdition, uniqueRun, fixMiddle, VOLUME_ONE, VOLUME_TWO } from '../engine/edition.test-util.js';

const BIN = path.resolve('bin/diaoban.js');
let root: string;
let dir: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-corrections-cli-'));
  dir = await twoVolumeEdition(root);
});
after(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function run(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, DIAOBAN_CACHE: path.join(root, 'cache') } });
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  return r;
}

test('check --corrections lists each correction with leaf, side, line and PDF page; a non-matching entry is an error at its line:col', async () => {
  const a = await uniqueRun(dir, VOLUME_ONE);
  await writeFile(path.join(dir, 'corrections.yaml'), `${fixMiddle(a, '之')}- find: 無此文字\n  replace: 有此文字\n${'- find: ""\n  after: 主人戒賓\n  replace: 衆\n  source: 阮刻本\n'}`);
  const r = run(['check', '--corrections', '--no-fonts', dir]);
  assert.equal(r.status, 1, 'an entry that matches nothing is an error');
  assert.match(r.stderr, /corrections\.yaml:4:3 error correction "無此文字" → "有此文字" matches nothing; it was not applied/);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 2, r.stdout);
  assert.match(lines[0], /corrections\.yaml:1:3 禮書卷一百十 葉[一二三四五六七八九十]+[ab] 第[一二三四五六七八]行 \(PDF p\. \d+\) 改 \S → 之  據某本改/);
  assert.match(lines[1], /corrections\.yaml:6:3 禮書綱目卷九 葉[一二三四五六七八九十]+[ab] 第[一二三四五六七八]行 \(PDF p\. \d+\) 補 ∅ → 衆  \[阮刻本\]/);
});

test('after a rebuild, diff names the changed page; --json gives PDF pages and leaves', async () => {
  await writeFile(path.join(dir, 'corrections.yaml'), '[]\n');
  const out = path.join(root, 'dist');
  assert.equal(run(['build', dir, '--out', out]).status, 0);
  await writeFile(path.join(dir, 'corrections.yaml'), fixMiddle(await uniqueRun(dir, VOLUME_TWO), '之'));
  const rebuild = run(['build', dir, '--out', out]);
  assert.equal(rebuild.status, 0, rebuild.stderr);
  assert.match(rebuild.stderr, /卷九: leaf \d+[ab] changed \(1 page\), reflow ends at \d+[ab]; 校勘記 leaf \d+[ab] \(1 page, 1 page more\)/);
  const text = run(['diff', dir, '--out', out]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^禮書綱目卷九: leaf (\d+[ab]) changed \(1 page\)/);
  const json = JSON.parse(run(['diff', dir, '--out', out, '--json']).stdout) as { volumes: Array<{ volume: string; pages: Array<{ pdfPage: number; leaf: string }>; count: number }>; corrections: Array<{ pdfPage: number }> };
  assert.equal(json.volumes.length, 1);
  assert.equal(json.volumes[0].count, 1);
  assert.equal(json.volumes[0].pages[0].pdfPage, json.corrections[0].pdfPage);
  assert.match(json.volumes[0].pages[0].leaf, /^\d+[ab]$/);
});
