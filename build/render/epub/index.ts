/**
 * EPUB 3 renderer: document tree → EPUB bytes. Pure: no file system, no
 * clock, no randomness (fonts come in as bytes or from a provider).
 */
import { createHash } from 'node:crypto';
import type { Chapter, Options } from 'epub-gen-memory';
import { coverage } from '../../fonts/coverage.js';
import { assignCharacters, subsetFonts } from '../../fonts/subset.js';
import { convertText } from '../../transform/script.js';
import { cssString, xmlChars } from '../escape.js';
import type { FontProvider, LoadedFont, SubsetFont } from '../../fonts/types.js';
import type { EditionMeta, LayerId, Root } from '../../tree/types.js';
import { reflowClasses } from '../../punctuation/index.js';
import { EPUB_ASSETS } from './assets.js';
import { coverPng } from './cover.js';
import { creditLine, joinLegendSources, LEGEND_FILE, LEGEND_NOTES_FILE, LEGEND_NOTES_TITLE, legendPage, titlePage } from './front.js';
import { buildPackage } from './package.js';
import type { EpubOptions, TocEntry } from './types.js';
import { layerName, renderVolume, UNLABELLED_LAYERS, VOCAB_PREFIX, type Drawable, type VolumeDocument } from './xhtml.js';
import { accessibilityMetadata } from './a11y.js';
import { FONTS_PAGE_TITLE, fontsPage } from './licence.js';
import { ncxNavigation } from './ncx.js';
import { layerCss, sortLayers } from './layers.js';
import { emphasisCharacters, emphasisCss } from './marks.js';

export type { EpubOptions, EpubSeal, TocEntry } from './types.js';
export { bookDate, dateFromSourceDateEpoch } from './date.js';
export { epubSeals, placeSeals, type BookImage } from './seals.js';
import { placeSeals } from './seals.js';
import { glyphArtMaker, type GlyphArt } from '../../gaiji/art.js';
import type { GlyphDrawing } from '../../tree/types.js';
import { bookDate } from './date.js';
export { renderVolume, volumeFilename, inlineText } from './xhtml.js';
export { LAYER_LABELS, layerLabel } from './layers.js';
export { popupLayersFromOption, DEFAULT_POPUP_LAYERS } from './notes-option.js';
export { printPageList, volumeStarts, sourcePageList, printedPageNumber, volumeUnits, pageStarts, type PageList, type PageBreak, type PageLabelStyle } from './pages.js';

/** The nav's page-list heading. */
const PAGE_LIST_TITLE = '頁碼';

/** The package language: the edition's, made explicit about the script (zh-Hant for traditional). */
export function packageLanguage(meta: EditionMeta): string {
  const lang = meta.language || 'zh';
  if (/-Han[st]\b/i.test(lang)) return lang;
  if (/^zh\b/i.test(lang)) return `zh-${meta.script === 'traditional' ? 'Hant' : 'Hans'}${lang.slice(2)}`;
  return lang;
}

/** A urn:uuid derived from the edition (UUID v5 layout over SHA-1), stable across builds. */
export function editionIdentifier(meta: EditionMeta): string {
  const h = createHash('sha1').update(['diaoban', meta.id, meta.title, meta.author, meta.script].join('\u0000')).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}


function isProvider(f: EpubOptions['fonts']): f is FontProvider {
  return typeof f === 'object' && f !== null && 'load' in f && typeof (f as FontProvider).load === 'function';
}

async function resolveFonts(f: EpubOptions['fonts']): Promise<readonly LoadedFont[]> {
  if (!f) return [];
  return isProvider(f) ? f.load() : f;
}

