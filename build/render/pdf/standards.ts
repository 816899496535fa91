/**
 * The book's PDF made into what a print shop (PDF/X) or an archive (PDF/A-2u)
 * takes, from the screen file that assemblePdf makes. Pure pdf-lib work on
 * bytes; Ghostscript (build/engine/standards.ts) only computes the CMYK of the
 * colours and images left, from the small sheet `colourSheet` makes: a pass
 * of the whole book through its pdfwrite lost ToUnicode entries (事 read as
 * Ï), so the book's content streams and fonts stay as Chromium wrote them.
 *
 * - `toBlackPlate`: every neutral DeviceRGB colour of every content stream
 *   (`0 0 0 rg`, `1 1 1 rg`, the greys) set as DeviceGray, which prints on
 *   the black plate alone; says what colour is left (a seal, an image).
 * - `toCmyk`: the colours left set as CMYK, as Ghostscript computed them
 *   through the output profile (`readColourSheet` puts converted images in).
 * - `removeTransparency` (PDF/X-1a): invisible text (Chromium's fill alpha 0)
 *   as text render mode 3, multiply as overprint, no transparency group.
 * - `markPrint`: TrimBox, BleedBox, a MediaBox with room for crop marks
 *   outside the bleed, the marks (in the registration colour, /All), the
 *   CMYK output intent with its profile, GTS_PDFXVersion, Trapped, XMP.
 * - `markArchive`: the sRGB output intent and XMP with the PDF/A-2u
 *   identification, agreeing with the document info.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  PDFObjectCopier,
  decodePDFRawStream,
} from 'pdf-lib';
import type { PdfStandard, PdfxVersion } from '../../tree/edition.js';
import { saveDeterministic, setInfo, setOutline, type OutlineEntry, type PdfInfo } from './postprocess.js';

export type { PdfStandard, PdfxVersion };

const PT_PER_MM = 72 / 25.4;

/** A colour profile a file carries as its output intent. */
export interface OutputProfile {
  /** The ICC profile's bytes. */
  bytes: Uint8Array;
  /** Its colour components: 4 (CMYK, print) or 3 (RGB, archive). */
  components: 3 | 4;
  /** The registered characterization it stands for (OutputConditionIdentifier). */
  condition: string;
  /** What it is, in words (/Info of the intent): the profile's name and where it comes from. */
  info: string;
}

/** The standard's part of the document info: what the XMP repeats. */
export interface StandardInfo extends PdfInfo {
  /** Where the text comes from (dc:source): the source edition, its files. */
  source?: string;
}

