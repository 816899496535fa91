/**
 * Every sample edition printed by Chromium as `pdf: print` (PDF/X-4) and
 * `pdf: archive` (PDF/A-2u), the 評點本 also as PDF/X-1a, and read back:
 * - print: no RGB colour operator in any content stream, text set in
 *   DeviceGray or CMYK black-plate ink only, no colour off the black plate
 *   (CMYK with C, M or Y; sc/scn but the crop marks' registration colour),
 *   images in CMYK; Ghostscript's ink coverage of a page without a seal: K
 *   and the marks only; the output intent (GTS_PDFX) with
 *   Ghostscript's CMYK profile embedded; GTS_PDFXVersion, Trapped; TrimBox
 *   inside BleedBox inside MediaBox and the crop marks outside the bleed;
 *   every font embedded, none Type 3; qpdf --check;
 * - archive: the XMP packet's PDF/A-2u identification agreeing with the
 *   info; the sRGB intent; no action or JavaScript; every font embedded with
 *   ToUnicode;
 * - both: the text as pdf.js reads it — every item, at its place — is the
 *   screen file's (which samples.slow.ts reads back glyph by glyph against
 *   the layout), so the text is still searchable as the ideograph and the
 *   vertical glyphs are where they were;
 * - a print page rendered by Ghostscript and by poppler looks the same
 *   (against a negative control: another page).
 * DIAOBAN_STANDARDS_ONLY=pingdian,lishu limits the editions.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, PDFString, PDFHexString, decodePDFRawStream, type PDFPage } from 'pdf-lib';
import { launchBrowser, type OfflineBrowser } from '../../engine/browser.js';
import { loadEdition } from '../../engine/load.js';
import { buildPdf, pageForStandard, writePdf } from '../../engine/pdf.js';
import { ARCHIVE_PROFILE, PRINT_PROFILE } from '../../engine/standards.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import type { EditionConfig, PdfSettings } from '../../tree/edition.js';
import type { BookLayout } from '../../layout/types.js';
import { decodeGreyPng, imageDifference, readPdfText, snapshotPng, type GreyImage, type TextItem } from './readback.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MANUSCRIPTS = join(ROOT, 'manuscript');
const only = process.env.DIAOBAN_STANDARDS_ONLY?.split(',');
const EDITIONS = readdirSync(MANUSCRIPTS)
  .filter((d) => existsSync(join(MANUSCRIPTS, d, 'edition.yaml')) && (!only || only.includes(d)))
  .sort();

let browser: OfflineBrowser;
const work = mkdtempSync(join(tmpdir(), 'diaoban-standards-'));
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

async function build(layout: BookLayout, config: EditionConfig, pdf?: PdfSettings): Promise<Uint8Array> {
  return (await buildPdf(layout, { ...config, pdf }, { browser })).bytes;
}

function decoded(stream: PDFRawStream): string {
  return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
}

/** Every content stream of a page: its /Contents and the forms it draws (recursively). */
function pageStreams(doc: PDFDocument, page: PDFPage): string[] {
  const out: string[] = [];
  const contents = page.node.get(PDFName.of('Contents'));
  for (const ref of contents instanceof PDFArray ? contents.asArray() : [contents]) out.push(decoded(doc.context.lookup(ref as PDFRef) as PDFRawStream));
  const seen = new Set<PDFRawStream>();
  const forms = (resources: PDFDict | undefined): void => {
    const xobjects = resources?.lookup(PDFName.of('XObject'));
    if (!(xobjects instanceof PDFDict)) return;
    for (const [, ref] of xobjects.entries()) {
      const x = doc.context.lookup(ref);
      if (!(x instanceof PDFRawStream) || seen.has(x) || x.dict.get(PDFName.of('Subtype')) !== PDFName.of('Form')) continue;
      seen.add(x);
      out.push(decoded(x));
      forms(x.dict.lookup(PDFName.of('Resources')) as PDFDict | undefined);
    }
  };
  forms(page.node.Resources());
  return out;
}