/** Text content of markup (tags dropped, the entities we write decoded): what the fonts must draw. */
function markupText(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * The subsets' file names in the EPUB, in order: the family's ASCII letters
 * and digits, with a hash of the family added where they are empty (楷, 宋)
 * or taken already, so every face has its own, stable name.
 */
export function fontFileNames(subsets: readonly SubsetFont[]): string[] {
  const taken = new Set<string>();
  return subsets.map((f) => {
    const ascii = f.family.replace(/[^A-Za-z0-9]/g, '');
    let base = ascii && !taken.has(ascii.toLowerCase()) ? ascii : `${ascii || 'font'}-${createHash('sha256').update(f.family).digest('hex').slice(0, 8)}`;
    for (let n = 2; taken.has(base.toLowerCase()); n++) base = `${ascii || 'font'}-${n}`;
    taken.add(base.toLowerCase());
    return `${base}.${f.format}`;
  });
}

/** The embedded fonts' family list: each face's parts (subsetFonts) after it, in the stack's order; the edition's names escaped, each one CSS string. */
function bookFamilies(subsets: readonly SubsetFont[], stack: readonly LoadedFont[]): string {
  return [...[...new Set([...subsets.map((f) => f.family), ...stack.map((f) => f.family)])].map(cssString), 'serif'].join(', ');
}

function fontCss(subsets: readonly SubsetFont[], names: readonly string[], stack: readonly LoadedFont[]): string {
  const faces = subsets.map(
    (f, i) =>
      `@font-face {\n  font-family: ${cssString(f.family)};\n  src: url(${cssString(`fonts/${names[i]}`)}) format("${f.format === 'otf' ? 'opentype' : 'truetype'}");\n}`,
  );
  return `${faces.join('\n')}\nhtml {\n  font-family: ${bookFamilies(subsets, stack)};\n}\n`;
}

/**
 * Every string of what the package templates write (the OPF, NCX and nav:
 * title, creator, description, language, labels …) with the characters XML
 * cannot carry as U+FFFD: EJS's `<%= %>` escapes markup, not those.
 */
function xmlValues<T>(value: T): T {
  if (typeof value === 'string') return xmlChars(value) as T;
  if (Array.isArray(value)) return value.map(xmlValues) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, xmlValues(v)])) as T;
  }
  return value;
}

function depth(entries: readonly TocEntry[]): number {
  return entries.reduce((m, e) => Math.max(m, 1 + depth(e.children)), 0);
}

interface ChapterSpec {
  itemId: string;
  filename: string;
  title: string;
  content: string;
  beforeToc: boolean;
  bodyClass: string;
  bodyType: string;
  coverImage: string;
  coverAlt: string;
  /** false: out of the reading order (a volume's notes document, reached by its links). */
  linear: boolean;
}

/**
 * Renders the tree as an EPUB 3 (vertical-rl, rtl page progression), one
 * XHTML document per volume, notes as layered small print or pop-up footnotes.
 */
/** The last cover drawn (~60 ms with resvg): a rebuild's is the same unless the title or the fonts changed. */
let lastCover: { key: string; png: Uint8Array<ArrayBuffer> } | undefined;

function rememberedCover(title: string, credit: string, subsets: readonly SubsetFont[]): Uint8Array<ArrayBuffer> {
  const hash = createHash('sha256').update(JSON.stringify([title, credit]));
  for (const f of subsets) hash.update(f.bytes);
  const key = hash.digest('hex');
  if (lastCover?.key !== key) lastCover = { key, png: coverPng(title, credit, subsets) };
  return lastCover.png;
}

