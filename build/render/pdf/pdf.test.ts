/**
 * The PDF renderer end to end, in one Chromium for the whole file: small
 * layouts of both templates printed by Chromium, read back with pdf.js
 * and poppler, compared with reference snapshots.
 *
 * UPDATE_SNAPSHOTS=1 rewrites the reference PNGs in snapshots/ (look at them first).
 */
import { test } from 'node:test';
import { defaultEdition } from '../../parse/edition.js';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFDict, PDFHexString, PDFName } from 'pdf-lib';
import { BrowserError, launchBrowser, withBrowserDeadline } from '../../engine/browser.js';
import { chromiumForTests } from './test-chromium.js';
import { buildPdf, renderOptionsFor, writePdf, PdfError } from '../../engine/pdf.js';
import { pageSpecFor } from '../../layout/index.js';
import type { BookLayout, Page } from '../../layout/types.js';
import type { EditionConfig } from '../../tree/edition.js';
import { planPages, type PlannedPage } from './html.js';
import {
  centre,
  decodeGreyPng,
  expectedGlyphs,
  gridItems,
  imageDifference,
  inside,
  itemBox,
  laidOutPages,
  readPdfText,
  snapshotPng,
} from './readback.js';
import { syntheticLayout } from './synthetic.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const SNAPSHOTS = join(HERE, 'snapshots');
const { work, browser } = chromiumForTests('diaoban-pdf-test-');

function config(template: string, extra: Partial<EditionConfig> = {}): EditionConfig {
  const base = defaultEdition(`test-${template}`, []);
  base.meta = { ...base.meta, title: '禮經本義', author: '蔡德晉', dynasty: '清', template, date: '2026-01-01', description: '測試用書' };
  return { ...base, ...extra };
}

/** A page with what is hard to print: radical-sharing ideographs, Ext A/B, an uncovered character, small text, a nested note. */
function specialLayout(template: string): BookLayout {
  const spec = pageSpecFor(template);
  const page: Page = {
    number: 1,
    pageInVolume: 1,
    leaf: 1,
    side: 'recto',
    volume: 1,
    volumeTitle: '禮經本義卷一',
    bookmarks: [{ level: 1, title: '禮經本義卷一' }, { level: 2, title: '士冠禮' }],
    columns: [
      { index: 0, role: 'title', runs: [{ type: 'text', start: 0, text: '禮經本義卷一' }] },
      {
        index: 1,
        role: 'text',
        runs: [
          { type: 'text', start: 0, text: '大夫門見民一二' },
          { type: 'note', start: 7, cells: 3, right: [{ layer: 'zhu', depth: 1, text: '𠀁㐀長' }], left: [{ layer: 'zhu', depth: 1, text: '戶' }, { layer: 'an', depth: 2, text: '案' }] },
          { type: 'text', start: 10, text: '□', style: 'lacuna' },
          { type: 'text', start: 11, text: '臣', style: 'small' },
          { type: 'text', start: 12, text: '\u{3134A}言' },
        ],
      },
    ],
  };
  return { spec, volumes: [{ index: 0, title: '禮經本義卷一', pages: [page] }] };
}

interface Built {
  bytes: Uint8Array;
  planned: PlannedPage[];
  path: string;
}

const built = new Map<string, Built>();

async function build(name: string, layout: BookLayout, cfg: EditionConfig): Promise<Built> {
  const hit = built.get(name);
  if (hit) return hit;
  const result = await buildPdf(layout, cfg, { browser });
  const path = join(work, `${name}.pdf`);
  writeFileSync(path, result.bytes);
  const b = { bytes: result.bytes, planned: result.planned, path };
  built.set(name, b);
  return b;
}

const sikuBook = (): BookLayout => syntheticLayout(pageSpecFor('siku'), 5, 2);
const modernBook = (): BookLayout => syntheticLayout(pageSpecFor('modern'), 5, 2);

