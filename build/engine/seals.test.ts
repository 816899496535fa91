/**
 * Seals are drawn safely: an SVG seal is rasterised by resvg in a process
 * killed after SEAL_RASTER_MS (a 3 KB SVG of nested <use>, 10 levels × 10,
 * is 10^10 shapes), and every PNG has its header checked before it is
 * decoded. A nested-<use> bomb, an SVG with an undefined entity, a PNG whose
 * magic is followed by text and a PNG header claiming 2^31 × 2^31 each get a
 * message at their `seals` entry; the good seal is still drawn and the book
 * still built (exit 1: seals.slow.ts). An SVG's <image> (resvg would read any file it names)
 * is left out, with a warning.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { sealImage } from './load.js';
import { pngProblem, SEAL_MAX_SIDE } from './seal-raster.js';
import { ENTITY, MAGIC, pngHeader } from './seals.test-util.js';

const work = mkdtempSync(path.join(tmpdir(), 'diaoban-seals-'));
after(() => rmSync(work, { recursive: true, force: true }));

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
