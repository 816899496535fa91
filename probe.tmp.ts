import { CORPUS_TEXTS, loadBook, bookEpub, assertReaderReady } from './build/render/epub/books.test-util.js';
import { loadSystemFonts } from './build/fonts/load.js';
import { writeFileSync } from 'node:fs';
const fonts = await loadSystemFonts();
for (const name of CORPUS_TEXTS) {
  const t0 = Date.now();
  const book = await loadBook(name);
  const t1 = Date.now();
  const bytes = await bookEpub(book, fonts);
  const t2 = Date.now();
  writeFileSync(`/tmp/acetest/${name.replace('.txt','')}.epub`, bytes);
  try { console.log(name, t1 - t0, t2 - t1, await assertReaderReady(name, bytes)); } catch (e) { console.log(name, 'FAIL', (e as Error).message.slice(0, 600)); }
}
