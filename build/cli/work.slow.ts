/**
 * Whole works, run for real: `init FOLDER` on a Kanripo repository (its
 * juan files in order, `_000` the front matter, title, author, witness),
 * `tree`, `check` and `build` on a folder of a work's files with no
 * edition.yaml, an edition.yaml without title or author, and a folder, a
 * FIFO or a device named as a source: a message, never EISDIR nor a hang.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import git from 'isomorphic-git';
import * as fs from 'node:fs';

const BIN = path.resolve('bin/diaoban.js');
const KANRIPO = path.resolve('../shared/corpora/kanripo');

function run(args: string[], cwd = process.cwd()) {
  // A hang (a FIFO read to its end) fails the test instead of stalling it.
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 28 });
  assert.equal(result.signal, null, `${args.join(' ')} did not end`);
  assert.doesNotMatch(result.stderr, /\n\s+at |EISDIR/, 'no stack trace, no raw EISDIR');
  return result;
}

const work = mkdtempSync(path.join(tmpdir(), 'diaoban-work-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A copy of some of a repository's juan files (a Kanripo clone as a user has it, with its Readme.org). */
function repository(id: string, count: number): string {
  const dir = path.join(work, `${id}-${count}`);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(path.join(KANRIPO, id)).sort().slice(0, count)) copyFileSync(path.join(KANRIPO, id, name), path.join(dir, name));
  writeFileSync(path.join(dir, 'Readme.org'), '#+TITLE: notes of the repository\n');
  return dir;
}

