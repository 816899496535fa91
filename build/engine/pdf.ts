/**
 * I/O EDGE of the PDF: BookLayout → dist/<edition>.pdf.
 *
 * Reads the template and styles, renders the HTML of each browser run (a
 * volume, or a part of a long one: volumes are independent, their folios
 * restart), has Paged.js paginate each run in Debian's Chromium on two tabs
 * (the page model: @page size and margins, named pages, margin boxes,
 * bleed, crop marks) and prints it, keeps each run's PDF in the build cache
 * under a hash of everything it depends on (its pages, the render options,
 * its font files by their content, the browser and the tool), then
 * assembles the book and writes a temp file renamed over the output, so an
 * old PDF is never replaced by a half-written one. A rebuild paginates and
 * prints only the runs that changed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page as BrowserPage } from 'puppeteer';
import { coverage, editionFonts, mainFaces, otherRoleFaces, packagesOf, uncovered, type FontSpec, type LoadedFont } from '../fonts/index.js';
import { glyphArtMaker } from '../gaiji/art.js';
import { KR_GAIJI_DIR } from '../gaiji/kr-gaiji.js';
import { fileStamp, loadFontsOnce, rememberedForFaces } from './fonts-memo.js';
import type { BookLayout } from '../layout/types.js';
import {
  PAGINATE_SCRIPT,
  REPLAY_SCRIPT,
  computeGeometry,
  fontSourcesWithOverrides,
  markInk,
  type Ink,
  type InkTable,
  lengthToMm,
  outlineEntries,
  pdfMeta,
  parseTemplateDefinition,
  placeSeals,
  planPages,
  renderShell,
  runBody,
  pageFill,
  runCss,
  roleCharacters,
  withPunctuation,
  type FontSource,
  type PlannedPage,
  type RenderOptions,
  type RunParts,
  type PageFill,
  type Template,
  bookCounts,
  type BookInfo,
} from '../render/pdf/index.js';
import { assemblePdf } from '../render/pdf/assemble.js';
import { StandardError } from '../render/pdf/standards.js';
import { applyStandard } from './standards.js';
import { lowResolutionSeals } from '../render/pdf/seals.js';
import type { EditionConfig } from '../tree/edition.js';
import { BrowserError, CHROMIUM_PATH, findChromium, launchBrowser, withBrowserDeadline, type OfflineBrowser } from './browser.js';
import { makeTempDir, removeTemp } from './cleanup.js';
import { hashKey, toolVersion, type BuildCache } from './cache.js';
import { FONT_CACHE, printFontSources, printFontSourcesFor, warmConverters } from './print-fonts.js';
import { phase } from './timing.js';
import { killPoint } from './kill-point.js';
import { writeFileAtomic, type OutputGate } from './write.js';

export { printFontSources, FONT_CACHE };

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
  if (!loaded) throw new PdfError("paged.js did not load in Chromium (blocked by the page's Content-Security-Policy?)");
}

/** A failure of the PDF build that the user can act on. */
export class PdfError extends Error {
  override name = 'PdfError';
}

/** A browser, launched only when something must be printed. */
export type BrowserSource = OfflineBrowser | (() => Promise<OfflineBrowser>);

export interface WritePdfOptions {
  /** Called when a run is printed (or found in the cache): how many volumes of how many are done, and the last one's title. */
  onVolume?: (done: number, total: number, title: string) => void;
  /** A browser to use (tests, several editions in one build, watch); launched and closed here otherwise. */
  browser?: BrowserSource;
  /** The Chromium binary (`--chromium`), for the printer's identity in cache keys and when launched here. */
  chromium?: string;
  /** Browser tabs working at once (default 2: the machine has two cores). */
  concurrency?: number;
  /** Repository root holding templates/ and styles/ (default: this checkout). */
  root?: string;
  /** Where font subsets are cached (default: .cache/fonts in the checkout). */
  fontCache?: string;
  /** Where printed runs are kept; none: every run is printed. */
  cache?: BuildCache;
  /**
   * Pages per browser run at most: a longer volume is printed in parts of an
   * even length (default 32: a fix reprints its part, ~0.3 s of a tab; each
   * run costs the clean build ~50 ms of a tab: 64 halves that and doubles a fix's reprint).
   */
  maxRunPages?: number;
  /**
   * Keep what Paged.js makes of each run printed (in the cache) and use what
   * was kept: a rebuild's, since an editor's next fix is often in the run of
   * the last (a clean build does not pay for keeping it).
   */
  keepPages?: boolean;
  /** Lets the finished PDF replace the output, or not (write.ts). */
  gate?: OutputGate;
  /** The book's cover alone (a print file's cover, printed apart: writePdf). */
  only?: 'cover';
}

export interface PdfResult {
  pages: number;
  bytes: number;
  /** Characters no configured font covers (printed as 〓). */
  uncovered: string[];
  planned: PlannedPage[];
  /** Browser runs printed now, and found in the cache. */
  printed: number;
  reused: number;
  /** Of the runs printed, those whose pages Paged.js had made before (kept by an earlier rebuild). */
  replayed: number;
  /** SHA-256 of the PDF written. */
  sha256: string;
  /** False when the gate refused it: the output was left as it was. */
  written: boolean;
  /** What a print shop's preflight would flag that the build cannot mend (a seal's resolution). */
  warnings: string[];
  /** A print file's cover, written beside the book (<id>.cover.pdf): its path and SHA-256. */
  cover?: { path: string; sha256: string };
}

