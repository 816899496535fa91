/**
 * The book's own front and back in the PDF (edition.yaml `book:`), read
 * back: a cover (書衣, its paper to the sheet's edges, the title slip at the
 * upper left), a title page (書名頁: the author with his dynasty, the title,
 * the edition) and a 牌記 (the source, the edition, the edition's date, the
 * corrections applied) on rectos, each a blank verso after it, the text
 * between them as before. Negative control: `book:` turned off gives the
 * layout's pages alone, the text's first column on page 1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumForTests } from './test-chromium.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf } from '../../engine/pdf.js';
import { layoutEdition, pageSpecFor } from '../../layout/index.js';
import type { BookLayout } from '../../layout/types.js';
import { planPages } from './html.js';
import { bookPartFields, chineseDate } from './book-parts.js';
import { decodeGreyPng, readPdfText, snapshotPng } from './readback.js';
import { execFileSync } from 'node:child_process';

const { work, browser } = chromiumForTests('diaoban-book-parts-test-');

const TEXT = '# 試書卷一\n\n學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎\n\n# 試書卷二\n\n其為人也孝弟而好犯上者鮮矣\n';

let serial = 0;
async function edition(book: string): Promise<{ dir: string; layout: BookLayout; config: NonNullable<Awaited<ReturnType<typeof loadEdition>>['config']> }> {
  const dir = join(work, `e${++serial}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'juan.md'), TEXT);
  writeFileSync(join(dir, 'corrections.yaml'), '- find: 時習之\n  replace: 時習焉\n  note: 據某本改\n');
  writeFileSync(
    join(dir, 'edition.yaml'),
    `title: 試書\nauthor: 某甲\ndynasty: 清\nlanguage: zh-Hant\nscript: traditional\ntemplate: siku\ndate: 2026-03-05\nsources: [juan.md]\ncorrections: corrections.yaml\n${book}`,
  );
  const { tree, config } = await loadEdition(dir);
  assert.ok(config);
  return { dir, config, layout: layoutEdition(tree, pageSpecFor('siku', config.layout), { collation: true, numbered: false }) };
}

test('book parts planned: cover and title page on rectos before the text, each with a blank verso, the 牌記 on a recto after it; the fields from the edition', async () => {
  const { layout, config } = await edition('book:\n  edition: 據某本排印\n  source: 某氏錄文\n');
  assert.deepEqual(config.book, { cover: true, titlePage: true, colophon: true, edition: '據某本排印', source: '某氏錄文' });
  const planned = planPages(layout, config.book);
  const text = planPages(layout);
  const shape = (ps: typeof planned) => ps.map((p) => p.part ?? (p.page ? 'text' : 'blank'));
  assert.deepEqual(shape(planned).slice(0, 4), ['cover', 'blank', 'title', 'blank']);
  assert.equal(shape(planned).at(-1), 'colophon');
  assert.ok(planned.every((p, i) => p.side === (i % 2 === 0 ? 'recto' : 'verso')), 'rectos odd');
  assert.equal(planned.filter((p) => p.page).length, text.filter((p) => p.page).length, 'the text as before');
  // A print file's cover is printed apart; the cover alone for it.
  assert.deepEqual(shape(planPages(layout, config.book, { cover: false })).slice(0, 2), ['title', 'blank']);
  assert.deepEqual(shape(planPages(layout, config.book, { only: 'cover' })), ['cover']);
  // Turned off: the text alone (control).
  assert.deepEqual(shape(planPages(layout, { cover: false, titlePage: false, colophon: false })), shape(text));

  assert.equal(chineseDate('2026-03-05'), '二〇二六年三月五日');
  assert.equal(chineseDate('2026-12-31'), '二〇二六年十二月三十一日');
  const fields = bookPartFields({ parts: config.book!, title: '試書', credit: '清　某甲', volumes: 2, corrections: 1, date: '2026-03-05', sources: ['juan.md'] });
  assert.deepEqual(
    { volumes: fields.volumes, slip: fields.slipNote, source: fields.source, corrections: fields.corrections, date: fields.date },
    { volumes: '二卷', slip: '全二卷', source: '底本　某氏錄文', corrections: '校改　凡一處　見各卷校勘記', date: '二〇二六年三月五日排印' },
  );
  // Without a source the source files are named; without corrections the 牌記 says so.
  const bare = bookPartFields({ parts: { cover: true, titlePage: true, colophon: true }, title: '試書', credit: '', volumes: 1, corrections: 0, sources: ['juan.md'] });
  assert.deepEqual([bare.source, bare.corrections, bare.date, bare.edition, bare.volumes], ['底本　juan.md', '校改　無', '', '', '']);
});

/** Mean grey (0 black … 255 white) of a region of a page raster, as fractions of the page. */
function meanGrey(png: Buffer, x0: number, y0: number, x1: number, y1: number): number {
  const img = decodeGreyPng(png);
  let sum = 0;
  let n = 0;
  for (let y = Math.floor(y0 * img.height); y < y1 * img.height; y++) {
    for (let x = Math.floor(x0 * img.width); x < x1 * img.width; x++) {
      sum += img.pixels[y * img.width + x];
      n++;
    }
  }
  return sum / n;
}

