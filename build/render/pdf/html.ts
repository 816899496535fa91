/**
 * BookLayout → one HTML document for Chromium.
 *
 * Each laid-out page becomes one block of the page area's exact size
 * (`.pg`, break-after: page, named page recto/verso) with every character
 * absolutely placed in its cell: the grid engine already decided every
 * cell, so nothing here measures text.
 *
 * The body holds light placeholders for Paged.js, which only places blocks
 * on pages and draws the page model: @page size and margins, named pages
 * recto/verso, margin boxes (running heads, folios), bleed and crop marks.
 * The characters (and correction marks) are kept in a JSON island and
 * filled into the placed blocks afterwards (PAGINATE_SCRIPT), so Paged.js's
 * chunker never walks them.
 */
import { needsNoGlyph } from '../../fonts/index.js';
import type { BookLayout, NoteChunk, NoteSegment, Page, TextRun } from '../../layout/types.js';
import { COLLATION_TITLE, workStart } from '../../layout/collation.js';
import type { PunctuationStandard } from '../../punctuation/index.js';
import type { GlyphArt } from '../../gaiji/art.js';
import type { GlyphDrawing } from '../../tree/types.js';
import { drawnHtml, slotsHtml, slotsOf, type CellContext, type DrawnPicture } from './cells.js';
import type { PageGeometry, Side } from './geometry.js';
import type { PdfMeta } from './meta.js';
import type { InkTable } from './ink.js';
import { correctionMarksHtml } from './marks.js';
import { chineseNumeral } from './numerals.js';
import { pathToFileURL } from 'node:url';
import { cssString } from '../escape.js';
import { escapeHtml, fillFields, type Template } from './template.js';
import { annotationsHtml, raisedHtml } from './margins.js';
import { sealsHtml, type PlacedSeal } from './seals.js';
import { bookPartHtml, frontParts, type BookInfo, type BookPart } from './book-parts.js';
import { lengthToMm } from './geometry.js';
import type { BookParts } from '../../tree/edition.js';

/** The placeholder for a character no configured font covers. */
export const MISSING_GLYPH = '〓';

export interface FontSource {
  /** A family name for local(), e.g. `Noto Serif CJK TC`. */
  local?: string;
  /** An absolute font file path, loaded as a file: URL. */
  file?: string;
  /** CSS unicode-range, when the font is for some characters only. */
  unicodeRange?: string;
  /**
   * Set for a font whose glyphs scripts/cff2ttf.py pinned at this vertical
   * origin (em fraction from the baseline, 0.88 for Noto Serif CJK): Chromium
   * puts each of them lower by a known fraction of a pixel (see
   * originCorrectionCss), which the grid's CSS takes back.
   */
  verticalOrigin?: number;
}


export interface RenderOptions {
  meta: PdfMeta;
  template: Template;
  geometry: PageGeometry;
  /** The font stack of the main text (and everything without a face of its own), first wins. */
  fonts: readonly FontSource[];
  /**
   * The roles of the text set in faces of their own (edition.yaml `fonts:`,
   * styles/layers.json `fonts`): `label`, a layer id (zhu, meipi, cepi …),
   * each with its stack (its faces, then the main text's). Sorted by role.
   */
  roleFonts?: ReadonlyArray<{ role: string; fonts: readonly FontSource[] }>;
  /** Whether some configured font draws a code point; uncovered characters print as 〓. */
  covers?: (codePoint: number) => boolean;
  /** CSS bleed (3mm) and crop marks, for print shops (Paged.js draws them). */
  bleed?: string;
  marks?: boolean;
  /**
   * The nonce of the run: the page's Content-Security-Policy lets only a
   * script carrying it run (Paged.js, loaded by engine/pdf.ts); no script at all without one.
   */
  nonce?: string;
  /** The ink of the marks placed by their ink (ink.ts `markInk`); centred ink is assumed without it. */
  ink?: InkTable;
  /** The punctuation standard the pages are set in; renderHtml takes it from the layout's spec. */
  punctuation?: PunctuationStandard;
  /** How labels the source prints are drawn (the layout's spec, from styles/layers.json); renderHtml takes it from the layout. */
  label?: 'yinwen' | 'bracket';
  /** 眉批: places in a lane of the top margin (the layout's PageSpec.meipiCells). */
  meipiCells?: number;
  /** Seals stamped over pages (seals.ts placeSeals). */
  seals?: readonly PlacedSeal[];
  /** The picture of a glyph drawn in its cell (gaiji/art.ts); without it a drawn glyph no font has prints as 〓. */
  glyphArt?: (drawing: GlyphDrawing) => GlyphArt | undefined;
  /** What the book's own pages (cover, title page, 牌記) print. */
  book?: BookInfo;
  /** The ink of the frame, the rules and the 魚尾 (edition.yaml page.frame): red is 朱絲欄. */
  frame?: 'black' | 'red';
}

