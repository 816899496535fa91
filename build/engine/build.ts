/**
 * `diaoban build` for one edition: load, lay out (each volume with its
 * 校勘記), then the PDF and the EPUB, each written atomically to the output
 * folder. A failure of one output is reported and does not stop the other.
 *
 * Incremental: an edition whose files, options, fonts and tool are as at its
 * last build is not built again; otherwise each volume's layout and each
 * browser run's PDF come from the build cache when what they depend on is
 * unchanged. The manifest of each build (cache kind `manifest`) keeps its
 * pages' content hashes, so a rebuild says which pages changed.
 */
import path from 'node:path';
import type { VFileMessage } from 'vfile-message';
import { layoutVolumeWithCollation, assembleBook, pageSpecFor, resolvePunctuation } from '../layout/index.js';
import type { BookLayout, PageSpec, VolumeLayout } from '../layout/types.js';
// Not render/epub/index.js: it loads epub-gen-memory, which only the EPUB's worker needs.
import { dateFromSourceDateEpoch } from '../render/epub/date.js';
import { popupLayersFromOption } from '../render/epub/notes-option.js';
import { printPageList, sourcePageList, volumeStarts, type PageList } from '../render/epub/pages.js';
import { epubSeals } from '../render/epub/seals.js';
import { pdfMeta, planPages, volumeLabel } from '../render/pdf/index.js';
import { fontStackFor, mainFaces } from '../fonts/index.js';
import type { Root, Volume } from '../tree/types.js';
import type { EditionConfig } from '../tree/edition.js';
import { BuildCache, hashKey, keptTable, toolVersion } from './cache.js';
import { checkUpToDate, defaultCache, restoreMessage, sha256, storeMessage, type UpToDate } from './up-to-date.js';
// What other modules took from here before the up-to-date check had a module of its own.
export { defaultCache, editionDigest, inputKey, manifestKey, restoreMessage, storeMessage } from './up-to-date.js';
import { changedPages, describeChanges, pageRecords, type CollationRecord, type PageRecord, type VolumeChange } from './changes.js';
import { fileStamp, fontDigest, loadFontsOnce } from './fonts-memo.js';
import { renderEpubInThread, warmEpubThread } from './epub-thread.js';
import { loadEdition, type SharedSettings } from './load.js';
import { loadMemo } from './load-memo.js';
import { lazyBrowser } from './lazy-browser.js';
import { countBySeverity, reportLayout } from './report.js';
import { standardName } from './standards.js';
import type { PdfSettings } from '../tree/edition.js';
import { PdfError, loadTemplate, warmPrinter, writePdf, type BrowserSource } from './pdf.js';
import { BrowserError } from './browser.js';
import { removeStale } from './cleanup.js';
import { FONT_CACHE } from './print-fonts.js';
import { ungated, writeFileAtomic, type OutputGate } from './write.js';
import { killPoint } from './kill-point.js';
import { phase } from './timing.js';

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
  /** A progress display per output (the command's: the engine prints nothing); false or absent: none. */
  progress?: false | ProgressFactory;
  /** One browser for all editions of a build (launched when first needed, when a function). */
  browser?: BrowserSource;
  /** Folders outside the edition its files may come from (--allow-read). */
  allowRead?: readonly string[];
  /** The build cache; `false`: none (every step done, nothing kept). Default: .cache/build. */
  cache?: BuildCache | false;
  /** Where font subsets are cached (default .cache/fonts). */
  fontCache?: string;
  /** Build nothing when a file of the edition cannot be read as saved (watch keeps the last good outputs then). */
  stopOnFileErrors?: boolean;
  /** Settings a collection gives every edition that does not set them itself (collection.yaml). */
  shared?: SharedSettings;
  /** The PDF's standard instead of edition.yaml's `pdf:` (`--pdf-standard`). */
  pdfStandard?: PdfSettings;
  /** Lets each output and the manifest be written, or not: a queue worker's, refusing once a later version of the edition is enqueued. */
  gate?: OutputGate;
}

/** Told how far an output is: volumes done of all. */
export type VolumeProgress = (done: number, total: number, title?: string) => void;
/** A progress display for the output labelled `label`, or none. */
export type ProgressFactory = (label: string) => VolumeProgress | undefined;

