/**
 * The book's PDF put together from its runs' PDFs by copying their objects,
 * renumbered, after a new catalog, page tree, outline and document info —
 * no parse of content streams, no re-compression: a rebuild that reprints
 * one volume costs the concatenation of bytes, not a load and save of the
 * whole book in pdf-lib (which took most of a one-volume rebuild).
 *
 * It reads PDFs as Chromium (Skia) prints them — no object streams, a
 * classic xref table, pages that carry their own resources and media box —
 * and checks that they are: anything else is refused, and the caller falls
 * back to pdf-lib. Each run's ToUnicode maps are repaired on the way (radicals
 * read as the ideographs the run prints). Deterministic: the /ID is a hash of
 * the document; what Chromium dates (its info) is left out.
 */
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { pdfTextString } from '../escape.js';
import { repairToUnicodeCMap, type OutlineEntry, type PdfInfo } from './postprocess.js';

interface PdfObject {
  number: number;
  /** The object's body between `N 0 obj` and `endobj`: dictionary text, then stream bytes when it has a stream. */
  dict: string;
  stream?: Buffer;
}

interface ParsedRun {
  objects: PdfObject[];
  pages: number[];
  catalog: number;
  pagesRoot: number;
  /** The run's page tree nodes (left out: its pages hang from the book's tree). */
  nodes: number[];
  info?: number;
}

export class NotConcatenable extends Error {}

const STREAM = Buffer.from('stream\n', 'latin1');
const ENDSTREAM = Buffer.from('\nendstream', 'latin1');
const ENDOBJ = Buffer.from('\nendobj', 'latin1');

/** The run's objects, from its xref table. */
export function parseRun(bytes: Uint8Array): ParsedRun {
  const run = parseObjects(bytes);
  return run;
}

function parseObjects(bytes: Uint8Array): ParsedRun {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tail = buf.subarray(Math.max(0, buf.length - 1024)).toString('latin1');
  const start = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!start) throw new NotConcatenable('no startxref');
  const xrefAt = Number(start[1]);
  const xref = buf.subarray(xrefAt, buf.length).toString('latin1');
  const head = /^xref\n0 (\d+)\n/.exec(xref);
  if (!head) throw new NotConcatenable('not a classic xref table (object streams?)');
  const count = Number(head[1]);
  const offsets: number[] = [];
  const rows = xref.slice(head[0].length).split('\n');
  for (let n = 0; n < count; n++) {
    const row = /^(\d{10}) (\d{5}) ([nf])/.exec(rows[n] ?? '');
    if (!row) throw new NotConcatenable('bad xref row');
    if (row[3] === 'n') offsets[n] = Number(row[1]);
  }
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(xref);
  if (!trailer) throw new NotConcatenable('no trailer');
  const root = /\/Root (\d+) 0 R/.exec(trailer[1]);
  const info = /\/Info (\d+) 0 R/.exec(trailer[1]);
  if (!root) throw new NotConcatenable('no /Root');
  const objects: PdfObject[] = [];
  offsets.forEach((offset, number) => {
    if (offset === undefined) return;
    const header = `${number} 0 obj\n`;
    if (buf.toString('latin1', offset, offset + header.length) !== header) throw new NotConcatenable(`object ${number} not at its offset`);
    const bodyAt = offset + header.length;
    // A stream object's dictionary is followed by `stream` (after `>>` and white space); any other object ends at `endobj`.
    const end = buf.indexOf(ENDOBJ, bodyAt);
    const streamAt = buf.indexOf(STREAM, bodyAt);
    if (streamAt >= 0 && (end < 0 || streamAt < end) && /^\s$/.test(String.fromCharCode(buf[streamAt - 1]))) {
      const dict = buf.toString('latin1', bodyAt, streamAt).trimEnd();
      if (!dict.endsWith('>>')) throw new NotConcatenable(`object ${number}: no dictionary before its stream`);
      const length = /\/Length (\d+)(?! \d+ R)/.exec(dict);
      if (!length) throw new NotConcatenable(`object ${number}: stream without a direct /Length`);
      const from = streamAt + STREAM.length;
      const data = buf.subarray(from, from + Number(length[1]));
      if (!buf.subarray(from + data.length, from + data.length + ENDSTREAM.length).equals(ENDSTREAM)) {
        throw new NotConcatenable(`object ${number}: stream length does not match`);
      }
      objects.push({ number, dict, stream: data });
    } else {
      if (end < 0) throw new NotConcatenable(`object ${number} has no end`);
      objects.push({ number, dict: buf.toString('latin1', bodyAt, end) });
    }
  });
  const byNumber = new Map(objects.map((o) => [o.number, o]));
  const catalog = Number(root[1]);
  const pagesRef = /\/Pages (\d+) 0 R/.exec(byNumber.get(catalog)?.dict ?? '');
  if (!pagesRef) throw new NotConcatenable('catalog without /Pages');
  const pagesRoot = Number(pagesRef[1]);
  // The page tree, in order: Chromium makes it more than one level deep for a long run.
  const pages: number[] = [];
  const nodes: number[] = [];
  const walk = (n: number): void => {
    const dict = byNumber.get(n)?.dict ?? '';
    if (/\/Type \/Pages\b/.test(dict)) {
      // Attributes a page would inherit from here are not what Chromium writes.
      if (/\/(Resources|MediaBox|CropBox|Rotate)\b/.test(dict)) throw new NotConcatenable(`page tree node ${n} has inheritable attributes`);
      const kids = /\/Kids \[([^\]]*)\]/.exec(dict);
      if (!kids) throw new NotConcatenable(`page tree node ${n} without /Kids`);
      nodes.push(n);
      for (const m of kids[1].matchAll(/(\d+) 0 R/g)) walk(Number(m[1]));
    } else if (/\/Type \/Page\b/.test(dict) && /\/MediaBox/.test(dict) && /\/Resources/.test(dict)) {
      pages.push(n);
    } else {
      throw new NotConcatenable(`page ${n} is not a page with its own resources`);
    }
  };
  walk(pagesRoot);
  return { objects, pages, catalog, pagesRoot, nodes, ...(info ? { info: Number(info[1]) } : {}) };
}

