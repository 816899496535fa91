/**
 * A print file as a printer gets it (`pdf: print`), read back: the cover a
 * PDF of its own (<id>.cover.pdf: one page, its trim and bleed boxes, the
 * cover paper into the bleed), the book without it (its first page the
 * title page), and the 朱絲欄 (page.frame: red) as the spot colour
 * Vermilion, red in a render; with the frame black (the control), no spot
 * colour and grey rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { PDFDocument, PDFName, PDFArray } from 'pdf-lib';
import { chromiumForTests } from './test-chromium.js';
import { loadEdition } from '../../engine/load.js';
import { writePdf } from '../../engine/pdf.js';
import { layoutEdition, pageSpecFor } from '../../layout/index.js';
import { readPdfText } from './readback.js';

const { work, browser } = chromiumForTests('diaoban-print-parts-');

async function printed(frame: string): Promise<{ out: string; cover: string | undefined }> {
  const dir = join(work, frame);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'juan.md'), '# 試書卷一\n\n學而時習之不亦說乎有朋自遠方來不亦樂乎\n');
  writeFileSync(join(dir, 'edition.yaml'), `title: 試書\nauthor: 某甲\ndynasty: 清\nlanguage: zh-Hant\nscript: traditional\ntemplate: siku\ndate: 2026-01-01\nsources: [juan.md]\npdf: print\npage:\n  frame: ${frame}\nbook:\n  edition: 據某本排印\n`);
  const { tree, config } = await loadEdition(dir);
  assert.ok(config);
  const layout = layoutEdition(tree, pageSpecFor('siku', config.layout), { collation: true, numbered: false });
  const out = join(dir, 'out', 'book.pdf');
  const result = await writePdf(layout, config, out, { browser });
  return { out, cover: result.cover?.path };
}

/** The page's pixels (RGB) rendered by poppler at `dpi`. */
let renders = 0;
function render(pdf: string, page: number, dpi = 60): { width: number; height: number; data: Buffer } {
  const base = join(work, `render-${++renders}`);
  execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-f', String(page), '-l', String(page), '-singlefile', pdf, base]);
  return PNG.sync.read(readFileSync(`${base}.png`));
}

/** How many pixels are clearly red (r well above g and b), and clearly dark grey. */
function inks(img: { width: number; height: number; data: Buffer }): { red: number; grey: number } {
  let red = 0;
  let grey = 0;
  for (let i = 0; i < img.width * img.height; i++) {
    const [r, g, b] = [img.data[4 * i], img.data[4 * i + 1], img.data[4 * i + 2]];
    if (r > 150 && r - g > 60 && r - b > 60) red++;
    else if (r < 120 && Math.abs(r - g) < 20 && Math.abs(r - b) < 20) grey++;
  }
  return { red, grey };
}

test('pdf: print — the cover a file of its own, the book from its title page; 朱絲欄 as the spot colour Vermilion (black frame: none)', async () => {
  const red = await printed('red');
  const black = await printed('black');
  for (const p of [red, black]) {
    assert.ok(p.cover && existsSync(p.cover), 'the cover written beside the book');
    const cover = await PDFDocument.load(readFileSync(p.cover!), { updateMetadata: false });
    assert.equal(cover.getPageCount(), 1);
    const page = cover.getPage(0).node;
    assert.ok(page.get(PDFName.of('TrimBox')) instanceof PDFArray && page.get(PDFName.of('BleedBox')) instanceof PDFArray, 'trim and bleed boxes');
    // The cover paper (CMYK now) fills the bleed: just inside the bleed box's corner the render is the paper's colour.
    const img = render(p.cover!, 1, 72);
    const [mx0, my0, , my1] = (page.get(PDFName.of('MediaBox')) as PDFArray).asArray().map(Number);
    const [bx0, , , by1] = (page.get(PDFName.of('BleedBox')) as PDFArray).asArray().map(Number);
    const at = (x: number, y: number): number[] => [...img.data.subarray(4 * (y * img.width + x), 4 * (y * img.width + x) + 3)];
    const corner = at(Math.ceil(bx0 - mx0) + 1, Math.ceil(my1 - by1) + 1);
    assert.ok(corner.every((c) => c < 160), `the paper to the bleed's corner: ${corner}`);
    void my0;
    // The book starts with its title page (no cover in it).
    const text = await readPdfText(new Uint8Array(readFileSync(p.out)), { fonts: false });
    assert.equal(text[0].map((t) => t.str).join(''), '清某甲試書據某本排印');
  }
  const raw = (f: string): string => execFileSync('qpdf', ['--qdf', '--object-streams=disable', f, '-']).toString('latin1');
  assert.match(raw(red.out), /\/Separation\s+\/Vermilion/);
  assert.doesNotMatch(raw(black.out), /\/Separation\s+\/Vermilion/, 'control: a black frame is on the black plate');
  // The text page: red rules in the 朱絲欄 book, none in the other.
  const textPage = 3;
  const r = inks(render(red.out, textPage));
  const b = inks(render(black.out, textPage));
  assert.ok(r.red > 2000, `red rules: ${r.red} red pixels`);
  assert.equal(b.red, 0, 'control: no red');
  assert.ok(b.grey > r.grey, 'the black frame\'s rules are grey ink there');
});
