/**
 * pdf-lib post-processing of Chromium's PDF: metadata, outline, reading
 * direction, ToUnicode repair, fixed dates and /ID (same input → same bytes),
 * and merging the PDFs of several browser runs.
 */
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  ReadingDirection,
  decodePDFRawStream,
} from 'pdf-lib';
import { pdfTextHex } from '../escape.js';
import type { Bookmark } from '../../layout/types.js';
import { repairRadical, isRadical } from './radicals.js';

export interface PdfInfo {
  title: string;
  author: string;
  subject?: string;
  language: string;
  keywords?: string[];
  /** ISO date for CreationDate and ModDate; 2000-01-01 when absent. */
  date?: string;
}

/** A bookmark on a PDF page (0-based index). */
export interface OutlineEntry extends Bookmark {
  pageIndex: number;
}

export interface PostProcessOptions {
  info: PdfInfo;
  outline: OutlineEntry[];
  /** Every character the pages print, to tell which ideograph a radical in a ToUnicode map stands for. */
  textChars: ReadonlySet<string>;
}

export const PRODUCER = 'diaoban (Chromium, pdf-lib)';
const ID_SENTINEL = 'D1A0BA4ED1A0BA4ED1A0BA4ED1A0BA4E';

/** Merges PDFs (the volumes of one book, printed in separate runs) in order. */
export async function mergePdfs(parts: readonly Uint8Array[]): Promise<PDFDocument> {
  const out = await PDFDocument.create({ updateMetadata: false });
  for (const bytes of parts) {
    const src = await PDFDocument.load(bytes, { updateMetadata: false });
    const pages = await out.copyPages(src, src.getPageIndices());
    for (const page of pages) out.addPage(page);
  }
  return out;
}

function hex(cp: string): string {
  let out = '';
  for (let i = 0; i < cp.length; i++) out += cp.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return out;
}

function decodeUtf16Hex(h: string): string {
  let s = '';
  for (let i = 0; i + 4 <= h.length; i += 4) s += String.fromCharCode(parseInt(h.slice(i, i + 4), 16));
  return s;
}

/**
 * Rewrites a ToUnicode CMap so that radicals read as the ideographs they
 * stand for. bfrange entries that reach a radical are expanded to bfchar.
 * Returns null when nothing changed.
 */
export function repairToUnicodeCMap(cmap: string, textChars: ReadonlySet<string>): string | null {
  let changed = false;
  const fix = (dstHex: string): string => {
    const text = decodeUtf16Hex(dstHex);
    const cp = text.codePointAt(0);
    if (cp === undefined || text.length !== 1 || !isRadical(cp)) return dstHex;
    const repaired = repairRadical(cp, textChars);
    if (repaired === text) return dstHex;
    changed = true;
    return hex(repaired);
  };
  let out = cmap.replace(/beginbfchar([\s\S]*?)endbfchar/g, (_, body: string) => {
    const fixed = body.replace(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g, (_m, src: string, dst: string) => `<${src}> <${fix(dst)}>`);
    return `beginbfchar${fixed}endbfchar`;
  });
  const extraChars: string[] = [];
  out = out.replace(/(\d+)\s+beginbfrange([\s\S]*?)endbfrange/g, (whole, _n: string, body: string) => {
    const kept: string[] = [];
    for (const m of body.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])/g)) {
      const [entry, lo, hi, dst] = m;
      const from = parseInt(lo, 16);
      const to = parseInt(hi, 16);
      const width = lo.length;
      const dsts: string[] = [];
      if (dst.startsWith('[')) {
        for (const d of dst.matchAll(/<([0-9A-Fa-f]+)>/g)) dsts.push(d[1]);
      } else {
        const base = dst.slice(1, -1);
        const start = parseInt(base.slice(-4), 16);
        for (let k = 0; k <= to - from; k++) dsts.push(base.slice(0, -4) + (start + k).toString(16).toUpperCase().padStart(4, '0'));
      }
      const fixed = dsts.map(fix);
      if (fixed.every((d, k) => d === dsts[k])) {
        kept.push(entry);
      } else {
        fixed.forEach((d, k) => extraChars.push(`<${(from + k).toString(16).toUpperCase().padStart(width, '0')}> <${d}>`));
      }
    }
    if (kept.length === 0) return '';
    return `${kept.length} beginbfrange\n${kept.join('\n')}\nendbfrange`;
  });
  if (extraChars.length) {
    // At most 100 entries per block (PDF CMap limit).
    const blocks: string[] = [];
    for (let i = 0; i < extraChars.length; i += 100) {
      const slice = extraChars.slice(i, i + 100);
      blocks.push(`${slice.length} beginbfchar\n${slice.join('\n')}\nendbfchar`);
    }
    out = out.replace(/endcmap/, `${blocks.join('\n')}\nendcmap`);
  }
  return changed ? out : null;
}

