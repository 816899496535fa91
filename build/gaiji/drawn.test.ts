/**
 * Glyphs no encoding has, end to end on a Kanripo text (real Chromium,
 * pdf.js, poppler, epubcheck): KR-Gaiji images and compositions drawn in
 * their cells — ink in the main text's cell and inside the 夾注's
 * sub-column at the note's size — their readings in the PDF's text layer
 * once each, in reading order; the EPUB's images with alt texts. Negative
 * controls: a code the list lacks stays 〓 and is reported; the edition's
 * charmap wins over the list; a blank cell has no ink.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumForTests } from '../render/pdf/test-chromium.js';
import { loadEdition } from '../engine/load.js';
import { buildPdf, renderOptionsFor } from '../engine/pdf.js';
import { layoutBook, pageSpecFor } from '../layout/index.js';
import type { Page } from '../layout/types.js';
import { cellBox, noteBox, type PageGeometry } from '../render/pdf/geometry.js';
import { decodeGreyPng, readPdfText, snapshotPng, type GreyImage } from '../render/pdf/readback.js';
import { renderEpub } from '../render/epub/index.js';
import { unzip } from '../render/epub/read-epub.test-util.js';
import { loadSystemFonts } from '../fonts/load.js';
import { glyphFigures } from '../cli/import-reports.js';

const { work, browser } = chromiumForTests('diaoban-gaiji-test-');

// 蓍 (KR0433's reading), 若 (KR0002's), ⿰女省 and the formula are nowhere in the source's text: only drawn glyphs put them in the PDF.
const TEXT = ['# -*- mode: mandoku-view -*-', '#+TITLE: 測試', '#+PROPERTY: JUAN 1', '<pb:KR9_T_001-1a>¶', '天&KR0433;地&KR0007;人(注&KR0002;文/[女*省]之)物[臊-品+巳]也&KR9999;山&KR0764;水¶', ''].join('\n');

async function edition(): Promise<string> {
  const dir = join(work, 'gaiji');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 't.txt'), TEXT);
  writeFileSync(join(dir, 'charmap.yaml'), '"&KR0764;": 內\n');
  writeFileSync(join(dir, 'edition.yaml'), ['title: 測試', 'author: 某', 'language: zh-Hant', 'script: traditional', 'template: siku', 'date: 2026-01-01', 'sources:', '  - t.txt', 'charmap: charmap.yaml', ''].join('\n'));
  return dir;
}

const MM_TO_PX = 144 / 25.4;

/** Dark pixels inside a box (mm from the page's top left, as geometry.ts gives it, the margins added). */
function ink(grey: GreyImage, g: PageGeometry, page: Page, box: { x: number; y: number; w: number; h: number }): number {
  const m = g.margins[page.side];
  let n = 0;
  const x0 = Math.round((m.left + box.x) * MM_TO_PX);
  const y0 = Math.round((m.top + box.y) * MM_TO_PX);
  for (let y = y0 + 2; y < Math.round((m.top + box.y + box.h) * MM_TO_PX) - 2; y++) {
    for (let x = x0 + 2; x < Math.round((m.left + box.x + box.w) * MM_TO_PX) - 2; x++) if (grey.pixels[y * grey.width + x] < 128) n++;
  }
  return n;
}