/**
 * Radicals in the run's ToUnicode maps read as the ideographs it prints
 * (postprocess.ts repairToUnicodeCMap): each map inflated, repaired, and
 * deflated again where it changed.
 */
function repairRun(run: ParsedRun, textChars: ReadonlySet<string>): void {
  const byNumber = new Map(run.objects.map((o) => [o.number, o]));
  for (const o of run.objects) {
    if (!/\/Type \/Font\b/.test(o.dict)) continue;
    const ref = /\/ToUnicode (\d+) 0 R/.exec(o.dict);
    const map = ref ? byNumber.get(Number(ref[1])) : undefined;
    if (!map?.stream) continue;
    const filtered = /\/Filter \/FlateDecode/.test(map.dict);
    if (/\/Filter/.test(map.dict) && !filtered) throw new NotConcatenable(`ToUnicode ${map.number}: an unknown filter`);
    const text = (filtered ? inflateSync(map.stream) : map.stream).toString('latin1');
    const fixed = repairToUnicodeCMap(text, textChars);
    if (fixed === null) continue;
    const stream = deflateSync(Buffer.from(fixed, 'latin1'));
    map.stream = stream;
    map.dict = `<<\n/Filter /FlateDecode\n/Length ${stream.length}\n>>`;
  }
}

function pdfDate(iso: string | undefined): string {
  const d = new Date(`${iso ?? '2000-01-01'}T00:00:00Z`);
  const t = Number.isNaN(d.getTime()) ? new Date('2000-01-01T00:00:00Z') : d;
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `(D:${p(t.getUTCFullYear(), 4)}${p(t.getUTCMonth() + 1)}${p(t.getUTCDate())}${p(t.getUTCHours())}${p(t.getUTCMinutes())}${p(t.getUTCSeconds())}Z)`;
}

const num = (v: number): string => String(Math.round(v * 1000) / 1000);

export interface ConcatOptions {
  info: PdfInfo;
  outline: readonly OutlineEntry[];
  producer: string;
  /** Bleed in points: each page's TrimBox inside its MediaBox, BleedBox = MediaBox. */
  bleed?: number;
}

