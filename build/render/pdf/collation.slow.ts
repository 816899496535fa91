/**
 * The 校勘記 in the printed PDF, read back with pdf.js: every correction's
 * mark (○ in the 四庫 template, its number in the modern one) is on the page,
 * in the column and beside the cell its entry cites (葉N + 上/下: the 版心's
 * leaf and the page's side; 第N行: the column), and the entries stand in the
 * section after the volume's text. Negative control: collation off prints
 * no mark and no section.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser, type OfflineBrowser } from '../../engine/browser.js';
import { editionLayout } from '../../engine/build.js';
import { twoVolumeEdition, VOLUME_ONE, uniqueRun, fixMiddle } from '../../engine/edition.test-util.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, renderOptionsFor } from '../../engine/pdf.js';
import { correctionCount } from '../../layout/collation.js';
import type { BookLayout } from '../../layout/types.js';
import { cellBox, type PageGeometry, type Side } from './geometry.js';
import type { PlannedPage } from './html.js';
import { chineseNumeral } from './numerals.js';
import { gridItems, itemBox, centre, readPdfText, type TextItem } from './readback.js';

const PT = 72 / 25.4;
let root: string;
let browser: OfflineBrowser;

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-collation-pdf-'));
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function edition(name: string, extra: string): Promise<string> {
  const dir = await twoVolumeEdition(path.join(root, name), extra);
  const run = await uniqueRun(dir, VOLUME_ONE, 0.4);
  await writeFile(
    path.join(dir, 'corrections.yaml'),
    [
      fixMiddle(run, '之'),
      // In a jiazhu note (禮書綱目 卷九, line 15), a deletion and an insertion.
      '- find: 主人州長也\n  replace: 主人州長\n  at: juan09.txt:15\n',
      '- find: 主人戒賓賓出迎\n  replace: 主人戒衆賓賓出迎\n  note: 據某本補\n',
      fixMiddle(await uniqueRun(dir, 'juan09.txt', 0.8), '龘'),
    ].join(''),
  );
  return dir;
}

interface Built {
  layout: BookLayout;
  /** The PDF's pages (the book's own cover, title page and 牌記 around the text). */
  planned: PlannedPage[];
  g: PageGeometry;
  text: TextItem[][];
  fontSize: number;
}

/** The edition built as the engine builds it; `counted: false` leaves the 牌記 to count the 校勘記's entries (the old way). */
async function build(dir: string, counted = true): Promise<Built> {
  const loaded = await loadEdition(dir);
  assert.deepEqual(loaded.messages.filter((m) => m.fatal).map(String), []);
  const config = loaded.config!;
  const layout = await editionLayout(loaded.tree, config);
  const { bytes, planned } = await buildPdf(layout, config, { browser, ...(counted ? { corrections: correctionCount(loaded.tree) } : {}) });
  await writeFile(path.join(dir, 'out.pdf'), bytes);
  const { options } = await renderOptionsFor(layout, config);
  return { layout, planned, g: options.geometry, text: await readPdfText(bytes), fontSize: options.geometry.fontSize * PT };
}

/** Where a printed item is on the grid: the column whose box holds its centre, and the cell. */
function gridPlace(item: TextItem, g: PageGeometry, side: Side): { column: number; cell: number } {
  const c = centre(itemBox(item));
  const m = g.margins[side];
  for (let column = 0; column < g.columns; column++) {
    const box = cellBox(g, side, column, 0);
    // A mark sits in the column's margin, at its edge: the column's box, a hair wider.
    if (c.x >= (m.left + box.x - 0.3) * PT && c.x <= (m.left + box.x + box.w + 0.3) * PT) {
      return { column, cell: Math.floor((c.y / PT - m.top - g.gridTop) / g.cellHeight) };
    }
  }
  return { column: -1, cell: -1 };
}

/** The 版心's leaf numeral of a page, as printed (the lowest text of the 版心 strip). */
function printedLeaf(items: readonly TextItem[], g: PageGeometry, side: Side): string {
  const strip = g.banxin![side];
  const m = g.margins[side];
  const inStrip = items.filter((it) => {
    const c = centre(itemBox(it));
    return c.x >= (m.left + strip.left) * PT && c.x <= (m.left + strip.left + strip.width) * PT && c.y > (m.top + g.area.height * 0.8) * PT;
  });
  return inStrip.sort((a, b) => a.y - b.y).map((it) => it.str).join('');
}