test('siku: one PDF page per laid-out page, a blank verso before a volume that would start on a verso', async () => {
  const { bytes, planned } = await build('siku', sikuBook(), config('siku'));
  const doc = await PDFDocument.load(bytes);
  assert.equal(doc.getPageCount(), 6);
  assert.equal(planned[3].page, null);
  const [w, h] = [doc.getPage(0).getWidth(), doc.getPage(0).getHeight()];
  assert.ok(Math.abs(w - 419.53) < 1 && Math.abs(h - 595.28) < 1, `A5, got ${w}×${h}`);
});

test('every character of the layout is in the PDF once, as itself, in reading order; each glyph in its cell', async () => {
  for (const [name, layout, cfg] of [
    ['siku', sikuBook(), config('siku')],
    ['modern', modernBook(), config('modern')],
    ['special-siku', specialLayout('siku'), config('siku')],
  ] as const) {
    const { bytes, planned } = await build(name, layout, cfg);
    const { options } = await renderOptionsFor(layout, cfg);
    const g = options.geometry;
    const text = await readPdfText(bytes);
    assert.equal(text.length, planned.length);
    for (const { index, page } of laidOutPages(planned)) {
      const expected = expectedGlyphs(page, g, options.covers);
      const items = gridItems(text[index], g, page.side);
      assert.equal(items.map((i) => i.str).join(''), expected.map((e) => e.char).join(''), `${name} page ${index + 1} text`);
      items.forEach((item, k) => {
        const box = expected[k].box;
        const c = centre(itemBox(item));
        assert.ok(inside(itemBox(item), box, 1), `${name} p${index + 1} ${item.str} em box ${JSON.stringify(itemBox(item))} outside its cell ${JSON.stringify(box)}`);
        // Centred across the column or sub-column.
        assert.ok(Math.abs(c.x - (box.x + box.w / 2)) < 1.5, `${name} p${index + 1} ${item.str} off-centre: ${c.x} vs ${box.x + box.w / 2}`);
        if (expected[k].note) assert.ok(item.size < 0.8 * text[index].reduce((m, i) => Math.max(m, i.size), 0), 'note glyphs are small');
      });
    }
  }
});

test('radical-sharing ideographs read as themselves in pdf.js; search finds 大夫; uncovered prints 〓', async () => {
  const { bytes } = await build('special-siku', specialLayout('siku'), config('siku'));
  const [page] = await readPdfText(bytes);
  const all = page.map((i) => i.str).join('');
  assert.match(all, /大夫門見民一二/);
  assert.match(all, /𠀁㐀長戶案/);
  assert.doesNotMatch(all, /[\u2E80-\u2EF3\u2F00-\u2FD5]/u, 'no radicals');
  assert.match(all, /□臣〓言/);
  // poppler too
  const popplerText = execFileSync('pdftotext', ['-raw', join(work, 'special-siku.pdf'), '-']).toString('utf8');
  assert.match(popplerText.replace(/\s+/g, ''), /大夫門見民/);
});

test('every font is embedded (pdffonts)', async () => {
  const { path } = await build('special-siku', specialLayout('siku'), config('siku'));
  const rows = execFileSync('pdffonts', [path]).toString('utf8').trim().split('\n').slice(2);
  assert.ok(rows.length > 0);
  for (const row of rows) {
    const cols = row.trim().split(/\s+/);
    // name type … emb sub uni object ID: emb is the fifth column from the end
    assert.equal(cols[cols.length - 5], 'yes', `not embedded: ${row}`);
  }
  // The 四庫 template's 楷 hand has its own Extension B face (the modern template's comes from HanaMinB).
  assert.ok(rows.some((r) => /TW-Kai-Ext-B/.test(r)), 'Extension B comes from TW-Kai-Ext-B');
});