/**
 * The page's Content-Security-Policy: our scripts only (by nonce), fonts
 * from files, no connection, frame, object, form or base URL. Request
 * interception (engine/browser.ts) stays as a second wall; WebSockets only meet this one.
 */
export function contentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'none'",
    `script-src ${nonce ? `'nonce-${nonce}'` : "'none'"}`,
    "style-src 'unsafe-inline'",
    'font-src file:',
    'img-src file: data:',
    "connect-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** One PDF page: a laid-out page, or a blank one inserted to keep rectos on odd pages. */
export interface PlannedPage {
  page: Page | null;
  side: Side;
  volume: number;
  volumeTitle: string;
  leaf: number;
  /** A page of the volume's front matter (提要), before its leaves count again. */
  front?: boolean;
  /** A page of the book's own (book-parts.ts): the cover, the title page, the 牌記; its volume is -1 before the text, -2 after it. */
  part?: BookPart;
}

export interface RenderedHtml {
  html: string;
  /** PDF page i (0-based) ← planned[i]. */
  planned: PlannedPage[];
}

/** Volume numbers of the book's own pages: before the text and after it. */
export const FRONT_VOLUME = -1;
export const BACK_VOLUME = -2;

/**
 * The PDF's pages in order. A volume starts on a recto (an odd page); where a
 * page's side does not match the parity of its place, a blank page of the
 * other side goes before it. `parts`: the book's own pages (cover and title
 * page before the text, each on a recto with a blank verso after it; the
 * 牌記 on a recto after it); `cover: false` leaves the cover out (printed
 * apart), `only: 'cover'` gives the cover alone.
 */
export function planPages(layout: BookLayout, parts?: BookParts, options: { cover?: boolean; only?: 'cover' } = {}): PlannedPage[] {
  const out: PlannedPage[] = [];
  const own = (part: BookPart | undefined, volume: number): void => {
    out.push({ page: null, side: out.length % 2 === 0 ? 'recto' : 'verso', volume, volumeTitle: '', leaf: 0, ...(part ? { part } : {}) });
  };
  if (options.only === 'cover') {
    if (parts?.cover) own('cover', FRONT_VOLUME);
    return out;
  }
  for (const part of frontParts(parts, options.cover !== false)) {
    own(part, FRONT_VOLUME);
    own(undefined, FRONT_VOLUME);
  }
  for (const volume of layout.volumes) {
    const start = workStart(volume.pages);
    for (const [k, page] of volume.pages.entries()) {
      const want: Side = out.length % 2 === 0 ? 'recto' : 'verso';
      if (page.side !== want) {
        const prev = out[out.length - 1];
        out.push({
          page: null,
          side: want,
          volume: prev?.volume ?? page.volume,
          volumeTitle: prev?.volumeTitle ?? page.volumeTitle,
          leaf: prev?.leaf ?? page.leaf,
        });
      }
      out.push({ page, side: page.side, volume: page.volume, volumeTitle: page.volumeTitle, leaf: page.leaf, ...(k < start ? { front: true } : {}) });
    }
  }
  if (parts?.colophon) {
    if (out.length % 2 === 1) own(undefined, BACK_VOLUME);
    own('colophon', BACK_VOLUME);
  }
  return out;
}

/** 禮經本義卷一 → 卷一 when the volume title repeats the book title. */
export function volumeLabel(volumeTitle: string, bookTitle: string): string {
  const t = volumeTitle.trim();
  if (bookTitle && t.startsWith(bookTitle) && t.length > bookTitle.length) return t.slice(bookTitle.length).trim();
  return t;
}

/**
 * The part of the book a page is in, as the 版心 names it after the title:
 * 提要 (front matter), 校勘記, or the volume (卷一); nothing when the volume
 * is the whole work (its title the book's), so that the title is never said twice.
 */
