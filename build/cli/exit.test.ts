/**
 * What `diaoban build` tells the shell and the user: exit 1 when the
 * manuscript has errors (the outputs still written), 0 with warnings only,
 * 2 and a request for a report on an internal error; where Chromium comes
 * from (--chromium, PUPPETEER_EXECUTABLE_PATH) and what to do when there is none.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BrowserError, CHROMIUM_PATH, findChromium } from '../engine/browser.js';
import { isInternal } from '../engine/build.js';
import { PdfError } from '../engine/pdf.js';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-exit-'));
after(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, args[0] === '-e' ? ['--import', 'tsx', '--input-type=module', ...args] : [BIN, ...args], { encoding: 'utf8', env });
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
}

function makeEdition(name: string, text: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'edition.yaml'), 'title: 試\nauthor: 某\nsources:\n  - a.txt\n');
  writeFileSync(path.join(dir, 'a.txt'), text);
  return dir;
}

test('build exits 1 on errors in the manuscript, with the outputs written; 0 with warnings only', () => {
  const out = path.join(work, 'dist');
  const broken = run(['build', '--epub', '--out', out, makeEdition('broken', '主人戒賓【主人州長也\n')]);
  assert.equal(broken.status, 1, broken.stderr);
  assert.match(broken.stderr, /a\.txt:1:5 error unclosed 【/);
  assert.match(broken.stderr, /built, with errors in the manuscript/);
  assert.ok(existsSync(path.join(out, 'broken.epub')), 'the output is still written');
  const warned = run(['build', '--epub', '--out', out, makeEdition('warned', '主人戒賓\uE000\n')]);
  assert.match(warned.stderr, /warning Private Use Area character U\+E000/);
  assert.equal(warned.status, 0, warned.stderr);
  assert.ok(existsSync(path.join(out, 'warned.epub')));
});

test('an internal error exits 2 and asks for a report', () => {
  const script = [
    "const { main, program } = await import('./build/cli/main.ts');",
    'const cli = program();',
    "cli.command('boom').action(() => { const nothing = null; return nothing.x; });",
    "await main(['node', 'diaoban', 'boom'], cli);",
  ].join('\n');
  const r = run(['-e', script]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^diaoban: internal error: Cannot read properties of null.*\nThis is a bug in diaoban, not in your manuscript; please report it/);
  // A failed output is ours to report when the engine threw, not when the input or the machine did.
  assert.equal(isInternal(new TypeError('x is undefined')), true);
  assert.equal(isInternal(new RangeError('Maximum call stack size exceeded')), true);
  assert.equal(isInternal(new PdfError('a page block overflowed')), false);
  assert.equal(isInternal(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })), false);
});

test('Chromium from --chromium or PUPPETEER_EXECUTABLE_PATH; when none is found the message says how to get one', () => {
  assert.equal(findChromium(undefined, { PUPPETEER_EXECUTABLE_PATH: CHROMIUM_PATH }), CHROMIUM_PATH);
  assert.equal(findChromium(CHROMIUM_PATH, { PUPPETEER_EXECUTABLE_PATH: '/nonexistent/chrome' }), CHROMIUM_PATH, '--chromium wins');
  assert.throws(
    () => findChromium(undefined, { PUPPETEER_EXECUTABLE_PATH: '/nonexistent/chrome' }),
    (e: unknown) => e instanceof BrowserError && /\/nonexistent\/chrome \(from PUPPETEER_EXECUTABLE_PATH\).*apt-get install chromium.*--chromium PATH/.test(e.message),
  );
  assert.throws(
    () => findChromium(undefined, { PATH: work }, '/nonexistent/chromium'),
    (e: unknown) => e instanceof BrowserError && /no Chromium found \(looked for \/nonexistent\/chromium and chromium.*on PATH\).*apt-get install chromium.*--chromium PATH or PUPPETEER_EXECUTABLE_PATH/.test(e.message),
  );
  // A browser on PATH is found when the standard one is not there.
  const fake = path.join(work, 'chromium-browser');
  writeFileSync(fake, '#!/bin/sh\n', { mode: 0o755 });
  assert.equal(findChromium(undefined, { PATH: work }, '/nonexistent/chromium'), fake);
  const r = run(['build', '--pdf', '--chromium', '/nonexistent/chromium', '--out', path.join(work, 'dist'), makeEdition('c', '主人\n')]);
  assert.equal(r.status, 1, 'no Chromium is the user\'s to fix');
  assert.match(r.stderr, /^diaoban: Chromium not found at \/nonexistent\/chromium \(from --chromium\).*apt-get install chromium/);
});
