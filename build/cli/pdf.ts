/**
 * I/O EDGE of the PDF: BookLayout → dist/<edition>.pdf.
 *
 * Reads the template and styles, renders the HTML (render/pdf), runs
 * Paged.js in Debian's Chromium — the book's volumes in a few runs on two
 * tabs of one browser — prints each run, merges and post-processes with
 * pdf-lib, then writes a temp file and renames it over the output, so an
 * old PDF is never replaced by a half-written one.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page as BrowserPage } from 'puppeteer';
import { assignCharacters, coverage, defaultVerticalOrigin, editionFonts, hasCffOutlines, loadSystemFonts, subsetFace, truetypeSubsetKey, uncovered, type LoadedFont } from '../fonts/index.js';
import type { BookLayout } from '../layout/types.js';
import {
  PAGINATE_SCRIPT,
  computeGeometry,
  markInk,
  fontSourceFor,
  fontSourcesWithOverrides,
  lengthToMm,
  outlineEntries,
  parseTemplateDefinition,
  placeSeals,
  planPages,
  postProcessPdf,
  printedChars,
  renderHtml,
  type FontSource,
  type PlannedPage,
  type RenderOptions,
  type Template,
} from '../render/pdf/index.js';
import type { EditionConfig } from '../tree/edition.js';
import { BrowserError, launchBrowser, withBrowserDeadline, type OfflineBrowser } from './browser.js';
import { makeTempDir, removeTemp, tempName, trackTemp } from './cleanup.js';
import { writeFileAtomic } from './write.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** Where paged.js's browser build is. */
export function pagedScriptPath(): string {
  // The package's exports hide dist/; its require entry is lib/index.cjs beside it.
  return join(dirname(require.resolve('pagedjs')), '..', 'dist', 'paged.js');
}

let pagedSource: Promise<string> | undefined;

/**
 * Runs paged.js in the tab as a script carrying the run's nonce, the only
 * kind the page's Content-Security-Policy lets run (puppeteer's addScriptTag
 * cannot set one).
 */
async function loadPaged(tab: BrowserPage, nonce: string): Promise<void> {
  pagedSource ??= readFile(pagedScriptPath(), 'utf8');
  const source = await pagedSource;
  const loaded = await tab.evaluate(
    (text: string, n: string) => {
      const script = document.createElement('script');
      script.nonce = n;
      script.text = text;
      document.head.append(script);
      return typeof (window as unknown as { Paged?: unknown }).Paged === 'object';
    },
    source,
    nonce,
  );
  if (!loaded) throw new PdfError('paged.js did not load in Chromium (blocked by the page\'s Content-Security-Policy?)');
}

/** A failure of the PDF build that the user can act on. */
export class PdfError extends Error {
  override name = 'PdfError';
}

export interface WritePdfOptions {
  /** Called when a volume is printed: how many of how many, and its title. */
  onVolume?: (done: number, total: number, title: string) => void;
  /** A browser to reuse (tests, several editions in one build); launched and closed here otherwise. */
  browser?: OfflineBrowser;
  /** Browser tabs working at once (default 2: the machine has two cores). */
  concurrency?: number;
  /** `plain`: no Paged.js (the benchmark's floor). */
  mode?: 'paged' | 'plain';
  /** Repository root holding templates/ and styles/ (default: this checkout). */
  root?: string;
  /** Where converted TrueType font subsets are cached (default: .cache/fonts in the checkout). */
  fontCache?: string;
  /** Pages per browser run: cut at a volume start past `min`, inside a volume at `max` (default 40 / 80). */
  runPages?: { min: number; max: number };
}

export interface PdfResult {
  pages: number;
  bytes: number;
  /** Characters no configured font covers (printed as 〓). */
  uncovered: string[];
  planned: PlannedPage[];
}