export function partLabel(p: Pick<PlannedPage, 'page' | 'volumeTitle' | 'front'>, bookTitle: string): string {
  if (p.front) return '提要';
  if (p.page?.collation) return COLLATION_TITLE;
  const label = volumeLabel(p.volumeTitle, bookTitle);
  return label === bookTitle.trim() ? '' : label;
}

const mm = (x: number): string => `${Math.round(x * 1000) / 1000}mm`;

/** The @font-face rules of the stack; the names and paths an edition gives are CSS-escaped (they sit in <style>). */
function fontFaceCss(fonts: readonly FontSource[], prefix = 'diaoban'): { css: string; families: string } {
  const rules: string[] = [];
  const names: string[] = [];
  fonts.forEach((f, i) => {
    const src: string[] = [];
    if (f.local) src.push(`local(${cssString(f.local)})`);
    if (f.file) src.push(`url(${cssString(pathToFileURL(f.file).href)})`);
    if (src.length === 0) return;
    const name = `${prefix}-${i}`;
    names.push(cssString(name));
    const range = f.unicodeRange ? `unicode-range:${f.unicodeRange};` : '';
    rules.push(`@font-face{font-family:${cssString(name)};src:${src.join(',')};${range}font-display:block}`);
  });
  return { css: rules.join('\n'), families: names.join(',') };
}

/** The geometry as CSS: page rules, the block, column and cell positions. */
export function geometryCss(g: PageGeometry, options: Pick<RenderOptions, 'bleed' | 'marks'>): string {
  const out: string[] = [];
  const box = (b: { top: number; right: number; bottom: number; left: number }): string =>
    `${mm(b.top)} ${mm(b.right)} ${mm(b.bottom)} ${mm(b.left)}`;
  const extra = options.bleed ? `bleed:${options.bleed};${options.marks ? 'marks:crop cross;' : ''}` : '';
  out.push(`@page{size:${mm(g.width)} ${mm(g.height)};margin:${box(g.margins.recto)};${extra}}`);
  for (const side of ['recto', 'verso'] as const) out.push(`@page ${side}{margin:${box(g.margins[side])}}`);
  out.push(`.pg{width:${mm(g.area.width)};height:${mm(g.area.height)}}`);
  out.push(`.pg .col{width:${mm(g.colWidth)};top:${mm(g.gridTop)};height:${mm(g.cells * g.cellHeight)}}`);
  for (const side of ['recto', 'verso'] as const) {
    g.columnRight[side].forEach((r, i) => out.push(`.pg.${side} .c${i}{right:${mm(r)}}`));
    if (g.banxin) out.push(`.pg.${side} .banxin{left:${mm(g.banxin[side].left)};width:${mm(g.banxin[side].width)};top:${mm(g.frame)};bottom:${mm(g.frame)}}`);
  }
  out.push(`.col>i{width:${mm(g.colWidth)};height:${mm(g.cellHeight)};line-height:${mm(g.colWidth)};font-size:${mm(g.fontSize)}}`);
  out.push(`.col>i.n{width:${mm(g.colWidth / 2)};line-height:${mm(g.colWidth / 2)};font-size:${mm(g.noteSize)}}`);
  out.push(`.col>i.s{font-size:${mm(g.noteSize)}}`);
  // A grouped stretch: one cell per character, each glyph centred in its cell.
  out.push(`.col>i.g{height:auto;text-align:start;letter-spacing:${mm(g.cellHeight - g.fontSize)};padding-top:${mm((g.cellHeight - g.fontSize) / 2)}}`);
  out.push(`.col>i.n.g{letter-spacing:${mm(g.cellHeight - g.noteSize)};padding-top:${mm((g.cellHeight - g.noteSize) / 2)}}`);
  for (let c = 0; c < g.cells; c++) out.push(`.r${c}{top:${mm(c * g.cellHeight)}}`);
  out.push(`:root{--frame:${mm(g.frame)};--col:${mm(g.colWidth)};--cell:${mm(g.cellHeight)};--font:${mm(g.fontSize)};--note:${mm(g.noteSize)};--note-shift:${mm(g.noteShift)}}`);
  return out.join('\n');
}

const PX_PER_MM = 96 / 25.4;

/**
 * How far Chromium draws a glyph of a pinned font (FontSource.verticalOrigin)
 * below where its vertical origin says, in mm: without VORG (which Chromium's
 * font sanitizer drops from TrueType fonts) it takes the origin from the
 * glyph's bounds rounded out to whole CSS pixels, and the pinned bounds all
 * start at the origin, so the error is the same for every glyph of a size:
 * ceil(origin × size) − origin × size pixels.
 */
