/**
 * parse: an edition's source files → one document tree. Each file is decoded,
 * its format detected (or forced) and imported; the volumes of all files are
 * joined in the order edition.yaml lists them. Problems are vfile messages on
 * the files; nothing here throws for a user's mistake. Each file gets one
 * message saying what was detected and how much of it, so that a wrong
 * import shows at once.
 */
import type { VFile } from 'vfile';
import type { EditionConfig, SourceFormat } from '../tree/edition.js';
import type { Inline, Root, Volume } from '../tree/types.js';
import { layerLabel } from '../tree/layers.js';
import { decodeSource } from './decode.js';
import { decideDescriptions, decideRunLabels, decideSubcolumns, linkNumberedCommentary } from './decide.js';
import { detectFormatScored, type Detection } from './detect.js';
import { conventionsOf, withOverrides, type FormatConventions } from './formats.js';
import { importDaizhige, importWikisource, type ImportResult, type SourceMeta } from './importers/corpus.js';
import { importLines } from './importers/lines.js';
import { importDocsify, importMarkdown, importSiteMarkdown, importWikisourceMarkdown } from './importers/markdown.js';
import { importVerse } from './importers/verse.js';
import { isPrivateUse } from './inline.js';
import { createSource, type Source } from './source.js';
import { nameTable, own } from '../tree/append.js';
import { authorOf, findTitle, isTitle, type Contributor, type TitleFinding } from './title.js';

export { detectFormat, detectFormatScored, type Detection } from './detect.js';
export { defaultEdition, parseCharmap, parseEditionYaml } from './edition.js';
export { FORMATS, FORMAT_NAMES, conventionsOf } from './formats.js';

type Importer = (src: Source, fallbackTitle: string, conv: FormatConventions) => ImportResult;

const IMPORTERS: Record<SourceFormat, Importer> = {
  kanripo: importLines,
  chtxt: importLines,
  guoxue: importLines,
  bracketed: importLines,
  'pandoc-txt': importLines,
  'wikisource-md': importWikisourceMarkdown,
  'site-md': importSiteMarkdown,
  daizhige: importDaizhige,
  wikisource: importWikisource,
  docsify: importDocsify,
  verse: importVerse,
  markdown: importMarkdown,
};

/** How much of each kind of markup a source had: what `check` states and `init` writes down. */
export interface SourceStats {
  notes: number;
  /** Note characters by layer id. */
  layers: Record<string, number>;
  commentaryParagraphs: number;
  pageAnchors: number;
  lineAnchors: number;
  entities: number;
  compositions: number;
  privateUse: number;
  volumes: number;
  headings: number;
}

export interface ParsedSource {
  file: VFile;
  format: SourceFormat;
  encoding: string;
  volumes: Volume[];
  meta: SourceMeta;
  stats: SourceStats;
  /** How the format was chosen: detected (with its scores) or forced (`--format`, `format:`). */
  detection?: Detection | 'forced';
  /** The decoded text, for the import report (`check --json`). */
  text?: string;
  /** The importer read the file's lines as the print's columns (importers/lines.ts). */
  printColumns?: boolean;
  /** The work's title and byline as the text gives them (title.ts), when it does. */
  titleFinding?: TitleFinding | null;
}

export interface ParseOptions {
  format?: SourceFormat;
  encoding?: string;
  conventions?: EditionConfig['conventions'];
}

function countInline(nodes: readonly Inline[], stats: SourceStats, layer: string | null): void {
  for (const n of nodes) {
    switch (n.type) {
      case 'note':
        stats.notes++;
        countInline(n.children, stats, n.layer);
        break;
      case 'anchor':
        if (n.kind === 'page') stats.pageAnchors++;
        else stats.lineAnchors++;
        break;
      case 'glyph':
        if (n.entity) stats.entities++;
        else if (n.description) stats.compositions++;
        else if (n.codePoint !== undefined && isPrivateUse(n.codePoint)) stats.privateUse++;
        if (layer) stats.layers[layer] = (own(stats.layers, layer) ?? 0) + 1;
        break;
      case 'text':
      case 'lacuna':
        if (layer) stats.layers[layer] = (own(stats.layers, layer) ?? 0) + Array.from(n.value.replace(/[\s\u3000]/gu, '')).length;
        break;
      default:
        if ('children' in n) countInline(n.children as Inline[], stats, layer);
    }
  }
}

export function sourceStats(volumes: readonly Volume[]): SourceStats {
  const stats: SourceStats = { notes: 0, layers: nameTable<number>(), commentaryParagraphs: 0, pageAnchors: 0, lineAnchors: 0, entities: 0, compositions: 0, privateUse: 0, volumes: volumes.length, headings: 0 };
  for (const v of volumes) {
    for (const b of v.children) {
      if (b.type === 'heading') stats.headings++;
      const commentary = b.type === 'paragraph' && b.role === 'commentary' ? (b.layer ?? 'zhu') : null;
      if (commentary) stats.commentaryParagraphs++;
      countInline(b.children, stats, commentary);
    }
  }
  return stats;
}

