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
import { writePdf } from './pdf.js';
import { volumeProgress } from './progress.js';
import type { OfflineBrowser } from './browser.js';
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
}

export interface BuildResult {
  ok: boolean;
  messages: VFileMessage[];
  /** What was written, for people. */
  lines: string[];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function buildEdition(dir: string, options: BuildOptions): Promise<BuildResult> {
  const loaded = await loadEdition(dir);
  const lines: string[] = [];
  const config = loaded.config;
  if (!config) {
    return { ok: false, messages: loaded.messages, lines: [`${dir}: not built: its edition.yaml cannot be read`] };
  }
  const id = config.meta.id;
  let ok = true;
  if (options.targets.pdf) {
    const out = path.join(options.out, `${id}.pdf`);
    try {
      const layout = layoutBook(loaded.tree, pageSpecFor(config.meta.template, config.layout));
      const result = await writePdf(layout, config, out, { browser: options.browser, onVolume: options.progress ? volumeProgress(`${id}.pdf `) : undefined });
      lines.push(`${out}: ${result.pages} pages`);
    } catch (error) {
      ok = false;
      lines.push(`${out}: not written: ${describe(error)}`);
    }
  }
  if (options.targets.epub) {
    const out = path.join(options.out, `${id}.epub`);
    try {
      const bytes = await renderEpub(loaded.tree, {
        popupLayers: popupLayersFromOption(options.notes, config.popupLayers),
        fonts: await loadSystemFonts(fontStackFor(config.fonts.main)),
        date: dateFromSourceDateEpoch(process.env.SOURCE_DATE_EPOCH) ?? config.meta.date,
        onVolume: options.progress ? volumeProgress(`${id}.epub`) : undefined,
      });
      await writeFileAtomic(out, bytes);
      lines.push(`${out}: ${(bytes.byteLength / 1024).toFixed(0)} KiB`);
    } catch (error) {
      ok = false;
      lines.push(`${out}: not written: ${describe(error)}`);
    }
  }
  if (countBySeverity(loaded.messages).error > 0) lines.push(`${dir}: built, with errors in the manuscript (see above)`);
  return { ok, messages: loaded.messages, lines };
}
