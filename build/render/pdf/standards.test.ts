/**
 * The standards' pure parts on small PDFs made here with pdf-lib: neutral
 * colours onto the black plate (and other colours left and counted), PDF/X
 * boxes, crop marks and intent, PDF/X-1a without transparency, the XMP
 * packet. The sample books in each standard, printed by Chromium and read
 * back, are in standards.slow.ts.
 */
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { lowResolutionSeals } from './seals.js';
import assert from 'node:assert/strict';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, decodePDFRawStream } from 'pdf-lib';
import { CROP_MARK, SPOT_COLOURS, StandardError, blackPlateContent, cmykContent, toCmyk, cropMarkLines, markArchive, markPrint, removeTransparency, slugOf, toBlackPlate, toSpotColours, xmpPacket, type OutputProfile } from './standards.js';
import { readFileSync } from 'node:fs';

const PT_PER_MM = 72 / 25.4;
const INFO = { title: '禮書', author: '宋 陳祥道', language: 'zh-Hant', subject: '卷一百十 <四庫>', date: '2026-01-01', source: 'juan110.txt' };
const PROFILE: OutputProfile = { bytes: new Uint8Array([1, 2, 3, 4]), components: 4, condition: 'CGATS TR 001', info: 'test profile' };

/** A one-page PDF whose content stream is `content` (and an ExtGState G0 with the given entries). */
async function pdfWith(content: string, gstate: Record<string, unknown> = {}): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([437, 612]);
  const ctx = doc.context;
  const stream = ctx.flateStream(content);
  page.node.set(PDFName.of('Contents'), ctx.register(stream));
  page.node.set(PDFName.of('Resources'), ctx.obj({ ExtGState: { G0: ctx.register(ctx.obj({ Type: 'ExtGState', ...gstate })) } }));
  return doc;
}

function contentOf(doc: PDFDocument, index = 0): string {
  const contents = doc.getPages()[0].node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  const stream = doc.context.lookup(refs[index] as PDFRef) as PDFRawStream;
  return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
}

test('neutral RGB colours become DeviceGray; others are kept and counted; other numbers are left alone', () => {
  const r = blackPlateContent('q\n0 0 0 RG 0 0 0 rg\n/G3 gs\nBT\n1 0 0 -1 5.875 131 Tm\n<00C8> Tj\nET\n.333 .333 .333 rg\n.702 .149 .1176 rg\n1 1 1 rg\nQ');
  assert.equal(r.content, 'q\n0 G 0 g\n/G3 gs\nBT\n1 0 0 -1 5.875 131 Tm\n<00C8> Tj\nET\n.333 g\n.702 .149 .1176 rg\n1 g\nQ');
  assert.equal(r.neutral, 4);
  assert.equal(r.colour, 1);
  assert.equal(r.other, false);
  // A CMYK setting or a shading is colour this rewrite does not touch.
  assert.equal(blackPlateContent('0 0 0 1 k').other, true);
  assert.equal(blackPlateContent('0 0 0 rg /Sh0 sh').other, true);
});

test('toBlackPlate rewrites every content stream and says what colour is left', async () => {
  const grey = await pdfWith('0 0 0 rg 0 0 10 10 re f');
  assert.deepEqual(toBlackPlate(grey), { neutral: 1, rgb: [], images: [], other: [] });
  assert.equal(contentOf(grey), '0 g 0 0 10 10 re f');
  const red = await pdfWith('0 0 0 rg 0 0 10 10 re f .7 .1 .1 rg 0 0 5 5 re f');
  const result = toBlackPlate(red);
  assert.deepEqual(result.rgb, ['.7 .1 .1']);
  assert.match(contentOf(red), /^0 g .* \.7 \.1 \.1 rg/);
  toCmyk(red, new Map([['.7 .1 .1', [0, 0.9, 0.9, 0.2]]]));
  assert.match(contentOf(red), /^0 g .* 0 \.9 \.9 \.2 k 0 0 5 5 re f$/);
  assert.throws(() => cmykContent('.1 .2 .3 RG', new Map()), StandardError);
});

