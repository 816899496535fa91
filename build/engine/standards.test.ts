/**
 * The standards' I/O half with the real Ghostscript, on small PDFs made
 * here: a red fill and an RGB image converted to CMYK through the colour
 * sheet; a missing or failing Ghostscript is a clear message; screen bytes
 * are passed through as they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, PDFName, PDFRawStream, PDFArray, PDFRef, decodePDFRawStream } from 'pdf-lib';
import { StandardError } from '../render/pdf/standards.js';
import { applyStandard, ghostscriptCmyk } from './standards.js';

const INFO = { title: '試', author: '某', language: 'zh-Hant', date: '2026-01-01' };

async function redPage(): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([200, 200]);
  const ctx = doc.context;
  // An 8×8 RGB image, all red.
  const image = ctx.flateStream(new Uint8Array(8 * 8 * 3).map((_, i) => (i % 3 === 0 ? 200 : 30)), { Type: 'XObject', Subtype: 'Image', Width: 8, Height: 8, ColorSpace: 'DeviceRGB', BitsPerComponent: 8 });
  page.node.set(PDFName.of('Resources'), ctx.obj({ XObject: { Im0: ctx.register(image) } }));
  page.node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream('0 0 0 rg 10 10 50 50 re f .7 .1 .1 rg 60 60 50 50 re f q 50 0 0 50 100 100 cm /Im0 Do Q')));
  return doc.save({ useObjectStreams: false });
}

test('print: black on the black plate, the red and the image in CMYK through Ghostscript, the rest of the file ours', async () => {
  const { bytes, neutral, converted } = await applyStandard(await redPage(), { standard: 'print' }, { info: INFO, outline: [], bleed: 3 });
  assert.equal(neutral, 1);
  assert.deepEqual(converted, ['.7 .1 .1', 'image']);
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const contents = doc.getPages()[0].node.lookup(PDFName.of('Contents'), PDFArray);
  const text = contents.asArray().map((r) => Buffer.from(decodePDFRawStream(doc.context.lookup(r as PDFRef) as PDFRawStream).decode()).toString('latin1')).join('\n');
  assert.doesNotMatch(text, /\s(rg|RG)\s/);
  assert.match(text, /^0 g 10 10 50 50 re f/m);
  const red = /([.\d]+) ([.\d]+) ([.\d]+) ([.\d]+) k 60 60 50 50 re f/.exec(text);
  assert.ok(red, text);
  const [c, m, y, k] = red.slice(1, 5).map(Number);
  assert.ok(c < 0.3 && m > 0.7 && y > 0.7 && k < 0.4, `a red in CMYK: ${red[0]}`);
  const xobjects = doc.getPages()[0].node.Resources()!.lookup(PDFName.of('XObject')) as unknown as { get(n: PDFName): PDFRef };
  const image = doc.context.lookup(xobjects.get(PDFName.of('Im0'))) as PDFRawStream;
  assert.equal(image.dict.get(PDFName.of('ColorSpace')), PDFName.of('DeviceCMYK'));
  assert.equal(image.dict.get(PDFName.of('Width'))?.toString(), '8');
  // Four samples a pixel (pdf-lib leaves a PNG predictor's byte a row, when Ghostscript used one).
  const predictor = image.dict.lookup(PDFName.of('DecodeParms')) !== undefined;
  assert.equal(decodePDFRawStream(image).decode().length, 8 * (8 * 4 + (predictor ? 1 : 0)));
});

test('screen: the bytes as they are; archive: no colour changed', async () => {
  const input = await redPage();
  assert.equal((await applyStandard(input, undefined, { info: INFO, outline: [], bleed: 0 })).bytes, input);
  assert.equal((await applyStandard(input, { standard: 'screen' }, { info: INFO, outline: [], bleed: 0 })).bytes, input);
  const archive = await PDFDocument.load((await applyStandard(input, { standard: 'archive' }, { info: INFO, outline: [], bleed: 0 })).bytes);
  const content = archive.getPages()[0].node.get(PDFName.of('Contents')) as PDFRef;
  assert.match(Buffer.from(decodePDFRawStream(archive.context.lookup(content) as PDFRawStream).decode()).toString('latin1'), /\.7 \.1 \.1 rg/);
});

test('a missing or failing Ghostscript is a message that says what to do', async () => {
  await assert.rejects(ghostscriptCmyk(await redPage(), 1, { gs: '/nonexistent/gs' }), (error: Error) => error instanceof StandardError && /Ghostscript \(\/nonexistent\/gs\) is not installed.*npm run setup/.test(error.message));
  await assert.rejects(ghostscriptCmyk(new TextEncoder().encode('%PDF-1.4\nnot a pdf'), 1), (error: Error) => error instanceof StandardError && /Ghostscript/.test(error.message) && /no PDF written/.test(error.message));
});
