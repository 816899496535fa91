/**
 * Seals are drawn safely: an SVG seal is rasterised by resvg in a process
 * killed after SEAL_RASTER_MS (a 3 KB SVG of nested <use>, 10 levels × 10,
 * is 10^10 shapes), and every PNG has its header checked before it is
 * decoded. A nested-<use> bomb, an SVG with an undefined entity, a PNG whose
 * magic is followed by text and a PNG header claiming 2^31 × 2^31 each get a
 * message at their `seals` entry; the good seal is still drawn and the book
 * still built (exit 1). An SVG's <image> (resvg would read any file it names)
 * is left out, with a warning.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { sealImage } from './load.js';
import { pngProblem, SEAL_MAX_SIDE } from './seal-raster.js';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-seals-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** 10 levels of 10 <use> each: 10^10 rectangles. */
function useBomb(): string {
  let svg = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><rect id="l0" width="1" height="1" fill="#b3261e"/>';
  for (let i = 1; i <= 10; i++) svg += `<g id="l${i}">${Array.from({ length: 10 }, (_, k) => `<use xlink:href="#l${i - 1}" x="${k}"/>`).join('')}</g>`;
  return `${svg}</defs><use xlink:href="#l10"/></svg>`;
}

const ENTITY = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&undefined;</text><rect width="10" height="10"/></svg>\n';
const MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG signature and an IHDR claiming `width` × `height` (then nothing). */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = 6;
  return Buffer.concat([MAGIC, ihdr]);
}

function goodPng(): Buffer {
  const png = new PNG({ width: 40, height: 40 });
  png.data.fill(0xb3);
  return PNG.sync.write(png);
}

test('PNG checks: a real PNG passes; text after the magic, a header claiming 2^31 × 2^31, a cut image do not', () => {
  assert.equal(pngProblem(goodPng()), undefined, 'negative control');
  assert.match(pngProblem(Buffer.concat([MAGIC, Buffer.from('this is text, not an image header\n')])) ?? '', /no image header/);
  assert.match(pngProblem(pngHeader(2 ** 31, 2 ** 31)) ?? '', /2147483648 × 2147483648 pixels; a seal must be at most 8192/);
  assert.match(pngProblem(pngHeader(SEAL_MAX_SIDE, SEAL_MAX_SIDE)) ?? '', /million pixels/);
  assert.match(pngProblem(goodPng().subarray(0, 60)) ?? '', /damaged PNG/);
});

test('an SVG seal is drawn as a PNG of its printed size; an undefined entity is a message; its <image> is left out', async () => {
  const seal = readFileSync(path.resolve('manuscript/pingdian/seal.svg'));
  const drawn = await sealImage(new Uint8Array(seal), '24mm');
  assert.ok(typeof drawn !== 'string', String(drawn));
  const png = PNG.sync.read(Buffer.from(drawn.bytes));
  assert.equal(png.width, Math.ceil((24 / 25.4) * 600), '600 dpi at 24 mm');
  let opaque = 0;
  for (let i = 3; i < png.data.length; i += 4) if (png.data[i] === 255) opaque++;
  assert.ok(opaque > 0.95 * png.width * png.height, 'the seal’s square is drawn (all but its rounded corners)');
  assert.match(String(await sealImage(new TextEncoder().encode(ENTITY), '20mm')), /SVG that cannot be drawn/);
  // An <image> naming a file outside the edition: left out, the rest drawn.
  writeFileSync(path.join(work, 'outside.png'), goodPng());
  const withImage = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><image href="${path.join(work, 'outside.png')}" width="100" height="100"/><rect width="10" height="10" fill="#b3261e"/></svg>`;
  const result = await sealImage(new TextEncoder().encode(withImage), '10mm');
  assert.ok(typeof result !== 'string', String(result));
  assert.match(result.warning ?? '', /draws images, which are left out/);
  const drawnWithout = PNG.sync.read(Buffer.from(result.bytes));
  const opaqueOf = (p: PNG): number => {
    let n = 0;
    for (let i = 3; i < p.data.length; i += 4) if (p.data[i] > 0) n++;
    return n;
  };
  assert.ok(opaqueOf(drawnWithout) < drawnWithout.width * drawnWithout.height * 0.05, 'only the small rectangle is drawn, not the outside file');
});

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
    ['title: 論語', 'author: 孔子', 'language: zh-Hant', 'script: traditional', 'template: siku', 'date: 2026-01-01', 'sources:', '  - a.md', 'seals:', ...seals.map((s) => `  - image: ${s}\n    page: 1`)].join('\n') + '\n',
  );
  const out = path.join(work, 'out');
  const build = spawnSync(process.execPath, [BIN, 'build', '--pdf', '--out', out, dir], { encoding: 'utf8', timeout: 600_000 });
  const said = build.stdout + build.stderr;
  assert.equal(build.status, 1, said);
  assert.doesNotMatch(said, /internal error|bug in diaoban/);
  const line = (name: string): number => 10 + 2 * seals.indexOf(name);
  assert.match(said, new RegExp(`edition\\.yaml:${line('bomb.svg')}:12 error seal "bomb\\.svg" could not be drawn within \\d+ s`));
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
