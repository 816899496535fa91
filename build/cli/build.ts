/**
 * `diaoban build` for one edition: load, then the PDF (layout → Paged.js →
 * pdf-lib) and the EPUB, each written atomically to the output folder.
 * A failure of one output is reported and does not stop the other.
 */
import path from 'node:path';
import type { VFileMessage } from 'vfile-message';
import { layoutBook, pageSpecFor } from '../layout/index.js';
import { dateFromSourceDateEpoch, popupLayersFromOption, renderEpub } from '../render/epub/index.js';
import { fontStackFor, loadSystemFonts } from '../fonts/index.js';
import { loadEdition } from './load.js';
import { countBySeverity } from './report.js';
import { PdfError, writePdf } from './pdf.js';
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
  let internal = false;
  const failed = (out: string, error: unknown): void => {
    ok = false;
    const message = error instanceof Error ? error.message : String(error);
    if (isInternal(error)) {
      internal = true;
      lines.push(`${out}: not written: internal error: ${message}`);
      if (process.env.DIAOBAN_DEBUG && error instanceof Error) lines.push(error.stack ?? '');
    } else {
      lines.push(`${out}: not written: ${message}`);
    }
  };
  if (options.targets.pdf) {
    const out = path.join(options.out, `${id}.pdf`);
    try {
      const layout = layoutBook(loaded.tree, pageSpecFor(config.meta.template, config.layout));
      const result = await writePdf(layout, config, out, { browser: options.browser, onVolume: options.progress ? volumeProgress(`${id}.pdf `) : undefined });
      lines.push(`${out}: ${result.pages} pages`);
    } catch (error) {
      failed(out, error);
    }
  }
  if (options.targets.epub) {
    const out = path.join(options.out, `${id}.epub`);
    try {
      let stack;
      try {
        stack = fontStackFor(config.fonts.main);
      } catch (error) {
        throw new EpubError(`${(error as Error).message} (edition.yaml fonts.main: the EPUB embeds its fonts)`);
      }
      const bytes = await renderEpub(loaded.tree, {
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