export async function renderEpub(tree: Root, options: EpubOptions = {}): Promise<Uint8Array> {
  const meta = tree.edition;
  const popup = new Set<LayerId>(options.popupLayers ?? []);
  const lang = packageLanguage(meta);
  const date = bookDate(meta, options.date);
  const identifier = editionIdentifier(meta);
  const credit = creditLine(meta);

  // Fonts first: what they draw decides which characters are shown as 〓.
  const stack = await resolveFonts(options.fonts);
  const drawable: Drawable | undefined = stack.length ? coverage(stack) : undefined;
  const pageList = options.pageList;

  const n = tree.children.length;
  const seals = placeSeals(options.seals ?? [], pageList, n);
  // Drawn glyphs: KR-Gaiji's images, compositions from the outlines of their parts in the book's fonts (made when one is drawn).
  let art: ((d: GlyphDrawing) => GlyphArt | undefined) | undefined;
  const artOf = (d: GlyphDrawing): GlyphArt | undefined => (art ??= glyphArtMaker(stack.map((f) => f.bytes)))(d);
  const picture = (d: GlyphDrawing): string | undefined => {
    const a = artOf(d);
    return a && `images/gaiji-${a.name}.${a.type}`;
  };
  const volumes = tree.children.map((v, i) => {
    const render = (): VolumeDocument =>
      renderVolume(v, i, n, { popup, drawable, pages: pageList?.volumes[i] ?? [], layers: tree.layers, collation: options.collation !== false, seals: seals.perVolume[i], picture });
    const doc = options.volumeMemo ? options.volumeMemo(i, render) : render();
    options.onVolume?.(i + 1, n);
    return doc;
  });
  const missing = volumes.flatMap((v) => v.missing.map((m) => ({ ...m, volume: v.title })));
  const pageTargets = volumes.flatMap((v, i) => (pageList?.volumes[i] ?? []).slice(0, v.pageBreaks).map((b) => ({ label: b.label, href: `${v.filename}#${b.id}`, at: b.index })));

  const chapter = (c: Partial<ChapterSpec> & Pick<ChapterSpec, 'itemId' | 'filename' | 'title' | 'content'>): ChapterSpec => ({
    beforeToc: false,
    bodyClass: '',
    bodyType: 'bodymatter',
    coverImage: '',
    coverAlt: '',
    linear: true,
    ...c,
  });
  const legend = legendPage(tree, popup, { source: joinLegendSources(volumes.map((v) => v.legend)), drawable, missing, pages: pageTargets.length ? pageList : undefined, collation: options.collation !== false });
  const front: ChapterSpec[] = [
    chapter({ itemId: 'titlepage', filename: 'titlepage.xhtml', title: meta.title, content: titlePage(meta), beforeToc: true, bodyClass: 'titlepage-page', bodyType: 'frontmatter' }),
    chapter({ itemId: 'legend', filename: LEGEND_FILE, title: '凡例', content: legend.body, beforeToc: true, bodyClass: 'legend-page', bodyType: 'frontmatter' }),
    ...(legend.notes
      ? [chapter({ itemId: 'legend-notes', filename: LEGEND_NOTES_FILE, title: LEGEND_NOTES_TITLE, content: legend.notes, beforeToc: true, bodyClass: 'notes-page legend-page', bodyType: 'frontmatter', linear: false })]
      : []),
  ];
  const bodyClass = `volume-page ${reflowClasses(meta.punctuation, meta.language)}`;
  const body = volumes.flatMap((v) => [
    chapter({ itemId: v.filename.replace(/\.xhtml$/, ''), filename: v.filename, title: v.title, content: v.body, bodyClass }),
    ...(v.notes
      ? [chapter({ itemId: v.notes.filename.replace(/\.xhtml$/, ''), filename: v.notes.filename, title: v.notes.title, content: v.notes.body, bodyClass: `notes-page ${bodyClass}`, bodyType: 'backmatter', linear: false })]
      : []),
    // Read after its volume, as the print's 校勘記 pages are.
    ...(v.collation
      ? [chapter({ itemId: v.collation.filename.replace(/\.xhtml$/, ''), filename: v.collation.filename, title: v.collation.title, content: v.collation.body, bodyClass: `collation-page ${bodyClass}`, bodyType: 'backmatter' })]
      : []),
  ]);
  const tocTitle = '目錄';
  // A nav list may not be empty: a book without volumes points at its title page.
  const tocEntries = volumes.length ? volumes.map((v) => v.toc) : [{ label: meta.title, href: 'titlepage.xhtml', children: [] }];

  const landmarksTitle = '導覽';
  const landmarks = [
    { type: 'cover', href: 'cover.xhtml', label: '封面' },
    { type: 'titlepage', href: 'titlepage.xhtml', label: '書名頁' },
    { type: 'toc', href: 'toc.xhtml', label: tocTitle },
    ...(body.length ? [{ type: 'bodymatter', href: body[0].filename, label: '正文' }] : []),
  ];

  // The fonts' page: the fonts that draw the book's characters, their copyright and licence, the OFL's text.
  const shown = (chs: string): string => [...front, ...body].flatMap((c) => [c.title, markupText(c.content)]).join('') + chs;
  const used = stack.length ? assignCharacters(stack, shown(meta.title + credit)).map((chars, i) => (chars ? stack[i] : undefined)).filter((f) => f !== undefined) : [];
  const back = used.length ? [chapter({ itemId: 'fonts', filename: 'fonts.xhtml', title: FONTS_PAGE_TITLE, content: fontsPage(used), bodyClass: 'fonts-page', bodyType: 'backmatter' })] : [];

  // Fonts: exactly the characters the book shows (bodies, titles, TOC and landmark labels).
  const text = [meta.title, credit, tocTitle, landmarksTitle, PAGE_LIST_TITLE, ...pageTargets.map((p) => p.label), ...landmarks.map((l) => l.label), ...[...front, ...body, ...back].flatMap((c) => [c.title, markupText(c.content)]), emphasisCharacters(volumes.flatMap((v) => [...v.marks]))].join('');
  const subsets = stack.length ? await (options.subset ?? subsetFonts)(stack, text) : [];
  const fontNames = fontFileNames(subsets);

  const coverAlt = [meta.title, credit].filter(Boolean).join('　');
  const cover = new File([rememberedCover(meta.title, credit, subsets)], 'cover.png', { type: 'image/png' });
  const coverPage = chapter({
    itemId: 'cover',
    filename: 'cover.xhtml',
    title: meta.title,
    content: '',
    beforeToc: true,
    bodyClass: 'cover-page',
    bodyType: 'cover',
    coverImage: 'cover.png',
    coverAlt,
  });

  const chapters = [coverPage, ...front, ...body, ...back].map(
    (c): Chapter => ({ ...c, excludeFromToc: false, vocabPrefix: VOCAB_PREFIX }) as Chapter,
  );
  const layersUsed = new Set(volumes.flatMap((v) => [...v.layers]));
  const popupUsed = [...popup].filter((l) => layersUsed.has(l));
  const libraryOptions = {
    title: meta.title,
    author: credit ? [credit] : [],
    publisher: '',
    description: meta.description ?? '',
    cover,
    tocTitle,
    lang,
    date: date.toISOString(),
    // @charset must stay the first thing in the file.
    css: `@charset "UTF-8";\n${fontCss(subsets, fontNames, stack)}${EPUB_ASSETS.css.replace(/^@charset [^;]*;\s*/, '')}\n/* Emphasis marks (marks.ts). */\n${emphasisCss()}\n/* Layers (styles/layers.json). */\n${layerCss(bookFamilies(subsets, stack))}\n`,
    fonts: fontNames.map((name) => ({ filename: name, url: `embedded:${name}` })),
    contentOPF: EPUB_ASSETS.contentOPF,
    tocXHTML: EPUB_ASSETS.tocXHTML,
    tocNCX: EPUB_ASSETS.tocNCX,
    chapterXHTML: EPUB_ASSETS.chapterXHTML,
    prependChapterTitles: false,
    numberChaptersInTOC: false,
    verbose: false,
    version: 3,
    // Our own template variables (epub-gen-memory passes unknown options through to the templates).
    identifier,
    tocEntries,
    tocDepth: Math.max(1, depth(tocEntries)),
    ncx: ncxNavigation(tocEntries, pageTargets, chapters.map((c) => c.filename ?? '')),
    landmarks,
    landmarksTitle,
    a11y: accessibilityMetadata({
      lang,
      script: meta.script,
      layers: sortLayers(layersUsed).map((l) => layerName(l, tree.layers)),
      popup: sortLayers(popupUsed).map((l) => layerName(l, tree.layers)),
      unlabelled: UNLABELLED_LAYERS.filter((l) => layersUsed.has(l)).map((l) => layerName(l, tree.layers)),
      pageSource: pageTargets.length ? pageList?.source : undefined,
      missing: missing.length,
      cover: true,
    }),
    pageTargets,
    pageListTitle: PAGE_LIST_TITLE,
  } satisfies Options & Record<string, unknown>;

  const pictures = new Map<string, GlyphDrawing>();
  for (const v of volumes) for (const p of v.pictures ?? []) pictures.set(p.href, p.drawing);
  const glyphImages = [...pictures].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([href, d]) => {
    const a = artOf(d);
    return a ? [{ href, mediaType: a.mime, bytes: a.bytes }] : [];
  });
  return buildPackage(xmlValues(libraryOptions), xmlValues(chapters), { identifier, date, fontBytes: subsets.map((f) => f.bytes), images: [...seals.images, ...glyphImages] }, options.store);
}