/** `kanripo: 412 notes in (…) …`: one line for `check`. */
export function describeSource(format: SourceFormat, encoding: string, stats: SourceStats, conv: FormatConventions): string {
  const parts: string[] = [];
  const brackets = conv.inline.notes.map((n) => `${n.open}…${n.close}`).join(' ');
  parts.push(`${stats.notes} notes${brackets ? ` in ${brackets}` : ''}`);
  const layers = Object.entries(stats.layers).sort((a, b) => b[1] - a[1]);
  if (layers.length > 0) parts.push(`layers ${layers.map(([id, n]) => `${layerLabel(id)} ${n}`).join(', ')} (characters)`);
  if (stats.commentaryParagraphs) parts.push(`${stats.commentaryParagraphs} commentary paragraphs`);
  if (stats.pageAnchors) parts.push(`${stats.pageAnchors} page markers`);
  if (stats.lineAnchors) parts.push(`${stats.lineAnchors} line ends ${conv.inline.lineAnchor ?? ''}`.trim());
  if (stats.entities) parts.push(`${stats.entities} entities`);
  if (stats.compositions) parts.push(`${stats.compositions} composed characters`);
  if (stats.privateUse) parts.push(`${stats.privateUse} Private Use Area characters`);
  parts.push(`${stats.volumes} volumes, ${stats.headings} headings`);
  return `${format} (${conv.name}, ${encoding}): ${parts.join(', ')}`;
}

/** One source file (its `value` the raw bytes) → volumes. */
export function parseSource(file: VFile, fallbackTitle: string, options: ParseOptions | SourceFormat = {}): ParsedSource {
  const opts: ParseOptions = typeof options === 'string' ? { format: options } : options;
  const bytes = typeof file.value === 'string' ? new TextEncoder().encode(file.value) : (file.value ?? new Uint8Array());
  const decoded = decodeSource(bytes, opts.encoding);
  const src = createSource(file, decoded.text);
  for (const p of decoded.problems) {
    if (p.at) for (const at of p.at) src.report(p.severity, p.reason, at, at + 1, p.ruleId);
    else src.report(p.severity, p.reason, 0, 0, p.ruleId);
  }
  const empty: SourceStats = sourceStats([]);
  if (decoded.text.trim() === '') {
    if (decoded.encoding !== 'binary') src.report('warning', 'the file is empty: there is nothing to set', 0, 0, 'source-empty');
    src.finish();
    return { file, format: opts.format ?? 'daizhige', encoding: decoded.encoding, volumes: [], meta: { data: {} }, stats: empty };
  }
  const detection = opts.format ? 'forced' : detectFormatScored(file.path ?? '', decoded.text);
  const chosen = detection === 'forced' ? (opts.format as SourceFormat) : detection.format;
  // Readings the whole text decides (decide.ts), unless the edition's conventions: say.
  const conv = decideRunLabels(src, decideDescriptions(src, withOverrides(conventionsOf(chosen), opts.conventions), opts.conventions?.descriptions));
  const imported = IMPORTERS[chosen](src, fallbackTitle, conv);
  const meta = imported.meta;
  let volumes = conv.numberedCommentary ? linkNumberedCommentary(src, imported.volumes) : imported.volumes;
  volumes = decideSubcolumns(src, conv, volumes, opts.conventions?.subcolumns);
  const stats = sourceStats(volumes);
  src.report('info', describeSource(chosen, decoded.encoding, stats, conv), 0, 0, 'format-detected');
  src.finish();
  const titleFinding = findTitle(decoded.text, meta?.title);
  return { file, format: chosen, encoding: decoded.encoding, volumes, meta: meta ?? { data: {} }, stats, detection, text: decoded.text, titleFinding, ...(imported.printColumns ? { printColumns: true } : {}) };
}

export interface WorkTitle {
  title: string;
  /** Where it was found: title.ts's sources, `volume` (the first volume's or heading's name), or `edition.yaml`. */
  from: TitleFinding['from'] | 'volume' | 'edition.yaml';
  file?: string;
  line?: number;
  contributors: Contributor[];
  /** Where the byline was found, when another file than the title's gave it. */
  bylineFile?: string;
  bylineLine?: number;
}

/**
 * The work's title and byline from the sources (title.ts first, then the
 * first volume), and where it came from. A whole work's first file may be
 * its front matter (a 提要, a preface): the byline is then the first that
 * a later file gives under the same title (the juan's own byline).
 */
