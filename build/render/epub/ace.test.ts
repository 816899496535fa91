/**
 * DAISY Ace on a small fixed sample (儀禮注疏: four layers, 疏 as pop-ups,
 * the PDF's page list; 六藝綱目: characters shown as 〓, 附注 as pop-ups;
 * 儀禮注疏 with three corrections: its 校勘記 document, the legend's notes):
 * 0 violations, the conformance claim read, page breaks found. Every sample
 * and corpus text: `npm run test:slow` (ace.slow.ts).
 */
import { after, before, test } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSystemFonts } from '../../fonts/load.js';
import { assertAceClean } from './ace.test-util.js';
import { bookEpub, loadBook, withCorrections } from './books.test-util.js';

let tmp: string;
before(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'diaoban-ace-test-'));
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test('DAISY Ace: 0 violations, a conformance claim and page breaks (儀禮注疏, 六藝綱目, 儀禮注疏 with a 校勘記)', async () => {
  const fonts = await loadSystemFonts();
  for (const name of ['yili-zhushu', 'liuyi-gangmu']) await assertAceClean(name, await bookEpub(await loadBook(name), fonts), tmp);
  await assertAceClean('yili-zhushu-corrected', await bookEpub(withCorrections(await loadBook('yili-zhushu')), fonts), tmp);
});