test('markPrint: TrimBox inside BleedBox inside MediaBox, crop marks outside the bleed, the intent, PDF/X keys, the header', async () => {
  const doc = await pdfWith('0 g 0 0 10 10 re f');
  const bytes = await markPrint(doc, { version: 'x-4', info: INFO, outline: [], bleed: 3, profile: PROFILE, producer: 'test' });
  assert.equal(Buffer.from(bytes.subarray(0, 8)).toString('latin1'), '%PDF-1.6');
  const out = await PDFDocument.load(bytes, { updateMetadata: false });
  const page = out.getPages()[0];
  const b = 3 * PT_PER_MM;
  const media = page.getMediaBox();
  const bleed = page.getBleedBox();
  const trim = page.getTrimBox();
  assert.deepEqual([bleed.x, bleed.y, bleed.width, bleed.height], [0, 0, 437, 612]);
  assert.ok(Math.abs(trim.x - b) < 0.01 && Math.abs(trim.width - (437 - 2 * b)) < 0.01);
  assert.ok(media.x < bleed.x && media.y < bleed.y && media.x + media.width > 437 && media.y + media.height > 612);
  assert.ok(Math.abs(-media.x - slugOf()) < 0.01);
  // Every crop-mark line is outside the BleedBox (both ends) and inside the MediaBox.
  const marks = contentOf(out, 2);
  assert.match(marks, /\/DiaobanAll CS 1 SCN/);
  const lines = [...marks.matchAll(/([-\d.]+) ([-\d.]+) m ([-\d.]+) ([-\d.]+) l S/g)].map((m) => m.slice(1, 5).map(Number));
  assert.equal(lines.length, 8);
  const inBleed = (x: number, y: number) => x > 0 && x < 437 && y > 0 && y < 612;
  for (const [x0, y0, x1, y1] of lines) {
    assert.ok(!inBleed(x0, y0) && !inBleed(x1, y1) && !inBleed((x0 + x1) / 2, (y0 + y1) / 2), `mark ${[x0, y0, x1, y1]} outside the bleed`);
    for (const [x, y] of [[x0, y0], [x1, y1]]) assert.ok(x >= media.x && y >= media.y && x <= media.x + media.width && y <= media.y + media.height);
  }
  // The marks continue the trim's edges: a horizontal one on the trim's bottom edge, a vertical one on its left edge.
  assert.ok(lines.some(([, y0, , y1]) => Math.abs(y0 - trim.y) < 0.01 && Math.abs(y1 - trim.y) < 0.01));
  assert.ok(lines.some(([x0, , x1]) => Math.abs(x0 - trim.x) < 0.01 && Math.abs(x1 - trim.x) < 0.01));
  const intents = out.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
  const intent = intents.lookup(0, PDFDict);
  assert.equal(intent.get(PDFName.of('S')), PDFName.of('GTS_PDFX'));
  assert.equal(intent.lookup(PDFName.of('OutputConditionIdentifier'), PDFString).decodeText(), 'CGATS TR 001');
  const profile = out.context.lookup(intent.get(PDFName.of('DestOutputProfile'))) as PDFRawStream;
  assert.equal((profile.dict.get(PDFName.of('N')) as PDFNumber).asNumber(), 4);
  assert.deepEqual([...decodePDFRawStream(profile).decode()], [1, 2, 3, 4]);
  const info = out.context.lookup(out.context.trailerInfo.Info, PDFDict);
  assert.equal(info.lookup(PDFName.of('GTS_PDFXVersion'), PDFString).decodeText(), 'PDF/X-4');
  assert.equal(info.get(PDFName.of('Trapped')), PDFName.of('False'));
  const xmp = Buffer.from((out.context.lookup(out.catalog.get(PDFName.of('Metadata'))) as PDFRawStream).getContents()).toString('utf8');
  assert.match(xmp, /<pdfxid:GTS_PDFXVersion>PDF\/X-4<\/pdfxid:GTS_PDFXVersion>/);
  // Same input, same bytes.
  const again = await markPrint(await pdfWith('0 g 0 0 10 10 re f'), { version: 'x-4', info: INFO, outline: [], bleed: 3, profile: PROFILE, producer: 'test' });
  assert.deepEqual(again, bytes);
});

