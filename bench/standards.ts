/**
 * What each PDF standard costs on top of the screen file: 禮經本義 (1,039
 * pages, black and white) and the 評點本 (a red seal: the Ghostscript
 * colour sheet), each printed once by Chromium (with the print file's bleed),
 * then each step timed on those bytes, median of three, in the same run:
 * pdf-lib load, the black-plate rewrite, the colour sheet through
 * Ghostscript, markPrint (boxes, marks, intent, XMP, save), markArchive;
 * against the screen build itself (Chromium to PDF bytes), and against the
 * option not taken: the whole book through Ghostscript's pdfwrite (which
 * lost ToUnicode entries). The screen build runs no step of these (its
 * bytes are assembled as before).
 */
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { launchBrowser } from '../build/engine/browser.js';
import { loadEdition } from '../build/engine/load.js';
import { buildPdf, pageForStandard } from '../build/engine/pdf.js';
import { ARCHIVE_PROFILE, PRINT_PROFILE, applyStandard, ghostscriptCmyk } from '../build/engine/standards.js';
import { REPO } from '../build/engine/samples.js';
import { layoutBook, pageSpecFor } from '../build/layout/index.js';
import { StandardError, colourSheet, markArchive, markPrint, readColourSheet, toBlackPlate, toCmyk } from '../build/render/pdf/standards.js';
import { PRODUCER } from '../build/render/pdf/postprocess.js';
import { readFile } from 'node:fs/promises';

const ROUNDS = 3;

async function median(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await work();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

export async function run(): Promise<Record<string, number | string>> {
  const browser = await launchBrowser();
  const figures: Record<string, number | string> = {};
  const cmykProfile = { bytes: new Uint8Array(await readFile(PRINT_PROFILE.file)), components: 4 as const, condition: PRINT_PROFILE.condition, info: PRINT_PROFILE.info };
  const rgbProfile = { bytes: new Uint8Array(await readFile(ARCHIVE_PROFILE.file)), components: 3 as const, condition: ARCHIVE_PROFILE.condition, info: ARCHIVE_PROFILE.info };
  try {
    for (const [name, work] of [['lijing', 'lijing-benyi'], ['pingdian', 'pingdian']] as const) {
      const { config, tree } = await loadEdition(join(REPO, 'manuscript', work));
      if (!config) throw new Error(`${work}: edition.yaml`);
      const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
      const edition = { ...pageForStandard({ ...config, pdf: { standard: 'print' } }), pdf: undefined };
      const t0 = performance.now();
      const { bytes, pages } = await buildPdf(layout, edition, { browser });
      const screen = performance.now() - t0;
      const info = { title: config.meta.title, author: config.meta.author, language: config.meta.language, date: config.meta.date };
      const load = await median(() => PDFDocument.load(bytes, { updateMetadata: false }));
      const plate = await median(async () => toBlackPlate(await PDFDocument.load(bytes, { updateMetadata: false })));
      const doc = await PDFDocument.load(bytes, { updateMetadata: false });
      const found = toBlackPlate(doc);
      let sheet = 0;
      if (found.rgb.length || found.images.length) {
        sheet = await median(async () => {
          const d = await PDFDocument.load(bytes, { updateMetadata: false });
          const f = toBlackPlate(d);
          toCmyk(d, await readColourSheet(d, await ghostscriptCmyk(await colourSheet(d, f.rgb, f.images), 1 + f.images.length), f.rgb, f.images));
        }) - plate;
      }
      const mark = await median(async () => markPrint(await PDFDocument.load(bytes, { updateMetadata: false }), { version: 'x-4', info, outline: [], bleed: 3, profile: cmykProfile, producer: PRODUCER })) - load;
      const archive = await median(async () => markArchive(await PDFDocument.load(bytes, { updateMetadata: false }), { info, outline: [], profile: rgbProfile, producer: PRODUCER })) - load;
      const print = await median(() => applyStandard(bytes, { standard: 'print' }, { info, outline: [], bleed: 3 }));
      // X-1a refuses a seal with transparency (the 評點本's): the refusal is the figure.
      const x1a = await median(() => applyStandard(bytes, { standard: 'print', pdfx: 'x-1a' }, { info, outline: [], bleed: 3 })).catch((error: unknown) => {
        if (error instanceof StandardError) return `refused: ${error.message.split(':')[0]}`;
        throw error;
      });
      const t1 = performance.now();
      await ghostscriptCmyk(bytes, pages);
      const wholeGs = performance.now() - t1;
      const ms = (v: number): number => Math.round(v);
      const ratio = (v: number): number => Math.round((v / screen) * 1000) / 1000;
      Object.assign(figures, {
        [`${name}_pages`]: pages,
        [`${name}_screen_build_ms`]: ms(screen),
        [`${name}_pdf_lib_load_ms`]: ms(load),
        [`${name}_black_plate_ms`]: ms(plate - load),
        [`${name}_colours_left`]: `${found.rgb.length} colours, ${found.images.length} images`,
        [`${name}_colour_sheet_gs_ms`]: ms(sheet),
        [`${name}_mark_print_ms`]: ms(mark),
        [`${name}_print_total_ms`]: ms(print),
        [`${name}_print_x1a_total_ms`]: typeof x1a === 'number' ? ms(x1a) : x1a,
        [`${name}_archive_total_ms`]: ms(archive + load),
        [`${name}_print_over_screen`]: ratio(print),
        [`${name}_archive_over_screen`]: ratio(archive + load),
        [`${name}_whole_book_gs_ms`]: ms(wholeGs),
        [`${name}_whole_gs_over_screen`]: ratio(wholeGs),
      });
    }
  } finally {
    await browser.close();
  }
  return figures;
}