/** The fill colour in effect at each BT of a content stream (its operator and operands), following q/Q. */
export function textFills(content: string): string[] {
  const tokens = content.match(/\/[^\s/\[\]()<>]+|<[0-9A-Fa-f\s]*>|\([^)]*\)|[^\s\[\]()<>/]+/g) ?? [];
  const fills: string[] = [];
  const stack: string[] = [];
  let fill = '0 g';
  let operands: string[] = [];
  for (const t of tokens) {
    if (/^[-+.\d]/.test(t) || t.startsWith('/') || t.startsWith('<') || t.startsWith('(')) {
      operands.push(t);
      continue;
    }
    if (t === 'q') stack.push(fill);
    else if (t === 'Q') fill = stack.pop() ?? '0 g';
    else if (['g', 'k', 'rg', 'sc', 'scn', 'cs'].includes(t)) fill = `${operands.join(' ')} ${t}`;
    else if (t === 'BT') fills.push(fill);
    operands = [];
  }
  return fills;
}

/**
 * Every colour a content stream sets that is not on the black plate: RGB
 * (rg/RG), CMYK with cyan, magenta or yellow, and sc/scn/SC/SCN in any
 * space but the crop marks' registration colour (/DiaobanAll).
 */
export function offPlateColours(content: string): string[] {
  const tokens = content.match(/\/[^\s/\[\]()<>]+|<[0-9A-Fa-f\s]*>|\([^)]*\)|[^\s\[\]()<>/]+/g) ?? [];
  const off: string[] = [];
  const space = { fill: 'DeviceGray', stroke: 'DeviceGray' };
  let operands: string[] = [];
  for (const t of tokens) {
    if (/^[-+.\d]/.test(t) || t.startsWith('/') || t.startsWith('<') || t.startsWith('(')) {
      operands.push(t);
      continue;
    }
    const set = `${operands.join(' ')} ${t}`;
    if (t === 'rg' || t === 'RG') off.push(set);
    else if ((t === 'k' || t === 'K') && operands.slice(0, 3).some((v) => Number(v) !== 0)) off.push(set);
    else if (t === 'cs') space.fill = operands[0]?.slice(1) ?? '';
    else if (t === 'CS') space.stroke = operands[0]?.slice(1) ?? '';
    else if ((t === 'sc' || t === 'scn') && space.fill !== 'DiaobanAll') off.push(`/${space.fill} ${set}`);
    else if ((t === 'SC' || t === 'SCN') && space.stroke !== 'DiaobanAll') off.push(`/${space.stroke} ${set}`);
    operands = [];
  }
  return off;
}

/** An image's colour space as a name (DeviceCMYK, ICCBased/3, Indexed/DeviceRGB …). */
function imageSpace(doc: PDFDocument, image: PDFDict): string {
  const cs = doc.context.lookup(image.get(PDFName.of('ColorSpace')));
  if (cs instanceof PDFName) return cs.decodeText();
  if (cs instanceof PDFArray) {
    const kind = (cs.get(0) as PDFName).decodeText();
    if (kind === 'ICCBased') return `ICCBased/${(doc.context.lookup(cs.get(1)) as PDFRawStream).dict.get(PDFName.of('N'))?.toString()}`;
    if (kind === 'Indexed') return `Indexed/${cs.get(1) instanceof PDFName ? (cs.get(1) as PDFName).decodeText() : 'array'}`;
    return kind;
  }
  return image.get(PDFName.of('ImageMask'))?.toString() === 'true' ? 'ImageMask' : 'none';
}

/** The colour spaces of a document's images that are not CMYK, grey or a mask. */
function rgbImages(doc: PDFDocument): string[] {
  const found: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const space = imageSpace(doc, object.dict);
    if (!/^(DeviceCMYK|DeviceGray|ICCBased\/[14]|ImageMask)$/.test(space)) found.push(space);
  }
  return found;
}