export function originDrop(fontSizeMm: number, verticalOrigin: number): number {
  const px = verticalOrigin * fontSizeMm * PX_PER_MM;
  return (Math.ceil(px - 1e-6) - px) / PX_PER_MM;
}

/** CSS moving the grid's glyphs up by originDrop, when the main font is pinned. */
export function originCorrectionCss(g: PageGeometry, fonts: readonly FontSource[]): string {
  const origin = fonts[0]?.verticalOrigin;
  if (origin === undefined) return '';
  const up = (size: number): string => `translate:0 ${mm(-originDrop(size, origin))}`;
  return [`.col>i{${up(g.fontSize)}}`, `.col>i.n,.col>i.s{${up(g.noteSize)}}`].join('\n');
}

type Covers = (cp: number) => boolean;

const pictures = new WeakMap<GlyphArt, string>();

/** The picture of a drawn glyph where no font prints its character (the list's Unicode character a font has is printed). */
function drawer(covers: Covers | undefined, art: RenderOptions['glyphArt']): CellContext['draw'] {
  if (!art) return undefined;
  return (ch: string, drawing: GlyphDrawing): DrawnPicture | undefined => {
    if (ch !== MISSING_GLYPH && (!covers || covers(ch.codePointAt(0)!))) return undefined;
    const a = art(drawing);
    if (!a) return undefined;
    let url = pictures.get(a);
    if (url === undefined) {
      url = `data:${a.mime};base64,${Buffer.from(a.bytes).toString('base64')}`;
      pictures.set(a, url);
    }
    return { url, inkBox: a.type === 'png' };
  };
}

function glyph(ch: string, covers: Covers | undefined): string {
  if (covers) {
    const cp = ch.codePointAt(0)!;
    if (!needsNoGlyph(cp) && !covers(cp)) return MISSING_GLYPH;
  }
  return escapeHtml(ch);
}

function textRunHtml(run: TextRun, ctx: CellContext): string {
  const style = run.style === 'small' ? 's ' : run.style === 'lacuna' ? 'lac ' : run.style === 'glyph' ? 'gl ' : run.style === 'label' ? (ctx.label === 'yinwen' ? 'lb lbw ' : 'lb ') : '';
  const drawn = run.drawing && drawnHtml(slotsOf(run.start, run.text, run.advances)[0], run.drawing, { cls: style, note: false, grouped: false }, ctx);
  if (drawn) return drawn;
  return slotsHtml(slotsOf(run.start, run.text, run.advances), { cls: style, note: false, grouped: run.style !== 'small', style: run.style, mark: run.mark }, ctx);
}

function segmentsHtml(segments: NoteSegment[], sub: 'R' | 'L', start: number, ctx: CellContext): string {
  let out = '';
  let cell = start;
  for (const seg of segments) {
    const style = seg.style === 'lacuna' ? 'lac ' : seg.style === 'glyph' ? 'gl ' : seg.style === 'label' || seg.style === 'head' ? (ctx.label === 'yinwen' ? 'lb lbw ' : 'lb ') : '';
    const cls = `n ${sub} L-${seg.layer.replace(/[^\w-]/g, '_')}${seg.depth > 1 ? ' d2' : ''} ${style}`;
    const slots = slotsOf(cell, seg.text, seg.advances);
    const drawn = seg.drawing && drawnHtml(slots[0], seg.drawing, { cls, note: true, sub, grouped: false }, ctx);
    out += drawn ?? slotsHtml(slots, { cls, note: true, sub, grouped: true, style: seg.style === 'head' ? 'label' : seg.style, mark: seg.mark }, ctx);
    cell = slots.length > 0 ? slots[slots.length - 1].at + slots[slots.length - 1].advance : cell;
  }
  return out;
}

function noteHtml(chunk: NoteChunk, ctx: CellContext): string {
  // Right sub-column first: the reading order is the document order, so copy and search follow it.
  return segmentsHtml(chunk.right, 'R', chunk.start, ctx) + segmentsHtml(chunk.left, 'L', chunk.start, ctx);
}