/** Messages that mean a file of the edition cannot be read as it stands: building would drop it (all corrections, a source). */
export const FILE_ERRORS: ReadonlySet<string> = new Set(['edition-yaml', 'edition-empty', 'edition-missing', 'corrections-yaml', 'file-missing']);

export interface BuildResult {
  /** Every output written. */
  ok: boolean;
  /** An output failed for a reason that is a bug of ours, not the user's input or machine. */
  internal: boolean;
  messages: VFileMessage[];
  /** What was written, for people. */
  lines: string[];
  /** Nothing had changed: the outputs were left as they were. */
  upToDate?: boolean;
  /** The gate refused an output (a later version of the edition is being built): what was refused was left as it was, and no manifest written. */
  superseded?: boolean;
  /** Pages changed since the previous build (absent at the first). */
  changes?: VolumeChange[];
  /** The manifest of this build. */
  manifest?: Manifest;
}

/** What a build leaves for the next one, for diff, check and watch. */
export interface Manifest {
  version: 1;
  edition: string;
  dir: string;
  /** Hash of every input: a build with the same key has nothing to do. */
  inputs: string;
  /** Who and what, for a collection's catalogue. */
  meta: { title: string; author: string; dynasty?: string };
  outputs: { pdf?: OutputRecord; epub?: OutputRecord; cover?: OutputRecord };
  pages: PageRecord[];
  collation: CollationRecord[];
  messages: StoredMessage[];
  ok: boolean;
  lines: string[];
  /** The build before this one (its pages, collation and PDF), for diff. */
  previous?: { pages: PageRecord[]; collation: CollationRecord[]; pdf?: OutputRecord };
}

export interface OutputRecord {
  path: string;
  sha256: string;
  /** Its size and modification time as written (fileStamp): the up-to-date check hashes it again only when they differ. */
  stamp?: string;
  /** The PDF's bytes are kept in the cache (kind `output`) under this key, for diff --html. */
  kept?: string;
}

export interface StoredMessage {
  reason: string;
  file?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  ruleId?: string;
  fatal?: boolean | null;
}

/**
 * Where a volume's pages start in its text, remembered by the volume and its
 * layout: an unchanged volume is the same tree (load-memo.ts) and its pages
 * share their columns with the layout kept for it (assembleBook copies pages,
 * not columns); and in the build cache, by the volume's digest and its
 * layout's key, in one table a book (kind `page-starts`), so that a new
 * process does not walk every volume again to list the pages of one that
 * changed.
 */
const pageStartMemory = new WeakMap<Volume, { columns: unknown; found: VolumeStarts }>();
type VolumeStarts = ReturnType<typeof volumeStarts>;
type StoredStarts = { starts: Array<number | null>; units: number };