/** Reads templates/<name>/ and styles/ (falls back to siku for an unknown name, as the layout does). */
export async function loadTemplate(name: string, root: string = ROOT): Promise<Template> {
  const known = existsSync(join(root, 'templates', name, 'template.json')) ? name : 'siku';
  const dir = join(root, 'templates', known);
  const def = parseTemplateDefinition(JSON.parse(await readFile(join(dir, 'template.json'), 'utf8')), known);
  const pageHtmlPath = join(dir, 'page.html');
  const pageHtml = existsSync(pageHtmlPath) ? await readFile(pageHtmlPath, 'utf8') : '';
  const cssPath = join(root, 'styles', `${known}.css`);
  const css = existsSync(cssPath) ? await readFile(cssPath, 'utf8') : '';
  const baseCss = await readFile(join(root, 'styles', 'base.css'), 'utf8');
  return { definition: def, pageHtml, css, baseCss };
}

/** The render options of an edition: template, geometry, fonts and their coverage. */
export async function renderOptionsFor(
  layout: BookLayout,
  config: EditionConfig,
  root: string = ROOT,
): Promise<{ options: RenderOptions; fonts: LoadedFont[] }> {
  const template = await loadTemplate(config.meta.template, root);
  let geometry;
  try {
    geometry = computeGeometry(template.definition, layout.spec, config.page.size ?? template.definition.size);
    if (config.page.bleed !== undefined) lengthToMm(config.page.bleed);
  } catch (error) {
    throw new PdfError(`${config.meta.id}: ${(error as Error).message} (edition.yaml page.size / page.bleed)`);
  }
  let specs;
  try {
    ({ specs } = editionFonts(config.fonts.main));
  } catch (error) {
    throw new PdfError(`${config.meta.id}: ${(error as Error).message} (edition.yaml fonts.main)`);
  }
  const missing = specs.filter((s) => !existsSync(s.file));
  if (missing.length) {
    throw new PdfError(
      `font file missing: ${missing.map((s) => s.file).join(', ')}; run: apt-get install fonts-noto-cjk fonts-hanazono (or fix fonts.main in edition.yaml)`,
    );
  }
  const fonts = await loadSystemFonts(specs);
  const covers = coverage(fonts);
  const options: RenderOptions = {
    meta: {
      title: config.meta.title,
      author: config.meta.author,
      subject: config.meta.description,
      language: config.meta.language,
    },
    template,
    geometry,
    fonts: fontSourcesWithOverrides(config.fonts.main),
    covers,
    bleed: config.page.bleed,
    marks: config.page.marks,
    ink: markInk(fonts.map((f) => f.bytes)),
    seals: placeSeals(config.seals, layout),
  };
  return { options, fonts };
}

/** The CFF → TrueType converter (Python fontTools; scripts/setup.sh installs python3-fonttools). */
const CFF2TTF = join(ROOT, 'scripts', 'cff2ttf.py');
/** Debian's Python, where python3-fonttools is installed (not a pyenv/venv one found first on PATH). */
const PYTHON = process.env.DIAOBAN_PYTHON ?? '/usr/bin/python3';
/** Converted subsets by truetypeSubsetKey: a rebuild of the same book reuses them (same bytes, no conversion). */
export const FONT_CACHE = join(ROOT, '.cache', 'fonts');

/** Runs cff2ttf.py; it exits with this process (--exit-with-stdin: execFile keeps its stdin open until it ends). */
function runConverter(input: string, output: string): Promise<void> {
  return new Promise((done, fail) => {
    execFile(PYTHON, [CFF2TTF, '--exit-with-stdin', input, output], { maxBuffer: 1 << 20 }, (error, _stdout, stderr) => {
      if (!error) return done();
      const missing = /No module named .fontTools|ENOENT/.test(`${stderr} ${error.message}`);
      fail(
        new PdfError(
          missing
            ? `converting the CFF font to TrueType needs Python fontTools; run: apt-get install python3-fonttools (or scripts/setup.sh)`
            : `converting the CFF font to TrueType failed: ${String(stderr).trim() || error.message}`,
        ),
      );
    });
  });
}

/**
 * The TrueType subset of a CFF face for `text`: from the cache, or made
 * (subset-font, then cff2ttf.py) and cached. Written atomically, since two
 * builds may make the same file at once.
 */