/** The grid of one page: columns in reading order, each with its runs. */
export function pageGridHtml(page: Page, g: PageGeometry, covers?: Covers, punctuation: Pick<RenderOptions, 'ink' | 'punctuation' | 'label' | 'glyphArt'> = {}): string {
  const ctx: CellContext = { g, standard: punctuation.punctuation ?? 'none', ink: punctuation.ink ?? {}, show: (ch) => glyph(ch, covers), label: punctuation.label ?? 'yinwen', draw: drawer(covers, punctuation.glyphArt) };
  let out = '';
  for (const column of page.columns) {
    const role = column.role ? ` role-${column.role}` : '';
    out += `<div class="col c${column.index}${role}">`;
    for (const run of column.runs) out += run.type === 'text' ? textRunHtml(run, ctx) : noteHtml(run, ctx);
    out += '</div>';
  }
  return out;
}

function rulesHtml(g: PageGeometry, side: Side): string {
  // 界欄: a rule between neighbouring columns and between the text and the 版心.
  let out = '';
  const rights = g.columnRight[side];
  for (let i = 1; i < rights.length; i++) out += `<b class="rule" style="right:${mm(rights[i])}"></b>`;
  if (g.banxin) {
    const edge = side === 'recto' ? rights[rights.length - 1] + g.colWidth : rights[0];
    out += `<b class="rule bx-rule" style="right:${mm(edge)}"></b>`;
  }
  return out;
}

/** The folio of a page: its number within the volume, counted by leaves (they start again after front matter). */
export function folioOf(page: Pick<Page, 'leaf' | 'side'>): string {
  return chineseNumeral(2 * page.leaf - (page.side === 'recto' ? 1 : 0));
}

/** The running head of a page: the part (volume, 提要, 校勘記) on a recto, the book on a verso (and on a recto of a work in one part); none on a blank page. */
function runningHead(p: PlannedPage, options: RenderOptions): string {
  if (!p.page) return '';
  return p.side === 'recto' ? partLabel(p, options.meta.title) || options.meta.title : options.meta.title;
}

/** The fields page.html may use (fillFields escapes them). */
export function pageFields(p: PlannedPage, options: RenderOptions): Record<string, string> {
  const def = options.template.definition;
  return {
    book: options.meta.title,
    author: options.meta.author,
    heading: def.banxin?.heading ?? '',
    volume: volumeLabel(p.volumeTitle, options.meta.title),
    part: partLabel(p, options.meta.title),
    volumeTitle: p.volumeTitle,
    leaf: chineseNumeral(p.leaf),
    side: p.side,
    runningHead: runningHead(p, options),
    folio: p.page ? folioOf(p.page) : '',
  };
}

/** The filled inside of one page block: template decoration, rules, grid, correction marks; a book part's own page. */
export function pageInnerHtml(p: PlannedPage, options: RenderOptions): string {
  const def = options.template.definition;
  const g = options.geometry;
  if (p.part) {
    const html = options.template.parts?.[p.part];
    return html && options.book ? bookPartHtml(p.part, html, options.book, g, p.side, options.bleed ? lengthToMm(options.bleed) : 0) : '';
  }
  // A blank page of the book's own (behind the cover or the title page) has no frame.
  if (p.volume < 0) return '';
  const decoration = fillFields(options.template.pageHtml, pageFields(p, options));
  const rules = def.rules ? rulesHtml(g, p.side) : '';
  if (!p.page) return decoration + rules;
  // Raised columns open the frame before their characters are drawn; annotations come after the grid (the text layer reads the text first).
  const show = (ch: string): string => glyph(ch, options.covers);
  const marks = p.page.corrections ? correctionMarksHtml(p.page.corrections, p.side, g, def.correctionMark ?? 'circle') : '';
  return (
    decoration +
    rules +
    raisedHtml(p.page, g, p.side) +
    pageGridHtml(p.page, g, options.covers, options) +
    marks +
    annotationsHtml(p.page, g, p.side, g.margins[p.side].top, options.meipiCells ?? 4, show) +
    sealsHtml(p.page.number, g, p.side, options.seals ?? [])
  );
}

/** The strings of a page's margin boxes — book, volume, folio (the page within the volume, counted by leaves); all empty on a blank page. */
function marginStrings(p: PlannedPage, options: RenderOptions): { book: string; volume: string; folio: string } {
  if (!p.page) return { book: '', volume: '', folio: '' };
  return { book: options.meta.title, volume: partLabel(p, options.meta.title) || options.meta.title, folio: folioOf(p.page) };
}

