/**
 * Slow checks (npm run test:slow, also run by .ci/run): DAISY Ace on every
 * sample and every corpus text, as `diaoban build` makes them (the PDF's page
 * list; the corpus texts with 疏 and 附注 as pop-ups), and a negative control.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { loadSystemFonts } from '../../fonts/load.js';
import type { LoadedFont } from '../../fonts/types.js';
import { SAMPLES } from '../../engine/samples.js';
import { ace, assertAceClean } from './ace.test-util.js';
import { CORPUS_TEXTS, bookEpub, loadBook, pageListFor, withCorrections } from './books.test-util.js';
import { renderEpub } from './index.js';
import { DEFAULT_POPUP_LAYERS } from './notes-option.js';
import { sampleTree } from './fixtures.test-util.js';

let tmp: string;
let fonts: LoadedFont[];
before(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'diaoban-ace-slow-'));
  fonts = await loadSystemFonts();
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test('DAISY Ace on every sample: 0 violations, a conformance claim, page breaks', async () => {
  for (const name of SAMPLES) await assertAceClean(name, await bookEpub(await loadBook(name), fonts), tmp);
});

test('DAISY Ace on 儀禮注疏 with three corrections: its 校勘記 document and the legend\'s notes', async () => {
  await assertAceClean('yili-zhushu-corrected', await bookEpub(withCorrections(await loadBook('yili-zhushu')), fonts), tmp);
});

test('DAISY Ace on every corpus text: 0 violations, a conformance claim, page breaks', async () => {
  for (const name of CORPUS_TEXTS) {
    const book = await loadBook(name);
    const bytes = await renderEpub(book.tree, { fonts, popupLayers: DEFAULT_POPUP_LAYERS, pageList: pageListFor(book) });
    await assertAceClean(name.replace(/\.txt$/, ''), bytes, tmp);
  }
});

test('DAISY Ace can fail: a heading that skips a level is a violation', async () => {
  // The hand-made tree's volume, with its h2 turned into an h4 after the volume's h1.
  const bytes = await renderEpub(sampleTree(), {});
  const zip = await JSZip.loadAsync(bytes);
  const vol = await zip.file('OEBPS/vol01.xhtml')!.async('string');
  zip.file('OEBPS/vol01.xhtml', vol.replace(/<h2([^>]*)>([^<]*)<\/h2>/, '<h4$1>$2</h4>'));
  const file = path.join(tmp, 'skipped.epub');
  await writeFile(file, await zip.generateAsync({ type: 'uint8array', mimeType: 'application/epub+zip' }));
  const r = await ace(file);
  assert.ok(r.violations.some((v) => v.rule === 'heading-order'), JSON.stringify(r.violations));
});
