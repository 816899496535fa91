/**
 * A build with bad seals (seals.test-util.ts): a nested-<use> bomb, an SVG
 * with an undefined entity, a PNG whose magic is followed by text and a PNG
 * header claiming 2^31 × 2^31 each get a message at their `seals` entry;
 * the good seal is drawn as a bitmap on its page and the book is built
 * (exit 1, no internal error).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ENTITY, MAGIC, pngHeader, useBomb } from './seals.test-util.js';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-seals-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('bad seals get messages at their entries, the good one is drawn, the book is built', () => {
  const dir = path.join(work, 'seals');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'a.md'), '# 卷一\n\n學而時習之不亦說乎有朋自遠方來不亦樂乎\n');
  copyFileSync(path.resolve('manuscript/pingdian/seal.svg'), path.join(dir, 'good.svg'));
  writeFileSync(path.join(dir, 'bomb.svg'), useBomb());
  writeFileSync(path.join(dir, 'entity.svg'), ENTITY);
  writeFileSync(path.join(dir, 'text.png'), Buffer.concat([MAGIC, Buffer.from('IHDR? no: text after the magic\n')]));
  writeFileSync(path.join(dir, 'huge.png'), pngHeader(2 ** 31, 2 ** 31));
  const seals = ['bomb.svg', 'entity.svg', 'text.png', 'huge.png', 'good.svg'];
  writeFileSync(
    path.join(dir, 'edition.yaml'),
    ['title: 論語', 'author: 孔子', 'language: zh-Hant', 'script: traditional', 'template: siku', 'date: 2026-01-01', 'sources:', '  - a.md', 'seals:', ...seals.map((s) => `  - image: ${s}\n    page: 1`), '# page 1 the text, not the cover', 'book: { cover: false, title-page: false, colophon: false }'].join('\n') + '\n',
  );
  const out = path.join(work, 'out');
  const build = spawnSync(process.execPath, [BIN, 'build', '--pdf', '--out', out, dir], { encoding: 'utf8', timeout: 600_000 });
  const said = build.stdout + build.stderr;
  assert.equal(build.status, 1, said);
  assert.doesNotMatch(said, /internal error|bug in diaoban/);
  const line = (name: string): number => 10 + 2 * seals.indexOf(name);
  // resvg refuses the 10^10 shapes itself (its node limit) or the time limit stops it, whichever comes first on the machine: a message at the entry either way …
  // … or the seal process's memory cap stops it (issue 29), whichever comes first.
  assert.match(said, new RegExp(`edition\\.yaml:${line('bomb.svg')}:12 error seal "bomb\\.svg" (?:could not be drawn within \\d+ s|could not be drawn \\(the renderer stopped: memory allocation|is an SVG that cannot be drawn: .*nodes limit)`));
  assert.match(said, new RegExp(`edition\\.yaml:${line('entity.svg')}:12 error seal "entity\\.svg" is an SVG that cannot be drawn`));
  assert.match(said, new RegExp(`edition\\.yaml:${line('text.png')}:12 error seal "text\\.png" is not a valid PNG`));
  assert.match(said, new RegExp(`edition\\.yaml:${line('huge.png')}:12 error seal "huge\\.png" is a PNG of 2147483648 × 2147483648 pixels`));
  assert.doesNotMatch(said, /seal "good\.svg"/);
  const pdf = path.join(out, 'seals.pdf');
  assert.ok(existsSync(pdf), 'the book is built');
  // The good seal is on page 1, as a bitmap: one image there (and its alpha mask), of the seal's pixels.
  const images = execFileSync('pdfimages', ['-list', '-f', '1', '-l', '1', pdf]).toString('utf8').split('\n').slice(2).filter((l) => /^\s*1\s+\d+\s+image\b/.test(l));
  assert.equal(images.length, 1, images.join('\n'));
  assert.match(images[0], new RegExp(`\\b${Math.ceil((20 / 25.4) * 600)}\\s+${Math.ceil((20 / 25.4) * 600)}\\b`), `the seal at 600 dpi: ${images[0]}`);
});

test('slow seals share one time budget: four that each take their whole 10 s hold the build 20 s, not 40 s', { timeout: 300_000 }, async () => {
  // Reproduction (issue 29): slow SVG seals ran to their 10 s limit one after another (4 took 41 s; the 100 allowed ≈ 17 min).
  const { loadEdition } = await import('./load.js');
  const dir = path.join(work, 'slow-seals');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'a.md'), '# 卷一\n\n學而時習之\n');
  // Noise of many octaves over a seal 80 mm wide (2048 pixels), sixteen layers of it: far past 10 s each, whatever the
  // machine (one layer took 6–9 s here, so two of four were drawn within their time and the test failed by chance).
  const slow = (octaves: number): string =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><filter id="t" x="0" y="0" width="1" height="1"><feTurbulence baseFrequency="0.05" numOctaves="${octaves}"/></filter>${'<rect width="100" height="100" opacity="0.5" filter="url(#t)"/>'.repeat(16)}</svg>`;
  const names = [10, 11, 12, 13].map((o) => {
    writeFileSync(path.join(dir, `slow${o}.svg`), slow(o));
    return `slow${o}.svg`;
  });
  writeFileSync(path.join(dir, 'edition.yaml'), ['title: 論語', 'author: 孔子', 'sources:', '  - a.md', 'seals:', ...names.map((s) => `  - image: ${s}\n    page: 1\n    size: 80mm`)].join('\n') + '\n');
  const started = Date.now();
  const loaded = await loadEdition(dir);
  const seconds = (Date.now() - started) / 1000;
  const reasons = loaded.messages.filter((m) => m.ruleId === 'seal-image').map((m) => m.reason);
  assert.equal(reasons.length, 4, reasons.join('\n'));
  assert.equal(reasons.filter((r) => /could not be drawn (within 10 s|in the [\d.]+ s the seals before it left of their 20 s)/.test(r)).length, 2, reasons.join('\n'));
  assert.equal(reasons.filter((r) => /was not drawn: the seals of this edition have had their 20 s/.test(r)).length, 2, reasons.join('\n'));
  assert.ok(seconds < 30, `the seals took ${seconds.toFixed(1)} s together`);
});
