/**
 * Untrusted editions through the real command line (issue 20, the input
 * half): patterns that backtrack cannot hang `check`; a page Chromium
 * cannot print and a 2 GiB font are messages at their place; what the user
 * can fix exits 1, never 2 (the code for our bugs).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import JSZip from 'jszip';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-input-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A hang must show as a failure, not a stuck suite: far above the seconds a check takes on a loaded machine. */
const HANG = 180_000;

function run(args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: HANG, cwd: work });
  assert.equal(result.signal, null, `diaoban ${args[0]} did not finish (killed by ${result.signal})`);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
}

function edition(name: string, yaml: string, text = '主人戒賓【主人州長也】\n'): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'edition.yaml'), `title: 試\nauthor: 某\nsources:\n  - a.txt\n${yaml}`);
  writeFileSync(path.join(dir, 'a.txt'), text);
  return dir;
}

test('patterns that backtrack run in linear time: ^(主+)+$ against 40 × 主 then 戒 does not hang check', () => {
  const text = `${'主'.repeat(40)}戒\n\n${'主'.repeat(40)}戒【${'主'.repeat(40)}戒】\n`;
  const dir = edition('redos', 'conventions:\n  headings: ["^(主+)+$"]\n  metadata: ["^(主+)+$"]\nlayers:\n  - { layer: an, pattern: "^(主+)+$" }\n', text);
  const r = run(['check', '--no-fonts', dir]);
  assert.equal(r.status, 0, r.stderr);
});

test('a lookahead or a 100,000-character pattern is a message at its place, exit 1', () => {
  const dir = edition('big-pattern', `layers:\n  - { layer: an, pattern: "(?=愚)謂" }\nconventions:\n  headings: ["${'主'.repeat(100_000)}"]\n`);
  const r = run(['check', '--no-fonts', dir]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /edition\.yaml:6:27 error layers\[1\]\.pattern cannot run in linear time/);
  assert.match(r.stderr, /edition\.yaml:8:14 error conventions\.headings\[1\] is 100000 characters long; a pattern may have at most 1000/);
});

test('a page Chromium cannot print is an error at page.size in check, before any build', () => {
  const dir = edition('huge-page', 'page:\n  size: 100000mm 100000mm\n');
  const r = run(['check', '--no-fonts', dir]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /edition\.yaml:6:9 error page\.size is 100000 × 100000 mm; Chromium prints pages up to 1500 mm a side/);
});

test('a 2 GiB font is a message at its place in edition.yaml, and check exits 1', () => {
  const dir = edition('huge-font', 'fonts:\n  main:\n    - big.ttf\n');
  // A sparse file: 2 GiB that take no disk.
  writeFileSync(path.join(dir, 'big.ttf'), '');
  truncateSync(path.join(dir, 'big.ttf'), 2 ** 31);
  const r = run(['check', dir]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /edition\.yaml:7:7 error "big\.ttf" is 2048 MiB; a file of fonts\.main may have at most 512 MiB, so it is not read \(file-too-large\)/);
});