/**
 * What Paged.js sees of a page: the block and the named strings for the
 * margin boxes. The folio is a string from the layout rather than
 * counter(page): Chromium keeps a page-counter reset on one page only, and
 * the volumes are printed in separate runs.
 */
function placeholderHtml(p: PlannedPage, i: number, options: RenderOptions, first: boolean): string {
  const strings = marginStrings(p, options);
  const cls = `pg ${p.side}${p.page ? '' : ' blank'}${p.part ? ` part part-${p.part}` : ''}${first ? ' vstart' : ''}`;
  return `<div class="${cls}" data-i="${i}"><span class="rh-book">${escapeHtml(strings.book)}</span><span class="rh-volume">${escapeHtml(strings.volume)}</span><span class="rh-folio">${escapeHtml(strings.folio)}</span></div>`;
}

/** Keeps a JSON island safe inside <script>. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The options with the punctuation standard the layout was set in (renderRun and renderHtml take it from the layout's spec). */
export function withPunctuation(layout: BookLayout, given: RenderOptions): RenderOptions {
  const standard = layout.spec.punctuation?.standard;
  return {
    ...given,
    punctuation: given.punctuation ?? (standard === 'auto' ? undefined : standard),
    label: given.label ?? layout.spec.label?.form,
    meipiCells: given.meipiCells ?? layout.spec.meipiCells,
  };
}

/**
 * The document a browser tab loads once a build: the page's language, title
 * and Content-Security-Policy (our nonce-carrying scripts only), an empty
 * body. Each run is put into it (its style and body: RunParts) and paginated
 * there, so that a tab loads the document and Paged.js once, not once a run.
 */
export function renderShell(options: Pick<RenderOptions, 'meta' | 'nonce'>): string {
  const csp = `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(options.nonce))}">`;
  return `<!doctype html>\n<html lang="${escapeHtml(options.meta.language)}"><head><meta charset="utf-8">${csp}<title>${escapeHtml(options.meta.title)}</title></head>\n<body></body></html>\n`;
}

/** What a browser run puts into the shell: its stylesheet (fonts, page model, grid), its body's class and its body. */
export interface RunParts {
  css: string;
  bodyClass: string;
  /** The placeholders Paged.js places (a <template>) and the pages' filling (a JSON island) that PAGINATE_SCRIPT puts in them. */
  body: string;
  /** Every character the run prints (grid, decoration, margin boxes): what its fonts must draw, what its ToUnicode maps may name. */
  chars: Set<string>;
  /** What Paged.js paginates: the placeholders (with the run's style, all its pages depend on; the filling plays no part). */
  placeholders: string;
  /** The pages' filling as the JSON island holds it (REPLAY_SCRIPT puts it into pages Paged.js made before). */
  fills: string;
}

/** The elements a role's face sets: a layer's note characters, 眉批 or 側批, labels (last: a label in a note takes the label's face). */
export function roleSelector(role: string): string {
  if (role === 'label') return '.col>i.lb';
  if (role === 'meipi' || role === 'cepi') return `.pg>i.an-${role}`;
  return `.col>i.L-${role.replace(/[^\w-]/g, '_')}`;
}

/** The roles in the order their rules must stand: labels after the layers they sit in. */
const roleOrder = (a: { role: string }, b: { role: string }): number => Number(a.role === 'label') - Number(b.role === 'label') || (a.role < b.role ? -1 : a.role > b.role ? 1 : 0);

/** The @font-face rules and font-family of each role with a face of its own, and the origin correction of its note-size glyphs. */
function roleFontCss(options: RenderOptions): string {
  return [...(options.roleFonts ?? [])]
    .sort(roleOrder)
    .map(({ role, fonts }, k) => {
      const faces = fontFaceCss(fonts, `diaoban-r${k}`);
      const origin = fonts[0]?.verticalOrigin;
      const grid = role !== 'meipi' && role !== 'cepi';
      const up = origin !== undefined && grid ? `translate:0 ${mm(-originDrop(options.geometry.noteSize, origin))};` : '';
      return `${faces.css}\n${roleSelector(role)}{font-family:${faces.families || 'inherit'};${up}}`;
    })
    .join('\n');
}