export function workTitle(sources: readonly ParsedSource[]): WorkTitle | undefined {
  const first = sources.find((s) => s.titleFinding);
  if (first?.titleFinding) {
    const found = { ...first.titleFinding, file: first.file.path };
    // The 提要's description of the work (臣等謹案…宋蔡沈撰) only where no juan has its own byline.
    if (found.contributors.length > 0 && !found.bylineFromTiyao) return found;
    const byline = sources.find((s) => s.titleFinding?.title === found.title && s.titleFinding.contributors.length > 0 && !s.titleFinding.bylineFromTiyao);
    return byline?.titleFinding ? { ...found, contributors: byline.titleFinding.contributors, bylineFile: byline.file.path, ...(byline.titleFinding.line ? { bylineLine: byline.titleFinding.line } : {}) } : found;
  }
  // A chapter's name (五帝本紀第一) or a category is no work's name: better none, and `check` says so.
  const title = titleFromSources(sources);
  // Nor a chapter with its part (志第三十六 百官一, from 卷五十五·志第三十六 百官一).
  return title && isTitle(title) && !/[\s\u3000]|第[〇零一二三四五六七八九十百千]+/u.test(title) ? { title, from: 'volume', contributors: [] } : undefined;
}

/**
 * The work's title when edition.yaml gives none (a lone file): the source's
 * metadata, else its first volume or heading — never the file name.
 */
export function titleFromSources(sources: readonly ParsedSource[]): string | undefined {
  for (const s of sources) if (s.meta.title) return s.meta.title;
  for (const s of sources) {
    for (const v of s.volumes) {
      const named = /^(.+?)[·・]/u.exec(v.title);
      if (named && !/[卷巻]/u.test(named[1])) return named[1];
      // A heading names the work only where no other heading stands beside it at its depth (百志詩 of 408 poems names one).
      const depths = new Map<number, number>();
      for (const b of v.children) if (b.type === 'heading') depths.set(b.depth, (depths.get(b.depth) ?? 0) + 1);
      for (const b of v.children) {
        if (b.type !== 'heading' && !(b.type === 'paragraph' && b.role === 'title')) continue;
        if (b.type === 'heading' && (depths.get(b.depth) ?? 0) > 1) continue;
        if (/^(?:欽定四庫全書|钦定四库全书)/u.test(plainOf(b.children))) continue;
        const text = plainOf(b.children).replace(/^(?:[^·・]*[·・])?(?:[卷巻]第?[〇零一二三四五六七八九十百千]+)?[\s\u3000·・]*/u, '');
        if (text) return text.replace(/^(.+?)[卷巻]第?[〇零一二三四五六七八九十百千]+$/u, '$1');
      }
      if (v.title) return v.title;
    }
  }
  return undefined;
}

function plainOf(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.type === 'text' ? n.value : 'children' in n && n.type !== 'note' ? plainOf(n.children as Inline[]) : '')).join('').trim();
}

/**
 * What edition.yaml leaves out and the text gives: the title and the
 * author (the byline's first contributor, with the dynasty), as `init`
 * would write them; the witness a Kanripo text follows (BASEEDITION).
 */
export function fromText(meta: Readonly<EditionConfig['meta']>, sources: readonly ParsedSource[]): Partial<EditionConfig['meta']> {
  const taken: Partial<EditionConfig['meta']> = {};
  const found = !meta.title || !meta.author ? workTitle(sources) : undefined;
  if (!meta.title) taken.title = found?.title ?? '無題';
  // The author, not a commentator the byline names first (周易 王弼注 has none).
  const first = found ? authorOf(found.title, found.contributors) : undefined;
  // A byline found under another title names another work's author.
  if (!meta.author && first && (!meta.title || found?.title === meta.title)) {
    taken.author = first.name;
    if (first.dynasty && !meta.dynasty) taken.dynasty = first.dynasty;
  }
  const witness = sources.map((s) => s.meta.data.baseedition?.trim()).find(Boolean);
  if (!meta.witness && witness) taken.witness = witness;
  return taken;
}

/**
 * All sources of an edition → the document tree. `parse` parses one source
 * (parseSource; a rebuild passes one that remembers sources whose bytes did
 * not change, engine/load-memo.ts): the volumes it gives are not changed here.
 */
export function parseEdition(
  config: EditionConfig,
  files: VFile[],
  format?: SourceFormat,
  parse: (file: VFile, fallbackTitle: string, options: ParseOptions) => ParsedSource = parseSource,
): { tree: Root; sources: ParsedSource[] } {
  const options: ParseOptions = { format: format ?? config.format, encoding: config.encoding, conventions: config.conventions };
  const sources = files.map((file) => parse(file, config.meta.title, options));
  const edition = { ...config.meta, ...fromText(config.meta, sources) };
  const volumes = sources.flatMap((s) => s.volumes).map((v) => (v.title ? v : { ...v, title: edition.title }));
  return { tree: { type: 'root', edition, children: volumes }, sources };
}