test('the PDF has its cover, title page and 牌記, each from edition.yaml; book: off gives the text alone (control)', async () => {
  const { dir, layout, config } = await edition('book:\n  edition: 據某本排印\n  source: 某氏錄文\n');
  const { bytes, planned } = await buildPdf(layout, config, { browser });
  const pdf = join(dir, 'book.pdf');
  writeFileSync(pdf, bytes);
  const text = await readPdfText(bytes, { fonts: false });
  const pageText = (i: number): string => text[i].map((t) => t.str.trim()).join('');
  assert.equal(text.length, planned.length);
  // 書衣: its paper dark to the sheet's corners, the slip light at the upper left, its title on it.
  const cover = snapshotPng(pdf, 1, 30);
  assert.ok(meanGrey(cover, 0, 0, 0.03, 0.03) < 120 && meanGrey(cover, 0.97, 0.97, 1, 1) < 120, 'the cover paper reaches the corners');
  assert.ok(meanGrey(cover, 0.5, 0.7, 0.95, 0.95) < 120, 'dark below and right of the slip');
  assert.equal(pageText(0), '試書全二卷');
  assert.equal(pageText(1), '', 'the back of the cover is blank');
  // 書名頁: the author with his dynasty, the title, the edition.
  assert.equal(pageText(2), '清　某甲試書據某本排印'.replace(/　/g, ''));
  // 牌記: the book, its author, source, edition, corrections and the edition's date.
  const last = pageText(text.length - 1);
  for (const words of ['試書二卷', '清', '某甲', '底本', '某氏錄文', '據某本排印', '校改', '凡一處', '二〇二六年三月五日排印']) assert.ok(last.includes(words.replace(/　/g, '')), `牌記: ${words} in ${last}`);
  // The text starts on the fifth page (a recto), as the layout has it.
  assert.ok(pageText(4).includes('學而時習焉'), pageText(4));
  assert.ok(!pageText(3).includes('學'), 'nothing of the text before it');

  // Control: book parts off — the layout's pages alone, the text on page 1, no blue page.
  const off = await edition('book:\n  cover: false\n  title-page: false\n  colophon: false\n');
  const plain = await buildPdf(off.layout, off.config, { browser });
  const plainText = await readPdfText(plain.bytes, { fonts: false });
  assert.equal(plainText.length, planPages(off.layout).length);
  assert.ok(plainText[0].map((t) => t.str.trim()).join('').includes('學而時習焉'));
  const plainPdf = join(off.dir, 'book.pdf');
  writeFileSync(plainPdf, plain.bytes);
  assert.ok(meanGrey(snapshotPng(plainPdf, 1, 30), 0, 0, 0.03, 0.03) > 250, 'no cover paper');
  // The outline names the title page and the 牌記.
  const outline = execFileSync('qpdf', ['--json', '--json-key=outlines', pdf]).toString('utf8');
  assert.match(outline, /書名頁|\\u66f8\\u540d\\u9801/);
});