/** A run's stylesheet: its fonts, the template's CSS and the geometry (@page size, margins, named pages, bleed and marks). */
export function runCss(options: RenderOptions): string {
  const fonts = fontFaceCss(options.fonts);
  return [
    fonts.css,
    options.template.baseCss,
    `body{font-family:${fonts.families || 'serif'}}`,
    geometryCss(options.geometry, options),
    originCorrectionCss(options.geometry, options.fonts),
    options.template.css,
    roleFontCss(options),
  ].join('\n');
}

/**
 * The characters each role with a face of its own prints on these pages
 * (its stack is subset to them; the main text's stack gets every character
 * of the run): a layer's note characters, labels, 眉批 and 側批.
 */
export function roleCharacters(planned: readonly PlannedPage[], roles: readonly string[]): Map<string, Set<string>> {
  const out = new Map(roles.map((r) => [r, new Set<string>(['〓'])]));
  const add = (role: string, text: string): void => {
    const set = out.get(role);
    if (set) for (const ch of text) set.add(ch);
  };
  for (const p of planned) {
    for (const column of p.page?.columns ?? []) {
      for (const run of column.runs) {
        if (run.type === 'text') {
          if (run.style === 'label') add('label', run.text);
          continue;
        }
        for (const seg of [...run.right, ...run.left]) {
          add(seg.layer, seg.text);
          if (seg.style === 'label' || seg.style === 'head') add('label', seg.text);
        }
      }
    }
    for (const a of p.page?.annotations ?? []) for (const piece of a.pieces) add(a.kind, piece.text);
  }
  return out;
}

/** A page's filling (pageInnerHtml) and the distinct characters it prints. */
export interface PageFill {
  html: string;
  chars: string;
}

export function pageFill(p: PlannedPage, options: RenderOptions): PageFill {
  const html = pageInnerHtml(p, options);
  // The decoration (版心) and the grid, as text.
  return { html, chars: [...new Set(html.replace(/<[^>]*>/g, ''))].join('') };
}

/**
 * A run's body (its pages: placeholders and filling) and the characters it
 * prints; `options` as withPunctuation gives them. The fonts play no part.
 * `fillOf` gives the filling of the run's page `index` (the CLI's remembers pages between builds).
 */
export function runBody(options: RenderOptions, planned: readonly PlannedPage[], fillOf: (p: PlannedPage, index: number) => PageFill = (p) => pageFill(p, options)): Omit<RunParts, 'css'> {
  const isFirst = (i: number): boolean => i === 0 || planned[i - 1].volume !== planned[i].volume;
  const placeholders = planned.map((p, i) => placeholderHtml(p, i, options, isFirst(i))).join('\n');
  const filled = planned.map(fillOf);
  const fills = filled.map((f) => f.html);
  const chars = new Set<string>();
  const add = (text: string): void => {
    for (const c of text) chars.add(c);
  };
  add(options.meta.title);
  add(options.template.definition.banxin?.heading ?? '');
  planned.forEach((p, i) => {
    add(p.volumeTitle);
    const strings = marginStrings(p, options);
    add(strings.book + strings.volume + strings.folio);
    add(filled[i].chars);
  });
  const fillJson = jsonForScript(fills);
  const body = `<template id="diaoban-pages">\n${placeholders}\n</template>\n` + `<script type="application/json" id="diaoban-fill">${fillJson}</script>`;
  return { bodyClass: `tpl-${options.template.definition.name}${options.frame === 'red' ? ' frame-red' : ''}`, body, chars, placeholders, fills: fillJson };
}

/** A browser run: its parts (`planned`: its pages). */
export function renderRun(layout: BookLayout, given: RenderOptions, planned: readonly PlannedPage[]): RunParts {
  const options = withPunctuation(layout, given);
  return { css: runCss(options), ...runBody(options, planned) };
}

/**
 * The HTML of a book, or of some of its planned pages (one browser run of
 * several), as one document: the shell with the run's style and body (what
 * a tab holds once the run is put into it). `planned` defaults to all pages.
 */
export function renderHtml(layout: BookLayout, given: RenderOptions, planned: PlannedPage[] = planPages(layout)): RenderedHtml {
  const run = renderRun(layout, given, planned);
  const html = renderShell(given)
    .replace('</head>', `\n<style>\n${run.css}\n</style></head>`)
    .replace('<body></body>', `<body class="${run.bodyClass}">\n${run.body}\n</body>`);
  return { html, planned };
}