async function truetypeSubset(font: LoadedFont, text: string, work: string, cacheDir: string, converter: Uint8Array): Promise<string> {
  const key = truetypeSubsetKey(font.bytes, text, converter);
  const cached = join(cacheDir, `${key}.ttf`);
  if (!existsSync(cached)) {
    const otf = join(work, `${key}.otf`);
    const temp = tempName(cached);
    await writeFile(otf, await subsetFace(font, text));
    await mkdir(cacheDir, { recursive: true });
    trackTemp(temp);
    try {
      await runConverter(otf, temp);
      await rename(temp, cached);
    } finally {
      await removeTemp(temp);
      await rm(otf, { force: true });
    }
  }
  return cached;
}

/**
 * The @font-face sources the PDF prints with: fontSourcesWithOverrides,
 * but every CFF-outline face (Noto Serif CJK) replaced by its TrueType
 * subset for the characters it draws in `text` (Chromium would embed the CFF
 * face as Type 3 fonts). A CFF face that draws nothing is left out. The
 * subsets are copied into `work` and served from there (file: URLs).
 */
export async function printFontSources(
  main: readonly string[] | undefined,
  fonts: readonly LoadedFont[],
  text: string,
  work: string,
  cacheDir: string = FONT_CACHE,
): Promise<FontSource[]> {
  const { specs, byName } = editionFonts(main);
  if (specs.length !== fonts.length) throw new Error('printFontSources: fonts must be loaded from the same specs');
  const parts = assignCharacters(fonts, text);
  const converter = new Uint8Array(await readFile(CFF2TTF));
  const sources: FontSource[] = byName.map((name) => ({ local: name }));
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i];
    if (!hasCffOutlines(fonts[i].bytes)) {
      sources.push(fontSourceFor(spec));
      continue;
    }
    if (!parts[i]) continue;
    const served = join(work, `font-${i}.ttf`);
    await copyFile(await truetypeSubset(fonts[i], parts[i], work, cacheDir, converter), served);
    sources.push({ file: served, verticalOrigin: defaultVerticalOrigin(fonts[i].bytes) });
  }
  return sources;
}

/**
 * Cuts the planned pages into browser runs: at a volume start once a run has
 * `minPages`, inside a long volume at `maxPages` (memory). Every run has an
 * even length except the last, so each starts on a recto and the merged PDF
 * keeps rectos odd.
 */
export function runsOf(planned: readonly PlannedPage[], minPages = 40, maxPages = 80): PlannedPage[][] {
  const runs: PlannedPage[][] = [];
  let current: PlannedPage[] = [];
  planned.forEach((p, i) => {
    const volumeStart = i > 0 && planned[i - 1].volume !== p.volume;
    const even = current.length % 2 === 0;
    if (even && ((volumeStart && current.length >= minPages) || current.length >= maxPages)) {
      runs.push(current);
      current = [];
    }
    current.push(p);
  });
  if (current.length) runs.push(current);
  return runs;
}

async function printRun(
  tab: BrowserPage,
  htmlPath: string,
  expected: number,
  mode: 'paged' | 'plain',
  nonce: string,
): Promise<Uint8Array> {
  await tab.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load', timeout: 0 });
  if (mode === 'paged') {
    await loadPaged(tab, nonce);
    const made = (await tab.evaluate(PAGINATE_SCRIPT)) as number;
    if (made !== expected) {
      throw new PdfError(`Paged.js made ${made} pages of ${expected} laid-out pages: a page block overflowed its page area (check the template's margins and page.size)`);
    }
  } else {
    await tab.evaluate('document.fonts.ready.then(() => true)');
  }
  // Untagged: a structure element per character would make the file ten times larger and slow.
  return tab.pdf({ preferCSSPageSize: true, printBackground: true, timeout: 0, tagged: false, outline: false });
}