// ——— Colours ———

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)`;
/** `r g b rg` / `RG`: three operands and the operator, as whole tokens. */
const RGB_OPERATOR = new RegExp(String.raw`(^|[\s\]\[)>}])(${NUMBER})\s+(${NUMBER})\s+(${NUMBER})\s+(rg|RG)(?=[\s\[(</%]|$)`, 'g');
/** Operators that set a colour in a space we do not rewrite (sc/scn after cs, shadings, inline images). */
const OTHER_COLOUR = /(?:^|\s)(?:sc|scn|SC|SCN|sh|BI|k|K)(?=\s|$)/;

export interface BlackPlateResult {
  /** Neutral colours rewritten as DeviceGray. */
  neutral: number;
  /** The RGB colours left (`r g b` as written), for the CMYK conversion. */
  rgb: string[];
  /** Images in colour, for the CMYK conversion. */
  images: PDFRef[];
  /** Colour set in a way the conversion does not handle (shadings, sc/scn, inline images): named once a kind. */
  other: string[];
}

/** A number as short as PDF writes it. */
function fmt(v: number): string {
  const r = Math.round(v * 10000) / 10000;
  return String(r).replace(/^0\./, '.').replace(/^-0\./, '-.');
}

/**
 * One content stream's neutral DeviceRGB colours as DeviceGray: `0 0 0 rg`
 * → `0 g`, `.333 .333 .333 RG` → `.333 G`. Other colours are kept and counted.
 */
export function blackPlateContent(content: string): { content: string; neutral: number; colour: number; rgb: Set<string>; other: boolean } {
  let neutral = 0;
  let colour = 0;
  const rgb = new Set<string>();
  const out = content.replace(RGB_OPERATOR, (all, before: string, r: string, g: string, b: string, op: string) => {
    const [x, y, z] = [Number(r), Number(g), Number(b)];
    if (x === y && y === z) {
      neutral++;
      return `${before}${fmt(x)} ${op === 'rg' ? 'g' : 'G'}`;
    }
    colour++;
    rgb.add(rgbKey(x, y, z));
    return all;
  });
  return { content: out, neutral, colour, rgb, other: OTHER_COLOUR.test(out) };
}

function rgbKey(r: number, g: number, b: number): string {
  return [r, g, b].map(fmt).join(' ');
}

/**
 * The RGB colours left in a content stream set as the CMYK values given
 * (`r g b` → `c m y k`, computed through the output profile by Ghostscript).
 */
export function cmykContent(content: string, cmyk: ReadonlyMap<string, readonly number[]>): string {
  return content.replace(RGB_OPERATOR, (all, before: string, r: string, g: string, b: string, op: string) => {
    const value = cmyk.get(rgbKey(Number(r), Number(g), Number(b)));
    if (!value) throw new StandardError(`no CMYK value for the colour ${r} ${g} ${b}`);
    return `${before}${value.map(fmt).join(' ')} ${op === 'rg' ? 'k' : 'K'}`;
  });
}

/**
 * Spot colours: an RGB colour the styles print that a print file carries as
 * an ink of its own (a Separation colour space, with its CMYK for proofs),
 * not converted to CMYK. Vermilion is the 朱絲欄's (styles/base.css
 * --frame-ink of body.frame-red).
 */
export interface SpotColour {
  name: string;
  /** 0–255, as the CSS writes it. */
  rgb: readonly [number, number, number];
  /** The alternate CMYK (0–1) of the full tint. */
  cmyk: readonly [number, number, number, number];
}

export const SPOT_COLOURS: readonly SpotColour[] = [{ name: 'Vermilion', rgb: [200, 55, 45], cmyk: [0, 0.85, 0.85, 0.1] }];

const spotKey = (s: SpotColour): string => rgbKey(s.rgb[0] / 255, s.rgb[1] / 255, s.rgb[2] / 255);

/**
 * The spot colours among `rgb` (as toBlackPlate lists the colours left) set
 * as their Separation colour spaces in every content stream, the space in
 * every page's and form's resources; returns the RGB colours they took,
 * which are not converted to CMYK.
 */
export function toSpotColours(doc: PDFDocument, rgb: readonly string[], spots: readonly SpotColour[] = SPOT_COLOURS): string[] {
  const used = spots.filter((s) => rgb.includes(spotKey(s)));
  if (used.length === 0) return [];
  const ctx = doc.context;
  const spaces = new Map(used.map((s) => [spotKey(s), { resource: `CS${s.name}`, ref: ctx.register(ctx.obj([PDFName.of('Separation'), PDFName.of(s.name), PDFName.of('DeviceCMYK'), ctx.obj({ FunctionType: 2, Domain: [0, 1], C0: [0, 0, 0, 0], C1: [...s.cmyk], N: 1 })])) }]));
  for (const { ref, stream } of contentStreams(doc)) {
    const text = streamText(stream);
    let changed = false;
    const out = text.replace(RGB_OPERATOR, (all, before: string, r: string, g: string, b: string, op: string) => {
      const space = spaces.get(rgbKey(Number(r), Number(g), Number(b)));
      if (!space) return all;
      changed = true;
      return op === 'rg' ? `${before}/${space.resource} cs 1 scn` : `${before}/${space.resource} CS 1 SCN`;
    });
    if (changed) replaceContent(doc, ref, stream, out);
  }
  // The spaces in the resources of every page and form (a content stream uses its owner's).
  const owners: PDFDict[] = doc.getPages().map((p) => p.node.Resources()).filter((r): r is PDFDict => r instanceof PDFDict);
  for (const [, object] of ctx.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype')) === PDFName.of('Form')) {
      const res = ctx.lookup(object.dict.get(PDFName.of('Resources')));
      if (res instanceof PDFDict) owners.push(res);
    }
  }
  for (const res of owners) {
    let cs = ctx.lookup(res.get(PDFName.of('ColorSpace')));
    if (!(cs instanceof PDFDict)) {
      cs = ctx.obj({});
      res.set(PDFName.of('ColorSpace'), cs as PDFDict);
    }
    for (const space of spaces.values()) (cs as PDFDict).set(PDFName.of(space.resource), space.ref);
  }
  return [...spaces.keys()];
}

/** Every content stream's RGB colours as CMYK (cmykContent), in place. */
export function toCmyk(doc: PDFDocument, cmyk: ReadonlyMap<string, readonly number[]>): void {
  for (const { ref, stream } of contentStreams(doc)) {
    const text = streamText(stream);
    if (text.search(RGB_OPERATOR) < 0) continue;
    replaceContent(doc, ref, stream, cmykContent(text, cmyk));
  }
}

/**
 * The colours and images to convert, as one small PDF for Ghostscript:
 * page 1 fills a square in each colour, in order; each further page draws
 * one image (its alpha left out: only its colours are converted).
 */
export async function colourSheet(doc: PDFDocument, rgb: readonly string[], images: readonly PDFRef[]): Promise<Uint8Array> {
  const sheet = await PDFDocument.create({ updateMetadata: false });
  const first = sheet.addPage([100, 100]);
  first.node.set(PDFName.of('Contents'), sheet.context.register(sheet.context.flateStream(rgb.map((c, i) => `${c} rg ${i} 0 1 1 re f`).join('\n') || '%')));
  const copier = PDFObjectCopier.for(doc.context, sheet.context);
  for (const ref of images) {
    const image = doc.context.lookup(ref) as PDFRawStream;
    const copy = copier.copy(image) as PDFRawStream;
    copy.dict.delete(PDFName.of('SMask'));
    copy.dict.delete(PDFName.of('Mask'));
    const page = sheet.addPage([100, 100]);
    page.node.set(PDFName.of('Resources'), sheet.context.obj({ XObject: { Im0: sheet.context.register(copy) } }));
    page.node.set(PDFName.of('Contents'), sheet.context.register(sheet.context.flateStream('q 100 0 0 100 0 0 cm /Im0 Do Q')));
  }
  return sheet.save({ useObjectStreams: false });
}

/**
 * What Ghostscript made of the colour sheet: each colour's CMYK value (the
 * fills of page 1, in order), and each image converted, put in place of
 * the original (its size, mask and alpha kept).
 */
export async function readColourSheet(doc: PDFDocument, converted: Uint8Array, rgb: readonly string[], images: readonly PDFRef[]): Promise<Map<string, number[]>> {
  const sheet = await PDFDocument.load(converted, { updateMetadata: false });
  const pages = sheet.getPages();
  if (pages.length !== 1 + images.length) throw new StandardError(`Ghostscript gave ${pages.length} pages for ${1 + images.length}`);
  const contents = pages[0].node.get(PDFName.of('Contents'));
  const text = (contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [])
    .map((r) => streamText(sheet.context.lookup(r as PDFRef) as PDFRawStream))
    .join('\n');
  const fills = [...text.matchAll(new RegExp(String.raw`(${NUMBER})\s+(${NUMBER})\s+(${NUMBER})\s+(${NUMBER})\s+k(?=\s|$)`, 'g'))].map((m) => m.slice(1, 5).map(Number));
  if (fills.length !== rgb.length) throw new StandardError(`Ghostscript converted ${fills.length} colours of ${rgb.length}`);
  const cmyk = new Map(rgb.map((c, i) => [c, fills[i]] as const));
  images.forEach((ref, i) => {
    // The page's image, or the one in a form Ghostscript wrapped it in.
    const imageIn = (resources: unknown): PDFRawStream | undefined => {
      const xobjects = resources instanceof PDFDict ? resources.lookup(PDFName.of('XObject')) : undefined;
      if (!(xobjects instanceof PDFDict)) return undefined;
      for (const [, v] of xobjects.entries()) {
        const x = sheet.context.lookup(v);
        if (!(x instanceof PDFRawStream)) continue;
        if (x.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')) return x;
        const inner = imageIn(x.dict.lookup(PDFName.of('Resources')));
        if (inner) return inner;
      }
      return undefined;
    };
    const found = imageIn(pages[i + 1].node.Resources());
    if (!(found instanceof PDFRawStream)) throw new StandardError('Ghostscript did not give an image back');
    const original = doc.context.lookup(ref) as PDFRawStream;
    const dict = original.dict.clone(doc.context);
    for (const key of ['ColorSpace', 'BitsPerComponent', 'Filter', 'DecodeParms', 'Decode', 'Length']) {
      const v = found.dict.get(PDFName.of(key));
      if (v === undefined) dict.delete(PDFName.of(key));
      else dict.set(PDFName.of(key), v instanceof PDFRef ? doc.context.register(PDFObjectCopier.for(sheet.context, doc.context).copy(sheet.context.lookup(v)!)) : PDFObjectCopier.for(sheet.context, doc.context).copy(v));
    }
    if (dict.get(PDFName.of('ColorSpace')) !== PDFName.of('DeviceCMYK')) throw new StandardError('Ghostscript did not convert an image to CMYK');
    doc.context.assign(ref, PDFRawStream.of(dict, found.getContents()));
  });
  return cmyk;
}

/** The content streams of the document: pages' /Contents, form XObjects and tiling patterns. */
function contentStreams(doc: PDFDocument): Array<{ ref: PDFRef; stream: PDFRawStream }> {
  const refs = new Set<PDFRef>();
  for (const page of doc.getPages()) {
    const contents = page.node.get(PDFName.of('Contents'));
    if (contents instanceof PDFRef) refs.add(contents);
    else if (contents instanceof PDFArray) for (const c of contents.asArray()) if (c instanceof PDFRef) refs.add(c);
  }
  const out: Array<{ ref: PDFRef; stream: PDFRawStream }> = [];
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const subtype = object.dict.get(PDFName.of('Subtype'));
    const form = subtype === PDFName.of('Form') || object.dict.get(PDFName.of('PatternType')) instanceof PDFNumber;
    if (form || refs.has(ref)) out.push({ ref, stream: object });
  }
  return out;
}

function streamText(stream: PDFRawStream): string {
  return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
}

/** A stream's content replaced, deflated, its other keys (BBox, Resources …) kept. */
function replaceContent(doc: PDFDocument, ref: PDFRef, stream: PDFRawStream, text: string): void {
  const dict = stream.dict.clone(doc.context);
  dict.delete(PDFName.of('DecodeParms'));
  dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
  const bytes = deflateSync(Buffer.from(text, 'latin1'));
  dict.set(PDFName.of('Length'), PDFNumber.of(bytes.length));
  doc.context.assign(ref, PDFRawStream.of(dict, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
}

/** The colour spaces of an image or shading that are not DeviceGray (a mask is ink of the current colour). */
function objectColour(object: PDFRawStream | PDFDict, doc: PDFDocument): string | undefined {
  const dict = object instanceof PDFRawStream ? object.dict : object;
  const subtype = dict.get(PDFName.of('Subtype'));
  if (subtype === PDFName.of('Image')) {
    if (dict.get(PDFName.of('ImageMask'))?.toString() === 'true') return undefined;
    // An image used as a soft mask is alpha, not colour.
    const space = doc.context.lookup(dict.get(PDFName.of('ColorSpace')));
    if (space === PDFName.of('DeviceGray')) return undefined;
    if (space instanceof PDFArray && space.size() === 2) {
      const profile = doc.context.lookup(space.get(1));
      if (profile instanceof PDFRawStream && profile.dict.get(PDFName.of('N'))?.toString() === '1') return undefined;
    }
    return 'an image in colour';
  }
  if (dict.get(PDFName.of('ShadingType'))) return 'a shading';
  return undefined;
}

/**
 * Neutral colours on the black plate: every content stream's neutral RGB
 * settings rewritten as DeviceGray, in place. Returns how many, and what
 * colour is left (a coloured seal or label, an image) for the CMYK conversion.
 */
export function toBlackPlate(doc: PDFDocument): BlackPlateResult {
  let neutral = 0;
  const rgb = new Set<string>();
  const images: PDFRef[] = [];
  const other = new Set<string>();
  for (const { ref, stream } of contentStreams(doc)) {
    const text = streamText(stream);
    const result = blackPlateContent(text);
    neutral += result.neutral;
    for (const c of result.rgb) rgb.add(c);
    if (result.other) other.add('colours set by operators other than rg and RG');
    if (result.neutral > 0) replaceContent(doc, ref, stream, result.content);
  }
  const softMasks = new Set<PDFRef>();
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && object.dict.get(PDFName.of('SMask')) instanceof PDFRef) softMasks.add(object.dict.get(PDFName.of('SMask')) as PDFRef);
  }
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (softMasks.has(ref)) continue;
    if (object instanceof PDFRawStream || object instanceof PDFDict) {
      const kind = objectColour(object, doc);
      if (kind === 'an image in colour') images.push(ref);
      else if (kind) other.add(kind);
    }
  }
  return { neutral, rgb: [...rgb].sort(), images, other: [...other] };
}

// ——— PDF/X-1a: no transparency ———

/** An ExtGState's fill and stroke alpha, and its blend mode. */
function extGState(doc: PDFDocument, value: unknown): PDFDict | undefined {
  const g = doc.context.lookup(value as PDFRef);
  return g instanceof PDFDict ? g : undefined;
}

export class StandardError extends Error {}

/**
 * Takes out the transparency Chromium writes, for PDF/X-1a: text it draws
 * invisible (fill alpha 0: marks not printed, kept for the text layer) gets
 * text render mode 3 (invisible, still text), multiply (a seal over the
 * type) becomes overprint, transparency groups go. Throws StandardError for
 * what cannot go without changing the page (a soft mask, a path drawn
 * invisible).
 */
export function removeTransparency(doc: PDFDocument): { invisibleText: number; overprint: number } {
  const ctx = doc.context;
  let invisibleText = 0;
  let overprint = 0;
  const invisible = new Set<PDFDict>();
  for (const [, object] of ctx.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFRawStream ? object.dict : undefined;
    if (!dict) continue;
    if (dict.get(PDFName.of('SMask')) instanceof PDFRef || (dict.get(PDFName.of('SMask')) instanceof PDFDict)) {
      throw new StandardError('PDF/X-1a allows no transparency, and an image (a seal, or a glyph drawn in its cell: a KR-Gaiji image, a composition) has an alpha channel: use pdfx: x-4, or a seal without transparency');
    }
    const group = dict.get(PDFName.of('Group'));
    if (group) dict.delete(PDFName.of('Group'));
    if (dict.get(PDFName.of('Type')) !== PDFName.of('ExtGState') && !dict.has(PDFName.of('ca')) && !dict.has(PDFName.of('BM'))) continue;
    const ca = dict.get(PDFName.of('ca'));
    const CA = dict.get(PDFName.of('CA'));
    if (ca instanceof PDFNumber && ca.asNumber() === 0) invisible.add(dict);
    else if ((ca instanceof PDFNumber && ca.asNumber() !== 1) || (CA instanceof PDFNumber && CA.asNumber() !== 1)) {
      throw new StandardError('PDF/X-1a allows no transparency, and the page has half-transparent ink: use pdfx: x-4');
    }
    dict.delete(PDFName.of('ca'));
    dict.delete(PDFName.of('CA'));
    const bm = dict.get(PDFName.of('BM'));
    if (bm === PDFName.of('Multiply')) {
      // Multiply over the type is what overprint does on press: the seal's inks over the black plate's.
      dict.set(PDFName.of('OP'), ctx.obj(true));
      dict.set(PDFName.of('op'), ctx.obj(true));
      dict.set(PDFName.of('OPM'), PDFNumber.of(1));
      overprint++;
    } else if (bm && bm !== PDFName.of('Normal') && bm !== PDFName.of('Compatible')) {
      throw new StandardError(`PDF/X-1a allows no transparency, and the page blends (${bm.toString()}): use pdfx: x-4`);
    }
    dict.delete(PDFName.of('BM'));
    dict.delete(PDFName.of('SMask'));
  }
  // Each content stream: text drawn under an invisible state gets render mode 3.
  const pageOf = new Map<PDFRef, PDFDict | undefined>();
  for (const page of doc.getPages()) {
    const c = page.node.get(PDFName.of('Contents'));
    for (const r of c instanceof PDFArray ? c.asArray() : [c]) if (r instanceof PDFRef) pageOf.set(r, page.node.Resources());
  }
  for (const { ref, stream } of contentStreams(doc)) {
    const resources = ctx.lookup(stream.dict.get(PDFName.of('Resources')));
    const pageResources = pageOf.get(ref);
    const states = (resources instanceof PDFDict ? resources : pageResources)?.lookup(PDFName.of('ExtGState'));
    const hidden = new Set<string>();
    if (states instanceof PDFDict) {
      for (const [name, value] of states.entries()) {
        const g = extGState(doc, value);
        if (g && invisible.has(g)) hidden.add(name.asString().slice(1));
      }
    }
    if (hidden.size === 0) continue;
    const text = streamText(stream);
    if (/\sTr(?=\s)/.test(text)) throw new StandardError('PDF/X-1a: a page sets its own text render mode; cannot make its invisible text so');
    const stack: boolean[] = [];
    let now = false;
    let count = 0;
    const out = text.replace(/(^|\s)(?:\/([^\s/\[\]()<>{}%]+)\s+gs|(q|Q|BT|f\*?|F|B\*?|b\*?|S|s|Do|sh))(?=\s|$)/g, (all, before: string, name: string | undefined, op: string | undefined) => {
      if (name !== undefined) {
        now = hidden.has(name);
        return all;
      }
      if (op === 'q') stack.push(now);
      else if (op === 'Q') now = stack.pop() ?? false;
      else if (op === 'BT') {
        if (now) count++;
        return `${before}BT ${now ? 3 : 0} Tr`;
      } else if (now) throw new StandardError(`PDF/X-1a: the page draws invisible ink (${op}), which only transparency can draw`);
      return all;
    });
    invisibleText += count;
    replaceContent(doc, ref, stream, out);
  }
  return { invisibleText, overprint };
}

// ——— Metadata ———

function xmlEscape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** The date as both the info (D:…) and the XMP (ISO) write it: midnight UTC of the edition's date. */
export function isoDate(date: string | undefined): string {
  const d = new Date(`${date ?? '2000-01-01'}T00:00:00Z`);
  return (Number.isNaN(d.getTime()) ? new Date('2000-01-01T00:00:00Z') : d).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface XmpOptions {
  info: StandardInfo;
  producer: string;
  /** PDF/A part and conformance. */
  pdfa?: { part: number; conformance: string };
  /** PDF/X version (GTS_PDFXVersion), with Trapped. */
  pdfx?: string;
  /** A stable id of the document (xmpMM:DocumentID), from its content. */
  documentId: string;
}

/** The XMP packet: Dublin Core, XMP basic, PDF and the standard's identification, as the info says. */
export function xmpPacket(o: XmpOptions): string {
  const { info } = o;
  const lang = xmlEscape(info.language || 'x-default');
  const alt = (v: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${xmlEscape(v)}</rdf:li></rdf:Alt>`;
  const date = isoDate(info.date);
  const lines = [
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>`,
    `<x:xmpmeta xmlns:x="adobe:ns:meta/">`,
    `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`,
    `<rdf:Description rdf:about=""`,
    ` xmlns:dc="http://purl.org/dc/elements/1.1/"`,
    ` xmlns:xmp="http://ns.adobe.com/xap/1.0/"`,
    ` xmlns:pdf="http://ns.adobe.com/pdf/1.3/"`,
    ` xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"`,
    o.pdfa ? ` xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"` : '',
    o.pdfx ? ` xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"` : '',
    `>`,
    `<dc:format>application/pdf</dc:format>`,
    `<dc:title>${alt(info.title)}</dc:title>`,
    info.author ? `<dc:creator><rdf:Seq><rdf:li>${xmlEscape(info.author)}</rdf:li></rdf:Seq></dc:creator>` : '',
    info.subject ? `<dc:description>${alt(info.subject)}</dc:description>` : '',
    `<dc:language><rdf:Bag><rdf:li>${lang}</rdf:li></rdf:Bag></dc:language>`,
    info.source ? `<dc:source>${xmlEscape(info.source)}</dc:source>` : '',
    `<xmp:CreatorTool>diaoban</xmp:CreatorTool>`,
    `<xmp:CreateDate>${date}</xmp:CreateDate>`,
    `<xmp:ModifyDate>${date}</xmp:ModifyDate>`,
    `<xmp:MetadataDate>${date}</xmp:MetadataDate>`,
    `<pdf:Producer>${xmlEscape(o.producer)}</pdf:Producer>`,
    info.keywords?.length ? `<pdf:Keywords>${xmlEscape(info.keywords.join(' '))}</pdf:Keywords>` : '',
    o.pdfx ? `<pdf:Trapped>False</pdf:Trapped>` : '',
    `<xmpMM:DocumentID>uuid:${o.documentId}</xmpMM:DocumentID>`,
    `<xmpMM:InstanceID>uuid:${o.documentId}</xmpMM:InstanceID>`,
    o.pdfx ? `<xmpMM:VersionID>1</xmpMM:VersionID><xmpMM:RenditionClass>default</xmpMM:RenditionClass>` : '',
    o.pdfa ? `<pdfaid:part>${o.pdfa.part}</pdfaid:part><pdfaid:conformance>${o.pdfa.conformance}</pdfaid:conformance>` : '',
    o.pdfx ? `<pdfxid:GTS_PDFXVersion>${xmlEscape(o.pdfx)}</pdfxid:GTS_PDFXVersion>` : '',
    `</rdf:Description>`,
    `</rdf:RDF>`,
    `</x:xmpmeta>`,
    `<?xpacket end="w"?>`,
  ];
  return lines.filter(Boolean).join('\n');
}

/** A uuid-shaped id from the document's content (same document, same id). */
function documentId(doc: PDFDocument, info: StandardInfo): string {
  const h = createHash('sha256').update(JSON.stringify(info)).update(String(doc.getPageCount()));
  for (const page of doc.getPages()) h.update(page.getMediaBox().width.toFixed(3));
  const hex = h.digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function setMetadata(doc: PDFDocument, xmp: string): void {
  // Uncompressed, so that an archive's tools read it without a PDF parser.
  const bytes = Buffer.from(xmp, 'utf8');
  const stream = doc.context.stream(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

function setOutputIntent(doc: PDFDocument, subtype: 'GTS_PDFX' | 'GTS_PDFA1', profile: OutputProfile): void {
  const ctx = doc.context;
  const icc = ctx.flateStream(profile.bytes, { N: profile.components });
  const intent = ctx.obj({
    Type: 'OutputIntent',
    S: subtype,
    OutputConditionIdentifier: PDFString.of(profile.condition),
    RegistryName: PDFString.of('http://www.color.org'),
    Info: PDFString.of(profile.info),
    DestOutputProfile: ctx.register(icc),
  });
  doc.catalog.set(PDFName.of('OutputIntents'), ctx.obj([ctx.register(intent)]));
}

/** No action, script or embedded file anywhere a reader would run or open it (PDF/A, PDF/X). */
function removeActions(doc: PDFDocument): void {
  for (const key of ['OpenAction', 'AA', 'JavaScript']) doc.catalog.delete(PDFName.of(key));
  const names = doc.catalog.lookup(PDFName.of('Names'));
  if (names instanceof PDFDict) {
    names.delete(PDFName.of('JavaScript'));
    names.delete(PDFName.of('EmbeddedFiles'));
  }
  for (const page of doc.getPages()) page.node.delete(PDFName.of('AA'));
}

/** The outline assembly wrote is kept; a document without one gets it. */
function keepOutline(doc: PDFDocument, outline: readonly OutlineEntry[]): void {
  if (!doc.catalog.has(PDFName.of('Outlines'))) setOutline(doc, outline);
}

function box(doc: PDFDocument, x0: number, y0: number, x1: number, y1: number): PDFArray {
  return doc.context.obj([x0, y0, x1, y1].map((v) => PDFNumber.of(Math.round(v * 1000) / 1000)));
}

// ——— Print ———

export interface PrintOptions {
  version: PdfxVersion;
  info: StandardInfo;
  outline: readonly OutlineEntry[];
  /** Bleed in mm around the trimmed page (the page as printed has it on every side). */
  bleed: number;
  profile: OutputProfile;
  producer: string;
}

/** Crop marks: where they start beyond the bleed, and how long they are (mm). */
export const CROP_MARK = { offset: 1, length: 5, width: 0.25 } as const;

/** The crop marks of a page: eight lines at the trim's corners, all outside the bleed (points, PDF user space). */
export function cropMarkLines(trim: { x0: number; y0: number; x1: number; y1: number }, bleedPt: number): Array<[number, number, number, number]> {
  const from = bleedPt + CROP_MARK.offset * PT_PER_MM;
  const to = from + CROP_MARK.length * PT_PER_MM;
  const { x0, y0, x1, y1 } = trim;
  return [
    // Horizontal marks on the trim's top and bottom edges, left and right of the page.
    [x0 - to, y0, x0 - from, y0], [x1 + from, y0, x1 + to, y0], [x0 - to, y1, x0 - from, y1], [x1 + from, y1, x1 + to, y1],
    // Vertical marks on the trim's left and right edges, below and above the page.
    [x0, y0 - to, x0, y0 - from], [x1, y0 - to, x1, y0 - from], [x0, y1 + from, x0, y1 + to], [x1, y1 + from, x1, y1 + to],
  ];
}

/** The room the crop marks need beyond the bleed (points). */
export function slugOf(): number {
  return (CROP_MARK.offset + CROP_MARK.length + 1) * PT_PER_MM;
}

/**
 * A print file (PDF/X-4 or X-1a) from a document whose colours are on the
 * black plate or in CMYK already: each page's TrimBox (the page less its
 * bleed), BleedBox (the page as Chromium printed it), MediaBox grown by the
 * room for the crop marks, the marks drawn there in the registration colour;
 * the output intent with its CMYK profile; GTS_PDFXVersion, Trapped and XMP;
 * blending in CMYK. Saved deterministically.
 */
export async function markPrint(doc: PDFDocument, o: PrintOptions): Promise<Uint8Array> {
  const ctx = doc.context;
  const bleed = o.bleed * PT_PER_MM;
  const slug = slugOf();
  // The registration colour (every plate), the convention for crop marks.
  const all = ctx.register(ctx.obj([PDFName.of('Separation'), PDFName.of('All'), PDFName.of('DeviceCMYK'), ctx.obj({ FunctionType: 2, Domain: [0, 1], C0: [0, 0, 0, 0], C1: [1, 1, 1, 1], N: 1 })]));
  const open = ctx.register(ctx.flateStream('q\n'));
  for (const page of doc.getPages()) {
    const media = page.getMediaBox();
    const trim = { x0: media.x + bleed, y0: media.y + bleed, x1: media.x + media.width - bleed, y1: media.y + media.height - bleed };
    page.node.set(PDFName.of('BleedBox'), box(doc, media.x, media.y, media.x + media.width, media.y + media.height));
    page.node.set(PDFName.of('TrimBox'), box(doc, trim.x0, trim.y0, trim.x1, trim.y1));
    page.node.set(PDFName.of('MediaBox'), box(doc, media.x - slug, media.y - slug, media.x + media.width + slug, media.y + media.height + slug));
    page.node.delete(PDFName.of('CropBox'));
    page.node.delete(PDFName.of('ArtBox'));
    const resources = page.node.Resources() ?? (ctx.obj({}) as PDFDict);
    if (!page.node.get(PDFName.of('Resources'))) page.node.set(PDFName.of('Resources'), resources);
    let spaces = resources.lookup(PDFName.of('ColorSpace'));
    if (!(spaces instanceof PDFDict)) {
      spaces = ctx.obj({});
      resources.set(PDFName.of('ColorSpace'), spaces as PDFDict);
    }
    (spaces as PDFDict).set(PDFName.of('DiaobanAll'), all);
    const lines = cropMarkLines(trim, bleed).map(([a, b, c, d]) => `${fmt(a)} ${fmt(b)} m ${fmt(c)} ${fmt(d)} l S`).join('\n');
    const marks = ctx.register(ctx.flateStream(`Q\nq\n/DiaobanAll CS 1 SCN ${fmt(CROP_MARK.width * PT_PER_MM)} w 0 J [] 0 d\n${lines}\nQ\n`));
    const contents = page.node.get(PDFName.of('Contents'));
    const list = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
    page.node.set(PDFName.of('Contents'), ctx.obj([open, ...list, marks]));
  }
  // Blending, where transparency is left, in the output's CMYK.
  for (const [, object] of ctx.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFRawStream ? object.dict : undefined;
    const group = dict?.lookup(PDFName.of('Group'));
    if (group instanceof PDFDict && group.get(PDFName.of('S')) === PDFName.of('Transparency')) group.set(PDFName.of('CS'), PDFName.of('DeviceCMYK'));
  }
  for (const page of doc.getPages()) {
    const group = page.node.lookup(PDFName.of('Group'));
    if (group instanceof PDFDict && group.get(PDFName.of('S')) === PDFName.of('Transparency')) group.set(PDFName.of('CS'), PDFName.of('DeviceCMYK'));
  }
  removeActions(doc);
  setInfo(doc, o.info);
  keepOutline(doc, o.outline);
  // ISO 15930-4: X-1a:2003 is version PDF/X-1:2003, conformance PDF/X-1a:2003.
  const version = o.version === 'x-1a' ? 'PDF/X-1:2003' : 'PDF/X-4';
  const info = ctx.lookup(ctx.trailerInfo.Info) as PDFDict;
  info.set(PDFName.of('GTS_PDFXVersion'), PDFString.of(version));
  if (o.version === 'x-1a') info.set(PDFName.of('GTS_PDFXConformance'), PDFString.of('PDF/X-1a:2003'));
  info.set(PDFName.of('Trapped'), PDFName.of('False'));
  setOutputIntent(doc, 'GTS_PDFX', o.profile);
  setMetadata(doc, xmpPacket({ info: o.info, producer: o.producer, pdfx: version, documentId: documentId(doc, o.info) }));
  // X-4 is PDF 1.6 (object streams allowed); X-1a:2003 is PDF 1.4 (none).
  return saveDeterministic(doc, o.version === 'x-1a' ? { version: '1.4', objectStreams: false } : { version: '1.6' });
}

// ——— Archive ———

export interface ArchiveOptions {
  info: StandardInfo;
  outline: readonly OutlineEntry[];
  profile: OutputProfile;
  producer: string;
}

/**
 * A PDF/A-2u file: the sRGB output intent, XMP with the PDF/A
 * identification agreeing with the info (title, author with the dynasty,
 * language, subject, the source edition, dates, producer), no action or
 * script. Fonts are embedded and every glyph has its ToUnicode as Chromium
 * prints them (repaired by assembly). Saved deterministically.
 */
export async function markArchive(doc: PDFDocument, o: ArchiveOptions): Promise<Uint8Array> {
  removeActions(doc);
  setInfo(doc, o.info);
  keepOutline(doc, o.outline);
  setOutputIntent(doc, 'GTS_PDFA1', o.profile);
  setMetadata(doc, xmpPacket({ info: o.info, producer: o.producer, pdfa: { part: 2, conformance: 'U' }, documentId: documentId(doc, o.info) }));
  return saveDeterministic(doc, { version: '1.7' });
}