/**
 * The end of PAGINATE_SCRIPT and REPLAY_SCRIPT (in the page, with `fills`,
 * the run's pages' filling): each placed block filled, then the run's faces
 * loaded. Printing needs the faces loaded, not the filled pages laid out on
 * screen first (document.fonts.ready lays every page out once more before
 * print does: ~5-10 % of a run; the bytes printed are the same).
 */
const FILL_PAGES = `  for (const block of document.querySelectorAll('.pagedjs_page .pg[data-i]')) {
    block.insertAdjacentHTML('beforeend', fills[Number(block.dataset.i)]);
  }
  await Promise.allSettled([...document.fonts].filter((f) => f.status !== 'loaded' && f.status !== 'error').map((f) => f.load()));
  // Drawn glyphs' pictures (a mask each: cells.ts drawnHtml) loaded before print, so that none prints blank
  // (decode() waits for a tab in the foreground: load events do not).
  const pictures = new Set([...document.querySelectorAll('.pagedjs_page i.gi')].map((e) => e.style.getPropertyValue('--gi').trim().slice(4, -1)));
  await Promise.all([...pictures].map((url) => new Promise((done) => { const img = new Image(); img.onload = img.onerror = done; img.src = url; })));`;

/**
 * Runs in the browser after paged.js is loaded and a run put in the page:
 * paginates the placeholders, then fills each placed block with its
 * characters. Resolves to the number of pages Paged.js made.
 */
export const PAGINATE_SCRIPT = `(async () => {
  const Paged = window.Paged;
  const source = document.getElementById('diaoban-pages');
  const fillIsland = document.getElementById('diaoban-fill');
  const fills = JSON.parse(fillIsland.textContent);
  fillIsland.remove();
  const content = source.content;
  source.remove();
  await document.fonts.ready;
  // A finished page is hidden until the end, so that laying out the next one reflows little (registered once a document).
  if (!window.diaobanHandlers) {
    class HideFinishedPages extends Paged.Handler {
      afterPageLayout(pageElement) { pageElement.style.display = 'none'; }
    }
    Paged.registerHandlers(HideFinishedPages);
    window.diaobanHandlers = true;
  }
  const previewer = new Paged.Previewer();
  // Paged.js waits for an animation frame (16.7 ms) between pages; nobody watches this tab.
  // A message tick, unlike setTimeout, is not clamped to 4 ms.
  const channel = new MessageChannel();
  const ticks = [];
  channel.port1.onmessage = () => ticks.shift()();
  previewer.chunker.q.tick = (fn) => { ticks.push(fn); channel.port2.postMessage(0); };
  const flow = await previewer.preview(content, undefined, document.body);
  for (const page of document.querySelectorAll('.pagedjs_page')) page.style.display = '';
  // What Paged.js made, before the filling, when asked (REPLAY_SCRIPT puts it back): its styles as the page has
  // them (the rules it inserted included), the body's attributes and markup.
  window.diaobanPaged = window.diaobanKeepPages
    ? {
        total: flow.total,
        styles: [...document.head.querySelectorAll('style')].map((el) => ({ attributes: [...el.attributes].map((a) => [a.name, a.value]), css: [...el.sheet.cssRules].map((r) => r.cssText).join('\\n') })),
        attributes: [...document.body.attributes].map((a) => [a.name, a.value]),
        body: document.body.innerHTML,
      }
    : undefined;
${FILL_PAGES}
  return flow.total;
})()`;

/**
 * Puts back the pages Paged.js made for a run with the same style and
 * placeholders (what PAGINATE_SCRIPT kept: a fix that changed a page's
 * characters and not the run's pagination), fills them with this run's
 * characters and loads the run's faces. Resolves to the number of pages.
 * Called with the kept pages and the filling (RunParts.fills).
 */
export const REPLAY_SCRIPT = `async (paged, fillJson) => {
  const fills = JSON.parse(fillJson);
  for (const old of document.head.querySelectorAll('style, link')) old.remove();
  for (const style of paged.styles) {
    const el = document.createElement('style');
    for (const [name, value] of style.attributes) el.setAttribute(name, value);
    el.textContent = style.css;
    document.head.append(el);
  }
  const fresh = document.createElement('body');
  for (const [name, value] of paged.attributes) fresh.setAttribute(name, value);
  fresh.innerHTML = paged.body;
  document.body.replaceWith(fresh);
${FILL_PAGES}
  return paged.total;
}`;