/** A template's name as a folder of templates/: a plain name (never a path: `../../x` would read another folder's files), else siku, as the layout falls back. */
function knownTemplate(name: string, root: string): string {
  return /^[a-z][a-z0-9-]{0,63}$/.test(name) && existsSync(join(root, 'templates', name, 'template.json')) ? name : 'siku';
}

/** Reads templates/<name>/ and styles/ (falls back to siku for an unknown name, as the layout does). */
export async function loadTemplate(name: string, root: string = ROOT): Promise<Template> {
  const known = knownTemplate(name, root);
  const dir = join(root, 'templates', known);
  const def = parseTemplateDefinition(JSON.parse(await readFile(join(dir, 'template.json'), 'utf8')), known);
  const pageHtmlPath = join(dir, 'page.html');
  const pageHtml = existsSync(pageHtmlPath) ? await readFile(pageHtmlPath, 'utf8') : '';
  const cssPath = join(root, 'styles', `${known}.css`);
  const css = existsSync(cssPath) ? await readFile(cssPath, 'utf8') : '';
  const baseCss = await readFile(join(root, 'styles', 'base.css'), 'utf8');
  const parts: NonNullable<Template['parts']> = {};
  for (const part of ['cover', 'title', 'colophon'] as const) {
    const file = join(dir, `${part}.html`);
    if (existsSync(file)) parts[part] = await readFile(file, 'utf8');
  }
  return { definition: def, pageHtml, css, baseCss, parts };
}

/** A role of the text set in faces of its own (edition.yaml `fonts:`): its faces as written and loaded (its stack: them, then the main text's). */
export interface RoleFonts {
  role: string;
  faces: string[];
  fonts: LoadedFont[];
}

/** The files of every stack an edition prints with: the main text's, then each role's. */
function editionStacks(config: EditionConfig): Array<{ role: string; faces: string[]; specs: FontSpec[] }> {
  const main = mainFaces(config);
  return [{ role: 'main', faces: main, specs: editionFonts(main).specs }, ...otherRoleFaces(config).map((r) => ({ ...r, specs: editionFonts(r.faces).specs }))];
}

/** The render options of an edition: template, geometry, fonts (the main text's, and each role's with faces of its own) and their coverage. */
export async function renderOptionsFor(
  layout: BookLayout,
  config: EditionConfig,
  root: string = ROOT,
): Promise<{ options: RenderOptions; fonts: LoadedFont[]; roles: RoleFonts[] }> {
  // The same edition, grid and template files give the same options: a watch session works them out once.
  let fontFiles = '';
  try {
    fontFiles = editionStacks(config).flatMap((s) => s.specs.map((f) => fileStamp(f.file))).join('|');
  } catch {
    // an unreadable fonts.main: computeRenderOptions says so
  }
  const key = JSON.stringify([root, layout.spec, config.meta, config.page, config.fonts, fontFiles, templateStamp(config.meta.template, root)]);
  let known = optionsMemory.get(key);
  if (!known) {
    known = computeRenderOptions(layout, config, root);
    known.catch(() => optionsMemory.delete(key));
    if (optionsMemory.size > 8) optionsMemory.clear();
    optionsMemory.set(key, known);
  }
  return known;
}

const optionsMemory = new Map<string, Promise<{ options: RenderOptions; fonts: LoadedFont[]; roles: RoleFonts[] }>>();

/** The template's files as they are now (path, size, time), for the memory of render options. */
function templateStamp(given: string, root: string): string {
  const name = knownTemplate(given, root);
  return ['template.json', 'page.html', 'cover.html', 'title.html', 'colophon.html'].map((f) => fileStamp(join(root, 'templates', name, f))).concat(['base.css', `${name}.css`].map((f) => fileStamp(join(root, 'styles', f)))).join('|');
}

async function computeRenderOptions(
  layout: BookLayout,
  config: EditionConfig,
  root: string,
): Promise<{ options: RenderOptions; fonts: LoadedFont[]; roles: RoleFonts[] }> {
  const template = await loadTemplate(config.meta.template, root);
  let geometry;
  try {
    geometry = computeGeometry(template.definition, layout.spec, config.page.size ?? template.definition.size);
    if (config.page.bleed !== undefined) lengthToMm(config.page.bleed);
  } catch (error) {
    throw new PdfError(`${config.meta.id}: ${(error as Error).message} (edition.yaml page.size / page.bleed)`);
  }
  let stacks;
  try {
    stacks = editionStacks(config);
  } catch (error) {
    throw new PdfError(`${config.meta.id}: ${(error as Error).message} (edition.yaml fonts)`);
  }
  const missing = [...new Map(stacks.flatMap((s) => s.specs).filter((s) => !existsSync(s.file)).map((s) => [s.file, s])).values()];
  if (missing.length) {
    const packages = packagesOf(missing);
    throw new PdfError(
      `font file missing: ${missing.map((s) => s.file).join(', ')}; run: ${packages.length ? `apt-get install ${packages.join(' ')} (scripts/setup.sh)` : 'scripts/setup.sh'}, or fix fonts in edition.yaml`,
    );
  }
  const [main, ...others] = await Promise.all(stacks.map((s) => loadFontsOnce(s.specs)));
  const fonts = main;
  const roles = others.map((loaded, i) => ({ role: stacks[i + 1].role, faces: stacks[i + 1].faces, fonts: loaded }));
  const covers = coverage(fonts);
  const options: RenderOptions = {
    meta: pdfMeta(config.meta),
    template,
    geometry,
    fonts: fontSourcesWithOverrides(stacks[0].faces),
    ...(roles.length ? { roleFonts: roles.map((r) => ({ role: r.role, fonts: fontSourcesWithOverrides(r.faces) })) } : {}),
    covers,
    bleed: config.page.bleed,
    marks: config.page.marks,
    // By the faces' digests: a new process learns it without reading the fonts.
    ink: rememberedForFaces('ink', fonts, isInkTable, () => markInk(fonts.map((f) => f.bytes))),
    seals: placeSeals(config.seals, layout),
    // Drawn glyphs: KR-Gaiji's images, compositions from the outlines of their parts in these fonts.
    glyphArt: glyphArtMaker(fonts.map((f) => f.bytes)),
    ...(config.book ? { book: bookInfo(config, layout) } : {}),
    ...(config.page.frame ? { frame: config.page.frame } : {}),
  };
  return { options, fonts, roles };
}