test('cropMarkLines: eight lines starting past the bleed, each as long as the mark', () => {
  const b = 3 * PT_PER_MM;
  const lines = cropMarkLines({ x0: b, y0: b, x1: 100, y1: 200 }, b);
  assert.equal(lines.length, 8);
  for (const [x0, y0, x1, y1] of lines) assert.ok(Math.abs(Math.hypot(x1 - x0, y1 - y0) - CROP_MARK.length * PT_PER_MM) < 1e-6);
});

test('PDF/X-1a: invisible text as render mode 3, multiply as overprint, no transparency left; what cannot go is an error', async () => {
  const doc = await pdfWith('q /G0 gs BT /F1 12 Tf (a) Tj ET Q BT (b) Tj ET', { ca: 0, BM: 'Normal' });
  const r = removeTransparency(doc);
  assert.equal(r.invisibleText, 1);
  assert.equal(contentOf(doc), 'q /G0 gs BT 3 Tr /F1 12 Tf (a) Tj ET Q BT 0 Tr (b) Tj ET');
  const g = doc.getPages()[0].node.Resources()!.lookup(PDFName.of('ExtGState'), PDFDict).lookup(PDFName.of('G0'), PDFDict);
  assert.equal(g.get(PDFName.of('ca')), undefined);
  const multiply = await pdfWith('/G0 gs 0 0 10 10 re f', { BM: 'Multiply', ca: 1 });
  assert.equal(removeTransparency(multiply).overprint, 1);
  const m = multiply.getPages()[0].node.Resources()!.lookup(PDFName.of('ExtGState'), PDFDict).lookup(PDFName.of('G0'), PDFDict);
  assert.equal(m.get(PDFName.of('BM')), undefined);
  assert.equal(m.get(PDFName.of('OP'))?.toString(), 'true');
  await assert.rejects(async () => removeTransparency(await pdfWith('/G0 gs', { BM: 'Screen' })), StandardError);
  await assert.rejects(async () => removeTransparency(await pdfWith('/G0 gs 0 0 10 10 re f', { ca: 0.5 })), StandardError);
  await assert.rejects(async () => removeTransparency(await pdfWith('/G0 gs 0 0 10 10 re f', { ca: 0 })), /invisible ink/);
});

test('the XMP packet: PDF/A-2u identification, the info as Dublin Core, escaped', () => {
  const xmp = xmpPacket({ info: INFO, producer: 'diaoban', pdfa: { part: 2, conformance: 'U' }, documentId: '0-0' });
  assert.match(xmp, /<pdfaid:part>2<\/pdfaid:part><pdfaid:conformance>U<\/pdfaid:conformance>/);
  assert.match(xmp, /<dc:title><rdf:Alt><rdf:li xml:lang="x-default">禮書<\/rdf:li><\/rdf:Alt><\/dc:title>/);
  assert.match(xmp, /<dc:creator><rdf:Seq><rdf:li>宋 陳祥道<\/rdf:li><\/rdf:Seq><\/dc:creator>/);
  assert.match(xmp, /<dc:language><rdf:Bag><rdf:li>zh-Hant<\/rdf:li><\/rdf:Bag><\/dc:language>/);
  assert.match(xmp, /卷一百十 &lt;四庫&gt;/);
  assert.match(xmp, /<dc:source>juan110.txt<\/dc:source>/);
  assert.match(xmp, /<xmp:CreateDate>2026-01-01T00:00:00Z<\/xmp:CreateDate>/);
  assert.doesNotMatch(xmp, /pdfxid/);
});

test('markArchive: sRGB intent, XMP, no action in the catalogue', async () => {
  const doc = await pdfWith('0 0 0 rg 0 0 10 10 re f');
  doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') }));
  const bytes = await markArchive(doc, { info: INFO, outline: [], profile: { ...PROFILE, components: 3, condition: 'sRGB IEC61966-2.1' }, producer: 'test' });
  const out = await PDFDocument.load(bytes, { updateMetadata: false });
  assert.equal(out.catalog.get(PDFName.of('OpenAction')), undefined);
  const intent = out.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
  assert.equal(intent.get(PDFName.of('S')), PDFName.of('GTS_PDFA1'));
  assert.match(Buffer.from((out.context.lookup(out.catalog.get(PDFName.of('Metadata'))) as PDFRawStream).getContents()).toString('utf8'), /<pdfaid:part>2</);
  // The colours are left as they are (an archive keeps the screen file's look).
  assert.equal(contentOf(out), '0 0 0 rg 0 0 10 10 re f');
});