/** Prints the runs on `concurrency` tabs; parts come back in book order. */
async function printRuns(
  browser: OfflineBrowser,
  layout: BookLayout,
  runs: PlannedPage[][],
  options: RenderOptions,
  work: string,
  concurrency: number,
  onRun: (run: PlannedPage[]) => void,
): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = new Array(runs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runs.length) {
      const i = next++;
      const run = runs[i];
      const { html } = renderHtml(layout, options, run);
      const htmlPath = join(work, `run-${i}.html`);
      const htmlUrl = pathToFileURL(htmlPath).href;
      await writeFile(htmlPath, html);
      const what = `printing pages of ${run[0].volumeTitle}`;
      // A fresh tab per run: closing it also ends the print compositor that page.pdf starts (~100 MB each).
      parts[i] = await withBrowserDeadline(what, 120_000 + run.length * 500, async () => {
        const tab = await browser.newPage({ navigate: (url) => url === htmlUrl });
        try {
          return await printRun(tab, htmlPath, run.length, options.mode ?? 'paged', options.nonce ?? '');
        } finally {
          await tab.close().catch(() => undefined);
        }
      }, () => browser.browser.connected);
      await rm(htmlPath, { force: true });
      onRun(run);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, runs.length)) }, worker));
  return parts;
}

/** Chromium's PDF bytes of the whole book (merged, post-processed). The pure core of writePdf without the write. */
export async function buildPdf(layout: BookLayout, config: EditionConfig, options: WritePdfOptions = {}): Promise<{ bytes: Uint8Array } & Omit<PdfResult, 'bytes'>> {
  const { options: renderOptions, fonts } = await renderOptionsFor(layout, config, options.root);
  renderOptions.mode = options.mode ?? 'paged';
  // A secret per build: an edition's text cannot carry a script that runs.
  renderOptions.nonce = randomBytes(18).toString('base64');
  const planned = planPages(layout);
  if (planned.length === 0) throw new PdfError(`${config.meta.id}: the layout has no pages`);
  const runs = runsOf(planned, options.runPages?.min, options.runPages?.max);
  const work = await makeTempDir('pdf');
  const textChars = printedChars(planned, renderOptions);
  const text = [...textChars].join('');
  const volumeTotal = layout.volumes.length;
  let volumesDone = 0;
  let browser: OfflineBrowser | undefined;
  try {
    renderOptions.fonts = await printFontSources(config.fonts.main, fonts, text, work, options.fontCache);
    browser = options.browser ?? (await launchBrowser());
    const parts = await printRuns(browser, layout, runs, renderOptions, work, options.concurrency ?? 2, (run) => {
      const seen = new Set<number>();
      for (const p of run) {
        if (seen.has(p.volume)) continue;
        seen.add(p.volume);
        volumesDone++;
        options.onVolume?.(volumesDone, volumeTotal, p.volumeTitle);
      }
    });
    const bytes = await postProcessPdf(parts.length === 1 ? parts[0] : parts, {
      info: {
        title: config.meta.title,
        author: [config.meta.dynasty, config.meta.author].filter(Boolean).join(' '),
        subject: config.meta.description,
        language: config.meta.language,
        date: config.meta.date,
      },
      outline: outlineEntries(planned),
      textChars,
    });
    return { bytes, pages: planned.length, uncovered: uncovered(fonts, text), planned };
  } finally {
    if (!options.browser) await browser?.close();
    await removeTemp(work);
  }
}

/**
 * Builds the PDF of an edition and writes it to `outPath` atomically
 * (temp file in the same folder, then rename).
 */
export async function writePdf(
  layout: BookLayout,
  config: EditionConfig,
  outPath: string,
  options: WritePdfOptions = {},
): Promise<PdfResult> {
  const result = await buildPdf(layout, config, options);
  try {
    await writeFileAtomic(outPath, result.bytes);
  } catch (error) {
    throw new PdfError(`could not write ${outPath}: ${(error as Error).message}`);
  }
  return { pages: result.pages, bytes: result.bytes.byteLength, uncovered: result.uncovered, planned: result.planned };
}

export { BrowserError };