test('四庫: each ○ is beside the cell its 校勘記 entry cites, on the leaf, side and line it names', async () => {
  const built = await build(await edition('siku', ''));
  const { planned } = built;
  const entries = built.layout.volumes.flatMap((v) => (v.collation ?? []).map((e) => ({ ...e, volume: v.index })));
  assert.equal(entries.length, 4);
  const printed: string[] = [];
  built.text.forEach((items, i) => {
    const p = planned[i];
    for (const it of items) {
      if (it.str !== '○' || it.size > 0.5 * built.fontSize) continue;
      const { column, cell } = gridPlace(it, built.g, p.side);
      printed.push(`${p.volume}:${p.page?.pageInVolume}:${column}:${cell}`);
    }
  });
  const cited = entries.map((e) => `${e.volume}:${e.page}:${e.column}:${e.cell}`);
  assert.deepEqual(printed.sort(), [...cited].sort(), 'a mark for every entry, where it says');
  // A check that can fail: one line off is another place.
  assert.notDeepEqual(printed.sort(), cited.map((c, k) => (k === 0 ? c.replace(/:(\d+):(\d+)$/, (_, col, cell) => `:${Number(col) + 1}:${cell}`) : c)).sort());
  for (const e of entries) {
    const index = planned.findIndex((p) => p.volume === e.volume && p.page?.pageInVolume === e.page);
    const side = planned[index].side;
    // The locator's leaf is the 版心's, its side the page's, its line the mark's column.
    assert.equal(printedLeaf(built.text[index], built.g, side), chineseNumeral(e.leaf), `${e.locator}: the 版心 of PDF page ${index + 1}`);
    assert.equal(e.locator.includes(side === 'recto' ? 'a ' : 'b '), true, `${e.locator} on a ${side}`);
    assert.ok(e.locator.endsWith(`第${chineseNumeral(e.column + 1)}行`));
  }
  // The section after each volume's text prints every locator (上 for a, 下 for b) in the grid.
  for (const v of built.layout.volumes) {
    const section = planned.map((p, i) => (p.volume === v.index && p.page?.collation ? i : -1)).filter((i) => i >= 0);
    assert.ok(section.length > 0, `${v.title} has its 校勘記 pages`);
    const text = section.map((i) => gridItems(built.text[i], built.g, planned[i].side).map((it) => it.str).join('')).join('');
    assert.ok(text.startsWith('校勘記'));
    for (const e of v.collation ?? []) {
      const full = e.locator.replace(' ', '').replace(/[ab]/, (c) => (c === 'a' ? '上' : '下'));
      assert.ok(text.includes(full), `${full} in the 校勘記 of ${v.title}`);
    }
    assert.ok(section.every((i) => !built.text[i].some((it) => it.str === '○' && it.size < 0.5 * built.fontSize)), 'no mark on the section’s own pages');
  }
});

test('modern: the marks are the entries’ numbers; collation off prints neither marks nor 校勘記', async () => {
  const built = await build(await edition('modern', 'template: modern'));
  const { planned } = built;
  const entries = built.layout.volumes.flatMap((v) => (v.collation ?? []).map((e) => ({ ...e, volume: v.index })));
  for (const e of entries) {
    const index = planned.findIndex((p) => p.volume === e.volume && p.page?.pageInVolume === e.page);
    const marks = built.text[index].filter((it) => it.str === String(e.number) && it.size < 0.5 * built.fontSize);
    assert.ok(
      marks.some((it) => gridPlace(it, built.g, planned[index].side).column === e.column),
      `the number ${e.number} beside column ${e.column + 1} of PDF page ${index + 1}`,
    );
  }

  const off = await build(await edition('off', 'collation: off'));
  const all = off.text.flat();
  assert.equal(all.filter((it) => it.str === '○').length, 0, 'no ○');
  assert.ok(!all.map((it) => it.str).join('').includes('校勘記'), 'no 校勘記');
  assert.ok(off.layout.volumes.every((v) => v.collation === undefined), 'no entries');
  // The corrections themselves are applied all the same.
  assert.ok(all.map((it) => it.str).join('').includes('龘'), 'the corrections applied');
  // …and the 牌記 counts them, pointing to no 校勘記; counted from the 校勘記's entries (none) it would say 無.
  const colophon = (b: Built): string => b.text[b.planned.findIndex((p) => p.part === 'colophon')].map((it) => it.str).join('');
  assert.match(colophon(off), /校改　?凡四處/);
  assert.ok(!colophon(off).includes('見各卷'), 'no 校勘記 to point to');
  assert.match(colophon(await build(await edition('off-uncounted', 'collation: off'), false)), /校改　?無/);
  assert.match(colophon(built), /凡四處　?見各卷校勘記/);
});