test('one paragraph of 150,000 characters: check warns at the source, build --epub exits 0 with every character once, in order', async () => {
  const HAN = Array.from('主人戒賓賓禮辭許主人再拜賓答拜主人退賓拜辱');
  const parts: string[] = [];
  for (let i = 0; i < 150_000; i++) parts.push(HAN[i % HAN.length], i % 10_000 === 9_999 ? `【注${HAN[(i / 10_000) | 0]}】` : '');
  const text = parts.join('');
  const dir = edition('long-paragraph', '', `${text}\n`);
  const check = run(['check', '--no-fonts', dir]);
  assert.equal(check.status, 0, check.stderr);
  assert.match(check.stderr, /a\.txt warning verdict wrong \(one-paragraph 150000/);
  const out = path.join(work, 'long-paragraph-out');
  const build = run(['build', '--epub', '--out', out, dir]);
  assert.equal(build.status, 0, build.stderr);
  const zip = await JSZip.loadAsync(readFileSync(path.join(out, 'long-paragraph.epub')));
  const body = await zip.file('OEBPS/vol01.xhtml')!.async('string');
  const han = (s: string): string => s.replace(/<[^>]*>/g, '').replace(/[^主人戒賓禮辭許再拜答退辱注]/gu, '');
  assert.equal(han(body), han(text), 'the body is the paragraph, notes in their places');
});

test('what the user can fix exits 1 with one line: a missing folder, diff before any build', () => {
  const missing = run(['build', '--epub', path.join(work, 'nowhere')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /^diaoban: .*nowhere: no such file or folder/);
  const dir = edition('unbuilt', '');
  const diff = run(['diff', '--out', path.join(work, 'dist'), dir]);
  assert.equal(diff.status, 1);
  assert.match(diff.stderr, /^diaoban: .*unbuilt: no build of this edition into .*dist\/ yet; run: diaoban build/);
});

test('the terminal gets control characters escaped: no line erased, no title set, no forged diagnostic', () => {
  const dir = edition('terminal', 'description: "序\\e]0;pwned\\a"\n');
  const yaml = 'title: 試\nauthor: 某\nsources:\n  - a.txt\n  - "b.txt\\nfake.txt:1:1 error forged (x)"\n  - "\\e[2K\\e[1A\\e]0;set title\\a.txt"\n  - "\\u202Etxt.exe"\n';
  writeFileSync(path.join(dir, 'edition.yaml'), yaml);
  const r = run(['check', '--no-fonts', dir]);
  assert.equal(r.status, 1);
  assert.doesNotMatch(r.stderr, /[\u001b\u0007\u202e]/u, 'no raw control character reaches the terminal');
  assert.doesNotMatch(r.stderr, /^fake\.txt/mu, 'no forged line');
  assert.match(r.stderr, /the source "b\.txt\\nfake\.txt:1:1 error forged \(x\)" does not exist/);
  // Names with ESC or bidi controls are refused by the schema, quoted escaped.
  assert.match(r.stderr, /edition\.yaml:6:5 error sources\[3\] contains the control character U\+001B: "\\u001b\[2K/);
  assert.match(r.stderr, /edition\.yaml:7:5 error sources\[4\] contains the control character U\+202E: "\\u202Etxt\.exe"/);
});

test('init never overwrites and never follows a link; nothing is written when it refuses', () => {
  const src = path.join(work, 'init-src');
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'juan1.md'), '# 禮書綱目卷九\n\n鄉射之禮\n');
  const outside = path.join(work, 'outside.txt');
  writeFileSync(outside, 'keep me');
  // A file in the way.
  const a = path.join(work, 'init-a');
  mkdirSync(a);
  writeFileSync(path.join(a, 'juan1.md'), 'mine');
  const r1 = run(['init', path.join(src, 'juan1.md'), a]);
  assert.equal(r1.status, 1);
  assert.match(r1.stderr, /juan1\.md exists already; init never overwrites a file/);
  assert.equal(readFileSync(path.join(a, 'juan1.md'), 'utf8'), 'mine');
  assert.equal(existsSync(path.join(a, 'edition.yaml')), false, 'nothing half-made');
  // A link to a file outside, and a broken link where edition.yaml goes.
  const b = path.join(work, 'init-b');
  mkdirSync(b);
  symlinkSync(outside, path.join(b, 'juan1.md'));
  assert.equal(run(['init', path.join(src, 'juan1.md'), b]).status, 1);
  assert.equal(readFileSync(outside, 'utf8'), 'keep me');
  const c = path.join(work, 'init-c');
  mkdirSync(c);
  symlinkSync(path.join(work, 'made-through-link.yaml'), path.join(c, 'edition.yaml'));
  const r3 = run(['init', path.join(src, 'juan1.md'), c]);
  assert.equal(r3.status, 1);
  assert.match(r3.stderr, /edition\.yaml exists already/);
  assert.equal(existsSync(path.join(work, 'made-through-link.yaml')), false);
  // A clean folder: made.
  const d = path.join(work, 'init-d');
  assert.equal(run(['init', path.join(src, 'juan1.md'), d]).status, 0);
  assert.ok(existsSync(path.join(d, 'edition.yaml')));
});

test('init writes file names as YAML values: a newline or a leading "- " injects no key', () => {
  for (const name of ['- a\nformat: kanripo\ntitle: 僞.md', '- b.md', 'c: d.md', '#e.md']) {
    const dir = path.join(work, `init-name-${Buffer.from(name).toString('hex')}`);
    mkdirSync(dir);
    const source = path.join(dir, name);
    writeFileSync(source, '# 禮書綱目卷九\n\n鄉射之禮\n');
    const r = run(['init', source, path.join(dir, 'ed')]);
    assert.equal(r.status, 0, r.stderr);
    const yaml = parseYaml(readFileSync(path.join(dir, 'ed', 'edition.yaml'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(yaml.sources, [name]);
    // The work's name alone: the volume (卷九) is not part of it.
    assert.equal(yaml.title, '禮書綱目');
    assert.equal(yaml.format, 'markdown');
    assert.deepEqual(Object.keys(yaml).filter((k) => !['title', 'author', 'script', 'template', 'date', 'description', 'sources', 'format'].includes(k)), []);
  }
});
