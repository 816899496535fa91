/**
 * A font file named in fonts.main is checked before anything parses it: a
 * file that is not a font, one cut short, a WOFF renamed .ttf, a font with
 * no face of the name asked for, and a 2 GiB file (sparse: its size is
 * known before it is read) each get a message at their entry of
 * edition.yaml; they are left out, and the book still builds (exit 1, no
 * internal error, no advice to install Noto: font-file.slow.ts).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEdition } from './load.js';
import { HANAMIN_A } from '../fonts/index.js';
import { fontProblem } from '../fonts/sfnt.js';
import { BAD, badFontEdition } from './font-file.test-util.js';

const work = mkdtempSync(path.join(tmpdir(), 'diaoban-font-file-'));
after(() => rmSync(work, { recursive: true, force: true }));

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
  const dir = badFontEdition(work);
  const loaded = await loadEdition(dir);
  // A file too large to read is refused before it is looked at as a font (file-too-large); the others are read and checked (font-file).
  const fontMessages = loaded.messages.filter((m) => m.ruleId === 'font-file' || m.ruleId === 'file-too-large');
  assert.deepEqual(
    fontMessages.map((m) => [m.line, m.column]),
    BAD.map((_, i) => [11 + i, 7]),
    'one message a bad entry, at the entry',
  );
  assert.ok(fontMessages.every((m) => m.fatal === true));
  assert.match(String(fontMessages[0].reason), /not a TrueType or OpenType font/);
  assert.match(String(fontMessages[1].reason), /cut short/);
  assert.match(String(fontMessages[2].reason), /WOFF/);
  assert.match(String(fontMessages[3].reason), /2048 MiB; a file of fonts\.main may have at most 512 MiB/);
  assert.match(String(fontMessages[4].reason), /no face named "No Such Face"/);
  assert.deepEqual(loaded.config?.fonts.main, [], 'every bad file left out');
});

test('a role\'s font files (fonts.zhu) are checked and resolved like the main text\'s, each list in its own order', async () => {
  const dir = badFontEdition(path.join(work, 'roles'));
  const yaml = path.join(dir, 'edition.yaml');
  const head = readFileSync(yaml, 'utf8').split('fonts:')[0];
  writeFileSync(yaml, `${head}fonts:\n  zhu: [notfont.ttf, HanaMinA.ttf]\n  main: [Noto Serif CJK TC, HanaMinA.ttf#HanaMinA]\n`);
  const loaded = await loadEdition(dir);
  const messages = loaded.messages.filter((m) => m.ruleId === 'font-file');
  assert.deepEqual(messages.map((m) => [m.line, m.column]), [[10, 9]], 'the bad file of zhu, at its entry');
  const real = realpathSync(path.join(dir, 'HanaMinA.ttf'));
  assert.deepEqual(loaded.config?.fonts.zhu, [real], 'the good file resolved, the bad one left out');
  assert.deepEqual(loaded.config?.fonts.main, ['Noto Serif CJK TC', `${real}#HanaMinA`], 'names kept, files resolved with their face');
});