test('Kanripo glyphs: drawn in their cells (a note’s at the note’s size), searchable once in reading order in the PDF, images with alt texts in the EPUB; 〓 for a code no list has; the charmap first', async () => {
  const dir = await edition();
  const loaded = await loadEdition(dir);
  assert.ok(loaded.config);
  const messages = loaded.files.flatMap((f) => f.messages);
  assert.ok(messages.some((m) => m.ruleId === 'entity-unmapped' && /&KR9999;/u.test(m.reason)), 'the code the list lacks is reported');
  assert.ok(!messages.some((m) => /&KR0764;/u.test(m.reason)), 'the charmap maps KR0764');
  assert.deepEqual([...glyphFigures(loaded.tree).values()], [{ character: 2, image: 3, parts: 0, formula: 1, placeholder: 1 }]);

  const layout = layoutBook(loaded.tree, pageSpecFor('siku', loaded.config.layout));
  const { bytes } = await buildPdf(layout, loaded.config, { browser });
  const path = join(work, 'gaiji.pdf');
  writeFileSync(path, bytes);
  // pdf.js: the text layer in content order.
  const text = (await readPdfText(bytes)).flat().map((i) => i.str).join('');
  const body = text.slice(text.indexOf('天'));
  const order = ['天', '蓍', '地', '𤣥', '人', '注', '若', '文', '⿰女省', '之', '物', '[臊-品+巳]', '也', '〓', '山', '內', '水'];
  let at = -1;
  for (const s of order) {
    const i = body.indexOf(s, at + 1);
    assert.ok(i > at, `${s} after ${order[order.indexOf(s) - 1]} in ${body}`);
    at = i;
  }
  for (const s of ['蓍', '若', '⿰女省', '[臊-品+巳]', '〓', '內']) assert.equal(body.split(s).length, 2, `${s} once`);
  // poppler too (content order).
  const raw = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' }).replace(/\s/gu, '');
  assert.match(raw, /天蓍地𤣥人注若文⿰女省之物\[臊-品\+巳\]也〓山內水/u);

  // Ink: the drawn cells have it; a blank cell below the text none.
  const { options } = await renderOptionsFor(layout, loaded.config);
  const g = options.geometry;
  const page = layout.volumes[0].pages[0];
  const grey = decodeGreyPng(snapshotPng(path, 1, 144));
  const column = page.columns.find((c) => c.runs.some((r) => r.type === 'text' && r.drawing))!;
  const cell = (at: number) => ({ ...cellBox(g, page.side, column.index, 0), y: cellBox(g, page.side, column.index, 0).y + at * g.cellHeight });
  const drawn = column.runs.filter((r) => r.type === 'text' && r.drawing && r.text === '〓');
  assert.equal(drawn.length, 2, 'KR0433 and the formula in the main text');
  const full = ink(grey, g, page, cell(drawn[0].start));
  assert.ok(full > 40, `ink in KR0433's cell: ${full}`);
  const blank = ink(grey, g, page, cell(g.cells - 1));
  assert.equal(blank, 0, 'a blank cell');
  // The note's drawn glyph ([女*省], left sub-column) has its ink inside its sub-column, and less of it than a main cell.
  const chunk = column.runs.find((r) => r.type === 'note')!;
  assert.ok(chunk.type === 'note');
  const left = chunk.left.find((s) => s.drawing)!;
  assert.ok(left, 'the drawn glyph is in the left sub-column');
  const sub = noteBox(g, page.side, column.index, 'left', 0);
  const inSub = ink(grey, g, page, { ...sub, y: sub.y + chunk.start * g.cellHeight, h: g.cellHeight });
  const rightOfIt = ink(grey, g, page, { ...sub, x: sub.x + sub.w, y: sub.y + chunk.start * g.cellHeight, h: g.cellHeight });
  assert.ok(inSub > 15 && inSub < full, `ink of the note's glyph: ${inSub} (main ${full})`);
  assert.ok(rightOfIt > 15, `the right sub-column's 注: ${rightOfIt}`);

  // EPUB: an image with its alt text for each drawn glyph, the character where a font has it, 〓 for the rest; epubcheck clean.
  const epub = await renderEpub(loaded.tree, { fonts: await loadSystemFonts() });
  const files = await unzip(epub);
  const volume = files.text.get('OEBPS/vol01.xhtml')!;
  const images = [...volume.matchAll(/<img class="gaiji" src="([^"]+)" alt="([^"]*)"/gu)].map((m) => [m[1], m[2]]);
  assert.deepEqual(images.map(([, alt]) => alt), ['蓍', '若', '⿰女省', '[臊-品+巳]']);
  for (const [src] of images) assert.ok(files.names.includes(`OEBPS/${src}`), src);
  assert.match(volume, /<span class="glyph unmapped" title="&amp;KR9999;">〓<\/span>/u);
  assert.match(volume, /𤣥/u);
  const epubPath = join(work, 'gaiji.epub');
  writeFileSync(epubPath, epub);
  const check = execFileSync('java', ['-jar', '/usr/share/java/epubcheck.jar', epubPath], { encoding: 'utf8' });
  assert.match(check, /0 fatals \/ 0 errors \/ 0 warnings/u);
});