/** What the book's own pages print (render/pdf/book-parts.ts): the edition's data, the layout's counts; no date of the build. */
function bookInfo(config: EditionConfig, layout: BookLayout): BookInfo {
  return {
    parts: config.book!,
    title: config.meta.title,
    credit: [config.meta.dynasty, config.meta.author].filter(Boolean).join('　'),
    ...bookCounts(layout),
    ...(config.meta.date ? { date: config.meta.date } : {}),
    sources: config.sources,
  };
}

function isInkTable(v: unknown): v is InkTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((i: Ink) => typeof i?.x === 'number' && typeof i?.y === 'number');
}

/** Volumes that may share a browser run: a fixed group, so that a volume that grows moves no run boundary outside its own group. */
export const VOLUME_GROUP = 16;

/**
 * Cuts the planned pages into browser runs: a volume longer than `maxPages`
 * in parts of an even length, short volumes of the same group of
 * VOLUME_GROUP together up to `maxPages` (a work in a thousand 卷 is not a
 * thousand runs, each with its fonts and its Chromium set-up), a volume's
 * 校勘記 apart (when it starts on a recto). Each run starts on a recto, so
 * the merged PDF keeps rectos odd; a run depends only on its own pages, so a
 * change elsewhere leaves it as it was.
 */
export function runsOf(planned: readonly PlannedPage[], maxPages = Number(process.env.DIAOBAN_RUN_PAGES ?? 32)): PlannedPage[][] {
  const limit = Math.max(2, maxPages - (maxPages % 2));
  const pagesOf = new Map<number, number>();
  for (const p of planned) pagesOf.set(p.volume, (pagesOf.get(p.volume) ?? 0) + 1);
  const runs: PlannedPage[][] = [];
  let current: PlannedPage[] = [];
  planned.forEach((p, i) => {
    // A volume joins the run before it when both are of one group and it fits whole.
    const volumeStart = i > 0 && planned[i - 1].volume !== p.volume && (p.volume % VOLUME_GROUP === 0 || current.length + pagesOf.get(p.volume)! > limit);
    // A volume's 校勘記 is a run of its own: every new correction changes it, and it is short to print again.
    const sectionStart = p.page?.collation === true && planned[i - 1]?.page?.collation !== true && current.length % 2 === 0;
    if (current.length > 0 && (volumeStart || sectionStart || current.length >= limit)) {
      runs.push(current);
      current = [];
    }
    current.push(p);
  });
  if (current.length) runs.push(current);
  return runs;
}

/** Tabs kept open between runs and builds, per browser: opening one costs ~120 ms (a target, request interception). */
const idleTabs = new WeakMap<OfflineBrowser, BrowserPage[]>();

/** The page each tab may load now: a tab navigates to its shell document (and about:blank), nowhere else. */
const tabTargets = new WeakMap<BrowserPage, { url: string }>();

/** Tabs being emptied after a build (not waited for by the build that used them). */
const blanking = new WeakMap<OfflineBrowser, Promise<void>>();

/** Tabs being made ready ahead of a build's runs (warmPrinter), per browser: the build's printer waits for them. */
const warming = new WeakMap<OfflineBrowser, Promise<void>>();

async function takeTab(browser: OfflineBrowser, waitForWarming = true): Promise<BrowserPage> {
  await blanking.get(browser);
  if (waitForWarming) await warming.get(browser);
  const idle = idleTabs.get(browser) ?? [];
  idleTabs.set(browser, idle);
  for (let tab = idle.pop(); tab; tab = idle.pop()) if (!tab.isClosed()) return tab;
  const target = { url: 'about:blank' };
  const tab = await browser.newPage({ navigate: (url) => url === target.url || url === 'about:blank' });
  tabTargets.set(tab, target);
  return tab;
}

async function returnTab(browser: OfflineBrowser, tab: BrowserPage, keep: number): Promise<void> {
  const idle = idleTabs.get(browser) ?? [];
  if (idle.length >= keep) await tab.close().catch(() => undefined);
  else idle.push(tab);
}

