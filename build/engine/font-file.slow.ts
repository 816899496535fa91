/**
 * The CLI with bad font files in fonts.main (font-file.test-util.ts): check
 * and build exit 1 with a message at each entry, no internal error, no
 * advice to install Noto, and the EPUB is still written.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BAD, badFontEdition } from './font-file.test-util.js';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-font-file-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('check and build: exit 1 with the messages, no internal error, no advice to install Noto; the EPUB is written', () => {
  const dir = badFontEdition(work);
  const check = spawnSync(process.execPath, [BIN, 'check', dir], { encoding: 'utf8', cwd: path.resolve('.') });
  assert.equal(check.status, 1, check.stderr + check.stdout);
  const said = check.stdout + check.stderr;
  for (const [i, name] of BAD.entries()) assert.ok(said.includes(`edition.yaml:${11 + i}:7`) && said.includes(`"${name.replace(/#.*/, '')}"`), `check names ${name} at its line: ${said}`);
  const out = path.join(work, 'out');
  const build = spawnSync(process.execPath, [BIN, 'build', '--epub', '--out', out, dir], { encoding: 'utf8', cwd: path.resolve('.'), timeout: 600_000 });
  const text = build.stdout + build.stderr;
  assert.equal(build.status, 1, text);
  assert.doesNotMatch(text, /internal error|DataView|bug in diaoban|apt-get install/);
  assert.ok(text.includes('edition.yaml:11:7'), text);
  assert.ok(existsSync(path.join(out, 'fonts.epub')), `the rest still builds: ${text}`);
});
