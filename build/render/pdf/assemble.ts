/**
 * The PDF of a book from the PDFs of its browser runs (one a volume, or a
 * part of a long one), as Chromium printed them (kept and reused while other
 * volumes change): each run's ToUnicode maps repaired with the characters it
 * prints, then merging, metadata, outline, trim and bleed boxes and a
 * deterministic save.
 */
import { PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import { concatRuns, NotConcatenable, type RunPdf } from './concat.js';
import { PRODUCER, repairToUnicode, saveDeterministic, setInfo, setOutline, type OutlineEntry, type PdfInfo } from './postprocess.js';

const PT_PER_MM = 72 / 25.4;

export interface AssembleOptions {
  info: PdfInfo;
  outline: OutlineEntry[];
  /** Bleed in mm around the trimmed page: sets each page's TrimBox inside its MediaBox (and BleedBox = MediaBox). */
  bleed?: number;
}

/**
 * The book's PDF: runs merged in order, metadata, reading direction,
 * outline, boxes, fixed dates and /ID — by concatenating the runs' objects
 * (concat.ts), or with pdf-lib for a run it cannot read that way.
 */
export async function assemblePdf(runs: readonly RunPdf[], options: AssembleOptions): Promise<Uint8Array> {
  try {
    return concatRuns(runs, { info: options.info, outline: options.outline, producer: PRODUCER, bleed: options.bleed ? options.bleed * PT_PER_MM : undefined });
  } catch (error) {
    if (!(error instanceof NotConcatenable)) throw error;
    if (process.env.DIAOBAN_TIMING) process.stderr.write(`assemble: pdf-lib, since ${error.message}\n`);
  }
  return mergeWithPdfLib(runs, options);
}

async function mergeWithPdfLib(runs: readonly RunPdf[], options: AssembleOptions): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  for (const run of runs) {
    const src = await PDFDocument.load(run.bytes, { updateMetadata: false });
    repairToUnicode(src, run.chars);
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  if (options.bleed && options.bleed > 0) {
    const b = options.bleed * PT_PER_MM;
    for (const page of out.getPages()) {
      const { width, height } = page.getSize();
      const box = (x0: number, y0: number, x1: number, y1: number) => out.context.obj([x0, y0, x1, y1].map((v) => PDFNumber.of(Math.round(v * 1000) / 1000)));
      page.node.set(PDFName.of('TrimBox'), box(b, b, width - b, height - b));
      page.node.set(PDFName.of('BleedBox'), box(0, 0, width, height));
    }
  }
  setInfo(out, options.info);
  setOutline(out, options.outline);
  return saveDeterministic(out);
}
