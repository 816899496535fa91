/**
 * Font checks take time linear in the font's size (issue 29). Reproduction:
 * a 640 KB font with a crafted cmap took 61 s a face (the 20 faces an edition
 * may name: ~21 min): format 4 segments each claiming the whole BMP were
 * walked whole, 32,767 × 65,535 code points, by our check and again by
 * HarfBuzz's subsetter (a build: 9 minutes for one face). Such a cmap is
 * now refused by the check (ranges out of order or overlapping, as the
 * OpenType spec forbids), in time linear in its size: 5 s at most here,
 * ~10 ms now, 15 s on the old code for a 400 KB font.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cmapRanges, fontProblem } from './sfnt.js';
import { craftedCmapFont, manyFacesCollection } from './crafted-font.test-util.js';

test('a cmap of 32,766 segments each claiming the whole BMP is refused at once, and read in one pass', () => {
  const font = craftedCmapFont();
  // A bound, not a speed figure: the check is synchronous (no test time-out can stop it); ~10 ms now, 15 s before.
  const started = performance.now();
  // HarfBuzz's subsetter walks each segment whole (11 minutes a face): such a cmap never reaches it.
  assert.match(fontProblem(font) ?? '', /has a damaged cmap: its character ranges are out of order or overlap/);
  assert.deepEqual(cmapRanges(font), [[0, 0xfffe]], 'each code point read once, from the first segment that has it');
  assert.ok(performance.now() - started < 5000, `checked in ${(performance.now() - started).toFixed(0)} ms`);
  // Control: the same cmap with one segment is a font.
  assert.equal(fontProblem(craftedCmapFont(1)), undefined);
});

test('a collection whose faces share one table directory, or has thousands of faces, is refused at once', { timeout: 20_000 }, () => {
  assert.match(fontProblem(manyFacesCollection(200)) ?? '', /table directories overlap/);
  assert.match(fontProblem(manyFacesCollection(100_000)) ?? '', /a collection of 100000 faces; a font file may have at most 256/);
  // Control: one face is a font.
  assert.equal(fontProblem(manyFacesCollection(1)), undefined);
});