/** The PDF's pages as the EPUB's page list: labels as the template prints them (版心 leaf and side, or folio). */
async function printPages(tree: Root, layout: BookLayout, config: EditionConfig, cache: BuildCache | undefined): Promise<PageList> {
  const template = await loadTemplate(config.meta.template);
  const style = template.definition.banxin ? 'leaf' : 'folio';
  const kind = template.definition.banxin ? '四庫全書版式' : '現代版式';
  const table = keptTable<StoredStarts>(cache, 'page-starts', hashKey('page-starts', toolVersion(), config.meta.id));
  const used: string[] = [];
  const startsOf = (volume: Volume, laid: VolumeLayout): VolumeStarts => {
    const columns = laid.pages[0]?.columns;
    const layoutKey = columns ? layoutKeys.get(columns) : undefined;
    const key = layoutKey ? hashKey(volumeDigest(volume), layoutKey) : undefined;
    const known = pageStartMemory.get(volume);
    const stored = key ? table.get(key) : undefined;
    const found =
      known && columns && known.columns === columns && known.found.starts.length === laid.pages.length
        ? known.found
        : stored && stored.starts.length === laid.pages.length
          ? { starts: stored.starts.map((s) => s ?? undefined), units: stored.units }
          : volumeStarts(volume, laid);
    if (key) {
      used.push(key);
      if (!stored) table.set(key, { starts: found.starts.map((s) => s ?? null), units: found.units });
    }
    if (columns) pageStartMemory.set(volume, { columns, found });
    return found;
  };
  const list = printPageList(tree, layout, { style, source: `diaoban PDF 印本（${config.meta.id}.pdf，${kind}）`, startsOf });
  table.keep(used);
  return list;
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


/**
 * A volume's digest (a hash of its JSON: what its layout and EPUB document
 * are keyed by), by the volume: a rebuild's unchanged volumes are the same
 * objects (load-memo.ts shares them and never changes them), so only a
 * changed volume is written out and hashed again.
 */
const volumeDigests = new WeakMap<Volume, string>();
export function volumeDigest(volume: Volume): string {
  let digest = volumeDigests.get(volume);
  if (digest === undefined) volumeDigests.set(volume, (digest = hashKey('volume', JSON.stringify(volume))));
  return digest;
}

/**
 * The page spec with its punctuation resolved (which reads the whole book's
 * text when the standard is left to the text), remembered by the spec, the
 * edition's setting and the volumes' digests.
 */
const resolvedSpecs = new Map<string, PageSpec>();
function resolvedSpec(spec: PageSpec, tree: Root, digests: readonly string[]): PageSpec {
  const key = JSON.stringify([spec, tree.edition.punctuation ?? null, tree.edition.language, digests]);
  let resolved = resolvedSpecs.get(key);
  if (!resolved) {
    if (resolvedSpecs.size >= 8) resolvedSpecs.clear();
    resolvedSpecs.set(key, (resolved = resolvePunctuation(spec, tree)));
  }
  return resolved;
}

/** The cache key of a volume's layout, by its first page's columns (assembleBook copies volumes and pages, not columns). */
const layoutKeys = new WeakMap<object, string>();

/** Layouts of unchanged volumes, kept in memory as well, per cache (a watch session rebuilds the same volumes). */
const layoutMemories = new WeakMap<BuildCache, Map<string, VolumeLayout>>();

/** Each volume laid out with its 校勘記, from the cache when its tree, grid and options are unchanged. */
export async function layoutEditionCached(
  tree: Root,
  volumeDigests: readonly string[],
  spec: PageSpec,
  options: { collation: boolean; numbered: boolean },
  cache: BuildCache | undefined,
): Promise<BookLayout> {
  const salt = hashKey('layout', toolVersion(), JSON.stringify(spec), JSON.stringify(options), tree.edition.language);
  const volumes: VolumeLayout[] = [];
  const used = new Set<string>();
  let layoutMemory = cache ? layoutMemories.get(cache) : undefined;
  if (cache && !layoutMemory) layoutMemories.set(cache, (layoutMemory = new Map()));
  const keys = tree.children.map((_, i) => hashKey(salt, String(i), volumeDigests[i]));
  // The kept layouts read all at once (a new process reads a file a volume: one after another, each waits on the disk).
  const kept = keys.map((key) => (layoutMemory?.get(key) ? undefined : cache?.getJson<VolumeLayout>('layout', key)));
  for (const [i, volume] of tree.children.entries()) {
    const key = keys[i];
    used.add(key);
    let layout = layoutMemory?.get(key) ?? (await kept[i]);
    if (!layout) {
      layout = layoutVolumeWithCollation(volume as Volume, i, spec, { ...options, language: tree.edition.language });
      await cache?.putJson('layout', key, layout);
    }
    layoutMemory?.set(key, layout);
    if (layout.pages[0]) layoutKeys.set(layout.pages[0].columns, key);
    volumes.push(layout);
  }
  if (layoutMemory) for (const key of layoutMemory.keys()) if (!used.has(key) && layoutMemory.size > 4 * used.size) layoutMemory.delete(key);
  return assembleBook(spec, volumes);
}

function collationRecords(layout: BookLayout, planned: ReturnType<typeof planPages>, bookTitle: string): CollationRecord[] {
  const pdfPage = new Map<string, number>();
  planned.forEach((p, i) => {
    if (p.page) pdfPage.set(`${p.volume}:${p.page.pageInVolume}`, i + 1);
  });
  return layout.volumes.flatMap((v) =>
    (v.collation ?? []).map((e) => ({
      volume: v.index,
      volumeLabel: volumeLabel(v.title, bookTitle),
      number: e.number,
      pdfPage: pdfPage.get(`${v.index}:${e.page}`) ?? 0,
      locator: e.locator,
      kind: e.kind,
      old: e.old,
      new: e.new,
      ...(e.note ? { note: e.note } : {}),
      ...(e.witness ? { witness: e.witness } : {}),
      entry: `${e.entry.file}:${e.entry.start.line}:${e.entry.start.column}`,
    })),
  );
}

/** The layout of an edition with its 校勘記, as build lays it out (for check --corrections and diff). */
export async function editionLayout(tree: Root, config: EditionConfig, cache?: BuildCache, digests = tree.children.map((v) => volumeDigest(v as Volume))): Promise<BookLayout> {
  const template = await loadTemplate(config.meta.template);
  const spec = resolvedSpec(pageSpecFor(config.meta.template, config.layout), tree, digests);
  return layoutEditionCached(tree, digests, spec, { collation: config.collation !== 'off', numbered: template.definition.correctionMark === 'number' }, cache);
}

export { collationRecords };

/** `checked`: what checkUpToDate said of the same edition and options just before (the CLI asks it first), not worked out again. */
export async function buildEdition(dir: string, options: BuildOptions, checked?: UpToDate): Promise<BuildResult> {
  const cache = options.cache === false ? undefined : (options.cache ?? defaultCache());
  const { previous, inputs, mKey, result, meta } = checked ?? (await checkUpToDate(dir, options, cache));
  if (result) return result;

  // What killed builds left: temp outputs beside ours, font and cache temps, temp folders (cleanup.ts).
  await removeStale([options.out, options.fontCache ?? FONT_CACHE]);
  // Chromium starts while the edition is read and laid out (a build that prints nothing closes it unused).
  const own = options.targets.pdf && options.browser === undefined ? lazyBrowser() : undefined;
  const browser = options.browser ?? own?.get;
  if (options.targets.pdf && typeof browser === 'function') void browser().catch(() => undefined);
  // …and its tabs load the page shell and Paged.js (the shell needs only edition.yaml's title and language).
  if (options.targets.pdf && browser && meta) void warmPrinter(browser, meta);
  try {
    return await buildLoaded(dir, options, { cache, previous, inputs, mKey, browser });
  } finally {
    await own?.close();
  }
}

async function buildLoaded(
  dir: string,
  options: BuildOptions,
  context: { cache: BuildCache | undefined; previous: Manifest | undefined; inputs: string; mKey: string; browser: BrowserSource | undefined },
): Promise<BuildResult> {
  const { cache, previous, inputs, mKey } = context;
  // The EPUB's worker loads its modules on the other core while this thread loads the edition.
  if (options.targets.epub) warmEpubThread();
  const loaded = await phase('load', () => loadEdition(dir, { allowRead: options.allowRead, shared: options.shared, ...(cache ? { memo: loadMemo(cache) } : {}) }));
  const lines: string[] = [];
  const config = loaded.config && options.pdfStandard ? { ...loaded.config, pdf: options.pdfStandard } : loaded.config;
  if (!config) {
    return { ok: false, internal: false, messages: loaded.messages, lines: [`${dir}: not built: its edition.yaml cannot be read`] };
  }
  if (options.stopOnFileErrors && loaded.messages.some((m) => m.fatal && FILE_ERRORS.has(m.ruleId ?? ''))) {
    return { ok: false, internal: false, messages: loaded.messages, lines: [`${dir}: not built: a file of the edition cannot be read (see above)`] };
  }
  const id = config.meta.id;
  const tree = loaded.tree;
  // Chromium's tabs load the edition's page shell and Paged.js while this thread lays the edition out.
  if (options.targets.pdf && context.browser) void warmPrinter(context.browser, pdfMeta(config.meta));
  const digests = phase('volume digests', () => tree.children.map((v) => volumeDigest(v as Volume)));
  let ok = true;
  let internal = false;
  let superseded = false;
  const refused = (out: string): void => {
    superseded = true;
    lines.push(`${out}: not written: a later version of the edition was enqueued, whose build writes it`);
  };
  const describe = (error: unknown): string => {
    const message = error instanceof Error ? error.message : String(error);
    if (!isInternal(error)) return message;
    internal = true;
    return `internal error: ${message}` + (process.env.DIAOBAN_DEBUG && error instanceof Error ? `\n${error.stack ?? ''}` : '');
  };

  const template = await loadTemplate(config.meta.template);
  const collation = config.collation !== 'off';
  // One layout for both: the PDF is printed from it and the EPUB's page list read from it.
  let layout: BookLayout | undefined;
  let layoutError: unknown;
  try {
    layout = await phase('layout', () => editionLayout(tree, config, cache, digests));
  } catch (error) {
    layoutError = error;
  }
  if (layout) {
    // What the layout says (layout: source: lines wrapped) joins the manuscript's messages.
    const before = loaded.files.reduce((n, f) => n + f.messages.length, 0);
    reportLayout(layout, loaded.files);
    if (loaded.files.reduce((n, f) => n + f.messages.length, 0) > before) loaded.messages = loaded.files.flatMap((f) => f.messages);
  }
  const planned = layout ? planPages(layout, config.book, { cover: config.pdf?.standard !== 'print' }) : [];
  const salt = JSON.stringify([config.meta.template, config.meta.title, config.page, toolVersion()]);
  const outputs: Manifest['outputs'] = {};

  const pdfJob = async (): Promise<void> => {
    const out = path.join(options.out, `${id}.pdf`);
    try {
      if (!layout) throw layoutError;
      const laidOut = layout;
      const result = await phase('pdf', () => writePdf(laidOut, config, out, {
        browser: context.browser,
        cache,
        fontCache: options.fontCache,
        // A rebuild keeps Paged.js's pages of the runs it prints: the editor's next fix is often in the same run.
        keepPages: previous !== undefined,
        onVolume: options.progress ? options.progress(`${id}.pdf `) : undefined,
        ...(options.gate ? { gate: options.gate } : {}),
      }));
      if (!result.written) return refused(out);
      const digest = result.sha256;
      let kept: string | undefined;
      if (cache) {
        // Kept for diff --html (the next build's "before").
        kept = digest;
        await phase('pdf keep', () => cache.keepFile('output', out, digest));
      }
      outputs.pdf = { path: path.resolve(out), sha256: digest, stamp: fileStamp(out), ...(kept ? { kept } : {}) };
      if (result.cover) {
        outputs.cover = { path: path.resolve(result.cover.path), sha256: result.cover.sha256, stamp: fileStamp(result.cover.path) };
        lines.push(`${result.cover.path}: the cover, a file of its own for the printer`);
      }
      const reuse =
        (result.reused > 0 ? `, ${result.reused} of ${result.reused + result.printed} runs from the cache` : '') +
        (result.replayed > 0 ? `, ${result.replayed} printed on the pages Paged.js made before` : '');
      const standard = config.pdf && config.pdf.standard !== 'screen' ? ` (${standardName(config.pdf)})` : '';
      lines.push(`${out}: ${result.pages} pages${standard}${reuse}`);
      for (const warning of result.warnings) lines.push(`${out}: warning: ${warning}`);
    } catch (error) {
      ok = false;
      lines.push(`${out}: not written: ${describe(error)}`);
    }
  };
  const epubJob = async (): Promise<void> => {
    const out = path.join(options.out, `${id}.epub`);
    try {
      let pageList: PageList | undefined;
      try {
        if (options.pages === 'source') pageList = sourcePageList(tree);
        if (!pageList) {
          if (!layout) throw layoutError;
          pageList = await printPages(tree, layout, config, cache);
        }
      } catch (error) {
        // Without the layout the EPUB still has its text; it has no page numbers.
        lines.push(`${out}: no page list: ${describe(error)}`);
      }
      let specs;
      try {
        specs = fontStackFor(mainFaces(config));
      } catch (error) {
        throw new EpubError(`${(error as Error).message} (edition.yaml fonts.main: the EPUB embeds its fonts)`);
      }
      const fonts = await loadFontsOnce(specs);
      // The seals the loader could read, as images after their pages' text.
      const seals = epubSeals(config.seals);
      const sealKey = JSON.stringify(seals.map((s) => [s.page, s.name ?? null, s.data.type, sha256(s.data.bytes)]));
      const epubOptions = {
        popupLayers: popupLayersFromOption(options.notes, config.popupLayers),
        date: dateFromSourceDateEpoch(process.env.SOURCE_DATE_EPOCH) ?? config.meta.date,
        collation,
        ...(pageList ? { pageList } : {}),
      };
      const key = hashKey('epub', toolVersion(), JSON.stringify({ ...tree, children: [] }), ...digests, JSON.stringify(epubOptions), sealKey, ...fonts.map(fontDigest));
      const progress = options.progress ? options.progress(`${id}.epub`) : undefined;
      // In a worker thread, so that Chromium's driver (this thread) is not held up.
      // A volume's document depends on its tree and its pages, and on what every volume shares (the options but the page list, the book's layers, the fonts).
      const { pageList: _pages, ...shared } = epubOptions;
      const volumeSalt = hashKey('epub-volume', toolVersion(), JSON.stringify(shared), sealKey, JSON.stringify(tree.layers ?? null), String(digests.length), ...fonts.map(fontDigest));
      const volumeKeys = digests.map((digest, i) => hashKey(volumeSalt, String(i), digest, JSON.stringify(pageList?.volumes[i] ?? null)));
      const render = (): Promise<Uint8Array> => renderEpubInThread(tree, { ...epubOptions, seals }, specs, cache?.dir, progress, volumeKeys);
      const { bytes, cached } = cache ? await phase('epub', () => cache.memo('epub', key, render)) : { bytes: await render(), cached: false };
      if (!(await writeFileAtomic(out, bytes, () => killPoint('epub-output-temp'), options.gate))) return refused(out);
      outputs.epub = { path: path.resolve(out), sha256: sha256(bytes), stamp: fileStamp(out) };
      lines.push(`${out}: ${(bytes.byteLength / 1024).toFixed(0)} KiB${cached ? ' (from the cache)' : ''}`);
    } catch (error) {
      ok = false;
      lines.push(`${out}: not written: ${describe(error)}`);
    }
  };
  // The EPUB is made in a worker thread while this one drives Chromium.
  await Promise.all([options.targets.pdf ? pdfJob() : undefined, options.targets.epub ? epubJob() : undefined]);
  // The page records (for the changed-pages report) after the outputs: they are not needed to print.
  const pages = pageRecords(planned, config.meta.title, salt, template.definition.correctionMark === 'number');
  if (countBySeverity(loaded.messages).error > 0) lines.push(`${dir}: built, with errors in the manuscript (see above)`);

  killPoint('before-manifest');
  const records = layout ? collationRecords(layout, planned, config.meta.title) : [];
  let changes: VolumeChange[] | undefined;
  if (previous) {
    changes = changedPages(previous.pages, pages);
    lines.push(...describeChanges(changes));
  }
  const manifest: Manifest = {
    version: 1,
    edition: id,
    dir: path.resolve(dir),
    inputs: ok ? inputs : '',
    meta: { title: config.meta.title, author: config.meta.author, ...(config.meta.dynasty ? { dynasty: config.meta.dynasty } : {}) },
    outputs,
    pages,
    collation: records,
    messages: loaded.messages.map(storeMessage),
    ok,
    lines: lines.filter((l) => !/changed \(|^no page changed$/.test(l)),
    ...(previous ? { previous: { pages: previous.pages, collation: previous.collation, ...(previous.outputs.pdf ? { pdf: previous.outputs.pdf } : {}) } } : {}),
  };
  // Superseded, the manifest would record outputs that are not there: the later version's build writes its own.
  const kept = !superseded && (!cache || (await (options.gate ?? ungated)(() => cache.putJson('manifest', mKey, manifest))));
  if (!kept) return { ok, internal, messages: loaded.messages, lines, changes, superseded: true };
  if (cache) await phase('prune', () => cache.prune(Number(process.env.DIAOBAN_CACHE_MAX_MB ?? 1024) * 1024 * 1024));
  return { ok, internal, messages: loaded.messages, lines, changes, manifest };
}
