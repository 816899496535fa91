/**
 * The book's PDF by concatenating its runs' objects: what Chromium printed
 * is read without falling back to pdf-lib, and the
 * result reads back in pdf-lib, pdf.js and poppler with every page, the
 * outline, the metadata and the trim box.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, PDFArray, PDFName } from 'pdf-lib';
import { chromiumForTests } from './test-chromium.js';
import { BuildCache } from '../../engine/cache.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { pageSpecFor } from '../../layout/index.js';
import { defaultEdition } from '../../parse/edition.js';
import { concatRuns, parseRun } from './concat.js';
import { outlineEntries, printedChars } from './index.js';
import { planPages } from './html.js';
import { readPdfText } from './readback.js';
import { syntheticLayout } from './synthetic.js';

const { work, browser } = chromiumForTests('diaoban-concat-');

test('runs printed by Chromium are concatenated into one PDF that pdf-lib, pdf.js and poppler read whole', async () => {
  const config = defaultEdition('concat', []);
  config.meta = { ...config.meta, title: '禮經本義', author: '蔡德晉', template: 'siku', date: '2026-01-01' };
  // Long enough runs that Chromium makes its page tree more than one level deep.
  const layout = syntheticLayout(pageSpecFor('siku'), 40, 2);
  const { options } = await renderOptionsFor(layout, config);
  const planned = planPages(layout);
  const runs = [planned.slice(0, 20), planned.slice(20)];
  // The runs as the build prints them (Paged.js in the tab), taken as they go into the cache: one tab, so in order.
  const printed: Uint8Array[] = [];
  class Keeping extends BuildCache {
    override async put(kind: string, key: string, payload: Uint8Array): Promise<void> {
      if (kind === 'pdf-run') printed.push(payload);
      return super.put(kind, key, payload);
    }
  }
  await buildPdf(layout, config, { browser, cache: new Keeping(join(work, 'cache')), maxRunPages: 20, concurrency: 1 });
  assert.equal(printed.length, runs.length, 'one print a run');
  const parts = runs.map((run, i) => ({ bytes: printed[i], chars: printedChars(run, options) }));
  for (const part of parts) assert.equal(parseRun(part.bytes).pages.length, 20, 'read without the pdf-lib fallback');
  assert.ok(parseRun(parts[0].bytes).nodes.length > 1, 'a page tree of more than one level');
  const info = { title: '禮經本義', author: '清 蔡德晉', language: 'zh-Hant', date: '2026-01-01' };
  const bytes = concatRuns(parts, { info, outline: outlineEntries(planned), producer: 'diaoban', bleed: 8.5 });
  assert.deepEqual(Buffer.from(concatRuns(parts, { info, outline: outlineEntries(planned), producer: 'diaoban', bleed: 8.5 })), Buffer.from(bytes), 'same input, same bytes');
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  assert.equal(doc.getPageCount(), planned.length);
  assert.equal(doc.getTitle(), '禮經本義');
  const trim = doc.getPage(0).node.lookup(PDFName.of('TrimBox'), PDFArray);
  assert.equal(trim.size(), 4);
  const text = await readPdfText(bytes);
  assert.equal(text.length, planned.length);
  assert.ok(text[0].map((i) => i.str).join('').length > 50, 'page 1 has its text');
  const path = join(work, 'book.pdf');
  writeFileSync(path, bytes);
  const pdfinfo = execFileSync('pdfinfo', [path]).toString('utf8');
  assert.match(pdfinfo, new RegExp(`Pages:\\s+${planned.length}`));
  const checked = spawnSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  assert.equal(checked.stderr, '', 'poppler finds no syntax error');
  const pdftotext = execFileSync('pdftotext', ['-f', '35', '-l', '35', path, '-']).toString('utf8').replace(/\s+/g, '');
  assert.ok(pdftotext.length > 50, 'poppler reads the second run’s pages');
});
