/**
 * A font file named in fonts.main is checked before anything parses it: a
 * file that is not a font, one cut short, a WOFF renamed .ttf, a font with
 * no face of the name asked for, and a 2 GiB file (sparse: its size is
 * known before it is read) each get a message at their entry of
 * edition.yaml; they are left out, and the book still builds (exit 1, no
 * internal error, no advice to install Noto).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEdition } from './load.js';
import { HANAMIN_A } from '../fonts/index.js';
import { fontProblem } from '../fonts/sfnt.js';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-font-file-'));
after(() => rmSync(work, { recursive: true, force: true }));

const BAD = ['notfont.ttf', 'cut.ttf', 'woff.ttf', 'huge.ttf', 'HanaMinA.ttf#No Such Face'];

function edition(): string {
  const dir = path.join(work, 'fonts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'juan.md'), '# 卷一\n\n學而時習之不亦說乎\n');
  writeFileSync(path.join(dir, 'notfont.ttf'), 'Hello, this is a text file and not a font at all.\n'.repeat(20));
  const hana = readFileSync(HANAMIN_A.file);
  writeFileSync(path.join(dir, 'cut.ttf'), hana.subarray(0, 4000));
  writeFileSync(path.join(dir, 'woff.ttf'), Buffer.concat([Buffer.from('wOFF'), hana.subarray(4, 2000)]));
  writeFileSync(path.join(dir, 'huge.ttf'), '');
  truncateSync(path.join(dir, 'huge.ttf'), 2 * 1024 ** 3);
  copyFileSync(HANAMIN_A.file, path.join(dir, 'HanaMinA.ttf'));
  writeFileSync(
    path.join(dir, 'edition.yaml'),
    ['title: 論語', 'author: 孔子', 'language: zh-Hant', 'script: traditional', 'template: siku', 'date: 2026-01-01', 'sources:', '  - juan.md', 'fonts:', '  main:', ...BAD.map((f) => `    - ${f}`)].join('\n') + '\n',
  );
  return dir;
}

test('fontProblem: a font passes; a text file, a cut file, a WOFF, a missing face each say what is wrong', () => {
  const hana = new Uint8Array(readFileSync(HANAMIN_A.file));
  assert.equal(fontProblem(hana), undefined, 'the real font passes (negative control)');
  assert.match(fontProblem(new TextEncoder().encode('not a font, just words')) ?? '', /not a TrueType or OpenType font/);
  assert.match(fontProblem(hana.subarray(0, 4000)) ?? '', /cut short/);
  assert.match(fontProblem(hana.subarray(0, 20)) ?? '', /cut short/);
  assert.match(fontProblem(hana.subarray(0, 8)) ?? '', /not a font/);
  assert.match(fontProblem(hana, 'No Such Face') ?? '', /no face named "No Such Face"/);
  assert.equal(fontProblem(hana, 'HanaMinA'), undefined);
});

test('each bad fonts.main entry gets a message at its place in edition.yaml, and is left out', async () => {
  const dir = edition();
  const loaded = await loadEdition(dir);
  const fontMessages = loaded.messages.filter((m) => m.ruleId === 'font-file');
  assert.deepEqual(
    fontMessages.map((m) => [m.line, m.column]),
    BAD.map((_, i) => [11 + i, 7]),
    'one message a bad entry, at the entry',
  );
  assert.ok(fontMessages.every((m) => m.fatal === true));
  assert.match(String(fontMessages[0].reason), /not a TrueType or OpenType font/);
  assert.match(String(fontMessages[1].reason), /cut short/);
  assert.match(String(fontMessages[2].reason), /WOFF/);
  assert.match(String(fontMessages[3].reason), /2048 MiB; a font file must be under 256 MiB/);
  assert.match(String(fontMessages[4].reason), /no face named "No Such Face"/);
  assert.deepEqual(loaded.config?.fonts.main, [], 'every bad file left out');
});

test('check and build: exit 1 with the messages, no internal error, no advice to install Noto; the EPUB is written', () => {
  const dir = edition();
  const check = spawnSync(process.execPath, [BIN, 'check', dir], { encoding: 'utf8', cwd: path.resolve('.') });
  assert.equal(check.status, 1, check.stderr + check.stdout);
  const said = check.stdout + check.stderr;
  for (const [i, name] of BAD.entries()) assert.ok(said.includes(`edition.yaml:${11 + i}:7`) && said.includes(`font "${name.replace(/#.*/, '')}"`), `check names ${name} at its line: ${said}`);
  const out = path.join(work, 'out');
  const build = spawnSync(process.execPath, [BIN, 'build', '--epub', '--out', out, dir], { encoding: 'utf8', cwd: path.resolve('.'), timeout: 600_000 });
  const text = build.stdout + build.stderr;
  assert.equal(build.status, 1, text);
  assert.doesNotMatch(text, /internal error|DataView|bug in diaoban|apt-get install/);
  assert.ok(text.includes('edition.yaml:11:7'), text);
  assert.ok(existsSync(path.join(out, 'fonts.epub')), `the rest still builds: ${text}`);
});