test('a PNG seal below 300 ppi at its size is flagged for print, with the pixels it needs; an SVG never', () => {
  const png = (n: number) => {
    const image = new PNG({ width: n, height: n });
    return new Uint8Array(PNG.sync.write(image));
  };
  const seal = (bytes: Uint8Array, type: 'png' | 'svg') => ({ image: 'seal', page: 1, position: 'lower-left' as const, size: '20mm', data: { bytes, type } });
  const low = lowResolutionSeals([seal(png(100), 'png')]);
  assert.equal(low.length, 1);
  assert.match(low[0], /prints at 127 ppi at 20mm; a print shop asks for 300 \(a PNG of 237 pixels, or an SVG\)/);
  assert.deepEqual(lowResolutionSeals([seal(png(240), 'png')]), []);
  assert.deepEqual(lowResolutionSeals([seal(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'svg')]), []);
});

test('markPrint for PDF/X-1a: PDF 1.4 without object streams, version PDF/X-1:2003 with conformance PDF/X-1a:2003', async () => {
  const bytes = await markPrint(await pdfWith('0 g 0 0 10 10 re f'), { version: 'x-1a', info: INFO, outline: [], bleed: 3, profile: PROFILE, producer: 'test' });
  const raw = Buffer.from(bytes).toString('latin1');
  assert.ok(raw.startsWith('%PDF-1.4'));
  assert.doesNotMatch(raw, /\/Type \/ObjStm|\/Type \/XRef/);
  const out = await PDFDocument.load(bytes, { updateMetadata: false });
  const info = out.context.lookup(out.context.trailerInfo.Info, PDFDict);
  assert.equal(info.lookup(PDFName.of('GTS_PDFXVersion'), PDFString).decodeText(), 'PDF/X-1:2003');
  assert.equal(info.lookup(PDFName.of('GTS_PDFXConformance'), PDFString).decodeText(), 'PDF/X-1a:2003');
});

test('朱絲欄: the vermilion of the frame and rules becomes a spot colour (Separation Vermilion) in every content stream, in the resources; other colours stay for CMYK', async () => {
  const doc = await pdfWith('0 0 0 rg 0 0 10 10 re f .7843 .2157 .1765 RG 0 0 m 5 5 l S .7843 .2157 .1765 rg 1 1 2 2 re f .7 .1 .1 rg 0 0 5 5 re f');
  const found = toBlackPlate(doc);
  assert.deepEqual(found.rgb, ['.7 .1 .1', '.7843 .2157 .1765']);
  const spots = toSpotColours(doc, found.rgb);
  assert.deepEqual(spots, ['.7843 .2157 .1765']);
  assert.equal(contentOf(doc), '0 g 0 0 10 10 re f /CSVermilion CS 1 SCN 0 0 m 5 5 l S /CSVermilion cs 1 scn 1 1 2 2 re f .7 .1 .1 rg 0 0 5 5 re f');
  const res = doc.getPages()[0].node.Resources()!;
  const space = doc.context.lookup((doc.context.lookup(res.get(PDFName.of('ColorSpace'))) as PDFDict).get(PDFName.of('CSVermilion'))) as PDFArray;
  assert.deepEqual(space.asArray().slice(0, 3).map(String), ['/Separation', '/Vermilion', '/DeviceCMYK']);
  // The CSS's vermilion is the table's (styles/base.css body.frame-red).
  const css = readFileSync(new URL('../../../styles/base.css', import.meta.url), 'utf8');
  const hex = /body\.frame-red \{ --frame-ink: #([0-9a-f]{6}); \}/.exec(css)?.[1];
  assert.deepEqual(hex?.match(/../g)?.map((h) => parseInt(h, 16)), [...SPOT_COLOURS[0].rgb]);
  // Negative control: a book without the vermilion gets no spot colour.
  const plain = await pdfWith('0 0 0 rg 0 0 10 10 re f .7 .1 .1 rg 0 0 5 5 re f');
  assert.deepEqual(toSpotColours(plain, toBlackPlate(plain).rgb), []);
  assert.equal(plain.getPages()[0].node.Resources()!.get(PDFName.of('ColorSpace')), undefined);
});