/** Repairs every font's ToUnicode map in the document; returns how many maps changed. */
export function repairToUnicode(doc: PDFDocument, textChars: ReadonlySet<string>): number {
  let count = 0;
  const seen = new Set<string>();
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict)) continue;
    if (obj.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    const ref = obj.get(PDFName.of('ToUnicode'));
    if (!(ref instanceof PDFRef) || seen.has(ref.toString())) continue;
    seen.add(ref.toString());
    const stream = doc.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const text = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    const fixed = repairToUnicodeCMap(text, textChars);
    if (fixed === null) continue;
    doc.context.assign(ref, doc.context.flateStream(Buffer.from(fixed, 'latin1')));
    count++;
  }
  return count;
}

function fixedDate(iso: string | undefined): Date {
  const d = new Date(`${iso ?? '2000-01-01'}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? new Date('2000-01-01T00:00:00Z') : d;
}

/** The document's info dictionary, made when it has none (pdf-lib keeps its own accessor private). */
function infoDict(doc: PDFDocument): PDFDict {
  const existing = doc.context.lookup(doc.context.trailerInfo.Info);
  if (existing instanceof PDFDict) return existing;
  const made = doc.context.obj({});
  doc.context.trailerInfo.Info = doc.context.register(made);
  return made;
}

/** A text string through the one PDF encoder (escape.ts), not pdf-lib's PDFString, which writes its value unescaped. */
const text = (value: string): PDFHexString => PDFHexString.of(pdfTextHex(value));

export function setInfo(doc: PDFDocument, info: PdfInfo): void {
  const dict = infoDict(doc);
  dict.set(PDFName.of('Title'), text(info.title));
  dict.set(PDFName.of('Author'), text(info.author));
  if (info.subject) dict.set(PDFName.of('Subject'), text(info.subject));
  if (info.keywords?.length) dict.set(PDFName.of('Keywords'), text(info.keywords.join(' ')));
  dict.set(PDFName.of('Creator'), text('diaoban'));
  dict.set(PDFName.of('Producer'), text(PRODUCER));
  doc.catalog.set(PDFName.of('Lang'), text(info.language));
  // Dates are made of digits (PDFString.fromDate): nothing of the edition's but the numbers.
  const date = fixedDate(info.date);
  doc.setCreationDate(date);
  doc.setModificationDate(date);
  // Spreads right to left, odd pages alone first on the left (a thread-bound book's opening).
  const prefs = doc.catalog.getOrCreateViewerPreferences();
  prefs.setDisplayDocTitle(true);
  prefs.setReadingDirection(ReadingDirection.R2L);
  doc.catalog.set(PDFName.of('PageLayout'), PDFName.of('TwoPageRight'));
}

interface OutlineNode {
  entry: OutlineEntry;
  children: OutlineNode[];
}

function nestOutline(entries: readonly OutlineEntry[]): OutlineNode[] {
  const roots: OutlineNode[] = [];
  const stack: OutlineNode[] = [];
  for (const entry of entries) {
    const node = { entry, children: [] };
    while (stack.length && stack[stack.length - 1].entry.level >= entry.level) stack.pop();
    (stack.length ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

/** Writes the document outline (bookmarks): volumes, then their sections. */
export function setOutline(doc: PDFDocument, entries: readonly OutlineEntry[]): void {
  if (entries.length === 0) return;
  const ctx = doc.context;
  const pages = doc.getPages();
  const rootRef = ctx.nextRef();
  const write = (nodes: OutlineNode[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = nodes.map(() => ctx.nextRef());
    let count = 0;
    nodes.forEach((node, i) => {
      const page = pages[Math.min(Math.max(node.entry.pageIndex, 0), pages.length - 1)];
      const dict = ctx.obj({}) as PDFDict;
      dict.set(PDFName.of('Title'), text(node.entry.title));
      dict.set(PDFName.of('Parent'), parent);
      if (i > 0) dict.set(PDFName.of('Prev'), refs[i - 1]);
      if (i < nodes.length - 1) dict.set(PDFName.of('Next'), refs[i + 1]);
      const dest = PDFArray.withContext(ctx);
      dest.push(page.ref);
      dest.push(PDFName.of('XYZ'));
      dest.push(PDFNull);
      dest.push(PDFNull);
      dest.push(PDFNull);
      dict.set(PDFName.of('Dest'), dest);
      count++;
      if (node.children.length) {
        const sub = write(node.children, refs[i]);
        dict.set(PDFName.of('First'), sub.first);
        dict.set(PDFName.of('Last'), sub.last);
        // Volumes open (positive count), deeper levels closed.
        dict.set(PDFName.of('Count'), PDFNumber.of(node.entry.level <= 1 ? sub.count : -sub.count));
        if (node.entry.level <= 1) count += sub.count;
      }
      ctx.assign(refs[i], dict);
    });
    return { first: refs[0], last: refs[refs.length - 1], count };
  };
  const top = write(nestOutline(entries), rootRef);
  const root = ctx.obj({}) as PDFDict;
  root.set(PDFName.of('Type'), PDFName.of('Outlines'));
  root.set(PDFName.of('First'), top.first);
  root.set(PDFName.of('Last'), top.last);
  root.set(PDFName.of('Count'), PDFNumber.of(top.count));
  ctx.assign(rootRef, root);
  doc.catalog.set(PDFName.of('Outlines'), rootRef);
  doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}

/**
 * Saves with a /ID that is a hash of the document itself (written as a
 * sentinel, hashed, then patched in), so equal documents give equal bytes.
 */
export async function saveDeterministic(doc: PDFDocument, options: { version?: string; objectStreams?: boolean } = {}): Promise<Uint8Array> {
  const sentinel = PDFHexString.of(ID_SENTINEL);
  doc.context.trailerInfo.ID = doc.context.obj([sentinel, sentinel]);
  const bytes = await doc.save({ useObjectStreams: options.objectStreams ?? true, updateFieldAppearances: false });
  // The header's version, where a standard names one (PDF/X-4: 1.6, PDF/X-1a: 1.4): pdf-lib always writes 1.7.
  if (options.version) {
    if (!/^1\.[0-7]$/.test(options.version) || Buffer.from(bytes.subarray(0, 8)).toString('latin1') !== '%PDF-1.7') throw new Error(`pdf: cannot write the header of PDF ${options.version}`);
    bytes.set(Buffer.from(`%PDF-${options.version}`, 'latin1'), 0);
  }
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32).toUpperCase();
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const needle = Buffer.from(ID_SENTINEL, 'latin1');
  let at = buf.indexOf(needle);
  let patched = 0;
  while (at >= 0) {
    buf.write(digest, at, 'latin1');
    patched++;
    at = buf.indexOf(needle, at + needle.length);
  }
  if (patched === 0) throw new Error('pdf: could not write the document /ID');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * Everything the PDF gets after Chromium: metadata, reading direction,
 * outline, ToUnicode repair, fixed dates and /ID. Takes Chromium's PDF
 * bytes, or several (one per browser run) to merge in order.
 */
export async function postProcessPdf(input: Uint8Array | readonly Uint8Array[], options: PostProcessOptions): Promise<Uint8Array> {
  const doc =
    input instanceof Uint8Array ? await PDFDocument.load(input, { updateMetadata: false }) : await mergePdfs(input);
  repairToUnicode(doc, options.textChars);
  setInfo(doc, options.info);
  setOutline(doc, options.outline);
  return saveDeterministic(doc);
}