test('offPlateColours finds RGB, CMYK with C, M or Y, and sc/scn outside the registration colour', () => {
  assert.deepEqual(offPlateColours('0 g 0 G 1 g .5 G 0 0 0 1 k 0 0 0 .5 K /DiaobanAll CS 1 SCN BT <00C8> Tj ET'), []);
  assert.deepEqual(offPlateColours('0 0 0 rg .1 0 0 1 k 0 .2 0 0 K /CS0 cs .5 .5 .5 sc /DiaobanAll CS 1 SCN /CS1 CS 1 SC'), ['0 0 0 rg', '.1 0 0 1 k', '0 .2 0 0 K', '/CS0 .5 .5 .5 sc', '/CS1 1 SC']);
});

function text(value: unknown): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined;
}

/** The text items of two files, page by page: the same strings at the same places (`dy`: the second's pages are taller by this above). */
function sameText(got: TextItem[][], want: TextItem[][], dy: number, label: string): number {
  assert.equal(got.length, want.length, `${label}: pages`);
  let n = 0;
  got.forEach((items, p) => {
    assert.equal(items.map((i) => i.str).join(''), want[p].map((i) => i.str).join(''), `${label} page ${p + 1}: the text`);
    items.forEach((item, k) => {
      const w = want[p][k];
      if (!w || item.str !== w.str) return;
      assert.ok(Math.abs(item.x - w.x) < 0.05 && Math.abs(item.y - dy - w.y) < 0.05, `${label} page ${p + 1}: ${item.str} at ${item.x},${item.y - dy}, not ${w.x},${w.y}`);
      n++;
    });
  });
  return n;
}

function qpdfCheck(bytes: Uint8Array, name: string): void {
  const file = join(work, name);
  writeFileSync(file, bytes);
  // qpdf exits 0 with no warnings, 3 with warnings, 2 with errors.
  execFileSync('qpdf', ['--check', file], { stdio: 'pipe' });
}

/** Ghostscript's ink coverage of a page (ink_cov): C, M, Y, K in per cent of the page. */
function inkCoverage(file: string, page: number): number[] {
  const out = execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=ink_cov', '-r75', `-dFirstPage=${page}`, `-dLastPage=${page}`, '-o', '-', file], { stdio: 'pipe' }).toString();
  return out.trim().split(/\s+/).slice(0, 4).map(Number);
}

/** A page rendered by Ghostscript, in grey levels (PNG). */
function ghostscriptPng(file: string, page: number, resolution = 100): GreyImage {
  const out = join(work, `gs-${page}.png`);
  execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=pnggray', '-dTextAlphaBits=4', '-dGraphicsAlphaBits=4', `-r${resolution}`, `-dFirstPage=${page}`, `-dLastPage=${page}`, `-sOutputFile=${out}`, file], { stdio: 'pipe' });
  return decodeGreyPng(readFileSync(out));
}

/**
 * Both images cut to the smaller size (the renderers round the page's size
 * to pixels apart) and reduced 4 × 4 to their mean: the two rasterize a
 * glyph's edges apart at 100 dpi, and alike at the 25 dpi of the mean.
 */
function common(a: GreyImage, b: GreyImage, r = 4): [GreyImage, GreyImage] {
  const width = Math.floor(Math.min(a.width, b.width) / r);
  const height = Math.floor(Math.min(a.height, b.height) / r);
  const reduce = (img: GreyImage): GreyImage => {
    const pixels = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let j = 0; j < r; j++) for (let i = 0; i < r; i++) sum += img.pixels[(y * r + j) * img.width + x * r + i];
        pixels[y * width + x] = Math.round(sum / (r * r));
      }
    }
    return { width, height, pixels };
  };
  return [reduce(a), reduce(b)];
}