const ID_SENTINEL = 'D1A0BA4ED1A0BA4ED1A0BA4ED1A0BA4E';

export interface RunPdf {
  /** The run's PDF as Chromium printed it. */
  bytes: Uint8Array;
  /** The characters it prints, to repair its ToUnicode maps. */
  chars: ReadonlySet<string>;
}

/**
 * Runs read and repaired, by their bytes and characters (a rebuild passes
 * the same ones for every run it did not print again): read once, used as
 * they are (concatRuns writes what it renumbers anew and changes nothing here).
 */
const preparedRuns = new WeakMap<Uint8Array, { chars: ReadonlySet<string>; run: ParsedRun }>();

function preparedRun(run: RunPdf): ParsedRun {
  const known = preparedRuns.get(run.bytes);
  if (known && known.chars === run.chars) return known.run;
  const parsed = parseRun(run.bytes);
  repairRun(parsed, run.chars);
  preparedRuns.set(run.bytes, { chars: run.chars, run: parsed });
  return parsed;
}

export function concatRuns(runs: readonly RunPdf[], options: ConcatOptions): Uint8Array {
  const parsed = runs.map(preparedRun);
  // 1 catalog, 2 page tree, 3 info, then the outline, then the runs' objects.
  const CATALOG = 1;
  const PAGES = 2;
  const INFO = 3;
  let next = 4;
  const pageRefs: number[] = [];
  // Each run's objects numbered on densely, its catalog, page tree and info left out.
  const numbering = parsed.map((run) => {
    const map = new Map<number, number>();
    const dropped = new Set([run.catalog, run.info, ...run.nodes]);
    for (const o of run.objects) if (!dropped.has(o.number)) map.set(o.number, next++);
    for (const p of run.pages) pageRefs.push(map.get(p)!);
    return map;
  });
  const outlineBase = next++;
  const body: Array<string | Buffer> = [];
  const offsets = new Map<number, number>();
  let length = 0;
  const emit = (part: string | Buffer): void => {
    body.push(part);
    length += typeof part === 'string' ? Buffer.byteLength(part, 'latin1') : part.length;
  };
  const object = (number: number, dict: string, stream?: Buffer): void => {
    offsets.set(number, length);
    emit(`${number} 0 obj\n${dict}`);
    if (stream) {
      emit('\nstream\n');
      emit(stream);
      emit('\nendstream');
    }
    emit('\nendobj\n');
  };

  emit('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n');

  // The outline: volumes, then their sections (levels nest as setOutline nests them).
  interface Node {
    entry: OutlineEntry;
    ref: number;
    children: Node[];
  }
  const roots: Node[] = [];
  const stack: Node[] = [];
  let outlineNext = next;
  for (const entry of options.outline) {
    const node: Node = { entry, ref: outlineNext++, children: [] };
    while (stack.length && stack[stack.length - 1].entry.level >= entry.level) stack.pop();
    (stack.length ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  }
  const outlineObjects: Array<[number, string]> = [];
  const writeLevel = (nodes: Node[], parent: number): number => {
    let count = 0;
    nodes.forEach((node, i) => {
      const page = pageRefs[Math.min(Math.max(node.entry.pageIndex, 0), pageRefs.length - 1)];
      let dict = `<<\n/Title ${pdfTextString(node.entry.title)}\n/Parent ${parent} 0 R\n`;
      if (i > 0) dict += `/Prev ${nodes[i - 1].ref} 0 R\n`;
      if (i < nodes.length - 1) dict += `/Next ${nodes[i + 1].ref} 0 R\n`;
      dict += `/Dest [ ${page} 0 R /XYZ null null null ]\n`;
      count++;
      if (node.children.length) {
        const sub = writeLevel(node.children, node.ref);
        dict += `/First ${node.children[0].ref} 0 R\n/Last ${node.children[node.children.length - 1].ref} 0 R\n`;
        // Volumes open (positive count), deeper levels closed.
        dict += `/Count ${node.entry.level <= 1 ? sub : -sub}\n`;
        if (node.entry.level <= 1) count += sub;
      }
      outlineObjects.push([node.ref, `${dict}>>`]);
    });
    return count;
  };
  const hasOutline = roots.length > 0;
  const top = hasOutline ? writeLevel(roots, outlineBase) : 0;

  const info = options.info;
  let catalog = `<<\n/Type /Catalog\n/Pages ${PAGES} 0 R\n/ViewerPreferences <<\n/DisplayDocTitle true\n/Direction /R2L\n>>\n/Lang ${pdfTextString(info.language)}\n/PageLayout /TwoPageRight\n`;
  if (hasOutline) catalog += `/Outlines ${outlineBase} 0 R\n/PageMode /UseOutlines\n`;
  object(CATALOG, `${catalog}>>`);
  object(PAGES, `<<\n/Type /Pages\n/Kids [ ${pageRefs.map((r) => `${r} 0 R`).join(' ')} ]\n/Count ${pageRefs.length}\n>>`);
  let infoDict = `<<\n/Title ${pdfTextString(info.title)}\n/Author ${pdfTextString(info.author)}\n`;
  if (info.subject) infoDict += `/Subject ${pdfTextString(info.subject)}\n`;
  if (info.keywords?.length) infoDict += `/Keywords ${pdfTextString(info.keywords.join(' '))}\n`;
  infoDict += `/Creator ${pdfTextString('diaoban')}\n/Producer ${pdfTextString(options.producer)}\n/CreationDate ${pdfDate(info.date)}\n/ModDate ${pdfDate(info.date)}\n>>`;
  object(INFO, infoDict);
  if (hasOutline) {
    object(outlineBase, `<<\n/Type /Outlines\n/First ${roots[0].ref} 0 R\n/Last ${roots[roots.length - 1].ref} 0 R\n/Count ${top}\n>>`);
    for (const [ref, dict] of outlineObjects.sort((a, b) => a[0] - b[0])) object(ref, dict);
  }

  parsed.forEach((run, r) => {
    const map = numbering[r];
    const pages = new Set(run.pages);
    const nodes = new Set(run.nodes);
    for (const o of run.objects) {
      const number = map.get(o.number);
      if (number === undefined) continue;
      let dict = o.dict.replace(/\b(\d+) 0 R\b/g, (ref, n: string) => {
        // A page's /Parent: the book's page tree.
        if (nodes.has(Number(n)) && pages.has(o.number)) return `${PAGES} 0 R`;
        const to = map.get(Number(n));
        if (to === undefined) throw new NotConcatenable(`object ${o.number} refers to ${ref}, which is not kept`);
        return `${to} 0 R`;
      });
      if (pages.has(o.number) && options.bleed && options.bleed > 0) {
        const box = /\/MediaBox \[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/.exec(dict);
        if (!box) throw new NotConcatenable('page without a readable /MediaBox');
        const [x0, y0, x1, y1] = box.slice(1).map(Number);
        const b = options.bleed;
        dict = dict.replace(/>>\s*$/, `/TrimBox [ ${num(x0 + b)} ${num(y0 + b)} ${num(x1 - b)} ${num(y1 - b)} ]\n/BleedBox [ ${num(x0)} ${num(y0)} ${num(x1)} ${num(y1)} ]\n>>`);
      }
      object(number, dict, o.stream);
    }
  });

  const size = Math.max(outlineNext, ...offsets.keys()) + 1;
  const xrefAt = length;
  let xref = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let n = 1; n < size; n++) {
    const at = offsets.get(n);
    xref += at === undefined ? '0000000000 00000 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`;
  }
  emit(xref);
  emit(`trailer\n<<\n/Size ${size}\n/Root ${CATALOG} 0 R\n/Info ${INFO} 0 R\n/ID [ <${ID_SENTINEL}> <${ID_SENTINEL}> ]\n>>\nstartxref\n${xrefAt}\n%%EOF\n`);
  const out = Buffer.concat(body.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
  // The /ID is a hash of the document itself (same document, same bytes).
  const digest = createHash('sha256').update(out).digest('hex').slice(0, 32).toUpperCase();
  const at = out.lastIndexOf(ID_SENTINEL);
  out.write(digest, at, 'latin1');
  out.write(digest, out.lastIndexOf(ID_SENTINEL), 'latin1');
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
