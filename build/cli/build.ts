/**
 * `diaoban build` for one edition: load, then the PDF (layout → Paged.js →
 * pdf-lib) and the EPUB, each written atomically to the output folder.
 * A failure of one output is reported and does not stop the other.
 */
import path from 'node:path';
import type { VFileMessage } from 'vfile-message';
import { layoutBook, pageSpecFor } from '../layout/index.js';
import type { BookLayout } from '../layout/types.js';
import { dateFromSourceDateEpoch, popupLayersFromOption, printPageList, renderEpub, sourcePageList, type PageList } from '../render/epub/index.js';
import type { EditionConfig } from '../tree/edition.js';
import type { Root } from '../tree/types.js';
import { fontStackFor, loadSystemFonts } from '../fonts/index.js';
import { loadEdition } from './load.js';
import { countBySeverity, reportLayout } from './report.js';
import { PdfError, loadTemplate, writePdf } from './pdf.js';
import { volumeProgress } from './progress.js';
import { BrowserError, type OfflineBrowser } from './browser.js';
import { writeFileAtomic } from './write.js';

export interface BuildTargets {
  pdf: boolean;
  epub: boolean;
}

export interface BuildOptions {
  out: string;
  targets: BuildTargets;
  /** EPUB notes: `inline`, `popup` (the edition's popup layers), `popup=shu,fuzhu`; the edition decides when absent. */
  notes?: string;
  /**
   * EPUB page list: `print` (default) the pages of the PDF this build makes;
   * `source` the source edition's pages where the sources record them
   * (Kanripo <pb:>), else the PDF's.
   */
  pages?: 'print' | 'source';
  progress: boolean;
  /** One browser for all editions of a build (saves a start per edition). */
  browser?: OfflineBrowser;
  /** Folders outside the edition its files may come from (--allow-read). */
  allowRead?: readonly string[];
}

export interface BuildResult {
  /** Every output written. */
  ok: boolean;
  /** An output failed for a reason that is a bug of ours, not the user's input or machine. */
  internal: boolean;
  messages: VFileMessage[];
  /** What was written, for people. */
  lines: string[];
}

/** The PDF's pages as the EPUB's page list: labels as the template prints them (版心 leaf and side, or folio). */
async function printPages(tree: Root, layout: BookLayout, config: EditionConfig): Promise<PageList> {
  const template = await loadTemplate(config.meta.template);
  const style = template.definition.banxin ? 'leaf' : 'folio';
  const kind = template.definition.banxin ? '四庫全書版式' : '現代版式';
  return printPageList(tree, layout, { style, source: `diaoban PDF 印本（${config.meta.id}.pdf，${kind}）` });
}

/** An EPUB that cannot be made from what the edition asks for. */
class EpubError extends Error {}

/**
 * Whether a failure is a bug of ours to report: what the engine throws
 * (TypeError, RangeError: a stack overflow …) or something not an Error. The
 * errors we raise on purpose for the input or the machine (PdfError,
 * BrowserError, a file system error, a plain Error with its message) are not.
 */
export function isInternal(error: unknown): boolean {
  if (error instanceof PdfError || error instanceof BrowserError || error instanceof EpubError) return false;
  return !(error instanceof Error) || error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError || error instanceof SyntaxError;
}

export async function buildEdition(dir: string, options: BuildOptions): Promise<BuildResult> {
  const loaded = await loadEdition(dir, { allowRead: options.allowRead });
  const lines: string[] = [];
  const config = loaded.config;
  if (!config) {
    return { ok: false, internal: false, messages: loaded.messages, lines: [`${dir}: not built: its edition.yaml cannot be read`] };
  }
  const id = config.meta.id;
  let ok = true;
  // One layout for both: the PDF is printed from it and the EPUB's page list read from it.
  let layout: BookLayout | undefined;
  const laidOut = (): BookLayout => {
    if (layout) return layout;
    layout = layoutBook(loaded.tree, pageSpecFor(config.meta.template, config.layout));
    // What the layout says (layout: source: lines wrapped) joins the manuscript's messages.
    const before = loaded.files.reduce((n, f) => n + f.messages.length, 0);
    reportLayout(layout, loaded.files);
    if (loaded.files.reduce((n, f) => n + f.messages.length, 0) > before) loaded.messages = loaded.files.flatMap((f) => f.messages);
    return layout;
  };
  let internal = false;
  const describe = (error: unknown): string => {
    const message = error instanceof Error ? error.message : String(error);
    if (!isInternal(error)) return message;
    internal = true;
    return `internal error: ${message}` + (process.env.DIAOBAN_DEBUG && error instanceof Error ? `\n${error.stack ?? ''}` : '');
  };
  const failed = (out: string, error: unknown): void => {
    ok = false;
    lines.push(`${out}: not written: ${describe(error)}`);
  };
  if (options.targets.pdf) {
    const out = path.join(options.out, `${id}.pdf`);
    try {
      const layout = laidOut();
      const result = await writePdf(layout, config, out, { browser: options.browser, onVolume: options.progress ? volumeProgress(`${id}.pdf `) : undefined });
      lines.push(`${out}: ${result.pages} pages`);
    } catch (error) {
      failed(out, error);
    }
  }
  if (options.targets.epub) {
    const out = path.join(options.out, `${id}.epub`);
    try {
      let pageList: PageList | undefined;
      try {
        pageList = (options.pages === 'source' ? sourcePageList(loaded.tree) : undefined) ?? (await printPages(loaded.tree, laidOut(), config));
      } catch (error) {
        // Without the layout the EPUB still has its text; it has no page numbers.
        lines.push(`${out}: no page list: ${describe(error)}`);
      }
      let stack;
      try {
        stack = fontStackFor(config.fonts.main);
      } catch (error) {
        throw new EpubError(`${(error as Error).message} (edition.yaml fonts.main: the EPUB embeds its fonts)`);
      }
      const bytes = await renderEpub(loaded.tree, {
        pageList,
        popupLayers: popupLayersFromOption(options.notes, config.popupLayers),
        fonts: await loadSystemFonts(stack),
        date: dateFromSourceDateEpoch(process.env.SOURCE_DATE_EPOCH) ?? config.meta.date,
        onVolume: options.progress ? volumeProgress(`${id}.epub`) : undefined,
      });
      await writeFileAtomic(out, bytes);
      lines.push(`${out}: ${(bytes.byteLength / 1024).toFixed(0)} KiB`);
    } catch (error) {
      failed(out, error);
    }
  }
  if (countBySeverity(loaded.messages).error > 0) lines.push(`${dir}: built, with errors in the manuscript (see above)`);
  return { ok, internal, messages: loaded.messages, lines };
}