for (const id of EDITIONS) {
  test(`${id}: pdf: print is PDF/X-4 — black plate, CMYK intent, boxes and marks, text and looks kept`, async () => {
    const { config, tree } = await loadEdition(join(MANUSCRIPTS, id));
    assert.ok(config);
    const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
    const print = await build(layout, config, { standard: 'print' });
    // The screen file with the print file's page: bleed, Chromium's crop marks off.
    // (Its cover left out as the print file's is: that is a file of its own, book-parts.slow.ts.)
    const reference = await build(layout, { ...pageForStandard({ ...config, pdf: { standard: 'print' } }), pdf: undefined, ...(config.book ? { book: { ...config.book, cover: false } } : {}) });
    assert.equal(Buffer.from(print.subarray(0, 8)).toString('latin1'), '%PDF-1.6');
    qpdfCheck(print, `${id}.print.pdf`);
    const doc = await PDFDocument.load(print, { updateMetadata: false });
    let texts = 0;
    for (const [p, page] of doc.getPages().entries()) {
      for (const content of pageStreams(doc, page)) {
        assert.doesNotMatch(content, /(^|\s)(rg|RG)(\s|$)/, `${id} page ${p + 1}: an RGB colour operator`);
        // Rules, frames and type alike: no sample sets a colour of its own (the seal is an image).
        assert.deepEqual(offPlateColours(content), [], `${id} page ${p + 1}: colour off the black plate`);
        for (const fill of textFills(content)) {
          texts++;
          // Type on the black plate: DeviceGray (0 g black, 1 g white label type, greys) or CMYK with no C, M, Y.
          assert.ok(/^[-\d.]+ g$/.test(fill) || /^0 0 0 [-\d.]+ k$/.test(fill), `${id} page ${p + 1}: text in ${fill}`);
        }
      }
      const [media, bleed, trim] = [page.getMediaBox(), page.getBleedBox(), page.getTrimBox()];
      const inside = (a: typeof media, b: typeof media) => a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
      assert.ok(inside(trim, bleed) && inside(bleed, media) && trim.width < bleed.width && bleed.width < media.width, `${id} page ${p + 1}: boxes`);
      assert.ok(Math.abs(trim.x - bleed.x - (3 * 72) / 25.4) < 0.01 || config.page.bleed, `${id}: 3mm bleed by default`);
      const contents = page.node.lookup(PDFName.of('Contents'), PDFArray);
      const marks = decoded(doc.context.lookup(contents.get(contents.size() - 1)) as PDFRawStream);
      const lines = [...marks.matchAll(/([-\d.]+) ([-\d.]+) m ([-\d.]+) ([-\d.]+) l S/g)].map((m) => m.slice(1, 5).map(Number));
      assert.equal(lines.length, 8, `${id} page ${p + 1}: crop marks`);
      for (const [x0, y0, x1, y1] of lines) {
        const out = (x: number, y: number) => x < bleed.x || x > bleed.x + bleed.width || y < bleed.y || y > bleed.y + bleed.height;
        assert.ok(out(x0, y0) && out(x1, y1), `${id} page ${p + 1}: a crop mark inside the bleed`);
        assert.ok(x0 >= media.x && x1 <= media.x + media.width && y0 >= media.y && y1 <= media.y + media.height, `${id} page ${p + 1}: a crop mark off the page`);
      }
    }
    assert.ok(texts > 0);
    // Images (a seal) in CMYK or grey, none left in RGB (the screen file's seal is: the check's negative control).
    assert.deepEqual(rgbImages(doc), [], `${id}: images in RGB`);
    if (config.seals?.length) assert.ok(rgbImages(await PDFDocument.load(reference, { updateMetadata: false })).length > 0, `${id}: the screen file's seal in RGB`);
    const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
    assert.equal(intent.get(PDFName.of('S')), PDFName.of('GTS_PDFX'));
    const profile = doc.context.lookup(intent.get(PDFName.of('DestOutputProfile'))) as PDFRawStream;
    assert.equal(profile.dict.get(PDFName.of('N'))?.toString(), '4');
    assert.deepEqual(Buffer.from(decodePDFRawStream(profile).decode()), readFileSync(PRINT_PROFILE.file), 'the profile Ghostscript converts with');
    const info = doc.context.lookup(doc.context.trailerInfo.Info) as PDFDict;
    assert.equal(text(info.get(PDFName.of('GTS_PDFXVersion'))), 'PDF/X-4');
    assert.equal(info.get(PDFName.of('Trapped')), PDFName.of('False'));
    // Every font embedded, none Type 3.
    const fonts = execFileSync('pdffonts', [join(work, `${id}.print.pdf`)]).toString().split('\n').slice(2).filter(Boolean);
    assert.ok(fonts.length > 0);
    for (const f of fonts) {
      assert.doesNotMatch(f, /Type 3/);
      assert.match(f, /\s+yes\s+yes\s+yes\s+/, `${id}: a font not embedded or without ToUnicode: ${f}`);
    }
    // The text at the same places (the print page has the room for the marks above it).
    const referenceDoc = await PDFDocument.load(reference, { updateMetadata: false });
    // The screen file's colours are RGB: what the checks above find (negative control).
    assert.ok(pageStreams(referenceDoc, referenceDoc.getPages()[0]).some((c) => offPlateColours(c).length > 0), `${id}: the screen file's RGB found`);
    assert.equal(doc.catalog.has(PDFName.of('Outlines')), referenceDoc.catalog.has(PDFName.of('Outlines')), 'the outline kept');
    const slug = (media: { y: number; height: number }) => media.y + media.height;
    const dy = slug(doc.getPages()[0].getMediaBox()) - referenceDoc.getPages()[0].getMediaBox().height;
    const items = sameText(await readPdfText(print), await readPdfText(reference), dy, `${id} print`);
    assert.ok(items > 100, `${id}: ${items} text items compared`);
    // Ghostscript and poppler draw the print page alike; another page is not alike (negative control).
    const file = join(work, `${id}.print.pdf`);
    const pages = doc.getPageCount();
    // The plates as Ghostscript separates them: a page without a seal inks K and, of C, M and Y, only the crop
    // marks (registration colour); the screen file's black is four-colour (negative control).
    // A page of the text: the one nearest the middle without a seal (the first pages are the cover, its blank back and the title page).
    const middle = Math.ceil(pages / 2);
    const unsealed = [...Array(pages).keys()]
      .map((i) => i + 1)
      .sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle) || a - b)
      .find((n) => !config.seals?.some((s) => s.page === n || (s.page === 'last' && n === pages)));
    if (unsealed) {
      const [c, m, y, k] = inkCoverage(file, unsealed);
      assert.ok(Math.max(c, m, y) < 0.1 && k > 1, `${id} page ${unsealed}: inks C ${c} M ${m} Y ${y} K ${k} (per cent)`);
      writeFileSync(join(work, `${id}.reference.pdf`), reference);
      const [rc, rm, ry] = inkCoverage(join(work, `${id}.reference.pdf`), unsealed);
      assert.ok(Math.min(rc, rm, ry) > 1, `${id} page ${unsealed}: the screen file's black on C ${rc} M ${rm} Y ${ry}`);
    }
    const [a, b] = common(ghostscriptPng(file, 1), decodeGreyPng(snapshotPng(file, 1, 100)));
    const same = imageDifference(a, b);
    assert.ok(same < 0.003, `${id}: Ghostscript and poppler differ on ${(same * 100).toFixed(2)} % of page 1`);
    if (pages > 2) {
      const [c, d] = common(ghostscriptPng(file, 1), decodeGreyPng(snapshotPng(file, 3, 100)));
      const other = imageDifference(c, d);
      assert.ok(other > 10 * Math.max(same, 0.001), `${id}: page 1 against page 3 differs on ${(other * 100).toFixed(2)} % only`);
    }
  });

  test(`${id}: pdf: archive is PDF/A-2u — XMP agreeing with the info, sRGB intent, no action, text kept`, async () => {
    const { config, tree } = await loadEdition(join(MANUSCRIPTS, id));
    assert.ok(config);
    const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
    const archive = await build(layout, config, { standard: 'archive' });
    const screen = await build(layout, config);
    qpdfCheck(archive, `${id}.archive.pdf`);
    const doc = await PDFDocument.load(archive, { updateMetadata: false });
    const xmp = Buffer.from((doc.context.lookup(doc.catalog.get(PDFName.of('Metadata'))) as PDFRawStream).getContents()).toString('utf8');
    assert.match(xmp, /<pdfaid:part>2<\/pdfaid:part><pdfaid:conformance>U<\/pdfaid:conformance>/);
    const info = doc.context.lookup(doc.context.trailerInfo.Info) as PDFDict;
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    assert.ok(xmp.includes(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${esc(text(info.get(PDFName.of('Title')))!)}</rdf:li>`), 'dc:title is the Title');
    assert.ok(xmp.includes(`<rdf:li>${esc(text(info.get(PDFName.of('Author')))!)}</rdf:li>`), 'dc:creator is the Author');
    assert.ok(text(info.get(PDFName.of('Author')))!.includes(config.meta.author));
    if (config.meta.dynasty) assert.ok(text(info.get(PDFName.of('Author')))!.startsWith(config.meta.dynasty), 'the dynasty');
    assert.ok(xmp.includes(`<dc:language><rdf:Bag><rdf:li>${text(doc.catalog.get(PDFName.of('Lang')))}</rdf:li>`), 'dc:language is the /Lang');
    assert.ok(xmp.includes(`<pdf:Producer>${esc(text(info.get(PDFName.of('Producer')))!)}</pdf:Producer>`));
    assert.match(xmp, /<dc:source>/);
    const intent = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
    assert.equal(intent.get(PDFName.of('S')), PDFName.of('GTS_PDFA1'));
    const profile = doc.context.lookup(intent.get(PDFName.of('DestOutputProfile'))) as PDFRawStream;
    assert.deepEqual(Buffer.from(decodePDFRawStream(profile).decode()), readFileSync(ARCHIVE_PROFILE.file));
    for (const key of ['OpenAction', 'AA', 'JavaScript']) assert.equal(doc.catalog.get(PDFName.of(key)), undefined, `no /${key}`);
    const names = doc.catalog.lookup(PDFName.of('Names'));
    if (names instanceof PDFDict) assert.equal(names.get(PDFName.of('JavaScript')), undefined);
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      const dict = object instanceof PDFDict ? object : object instanceof PDFRawStream ? object.dict : undefined;
      if (!dict) continue;
      assert.ok(!dict.has(PDFName.of('JS')) && !dict.has(PDFName.of('AA')), 'no script or action anywhere');
      if (dict.get(PDFName.of('Type')) === PDFName.of('Font') && dict.get(PDFName.of('Subtype')) === PDFName.of('Type0')) assert.ok(dict.has(PDFName.of('ToUnicode')), 'ToUnicode for every font');
    }
    // PDF/A: every font embedded (pdffonts, poppler's own reading).
    const fonts = execFileSync('pdffonts', [join(work, `${id}.archive.pdf`)]).toString().split('\n').slice(2).filter(Boolean);
    assert.ok(fonts.length > 0);
    for (const f of fonts) assert.match(f, /\s+yes\s+yes\s+yes\s+/, `${id}: a font not embedded or without ToUnicode: ${f}`);
    const items = sameText(await readPdfText(archive), await readPdfText(screen), 0, `${id} archive`);
    assert.ok(items > 100);
  });
}

test('PDF/X-1a: 禮書 has no transparency left, the same text as X-4, the same bytes twice; the seal of 評點 (a bitmap with transparency) is refused with a message', async () => {
  const sealed = await loadEdition(join(MANUSCRIPTS, 'pingdian'));
  assert.ok(sealed.config);
  // Seals are drawn as bitmaps (an SVG is rasterised in a process of its own: issue 20), whose transparency X-1a cannot carry.
  const sealedLayout = layoutBook(sealed.tree, pageSpecFor(sealed.config.meta.template, sealed.config.layout));
  await assert.rejects(build(sealedLayout, sealed.config, { standard: 'print', pdfx: 'x-1a' }), (error: Error) => /PDF\/X-1a allows no transparency.*use pdfx: x-4/.test(error.message));
  const { config, tree } = await loadEdition(join(MANUSCRIPTS, 'lishu'));
  assert.ok(config);
  const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
  const x1a = await build(layout, config, { standard: 'print', pdfx: 'x-1a' });
  assert.equal(Buffer.from(x1a.subarray(0, 8)).toString('latin1'), '%PDF-1.4');
  qpdfCheck(x1a, 'lishu.x1a.pdf');
  const doc = await PDFDocument.load(x1a, { updateMetadata: false });
  let seal = 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFRawStream ? object.dict : undefined;
    if (!dict) continue;
    for (const key of ['ca', 'CA']) {
      const v = dict.get(PDFName.of(key));
      assert.ok(v === undefined || v.toString() === '1', `/${key} ${v?.toString()}`);
    }
    assert.ok(!dict.has(PDFName.of('SMask')) || dict.get(PDFName.of('SMask')) === PDFName.of('None'), 'no soft mask');
    const bm = dict.get(PDFName.of('BM'));
    assert.ok(bm === undefined || bm === PDFName.of('Normal') || bm === PDFName.of('Compatible'), `blend mode ${bm?.toString()}`);
    const group = dict.lookup(PDFName.of('Group'));
    assert.ok(!(group instanceof PDFDict) || group.get(PDFName.of('S')) !== PDFName.of('Transparency'), 'no transparency group');
  }
  for (const page of doc.getPages()) {
    for (const content of pageStreams(doc, page)) {
      assert.doesNotMatch(content, /(^|\s)(rg|RG)(\s|$)/);
      if (/(^|\s)[.\d]+ [.\d]+ [.\d]+ [.\d]+ k(\s|$)/.test(content) && !/(^|\s)0 0 0 [.\d]+ k/.test(content)) seal++;
    }
  }
  assert.equal(seal, 0, 'no colour but black in 禮書');
  const info = doc.context.lookup(doc.context.trailerInfo.Info) as PDFDict;
  assert.equal(text(info.get(PDFName.of('GTS_PDFXVersion'))), 'PDF/X-1:2003');
  assert.equal(text(info.get(PDFName.of('GTS_PDFXConformance'))), 'PDF/X-1a:2003');
  const x4 = await build(layout, config, { standard: 'print' });
  const dy = 0;
  sameText(await readPdfText(x1a), await readPdfText(x4), dy, 'lishu x-1a');
  assert.deepEqual(await build(layout, config, { standard: 'print', pdfx: 'x-1a' }), x1a, 'reproducible');
});

test('a Ghostscript that cannot run is a message naming the edition and the standard, and no PDF is written', async () => {
  const { config, tree } = await loadEdition(join(MANUSCRIPTS, 'pingdian'));
  assert.ok(config);
  const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
  const out = join(work, 'not-written.pdf');
  const before = process.env.DIAOBAN_GHOSTSCRIPT;
  process.env.DIAOBAN_GHOSTSCRIPT = '/nonexistent/gs';
  try {
    await assert.rejects(writePdf(layout, { ...config, pdf: { standard: 'print' } }, out, { browser }), (error: Error) => error.name === 'PdfError' && /^pingdian: pdf: print: Ghostscript .* is not installed/.test(error.message));
  } finally {
    if (before === undefined) delete process.env.DIAOBAN_GHOSTSCRIPT;
    else process.env.DIAOBAN_GHOSTSCRIPT = before;
  }
  assert.equal(existsSync(out), false);
  // The screen file of the same edition needs no Ghostscript (negative control).
  process.env.DIAOBAN_GHOSTSCRIPT = '/nonexistent/gs';
  try {
    await writePdf(layout, config, out, { browser });
  } finally {
    if (before === undefined) delete process.env.DIAOBAN_GHOSTSCRIPT;
    else process.env.DIAOBAN_GHOSTSCRIPT = before;
  }
  assert.equal(existsSync(out), true);
});
