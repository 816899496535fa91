/**
 * An edition folder is a sandbox, tried as a hostile edition would: files
 * named outside it (by path, by symbolic link, absolute) are refused at the
 * edition.yaml line that names them and never read; --allow-read, given by
 * the person running diaoban, widens it; fonts may come from the system's
 * font folders. Run through the real command line.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HANAMIN_A } from '../fonts/index.js';
import { createSandbox, readCheckedFile, resolveInSandbox } from './sandbox.js';

const BIN = path.resolve('bin/diaoban.js');
const made: string[] = [];
const folder = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-sandbox-'));
  made.push(dir);
  return dir;
};
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function run(args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.signal, null, `diaoban ${args.join(' ')} did not finish`);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
}

/** A folder holding files an edition must not reach, and the edition folder `ed/` inside it. */
function setup(yaml: string, files: Record<string, string> = {}): { outer: string; ed: string } {
  const outer = folder();
  writeFileSync(path.join(outer, 'secret.txt'), '秘密之文在外不可讀\n');
  writeFileSync(path.join(outer, 'charmap.yaml'), 'U+E000: 龘\n');
  writeFileSync(path.join(outer, 'fixes.yaml'), '- find: 主人\n  replace: 某某\n');
  const ed = path.join(outer, 'ed');
  mkdirSync(ed);
  writeFileSync(path.join(ed, 'edition.yaml'), yaml);
  writeFileSync(path.join(ed, 'a.txt'), '主人戒賓\uE000\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(ed, name), text);
  return { outer, ed };
}

const HEAD = 'title: 試\nauthor: 某\n';
const OUTSIDE = /秘密|龘|某某|root:x:0/;

test('files named outside the edition folder are refused where edition.yaml names them, and not read', () => {
  const { ed } = setup(
    HEAD +
      'sources:\n  - a.txt\n  - ../secret.txt\n  - /etc/passwd\n  - ../../../../../../../etc/passwd\n' +
      'charmap: ../charmap.yaml\ncorrections: ../fixes.yaml\nfonts:\n  main:\n    - ../Kai.ttf\n',
  );
  const check = run(['check', '--no-fonts', ed]);
  assert.equal(check.status, 1);
  const yaml = path.relative(process.cwd(), path.join(ed, 'edition.yaml'));
  const at = (line: number, col: number, name: string, what: string): RegExp =>
    new RegExp(`^${yaml.replace(/[.]/g, '\\.')}:${line}:${col} error ${what} "${name.replace(/[.]/g, '\\.')}" is outside the edition folder .*--allow-read DIR \\(file-outside\\)$`, 'm');
  assert.match(check.stderr, at(5, 5, '../secret.txt', 'the source'));
  assert.match(check.stderr, at(6, 5, '/etc/passwd', 'the source'));
  assert.match(check.stderr, at(7, 5, '../../../../../../../etc/passwd', 'the source'));
  assert.match(check.stderr, at(8, 10, '../charmap.yaml', 'the charmap'));
  assert.match(check.stderr, at(9, 14, '../fixes.yaml', 'the corrections file'));
  assert.match(check.stderr, at(12, 7, '../Kai.ttf', 'the font'));
  const tree = run(['tree', ed]);
  assert.ok(tree.stdout.includes('主人戒賓'), 'the edition\'s own source is read');
  assert.doesNotMatch(tree.stdout, OUTSIDE, 'nothing of the files outside reaches the tree, charmap and corrections not applied');
});

test('a symbolic link that leads out of the edition folder is refused; fonts may link to the system font folders', () => {
  const { outer, ed } = setup(
    HEAD + 'sources:\n  - a.txt\n  - link.txt\n  - pw.txt\n  - sub/secret.txt\nfonts:\n  main:\n    - fonts/Mine.ttf\n    - evil.ttf\n',
  );
  symlinkSync(path.join(outer, 'secret.txt'), path.join(ed, 'link.txt'));
  symlinkSync('/etc/passwd', path.join(ed, 'pw.txt'));
  symlinkSync(outer, path.join(ed, 'sub'));
  mkdirSync(path.join(ed, 'fonts'));
  symlinkSync(HANAMIN_A.file, path.join(ed, 'fonts', 'Mine.ttf'));
  symlinkSync('/etc/passwd', path.join(ed, 'evil.ttf'));
  const check = run(['check', '--no-fonts', ed]);
  assert.equal(check.status, 1);
  assert.match(check.stderr, /:5:5 error the source "link\.txt" is a symbolic link that leads outside the edition folder .* \(to .*secret\.txt\)/);
  assert.match(check.stderr, /:6:5 error the source "pw\.txt" is a symbolic link that leads outside .*\(to \/etc\/passwd\)/);
  assert.match(check.stderr, /:7:5 error the source "sub\/secret\.txt" is a symbolic link that leads outside/);
  assert.match(check.stderr, /:11:7 error the font "evil\.ttf" is a symbolic link that leads outside/);
  assert.doesNotMatch(check.stderr, /Mine\.ttf/, 'a font from the system font folders is fine');
  assert.doesNotMatch(run(['tree', ed]).stdout, OUTSIDE);
});

test('--allow-read DIR, given by the person running diaoban, lets the edition read that folder', () => {
  const { outer, ed } = setup(HEAD + 'sources:\n  - a.txt\n  - ../secret.txt\n  - /etc/passwd\ncorrections: ../fixes.yaml\n');
  const tree = run(['tree', '--allow-read', outer, ed]);
  assert.ok(tree.stdout.includes('秘密之文'), 'the allowed folder is read');
  assert.ok(tree.stdout.includes('某某'), 'corrections from the allowed folder are applied');
  assert.doesNotMatch(tree.stdout, /root:x:0/, 'the rest of the system stays out');
  assert.match(tree.stderr, /:6:5 error the source "\/etc\/passwd" is outside/);
});

test('a folder, a missing file or a pipe named as a source: an error at its line that says what to do, and no hang', () => {
  const { ed } = setup(HEAD + 'sources:\n  - a.txt\n  - juan\n  - b.txt\n  - fifo.txt\n');
  mkdirSync(path.join(ed, 'juan'));
  execFileSync('mkfifo', [path.join(ed, 'fifo.txt')]);
  const check = run(['check', '--no-fonts', ed]);
  assert.equal(check.status, 1);
  assert.match(check.stderr, /edition\.yaml:5:5 error the source "juan" is a folder, not a file; list the files in it one by one \(- juan\/…\) \(file-kind\)/);
  assert.match(check.stderr, /edition\.yaml:6:5 error the source "b\.txt" does not exist in \S+; check the name in edition\.yaml, or add the file \(file-missing\)/);
  assert.match(check.stderr, /edition\.yaml:7:5 error the source "fifo\.txt" is not a regular file/);
  const tree = run(['tree', ed]);
  assert.ok(tree.stdout.includes('主人戒賓'), 'the rest still builds');
});

test('an edition.yaml that is a link out of the folder is not read', () => {
  const outer = folder();
  writeFileSync(path.join(outer, 'real.yaml'), HEAD + 'sources:\n  - ../secret.txt\n');
  mkdirSync(path.join(outer, 'ed'));
  symlinkSync(path.join(outer, 'real.yaml'), path.join(outer, 'ed', 'edition.yaml'));
  const check = run(['check', path.join(outer, 'ed')]);
  assert.equal(check.status, 1);
  assert.match(check.stderr, /edition\.yaml error the edition file "edition\.yaml" is a symbolic link that leads outside the edition folder/);
});

test('a seal image is a file of the edition like any other: outside it, refused at its line; not a PNG or SVG, said; a good one is drawn', () => {
  const { ed } = setup(
    HEAD + 'sources:\n  - a.txt\nseals:\n  - image: ../secret.txt\n  - image: fake.png\n    page: last\n  - image: seal.svg\n    position: nowhere\n',
    { 'fake.png': '秘密\n', 'seal.svg': '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#b3261e"/></svg>\n' },
  );
  const check = run(['check', '--no-fonts', ed]);
  assert.equal(check.status, 1);
  assert.match(check.stderr, /edition\.yaml:6:12 error the seal image "\.\.\/secret\.txt" is outside the edition folder .* \(file-outside\)/);
  assert.match(check.stderr, /edition\.yaml:7:12 error seal "fake\.png" is neither a PNG nor an SVG image .*; the seal is left out \(seal-image\)/);
  assert.match(check.stderr, /edition\.yaml:10:15 error seals\[3\]\.position is not one of the choices: \"nowhere\"; write one of lower-left, lower-right, upper-left, upper-right, center \(this value is left out\) \(edition-field\)/);
  assert.doesNotMatch(check.stderr, /seal\.svg"/, 'the SVG seal is accepted');
});

test('a font checked at load and then swapped for a link outside is not read', async () => {
  const { outer, ed } = setup(HEAD + 'sources:\n  - a.txt\n');
  mkdirSync(path.join(ed, 'fonts'));
  writeFileSync(path.join(ed, 'fonts', 'Kai.ttf'), 'inside');
  mkdirSync(path.join(outer, 'elsewhere'));
  writeFileSync(path.join(outer, 'elsewhere', 'Kai.ttf'), '秘密');
  const sandbox = await createSandbox(ed);
  const resolved = await resolveInSandbox(sandbox, 'fonts/Kai.ttf');
  assert.ok(resolved.ok);
  assert.equal((await readCheckedFile(resolved.path)).toString(), 'inside', 'unchanged, it is read');
  rmSync(path.join(ed, 'fonts'), { recursive: true });
  symlinkSync(path.join(outer, 'elsewhere'), path.join(ed, 'fonts'));
  await assert.rejects(readCheckedFile(resolved.path), /replaced by a link/);
  rmSync(path.join(ed, 'fonts'));
  mkdirSync(path.join(ed, 'fonts'));
  execFileSync('mkfifo', [path.join(ed, 'fonts', 'Kai.ttf')]);
  await assert.rejects(readCheckedFile(resolved.path), /no longer a regular file/, 'a FIFO in its place is refused without waiting');
});
