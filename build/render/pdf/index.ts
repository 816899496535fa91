/**
 * The PDF renderer: BookLayout → HTML for Chromium, and the
 * pdf-lib post-processing of what Chromium prints. Pure; build/engine/pdf.ts
 * drives the browser and writes the file.
 */
import type { BookLayout } from '../../layout/types.js';
import { runBody, type PlannedPage, type RenderOptions } from './html.js';
import type { OutlineEntry } from './postprocess.js';
import { PART_BOOKMARKS } from './book-parts.js';

export {
  renderHtml,
  renderRun,
  renderShell,
  runBody,
  pageFill,
  runCss,
  roleCharacters,
  roleSelector,
  withPunctuation,
  planPages,
  FRONT_VOLUME,
  BACK_VOLUME,
  pageGridHtml,
  pageInnerHtml,
  geometryCss,
  volumeLabel,
  partLabel,
  PAGINATE_SCRIPT,
  REPLAY_SCRIPT,
  contentSecurityPolicy,
  pageFields,
  folioOf,
  MISSING_GLYPH,
  type RenderOptions,
  type RenderedHtml,
  type RunParts,
  type PageFill,
  type PlannedPage,
  type FontSource,
} from './html.js';
export { pdfMeta, type PdfMeta } from './meta.js';
export { computeGeometry, parsePageSize, lengthToMm, cellBox, noteBox, type PageGeometry, type Side } from './geometry.js';
export { parseTemplateDefinition, fillFields, escapeHtml, type Template, type TemplateDefinition } from './template.js';
export {
  postProcessPdf,
  mergePdfs,
  repairToUnicode,
  repairToUnicodeCMap,
  setInfo,
  setOutline,
  saveDeterministic,
  type PdfInfo,
  type OutlineEntry,
  type PostProcessOptions,
} from './postprocess.js';
export { chineseNumeral } from './numerals.js';
export { assemblePdf, type AssembleOptions } from './assemble.js';
export type { RunPdf } from './concat.js';
export { correctionMarksHtml, CORRECTION_CIRCLE, type CorrectionMarkStyle } from './marks.js';
export { placeSeals, sealsHtml, type PlacedSeal } from './seals.js';
export { bookCounts, bookPartFields, chineseDate, frontParts, PART_BOOKMARKS, type BookInfo, type BookPart } from './book-parts.js';
export { annotationsHtml, raisedHtml, meipiMetrics, cepiMetrics } from './margins.js';
export { fontSourceFor, fontSourcesWithOverrides } from './fonts.js';
export { markInk, type Ink, type InkTable } from './ink.js';
export { slotsOf, type Slot } from './cells.js';
export { repairRadical, isRadical, ideographsForRadical } from './radicals.js';

/** The outline: each page's bookmarks, at its PDF page index. */
export function outlineEntries(planned: readonly PlannedPage[]): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  planned.forEach((p, pageIndex) => {
    const part = p.part ? PART_BOOKMARKS[p.part] : undefined;
    if (part) out.push({ level: 1, title: part, pageIndex });
    for (const b of p.page?.bookmarks ?? []) out.push({ ...b, pageIndex });
  });
  return out;
}

/** Every character the pages print (grid, decoration, margin boxes), for font subsets and the ToUnicode repair. */
export function printedChars(planned: readonly PlannedPage[], options: RenderOptions): Set<string> {
  return runBody(options, planned).chars;
}

/** Splits a layout into books of a few volumes each, for parallel browser runs. */
export function splitVolumes(layout: BookLayout, parts: number): BookLayout[] {
  const n = Math.max(1, Math.min(parts, layout.volumes.length));
  const total = layout.volumes.reduce((s, v) => s + v.pages.length, 0);
  const out: BookLayout[] = [];
  let current: BookLayout = { spec: layout.spec, volumes: [] };
  let pages = 0;
  for (const volume of layout.volumes) {
    current.volumes.push(volume);
    pages += volume.pages.length;
    if (out.length < n - 1 && pages >= (total * (out.length + 1)) / n) {
      out.push(current);
      current = { spec: layout.spec, volumes: [] };
    }
  }
  if (current.volumes.length) out.push(current);
  return out;
}
