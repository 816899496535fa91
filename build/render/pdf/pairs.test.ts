/**
 * 夾注 read as pairs, from the PDF's text layer: the two sub-columns of a
 * note stand closer to each other than either stands to the column beside
 * it, in both templates. Negative control: the template with noteGap 1 (no
 * shift towards the column's middle, as before) sets the sub-columns
 * evenly, and the measure says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumForTests } from './test-chromium.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import { readPdfText, type TextItem } from './readback.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PT = 72 / 25.4;
const { work, browser } = chromiumForTests('diaoban-pairs-test-');

/** Columns that are notes from top to foot, one beside the other (a long note after a word). */
const SOURCE = `# 卷一\n\n經【${'注文之字皆雙行小書以明其為注也'.repeat(12)}】經\n`;

let serial = 0;
async function notePitches(template: string, root = ROOT): Promise<{ inner: number[]; outer: number[] }> {
  const dir = join(work, `e${++serial}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'juan.md'), SOURCE);
  writeFileSync(join(dir, 'edition.yaml'), `title: 雙行\nauthor: 試\nlanguage: zh-Hant\nscript: traditional\ntemplate: ${template}\ndate: 2026-01-01\nsources: [juan.md]\nbook: { cover: false, title-page: false, colophon: false }\n`);
  const { tree, config } = await loadEdition(dir);
  assert.ok(config);
  const layout = layoutBook(tree, pageSpecFor(template, config.layout));
  const { bytes } = await buildPdf(layout, config, { browser, root });
  const { options } = await renderOptionsFor(layout, config, root);
  const noteSize = options.geometry.noteSize * PT;
  const [page] = await readPdfText(bytes);
  // The note glyphs' x (left edge) in columns of ink, right to left; single characters set one to an item.
  const xs = [...new Set(page.filter((t: TextItem) => Math.abs(t.size - noteSize) < 0.5).map((t) => Math.round(t.x * 10) / 10))].sort((a, b) => b - a);
  const lanes: number[] = [];
  for (const x of xs) if (lanes.length === 0 || lanes[lanes.length - 1] - x > noteSize / 2) lanes.push(x);
  assert.ok(lanes.length >= 8, `${template}: ${lanes.length} sub-columns`);
  // Right to left: right sub-column, left sub-column (a pair), then the next column's right one.
  const gaps = lanes.slice(1).map((x, i) => lanes[i] - x);
  return { inner: gaps.filter((_, i) => i % 2 === 0), outer: gaps.filter((_, i) => i % 2 === 1) };
}

test('夾注 read as pairs: the two sub-columns of a note closer to each other than to the columns beside, in both templates; evenly spaced without the shift (control)', async () => {
  for (const template of ['siku', 'modern']) {
    const { inner, outer } = await notePitches(template);
    assert.ok(Math.max(...inner) < 0.85 * Math.min(...outer), `${template}: pair pitch ${inner.map((x) => x.toFixed(1))} pt, between pairs ${outer.map((x) => x.toFixed(1))} pt`);
  }
  // Control: the templates as they were (noteGap 1: no shift), in a copy of the checkout's templates and styles.
  const root = join(work, 'even');
  for (const d of ['templates', 'styles']) cpSync(join(ROOT, d), join(root, d), { recursive: true });
  const def = join(root, 'templates', 'modern', 'template.json');
  writeFileSync(def, JSON.stringify({ ...JSON.parse(readFileSync(def, 'utf8')), noteGap: 1 }));
  const even = await notePitches('modern', root);
  const ratio = Math.max(...even.inner) / Math.min(...even.outer);
  assert.ok(ratio > 0.95, `control: evenly spaced (${ratio.toFixed(2)})`);
});