test('metadata, R2L viewer preference, outline of volumes and sections', async () => {
  const { bytes } = await build('special-siku', specialLayout('siku'), config('siku'));
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  assert.equal(doc.getTitle(), '禮經本義');
  assert.equal(doc.getAuthor(), '清 蔡德晉');
  assert.equal(doc.getSubject(), '測試用書');
  assert.equal(doc.catalog.lookup(PDFName.of('Lang'), PDFHexString).decodeText(), 'zh-Hant');
  assert.equal(doc.getCreationDate()?.toISOString(), '2026-01-01T00:00:00.000Z');
  const prefs = doc.catalog.lookup(PDFName.of('ViewerPreferences'), PDFDict);
  assert.equal(prefs.get(PDFName.of('Direction'))?.toString(), '/R2L');
  const info = execFileSync('pdfinfo', [join(work, 'special-siku.pdf')]).toString('utf8');
  assert.match(info, /Title:\s+禮經本義/);
  // Outline titles through poppler's reader of the outline (pdfinfo has none; read via pdf.js).
  const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as {
    getDocument(src: { data: Uint8Array; verbosity: number }): { promise: Promise<{ getOutline(): Promise<Array<{ title: string; items: Array<{ title: string }> }>>; destroy(): Promise<void> }> };
  };
  const pj = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const outline = await pj.getOutline();
  await pj.destroy();
  assert.deepEqual(outline.map((o) => [o.title, o.items.map((i) => i.title)]), [['禮經本義卷一', ['士冠禮']]]);
});

test('the same input gives a byte-identical PDF', async () => {
  const first = await build('siku', sikuBook(), config('siku'));
  const again = await buildPdf(sikuBook(), config('siku'), { browser });
  assert.ok(Buffer.from(first.bytes).equals(Buffer.from(again.bytes)), 'PDF bytes differ between two builds');
});

test('modern: running heads and Chinese folios sit outside the page area', async () => {
  const { bytes, planned } = await build('modern', modernBook(), config('modern'));
  const { options } = await renderOptionsFor(modernBook(), config('modern'));
  const text = await readPdfText(bytes);
  const g = options.geometry;
  const pt = (mm: number): number => (mm * 72) / 25.4;
  // Above the page area: the running head; below it: the folio; nothing else outside the grid.
  const margins = (i: number): string => {
    const top = pt(g.margins[planned[i].side].top);
    const bottom = pt(g.margins[planned[i].side].top + g.area.height);
    const grid = new Set(gridItems(text[i], g, planned[i].side));
    const rest = text[i].filter((it) => !grid.has(it));
    const head = rest.filter((it) => it.y < top);
    const foot = rest.filter((it) => it.y - it.size > bottom);
    assert.equal(rest.length, head.length + foot.length, `page ${i + 1}: text outside the grid that is neither head nor folio`);
    return `${head.map((it) => it.str).join('')}|${foot.map((it) => it.str).join('')}`;
  };
  assert.equal(margins(0), '卷一|一');
  assert.equal(margins(1), '禮經本義|二');
  // The second volume starts again at 一 (after a blank page).
  assert.equal(planned[3].page, null);
  assert.equal(margins(3), '|', 'a blank page has neither running head nor folio');
  assert.equal(margins(4), '卷二|一');
});

test('page snapshots match the references', async () => {
  const cases: Array<[string, number]> = [
    ['siku', 1],
    ['siku', 2],
    ['siku', 4],
    ['modern', 1],
    ['modern', 2],
    ['special-siku', 1],
  ];
  await build('siku', sikuBook(), config('siku'));
  await build('modern', modernBook(), config('modern'));
  await build('special-siku', specialLayout('siku'), config('siku'));
  for (const [name, page] of cases) {
    const png = snapshotPng(join(work, `${name}.pdf`), page);
    const ref = join(SNAPSHOTS, `${name}-${page}.png`);
    if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(ref, png);
    assert.ok(existsSync(ref), `missing reference ${ref} (run with UPDATE_SNAPSHOTS=1 after looking at the pages)`);
    const diff = imageDifference(decodeGreyPng(png), decodeGreyPng(readFileSync(ref)));
    assert.ok(diff < 0.005, `${name} page ${page} differs from its reference in ${(diff * 100).toFixed(2)} % of pixels`);
  }
});

test('a snapshot comparison can fail: another page differs', async () => {
  const a = decodeGreyPng(snapshotPng(join(work, 'siku.pdf'), 1));
  const b = decodeGreyPng(snapshotPng(join(work, 'siku.pdf'), 4));
  assert.ok(imageDifference(a, b) > 0.005);
});