/**
 * The last run's pages let go while the tabs wait for the next build (a
 * document without pages is a few MB, a run's pages a hundred); the shell
 * and Paged.js stay, so that the next build of the edition starts printing at once.
 */
async function emptyIdleTabs(browser: OfflineBrowser): Promise<void> {
  await Promise.all((idleTabs.get(browser) ?? []).map((tab) => putRun(tab, { css: '', bodyClass: '', body: '' }).catch(() => tabShells.delete(tab))));
}

/**
 * A browser's nonce: the shell's policy lets only scripts carrying it run
 * (ours). Made once a browser, it is never written into what a run shows,
 * so an edition's text cannot carry it.
 */
const browserNonces = new WeakMap<OfflineBrowser, string>();

/** The shell each kept tab has loaded, Paged.js in it: its language and title (a tab that has it needs no loading). */
const tabShells = new WeakMap<BrowserPage, string>();

/** A tab made ready for a build's runs: its shell document loaded (the policy and nonce), Paged.js in it. */
async function prepareTab(tab: BrowserPage, shellPath: string, nonce: string): Promise<void> {
  const url = pathToFileURL(shellPath).href;
  const target = tabTargets.get(tab);
  if (target) target.url = url;
  await phase('pdf tab load', () => tab.goto(url, { waitUntil: 'load', timeout: 0 }));
  await phase('pdf tab paged.js', () => loadPaged(tab, nonce));
}

/**
 * Puts a run into the tab's shell: what the run before left (its style,
 * Paged.js's styles, its pages) goes, the run's style and body come. A run
 * prints the same bytes whatever the tab printed before (the rebuild tests
 * compare builds whose runs went to other tabs in another order).
 */
async function putRun(tab: BrowserPage, run: Pick<RunParts, 'css' | 'bodyClass' | 'body'>, keepPages = false): Promise<void> {
  await tab.evaluate(
    (css: string, bodyClass: string, body: string, keep: boolean) => {
      (window as unknown as { diaobanKeepPages: boolean }).diaobanKeepPages = keep;
      for (const old of document.head.querySelectorAll('style, link')) old.remove();
      const style = document.createElement('style');
      style.textContent = css;
      document.head.append(style);
      const fresh = document.createElement('body');
      fresh.className = bodyClass;
      // Inert: a <template> and a JSON island (no script runs from innerHTML).
      fresh.innerHTML = body;
      document.body.replaceWith(fresh);
    },
    run.css,
    run.bodyClass,
    run.body,
    keepPages,
  );
}

/** What PAGINATE_SCRIPT keeps of Paged.js's pages (REPLAY_SCRIPT puts it back). */
interface PagedPages {
  total: number;
  styles: Array<{ attributes: Array<[string, string]>; css: string }>;
  attributes: Array<[string, string]>;
  body: string;
}

/** REPLAY_SCRIPT as a function Puppeteer can call with arguments (its source is what the page runs). */
const replay = new Function(`return ${REPLAY_SCRIPT}`)() as (kept: PagedPages, fills: string) => Promise<number>;

/**
 * What Paged.js made of a run, kept in the build cache by what it depends on
 * (the run's style and placeholders, the browser, the tool): a run printed
 * again because a fix changed a page's characters, not its pagination, gets
 * its pages back instead of being paginated again.
 */
interface KeptPages {
  get(): Promise<PagedPages | undefined>;
  put(pages: PagedPages): Promise<void>;
}

function keptPages(cache: BuildCache, identity: string, run: Pick<RunParts, 'css' | 'bodyClass' | 'placeholders'>): KeptPages {
  const key = hashKey('paged', identity, run.css, run.bodyClass, run.placeholders);
  return { get: () => cache.getJson<PagedPages>('paged', key), put: (pages) => cache.putJson('paged', key, pages) };
}

async function printRun(tab: BrowserPage, run: Pick<RunParts, 'css' | 'bodyClass' | 'body' | 'fills'>, expected: number, kept?: KeptPages, onReplay?: () => void): Promise<Uint8Array> {
  const pages = await kept?.get();
  let made: number;
  if (pages) {
    onReplay?.();
    made = await phase('pdf run replay', () => tab.evaluate(replay, pages, run.fills));
  } else {
    await phase('pdf run put', () => putRun(tab, run, kept !== undefined));
    made = (await phase('pdf run paginate', () => tab.evaluate(PAGINATE_SCRIPT))) as number;
    const snapshot = kept && made === expected ? await tab.evaluate(() => (window as unknown as { diaobanPaged?: PagedPages }).diaobanPaged) : undefined;
    if (kept && snapshot) await kept.put(snapshot);
  }
  if (made !== expected) {
    throw new PdfError(`Paged.js made ${made} pages of ${expected} laid-out pages: a page block overflowed its page area (check the template's margins and page.size)`);
  }
  // Untagged: a structure element per character would make the file ten times larger and slow.
  // PAGINATE_SCRIPT loaded the run's faces.
  return phase('pdf run print', () => tab.pdf({ preferCSSPageSize: true, printBackground: true, timeout: 0, tagged: false, outline: false, waitForFonts: false }));
}

