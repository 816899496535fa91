/** The subsets keep their fonts' licence records (name IDs 0, 13, 14), which HarfBuzz drops by default. */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import subsetFont from 'subset-font';
import { loadSystemFonts } from './load.js';
import { fontLicence, isOfl } from './licence.js';
import { subsetFace } from './subset.js';
import type { LoadedFont } from './types.js';

let noto: LoadedFont;
before(async () => {
  [noto] = await loadSystemFonts();
});

test('a subset keeps the copyright notice, the licence and its URL (Noto Serif CJK: the OFL)', async () => {
  const whole = fontLicence(noto.bytes);
  assert.ok(whole.licence && isOfl(whole), `the font says the OFL: ${whole.licence}`);
  const subset = fontLicence(await subsetFace(noto, '禮經'));
  assert.deepEqual(subset, whole);
  // Negative control: HarfBuzz's defaults drop the licence records.
  const plain = fontLicence(new Uint8Array(await subsetFont(Buffer.from(noto.bytes), '禮經', { targetFormat: 'sfnt' })));
  assert.equal(plain.licence, undefined);
  assert.equal(plain.url, undefined);
});