test('page size and bleed from the edition', async () => {
  const layout = syntheticLayout(pageSpecFor('modern'), 1, 1);
  const result = await buildPdf(layout, config('modern', { page: { size: 'B5', bleed: '3mm', marks: true } }), { browser });
  const doc = await PDFDocument.load(result.bytes);
  const mmOf = (pt: number): number => (pt * 25.4) / 72;
  // B5 (176 × 250 mm) plus 3 mm bleed on each side.
  assert.ok(Math.abs(mmOf(doc.getPage(0).getWidth()) - 182) < 1, `width ${mmOf(doc.getPage(0).getWidth())}`);
  assert.ok(Math.abs(mmOf(doc.getPage(0).getHeight()) - 256) < 1);
});

test('writePdf writes atomically: a failing build leaves the old file untouched and no temp file', async () => {
  const out = join(work, 'atomic', 'book.pdf');
  const layout = syntheticLayout(pageSpecFor('siku'), 1, 1);
  const cfg = config('siku');
  const first = await writePdf(layout, cfg, out, { browser });
  assert.equal(first.pages, 1);
  const before = readFileSync(out);
  await assert.rejects(
    writePdf(layout, config('siku', { fonts: { main: ['/nonexistent/font.ttf'] } }), out, { browser }),
    (e: unknown) => e instanceof PdfError && /font file missing: \/nonexistent\/font\.ttf.*fix fonts in edition\.yaml/.test(e.message),
  );
  assert.ok(readFileSync(out).equals(before));
  assert.deepEqual(readdirSync(dirname(out)), ['book.pdf']);
});

test('progress is reported per volume', async () => {
  const seen: string[] = [];
  await buildPdf(syntheticLayout(pageSpecFor('siku'), 4, 2), config('siku'), { browser, onVolume: (d, t, title) => seen.push(`${d}/${t} ${title}`) });
  // Volumes print on two tabs at once: either may finish first.
  assert.deepEqual(seen.map((s) => s.split(' ')[0]).sort(), ['1/2', '2/2']);
  assert.deepEqual(seen.map((s) => s.split(' ')[1]).sort(), ['禮經本義卷一', '禮經本義卷二']);
});

test('a missing Chromium says what to install', async () => {
  await assert.rejects(launchBrowser({ executablePath: '/nonexistent/chromium' }), (e: unknown) => e instanceof BrowserError && /apt-get install chromium/.test(e.message));
});

test('the browser reaches no network: non-file requests are blocked', async () => {
  const tab = await (await browser()).newPage();
  try {
    const failed: string[] = [];
    tab.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));
    await tab.goto('data:text/html,<p>x</p>');
    const result = await tab.evaluate(() =>
      fetch('http://127.0.0.1:9/probe').then(
        () => 'reached',
        () => 'blocked',
      ),
    );
    assert.equal(result, 'blocked');
    assert.ok(failed.some((f) => f.includes('127.0.0.1:9/probe') && /BLOCKED_BY_CLIENT/.test(f)), failed.join('\n'));
  } finally {
    await tab.close();
  }
});

test('a hung browser step times out with a message that says what to do', async () => {
  await assert.rejects(
    withBrowserDeadline('printing pages of 卷一', 50, () => new Promise<never>(() => undefined)),
    (e: unknown) => e instanceof BrowserError && /timed out.*try again/.test(e.message),
  );
});

test('a Chromium that dies mid-build gives a BrowserError, not a half-written file', async () => {
  const doomed = await launchBrowser();
  try {
    const out = join(work, 'crash', 'book.pdf');
    const pending = writePdf(syntheticLayout(pageSpecFor('siku'), 60, 1), config('siku'), out, { browser: doomed });
    // Killed while its first tab is printing.
    doomed.browser.once('targetcreated', () => setTimeout(() => doomed.browser.process()?.kill('SIGKILL'), 100));
    await assert.rejects(pending, (e: unknown) => e instanceof BrowserError && /crashed.*run the build again/.test(e.message));
    assert.equal(existsSync(out), false);
  } finally {
    // Its renderers outlive the killed browser process for a moment: close() ends the whole group before removing the profile.
    await doomed.close();
  }
});