/** What the printed bytes of a run depend on besides its HTML: the browser binary (the one `--chromium` names, or found) and this tool. */
function printerIdentity(chromium: string | undefined): string {
  let binaries: string[] = [];
  try {
    const found = findChromium(chromium);
    // Debian's /usr/bin/chromium is a wrapper script of the binary in /usr/lib/chromium.
    binaries = [realpathSync(found), ...(found === CHROMIUM_PATH && existsSync('/usr/lib/chromium/chromium') ? ['/usr/lib/chromium/chromium'] : [])];
  } catch {
    // no browser: printing will say so
  }
  const stamps = binaries.map((binary) => {
    try {
      const s = statSync(binary);
      return `${binary}:${s.size}:${s.mtimeMs}`;
    } catch {
      return `${binary}:missing`;
    }
  });
  return `${stamps.join('|')}:${toolVersion()}`;
}

/**
 * What of a planned page its printed bytes depend on. A page's columns are
 * shared with the volume layout the cache keeps, so their hash is worked out
 * once a session; the rest is small.
 */
const columnHashes = new WeakMap<object, string>();

function pageKey(p: PlannedPage, numbered: boolean, sealed: ReadonlySet<number>): string {
  if (!p.page) return JSON.stringify(['blank', p.side, p.volume, p.volumeTitle, p.leaf, p.part ?? null]);
  const { number: _inBook, columns, corrections, ...rest } = p.page;
  let columnsHash = columnHashes.get(columns);
  if (!columnsHash) {
    columnsHash = hashKey(JSON.stringify(columns));
    columnHashes.set(columns, columnsHash);
  }
  const marks = corrections?.map((m) => (numbered ? m : { ...m, number: 0 }));
  // A seal is stamped on a page by its number in the book: that number is part of a sealed page.
  const seal = sealed.has(p.page.number) ? p.page.number : null;
  return JSON.stringify([p.side, p.volume, p.volumeTitle, p.leaf, p.front ?? false, rest, marks ?? null, columnsHash, seal]);
}

/**
 * Pages' fillings remembered in a session (watch, the bench), by page key:
 * a run printed again after a one-character fix has one page that changed
 * and sixty-odd that did not. At most PAGE_FILLS pages are kept (~20 KB each).
 */
const pageFills = new WeakMap<BuildCache, { optionsKey: string; fills: Map<string, PageFill> }>();
const PAGE_FILLS = 4096;

function fillMemory(cache: BuildCache | undefined, optionsKey: string): (key: string, fill: () => PageFill) => PageFill {
  if (!cache) return (_key, fill) => fill();
  let memory = pageFills.get(cache);
  if (memory?.optionsKey !== optionsKey) pageFills.set(cache, (memory = { optionsKey, fills: new Map() }));
  const { fills } = memory;
  return (key, fill) => {
    let known = fills.get(key);
    if (!known) {
      if (fills.size >= PAGE_FILLS) fills.clear();
      fills.set(key, (known = fill()));
    }
    return known;
  };
}

interface RunJob {
  run: PlannedPage[];
  /** What the run's printed bytes depend on (its pages, the render options, its fonts, the browser, the tool). */
  key: string;
  chars: Set<string>;
  fonts: FontSource[];
  roleFonts: Array<{ role: string; fonts: FontSource[] }>;
}

/**
 * A run's characters (what its fonts must draw, what its ToUnicode maps may
 * name), remembered by the run's content: working them out means rendering
 * every page's HTML, which a rebuild need not do for volumes that did not
 * change (a run that is printed renders it once for both: `render`).
 */
const runCharacters = new WeakMap<BuildCache, Map<string, Set<string>>>();

async function charactersOf(runKey: string, render: () => Set<string>, cache: BuildCache | undefined): Promise<Set<string>> {
  if (!cache) return render();
  let memory = runCharacters.get(cache);
  if (!memory) runCharacters.set(cache, (memory = new Map()));
  const known = memory.get(runKey) ?? (await cache.getJson<string[]>('run-chars', runKey))?.reduce((s, c) => s.add(c), new Set<string>());
  const chars = known ?? render();
  if (!known) await cache.putJson('run-chars', runKey, [...chars]);
  if (memory.size > 4096) memory.clear();
  memory.set(runKey, chars);
  return chars;
}

/**
 * The runs to print, as they are worked out: a free tab takes the longest
 * run waiting (so that the book does not end with one tab printing a long
 * run while the other waits), and the tabs stop when the queue is closed and empty.
 */
class RunQueue {
  private readonly items: number[] = [];
  private waiting: Array<(i: number | undefined) => void> = [];
  private closed = false;
  /** Printing failed: nothing more is worked out or taken. */
  stopped = false;

  constructor(private readonly weight: (i: number) => number) {}

  add(i: number): void {
    const wake = this.waiting.shift();
    if (wake) wake(i);
    else this.items.push(i);
  }

  close(): void {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake(undefined);
  }

  stop(): void {
    this.stopped = true;
    this.close();
  }

