/**
 * The five sample editions printed and read back with pdf.js: every
 * character of the layout is in the PDF once, as itself, in reading order
 * (columns right to left; a jiazhu chunk's right sub-column before its left),
 * and sits in its cell; folios, running heads and the 版心 lie outside the
 * grid and are told apart by position. All of 禮經本義 (about 1000 pages)
 * is printed and read: about a minute.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, type OfflineBrowser } from '../../engine/browser.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import { isRadical } from './radicals.js';
import { centre, expectedGlyphs, gridItems, inside, itemBox, laidOutPages, readPdfText } from './readback.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MANUSCRIPTS = join(ROOT, 'manuscript');

let browser: OfflineBrowser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

for (const id of readdirSync(MANUSCRIPTS).filter((d) => existsSync(join(MANUSCRIPTS, d, 'edition.yaml'))).sort()) {
  test(`${id}: the PDF reads back as the layout, glyph by glyph`, async () => {
    const { config, tree } = await loadEdition(join(MANUSCRIPTS, id));
    assert.ok(config, `${id}: edition.yaml`);
    const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
    const { bytes, planned, uncovered } = await buildPdf(layout, config, { browser });
    const { options } = await renderOptionsFor(layout, config);
    const text = await readPdfText(bytes);
    assert.equal(text.length, planned.length, 'one PDF page per planned page');
    let glyphs = 0;
    for (const { index, page } of laidOutPages(planned)) {
      const expected = expectedGlyphs(page, options.geometry, options.covers, { standard: layout.spec.punctuation?.standard, ink: options.ink });
      // The sources hold no real radicals, so a radical in the PDF could only be a ToUnicode slip.
      for (const e of expected) assert.ok(!isRadical(e.char.codePointAt(0)!), `${id}: the layout has a real radical ${e.char}`);
      const items = gridItems(text[index], options.geometry, page.side, page);
      // pdf.js adds a space after a glyph it thinks ends a word (…); the grid has none.
      const got = items.map((i) => i.str.trim()).join('');
      const want = expected.map((e) => e.char).join('');
      if (got !== want) {
        let k = 0;
        while (k < got.length && got[k] === want[k]) k++;
        assert.fail(`${id} page ${index + 1}: differs at ${k}: got …${got.slice(Math.max(0, k - 10), k + 10)}… want …${want.slice(Math.max(0, k - 10), k + 10)}…`);
      }
      items.forEach((item, k) => {
        if (expected[k].loose) return;
        const box = expected[k].box;
        assert.ok(inside(itemBox(item), box, 1), `${id} p${index + 1} ${item.str} outside its cell`);
        assert.ok(Math.abs(centre(itemBox(item)).x - (box.x + box.w / 2)) < 1.5, `${id} p${index + 1} ${item.str} off-centre: ${JSON.stringify(item)} cell ${JSON.stringify(box)}`);
      });
      glyphs += items.length;
    }
    assert.ok(glyphs > 500, `${id}: ${glyphs} glyphs read back`);
    // The only uncovered characters are ones no font has; they print as 〓 (checked above through `covers`).
    for (const c of uncovered) assert.equal(options.covers?.(c.codePointAt(0)!), false);
  });
}