test('init FOLDER on a Kanripo repository: every juan file copied in order, _000 the front matter, title, author and witness from the text', () => {
  const target = path.join(work, 'shujing');
  const made = run(['init', path.join(KANRIPO, 'KR1b0017'), target], work);
  assert.equal(made.status, 0, made.stderr);
  const yaml = readFileSync(path.join(target, 'edition.yaml'), 'utf8');
  assert.match(yaml, /^title: 書經集傳 # found in metadata/mu);
  assert.match(yaml, /^author: 蔡沈 # contributors \(the byline, KR1b0017_001\.txt\): 宋 蔡沈 撰$/mu);
  assert.match(yaml, /^dynasty: 宋$/mu);
  assert.match(yaml, /^witness: WYG # the edition the text follows \(BASEEDITION\): 文淵閣四庫全書本$/mu);
  assert.match(yaml, /^format: kanripo$/mu);
  const sources = [...yaml.matchAll(/^ {2}- (\S+)/gmu)].map((m) => m[1]);
  assert.deepEqual(sources, readdirSync(path.join(KANRIPO, 'KR1b0017')).sort());
  assert.match(yaml, /- KR1b0017_000\.txt # front matter/u);
  for (const name of sources) assert.ok(existsSync(path.join(target, name!)), `${name} copied`);
  // init never overwrites.
  const again = run(['init', path.join(KANRIPO, 'KR1b0017'), target], work);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /exists already; init never overwrites/);
});

test('init FOLDER FOLDER writes edition.yaml beside the files, copying nothing; a folder with no text names none', () => {
  const repo = repository('KR3l0001', 3);
  const made = run(['init', repo, repo], work);
  assert.equal(made.status, 0, made.stderr);
  assert.deepEqual(readdirSync(repo).sort(), ['KR3l0001_000.txt', 'KR3l0001_001.txt', 'KR3l0001_002.txt', 'Readme.org', 'edition.yaml']);
  assert.match(readFileSync(path.join(repo, 'edition.yaml'), 'utf8'), /^title: 西京雜記/mu);
  const empty = path.join(work, 'empty');
  mkdirSync(empty);
  writeFileSync(path.join(empty, 'Readme.org'), 'x');
  const none = run(['init', empty], work);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /is a folder with no source files \(\.txt, \.md\) in it/);
});

test('tree and check take a work\'s folder: its files in order, the title from the text, what was taken said', () => {
  const repo = repository('KR1h0006', 2);
  const tree = run(['tree', '--raw', repo], work);
  assert.equal(tree.status, 0, tree.stderr);
  const root = JSON.parse(tree.stdout);
  assert.equal(root.edition.title, '論語集解義疏');
  assert.equal(root.edition.witness, 'WYG');
  assert.ok(root.edition.author, 'an author from a byline');
  assert.deepEqual(root.children.map((v: { number: number }) => v.number), [0, 1]);
  const check = run(['check', '--no-fonts', repo], work);
  assert.equal(check.status, 0, check.stderr);
  assert.match(check.stderr, /info read as a whole work, having no edition\.yaml: 2 files \(KR1h0006_000\.txt … KR1h0006_001\.txt\), KR1h0006_000\.txt its front matter/);
  assert.match(check.stderr, /info taken from the text, as there is no edition\.yaml: title 論語集解義疏, from its metadata/);
  assert.doesNotMatch(check.stderr, /bracket-un/, 'the notes that run over lines are notes');
});

test('an edition.yaml without title or author takes them from the text, and says so; one with them keeps its own', () => {
  const dir = path.join(work, 'untitled');
  mkdirSync(dir);
  for (const name of ['KR1c0005_000.txt', 'KR1c0005_001.txt']) copyFileSync(path.join(KANRIPO, 'KR1c0005', name), path.join(dir, name));
  writeFileSync(path.join(dir, 'edition.yaml'), 'sources:\n  - KR1c0005_000.txt\n  - KR1c0005_001.txt\n');
  const check = run(['check', '--no-fonts', dir], work);
  assert.equal(check.status, 0, check.stderr);
  assert.match(check.stderr, /edition\.yaml info taken from the text, as edition\.yaml has none: title 毛詩草木鳥獸蟲魚疏, from its metadata \(KR1c0005_000\.txt\); author 呉 陸璣, from the byline \(KR1c0005_001\.txt\); witness WYG \(BASEEDITION\)/);
  const tree = JSON.parse(run(['tree', '--raw', dir], work).stdout);
  assert.deepEqual([tree.edition.title, tree.edition.author, tree.edition.dynasty], ['毛詩草木鳥獸蟲魚疏', '陸璣', '呉']);
  // Negative control: what edition.yaml gives stays (only the witness it leaves out is taken).
  writeFileSync(path.join(dir, 'edition.yaml'), 'title: 陸氏詩疏\nauthor: 某\nsources:\n  - KR1c0005_001.txt\n');
  const given = run(['check', '--no-fonts', dir], work);
  assert.match(given.stderr, /taken from the text, as edition\.yaml has none: witness WYG \(BASEEDITION\);/);
  assert.doesNotMatch(given.stderr, /title 毛詩|author 呉/);
  assert.deepEqual(((t) => [t.edition.title, t.edition.author])(JSON.parse(run(['tree', '--raw', dir], work).stdout)), ['陸氏詩疏', '某']);
});

test('a folder, a FIFO or a device: a message at its place, never EISDIR nor a read that never ends', () => {
  const dir = path.join(work, 'kinds');
  mkdirSync(path.join(dir, 'sub'), { recursive: true });
  const fifo = spawnSync('mkfifo', [path.join(dir, 'pipe.txt')]);
  assert.equal(fifo.status, 0);
  writeFileSync(path.join(dir, 'edition.yaml'), 'title: 試\nauthor: 某\nsources:\n  - sub\n  - pipe.txt\n');
  const check = run(['check', '--no-fonts', dir], work);
  assert.equal(check.status, 1);
  assert.match(check.stderr, /edition\.yaml:4:5 error the source "sub" is a folder, not a file; list the files in it one by one/);
  assert.match(check.stderr, /edition\.yaml:5:5 error the source "pipe\.txt" is not a regular file \(a device, a pipe or a socket\); name a text file/);
  for (const source of [path.join(dir, 'pipe.txt'), '/dev/zero']) {
    const init = run(['init', source, path.join(work, 'never')], work);
    assert.equal(init.status, 1);
    assert.match(init.stderr, /is not a regular file \(a device, a pipe or a socket\); name a text file, or a folder of a work's files/);
  }
  // A work's folder with a FIFO among its juan files: the others are read, the FIFO said to be one.
  const repo = repository('KR3l0001', 2);
  spawnSync('mkfifo', [path.join(repo, 'KR3l0001_002.txt')]);
  const folder = run(['check', '--no-fonts', repo], work);
  assert.equal(folder.status, 1);
  assert.match(folder.stderr, /error the source "KR3l0001_002\.txt" is not a regular file/);
  assert.match(folder.stderr, /KR3l0001_001\.txt\S* warning verdict|KR3l0001_001\.txt/);
  const init = run(['init', repo, path.join(work, 'never2')], work);
  assert.equal(init.status, 1);
  assert.match(init.stderr, /KR3l0001_002\.txt is not a regular file/);
  assert.ok(!existsSync(path.join(work, 'never2')), 'nothing written');
});

test('build FOLDER: the EPUB of a whole work titled from its text; rebuilt when a juan file changes, not before', async () => {
  const repo = repository('KR3l0001', 3);
  const out = path.join(work, 'dist');
  const first = run(['build', repo, '--epub', '--out', out, '-q'], work);
  assert.equal(first.status, 0, first.stderr);
  const epub = path.join(out, `${path.basename(repo)}.epub`);
  const zip = await JSZip.loadAsync(readFileSync(epub));
  const opf = await zip.file(/\.opf$/)[0]!.async('string');
  assert.match(opf, /<dc:title[^>]*>西京雜記<\/dc:title>/u);
  const again = run(['build', repo, '--epub', '--out', out], work);
  assert.match(again.stderr, /up to date/);
  const juan = path.join(repo, 'KR3l0001_002.txt');
  writeFileSync(juan, readFileSync(juan, 'utf8').replace('¶', '。¶'));
  const later = new Date(statSync(juan).mtimeMs + 2000);
  utimesSync(juan, later, later);
  const changed = run(['build', repo, '--epub', '--out', out], work);
  assert.equal(changed.status, 0, changed.stderr);
  assert.doesNotMatch(changed.stderr, /up to date/);
});

test('init FOLDER in place on a Kanripo git repository: its other branches are the witnesses, and collate reads them; a copy lists none', async () => {
  const repo = path.join(work, 'KR3a0010-git');
  mkdirSync(repo);
  const file = 'KR3a0010_001.txt';
  const sbck = readFileSync(path.join(KANRIPO, 'KR3a0010', file), 'utf8');
  const author = { name: 'test', email: 'test@example.org', timestamp: 0, timezoneOffset: 0 };
  await git.init({ fs, dir: repo, defaultBranch: 'master' });
  // The WYG branch reads 擴 where the base reads 讀 (潛夫論 卷一's real reading).
  writeFileSync(path.join(repo, file), sbck.replace('讀', '擴'));
  await git.add({ fs, dir: repo, filepath: file });
  await git.commit({ fs, dir: repo, message: 'WYG', author });
  await git.branch({ fs, dir: repo, ref: 'WYG' });
  writeFileSync(path.join(repo, file), sbck);
  await git.add({ fs, dir: repo, filepath: file });
  await git.commit({ fs, dir: repo, message: 'SBCK', author });
  await git.branch({ fs, dir: repo, ref: 'SBCK' });
  const made = run(['init', repo, repo], work);
  assert.equal(made.status, 0, made.stderr);
  const yaml = readFileSync(path.join(repo, 'edition.yaml'), 'utf8');
  assert.match(yaml, /^witnesses:\n {2}- siglum: 四庫本\n {4}path: \.\n {4}branch: WYG$/mu, yaml);
  const collated = run(['collate', '--json', repo], work);
  assert.equal(collated.status, 0, collated.stderr);
  assert.match(collated.stdout, /擴/u, 'the witness branch was read');
  // Negative control: init into another folder copies the files and lists no witness (the copy cannot reach the branches).
  const copy = path.join(work, 'KR3a0010-copy');
  const copied = run(['init', repo, copy], work);
  assert.equal(copied.status, 0, copied.stderr);
  assert.doesNotMatch(readFileSync(path.join(copy, 'edition.yaml'), 'utf8'), /^witnesses:/mu);
});
