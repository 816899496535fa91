/**
 * Slow checks (npm run test:slow; .ci/run runs them): the whole chtxt
 * chapters printed. 宋書 卷十四 in `judou` against its bare text, page for
 * page; both chapters in the modern template read back with no 禁則 break.
 * The main suite runs the same checks on a fixed part (punctuation.test.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, type OfflineBrowser } from '../../engine/browser.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import { CHTXT, bareText, chtxtMarkdown, treeOfMarkdown } from '../../layout/punctuated.js';
import { pagesChars } from '../../layout/test-helpers.js';
import { defaultEdition } from '../../parse/edition.js';
import { markOf } from '../../punctuation/index.js';
import type { Root } from '../../tree/types.js';
import { gridItems, kinsokuBreaksInPdf, readPdfText } from './readback.js';

let browser: OfflineBrowser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function print(tree: Root, template: string) {
  const layout = layoutBook(tree, pageSpecFor(template));
  const config = defaultEdition('slow', []);
  config.meta = { ...config.meta, title: '試排', template, language: tree.edition.language, date: '2026-01-01' };
  const { bytes } = await buildPdf(layout, config, { browser });
  const { options } = await renderOptionsFor(layout, config);
  return { layout, text: await readPdfText(bytes), g: options.geometry, pages: layout.volumes.flatMap((v) => v.pages) };
}

test('宋書 卷十四 in judou: every character where its bare text puts it, on every one of its pages; every mark in the text layer', async () => {
  const md = chtxtMarkdown(CHTXT[0]);
  const judou = await print(treeOfMarkdown(md), 'siku');
  const bare = await print(treeOfMarkdown(bareText(md)), 'siku');
  assert.equal(judou.layout.spec.punctuation?.standard, 'judou');
  assert.equal(judou.text.length, bare.text.length, 'pages');
  let compared = 0;
  let marks = 0;
  judou.pages.forEach((page, i) => {
    const all = gridItems(judou.text[i], judou.g, page.side);
    const a = all.filter((t) => !markOf(t.str.trim()));
    const b = gridItems(bare.text[i], bare.g, page.side);
    assert.equal(a.map((t) => t.str).join(''), b.map((t) => t.str).join(''), `page ${i + 1}`);
    a.forEach((t, k) => assert.ok(Math.abs(t.x - b[k].x) < 0.1 && Math.abs(t.y - b[k].y) < 0.1, `page ${i + 1} ${t.str}`));
    compared += a.length;
    marks += all.length - a.length;
  });
  const inLayout = Array.from(pagesChars(judou.pages)).filter((ch) => markOf(ch)).length;
  assert.ok(compared > 15000, `${compared} characters`);
  assert.equal(marks, inLayout, 'every mark of the text in the text layer');
});

test('chtxt chapters in the modern template, read back: no column headed by a closing mark or ended by an opening one', async () => {
  for (const file of CHTXT) {
    const p = await print(treeOfMarkdown(chtxtMarkdown(file), { template: 'modern' }), 'modern');
    const breaks = kinsokuBreaksInPdf(p.pages, p.text, p.g);
    assert.equal(breaks, 0, file);
  }
});