  next(): Promise<number | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    if (this.items.length > 0) {
      let best = 0;
      for (let k = 1; k < this.items.length; k++) if (this.weight(this.items[k]) > this.weight(this.items[best])) best = k;
      return Promise.resolve(this.items.splice(best, 1)[0]);
    }
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

/**
 * The browser side of a build: the browser and its tabs, each with the
 * edition's shell and Paged.js loaded (kept from the last build when it was
 * the same edition's).
 */
interface Printer {
  chromium: OfflineBrowser;
  /** Launched for this build (closed after it). */
  own: boolean;
  tabs: Array<Promise<BrowserPage>>;
}

/**
 * Opens the browser side of a build (the browser given, or launched, and
 * `count` tabs made ready), in `work`. Tabs are reused between builds (each
 * keeps its print compositor, ~100 MB) and between runs (the shell and
 * Paged.js stay loaded).
 */
async function openPrinter(options: WritePdfOptions, meta: RenderOptions['meta'], work: string, count: number): Promise<Printer> {
  const own = options.browser === undefined;
  const chromium = typeof options.browser === 'function' ? await options.browser() : (options.browser ?? (await launchBrowser({ executablePath: options.chromium })));
  return { chromium, own, tabs: readyTabs(chromium, meta, work, count) };
}

/** `count` tabs with the edition's shell and Paged.js loaded: idle ones that have them, others loaded now (the shell written in `work`). */
function readyTabs(chromium: OfflineBrowser, meta: RenderOptions['meta'], work: string, count: number, waitForWarming = true): Array<Promise<BrowserPage>> {
  let nonce = browserNonces.get(chromium);
  if (!nonce) browserNonces.set(chromium, (nonce = randomBytes(18).toString('base64')));
  const policyNonce = nonce;
  const shellKey = JSON.stringify([meta.language, meta.title]);
  let shell: Promise<string> | undefined;
  const shellFile = (): Promise<string> =>
    (shell ??= (async () => {
      const file = join(work, 'shell.html');
      await writeFile(file, renderShell({ meta, nonce: policyNonce }));
      return file;
    })());
  const tabs = Array.from({ length: count }, async () => {
    const tab = await takeTab(chromium, waitForWarming);
    if (tabShells.get(tab) === shellKey) return tab;
    try {
      tabShells.delete(tab);
      const file = await shellFile();
      await withBrowserDeadline('loading the page and Paged.js', 120_000, () => prepareTab(tab, file, policyNonce), () => chromium.browser.connected);
      tabShells.set(tab, shellKey);
    } catch (error) {
      await tab.close().catch(() => undefined);
      throw error;
    }
    return tab;
  });
  for (const tab of tabs) tab.catch(() => undefined);
  return tabs;
}

/**
 * Gets a shared browser's tabs ready for an edition (its shell and Paged.js
 * loaded) while the build still loads and lays out the edition, and leaves
 * them idle for the build's printer: loading Paged.js costs a tab ~0.3–0.5 s
 * that would otherwise come before the first run prints. A failure here is
 * left for the printer to meet (it loads the tabs itself).
 */
export async function warmPrinter(browser: BrowserSource, meta: RenderOptions['meta'], count = defaultTabCount()): Promise<void> {
  let chromium: OfflineBrowser;
  try {
    chromium = typeof browser === 'function' ? await browser() : browser;
  } catch {
    return;
  }
  const before = warming.get(chromium);
  const warm = (async () => {
    await before;
    const work = await makeTempDir('shell');
    try {
      const tabs = await Promise.all(readyTabs(chromium, meta, work, count, false).map((t) => t.catch(() => undefined)));
      for (const tab of tabs) if (tab) await returnTab(chromium, tab, count);
    } finally {
      await removeTemp(work);
    }
  })();
  const settled = warm.catch(() => undefined);
  warming.set(chromium, settled);
  await settled;
}

/** Browser tabs working at once: 2 (the machine has two cores), or DIAOBAN_TABS. */
function defaultTabCount(): number {
  return Math.max(1, Number(process.env.DIAOBAN_TABS ?? 2));
}

/** Tabs back to the idle pool (blanked after the build, unwaited) or closed; the browser closed if the build launched it. */
async function closePrinter(printer: Printer): Promise<void> {
  const tabs = await Promise.all(printer.tabs.map((t) => t.catch(() => undefined)));
  for (const tab of tabs) {
    if (!tab) continue;
    if (printer.own || tab.isClosed()) await tab.close().catch(() => undefined);
    else await returnTab(printer.chromium, tab, tabs.length);
  }
  if (printer.own) await printer.chromium.close();
  // Nobody waits for it but the next build's first tab.
  else blanking.set(printer.chromium, emptyIdleTabs(printer.chromium));
}

/** Chromium's PDF bytes of the whole book (merged, post-processed). The pure core of writePdf without the write. */
export async function buildPdf(layout: BookLayout, edition: EditionConfig, options: WritePdfOptions = {}): Promise<{ bytes: Uint8Array } & Omit<PdfResult, 'bytes' | 'sha256' | 'written'>> {
  const config = pageForStandard(edition);
  const { options: given, fonts, roles } = await phase('pdf options', () => renderOptionsFor(layout, config, options.root));
  // A rebuild's new subset (a fix's 校勘記 run, most often) should not wait for Python and the glyph bank to load; a
  // clean build starts the converter when a subset is missing, and with the font cache warm not at all (34 MB less).
  if (options.keepPages) warmConverters(fonts, options.fontCache ?? FONT_CACHE);
  const renderOptions = withPunctuation(layout, given);
  // A print file's cover is a file of its own (its own page, its own file for the printer): left out here.
  const planned = planPages(layout, config.book, { cover: config.pdf?.standard !== 'print', ...(options.only ? { only: options.only } : {}) });
  if (planned.length === 0) throw new PdfError(`${config.meta.id}: the layout has no pages`);
  const runs = runsOf(planned, options.maxRunPages);
  const fontCache = options.fontCache ?? FONT_CACHE;
  const identity = printerIdentity(options.chromium);
  // Everything a run's HTML depends on besides its pages and fonts (the coverage follows from the font files;
  // the nonce, new each build, is not printed).
  const { fonts: _sources, roleFonts: _roleSources, covers: _covers, nonce: _nonce, ...rest } = renderOptions;
  const optionsKey = hashKey('render-options', identity, JSON.stringify(rest), JSON.stringify(editionStacks(config).map((s) => [s.role, s.specs.map((f) => fileStamp(f.file))])), fileStamp(join(KR_GAIJI_DIR, 'table.json')));
  // A page's number in the book is not printed (folios count within the volume): left out, so that a volume that
  // grows or shrinks leaves the runs after it as they were.
  // (Nor a ○ mark's number, which is not printed; a numbered mark's is.)
  const numbered = renderOptions.template.definition.correctionMark === 'number';
  const sealed = new Set((renderOptions.seals ?? []).map((s) => s.page));
  const pageKeys = phase('pdf page keys', () => runs.map((run) => run.map((p) => pageKey(p, numbered, sealed))));
  const runKeys = phase('pdf keys', () => pageKeys.map((keys) => hashKey(optionsKey, ...keys)));
  const fills = fillMemory(options.cache, optionsKey);

  // The browser side opens as soon as some run is known to need printing (a run whose characters must be worked
  // out is new), so that Chromium, the tabs, their shell and Paged.js get ready while this thread works out
  // characters and fonts.
  const tabCount = Math.max(1, options.concurrency ?? defaultTabCount());
  let work: string | undefined;
  let printer: Promise<Printer> | undefined;
  const printerOpen = (): Promise<Printer> =>
    (printer ??= (async () => openPrinter(options, renderOptions.meta, (work = await makeTempDir('pdf')), tabCount))());

  const parts: Uint8Array[] = [];
  const jobs: RunJob[] = [];
  const todo: number[] = [];
  let replayed = 0;
  const volumeTotal = layout.volumes.length;
  const volumesDone = new Set<number>();
  const report = (run: PlannedPage[]): void => {
    // A volume is done when the run with its last page is (a run may end several short volumes).
    const after = planned[planned.indexOf(run[run.length - 1]) + 1];
    run.forEach((p, k) => {
      const next = run[k + 1] ?? after;
      if (p.volume < 0 || (next && next.volume === p.volume)) return;
      volumesDone.add(p.volume);
      options.onVolume?.(volumesDone.size, volumeTotal, p.volumeTitle);
    });
  };
  const fontRoot = pathToFileURL(fontCache).pathname;
  try {
    // A run's body (its pages) does not depend on its fonts: rendered once, for its characters and for printing.
    const bodies = new Map<number, Omit<RunParts, 'css'>>();
    const bodyOf = (i: number): Omit<RunParts, 'css'> => {
      let body = bodies.get(i);
      if (!body) bodies.set(i, (body = runBody(renderOptions, runs[i], (p, at) => fills(pageKeys[i][at], () => pageFill(p, renderOptions)))));
      return body;
    };
    // Runs are worked out in order (characters, fonts, key, the cache) while the tabs print those already worked out:
    // this thread's share of a clean build overlaps Chromium's.
    const queue = new RunQueue((i) => runs[i].length);
    const prepare = phase('pdf runs worked out', async () => {
      try {
        for (let i = 0; i < runs.length && !queue.stopped; i++) {
          const chars = await charactersOf(
            runKeys[i],
            () => {
              void printerOpen().catch(() => undefined);
              return bodyOf(i).chars;
            },
            options.cache,
          );
          // Fonts a run: a character new to the book changes the subsets of its run only, so only that run is printed again.
          let sources: FontSource[];
          let roleSources: Array<{ role: string; fonts: FontSource[] }> = [];
          try {
            [sources] = await printFontSourcesFor(mainFaces(config), fonts, [[...chars].join('')], fontCache);
            // A role with faces of its own: its stack subset to the characters it prints in the run.
            if (roles.length > 0) {
              const own = roleCharacters(runs[i], roles.map((r) => r.role));
              roleSources = await Promise.all(
                roles.map(async (r) => ({ role: r.role, fonts: (await printFontSourcesFor(r.faces, r.fonts, [[...own.get(r.role)!].join('')], fontCache))[0] })),
              );
            }
          } catch (error) {
            throw error instanceof Error && error.name === 'PdfError' ? new PdfError(error.message) : error;
          }
          // Font files are named by their content: the key holds them without the folder they sit in.
          const fontKey = JSON.stringify([sources, roleSources]).split(fontRoot).join('');
          jobs[i] = { run: runs[i], key: hashKey('pdf-run', runKeys[i], fontKey), chars, fonts: sources, roleFonts: roleSources };
          const hit = await options.cache?.get('pdf-run', jobs[i].key);
          if (hit) {
            parts[i] = hit;
            bodies.delete(i);
            report(jobs[i].run);
          } else {
            todo.push(i);
            void printerOpen().catch(() => undefined);
            queue.add(i);
          }
          // Between runs, the browser side's messages are answered.
          if (printer) await new Promise((r) => setImmediate(r));
        }
      } finally {
        queue.close();
      }
    });
    const print = async (): Promise<void> => {
      const first = await queue.next();
      if (first === undefined) return;
      const { chromium, tabs } = await printerOpen();
      let pending: number | undefined = first;
      const worker = async (ready: Promise<BrowserPage>): Promise<void> => {
        const tab = await ready;
        for (let i = pending ?? (await queue.next()); i !== undefined; i = await queue.next()) {
          pending = undefined;
          const job = jobs[i];
          const run = { css: phase('pdf run css', () => runCss({ ...renderOptions, fonts: job.fonts, roleFonts: job.roleFonts })), ...bodyOf(i) };
          bodies.delete(i);
          const kept = options.cache && options.keepPages ? keptPages(options.cache, identity, run) : undefined;
          parts[i] = await withBrowserDeadline(`printing pages of ${job.run[0].volumeTitle}`, 120_000 + job.run.length * 500, () => printRun(tab, run, job.run.length, kept, () => replayed++), () => chromium.browser.connected);
          await options.cache?.put('pdf-run', job.key, parts[i]);
          killPoint('pdf-run-cached');
          report(job.run);
        }
      };
      await Promise.all(tabs.map(worker));
    };
    // A failure on either side stops the other (the queue stops), and is the one reported once both have stopped.
    const printing = phase('pdf print', print).catch((error: unknown) => {
      queue.stop();
      throw error;
    });
    const settled = await Promise.allSettled([prepare, printing]);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    try {
      const opened = await printer?.catch(() => undefined);
      if (opened) await closePrinter(opened);
    } finally {
      if (work) await removeTemp(work);
    }
  }

  const info = {
    title: config.meta.title,
    author: [config.meta.dynasty, config.meta.author].filter(Boolean).join(' '),
    subject: config.meta.description,
    language: config.meta.language,
    date: config.meta.date,
  };
  const outline = outlineEntries(planned);
  const bleed = config.page.bleed ? lengthToMm(config.page.bleed) : undefined;
  const assembled = await phase('pdf assemble', () => assemblePdf(parts.map((part, i) => ({ bytes: part, chars: jobs[i].chars })), { info, outline, bleed }));
  let bytes = assembled;
  if (config.pdf && config.pdf.standard !== 'screen') {
    try {
      ({ bytes } = await phase(`pdf standard ${config.pdf.standard}`, () => applyStandard(assembled, config.pdf, { info: { ...info, source: config.sources.join(', ') }, outline, bleed: bleed ?? 0 })));
    } catch (error) {
      if (error instanceof StandardError) throw new PdfError(`${config.meta.id}: pdf: ${config.pdf.standard}: ${error.message}`);
      throw error;
    }
  }
  const text = [...new Set(jobs.flatMap((j) => [...j.chars]))].join('');
  const warnings = config.pdf?.standard === 'print' ? lowResolutionSeals(config.seals) : [];
  return { bytes, warnings, pages: planned.length, uncovered: uncovered(fonts, text), planned, printed: todo.length, reused: jobs.length - todo.length, replayed };
}

/** The bleed of a print file when the edition gives none: what print shops ask for. */
export const PRINT_BLEED = '3mm';

/**
 * The page settings a standard needs: a print file has a bleed (3mm unless
 * the edition says) and its crop marks are drawn outside the bleed by
 * markPrint, not by Paged.js inside it.
 */
export function pageForStandard(config: EditionConfig): EditionConfig {
  if (config.pdf?.standard !== 'print') return config;
  return { ...config, page: { ...config.page, bleed: config.page.bleed ?? PRINT_BLEED, marks: false } };
}

/**
 * Builds the PDF of an edition and writes it to `outPath` atomically
 * (temp file in the same folder, then rename: write.ts).
 */
export async function writePdf(
  layout: BookLayout,
  config: EditionConfig,
  outPath: string,
  options: WritePdfOptions = {},
): Promise<PdfResult> {
  const result = await buildPdf(layout, config, options);
  // A print file's cover: a PDF of its own beside the book, in the same standard (its bleed and marks).
  const cover = config.pdf?.standard === 'print' && config.book?.cover ? await buildPdf(layout, config, { ...options, only: 'cover' }) : undefined;
  const coverPath = outPath.replace(/(\.pdf)?$/i, '.cover.pdf');
  let written: boolean;
  try {
    written = await phase('pdf write', () => writeFileAtomic(outPath, result.bytes, () => killPoint('pdf-output-temp'), options.gate));
    if (written && cover) written = await writeFileAtomic(coverPath, cover.bytes, undefined, options.gate);
  } catch (error) {
    throw new PdfError(`could not write ${outPath}: ${(error as Error).message}`);
  }
  return {
    pages: result.pages,
    bytes: result.bytes.byteLength,
    uncovered: result.uncovered,
    planned: result.planned,
    printed: result.printed,
    reused: result.reused,
    replayed: result.replayed,
    warnings: result.warnings,
    sha256: createHash('sha256').update(result.bytes).digest('hex'),
    written,
    ...(cover ? { cover: { path: coverPath, sha256: createHash('sha256').update(cover.bytes).digest('hex') } } : {}),
  };
}

export { BrowserError };
