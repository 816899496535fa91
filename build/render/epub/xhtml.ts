/**
 * Tree → XHTML body markup, one document per volume. Pure string building.
 *
 * Shape (the contract the stylesheet, the tests and readers rely on):
 * - main text is plain; an inline note is `<small class="note note-<layer>"
 *   epub:type="diaoban:<layer>" role="note" aria-label="<label>">`, led by
 *   the layer's printed label `<span class="layer-label">〔音義〕</span>`
 *   unless the note's text starts with it (疏曰…) or the layer is 注; notes nest;
 * - a pop-up layer's note becomes `<a class="noteref noteref-<layer>"
 *   epub:type="noteref" role="doc-noteref" href="#fnN">label</a>` in the
 *   text and `<aside id="fnN" … epub:type="footnote" role="doc-footnote">`
 *   gathered after the running text in `<section class="footnotes">`, led by
 *   a backlink `<a class="backlink" role="doc-backlink" href="#fnN-ref">〔疏〕</a>`;
 * - a commentary paragraph is `<p class="commentary note-<layer>" …>` (or an
 *   aside, when its layer pops up, referred to from the block before it);
 * - a character no embedded font draws, or a Private Use Area character,
 *   is 〓 in `<span class="glyph unmapped" title="U+E000">`, as in the PDF;
 * - a page of the page list starts at `<span class="pagebreak"
 *   epub:type="pagebreak" role="doc-pagebreak" id=… aria-label="三a">`.
 * Layers are classes because epub-gen-memory drops data-* attributes.
 */
import { GLYPH_PLACEHOLDER } from '../../layout/index.js';
import type { Annotation, Block, Glyph, GlyphDrawing, Inline, LayerDeclaration, LayerId, Mark, Note, Paragraph, Volume } from '../../tree/types.js';
import { tallyLines } from '../../collate/phrase.js';
import { appMarkup, collationSection, collationState, correctionMarkup, type CollationState } from './collation.js';
import { labelText, layerLabel, layerToken } from './layers.js';
import { isWhitespace, lacunaText, type PageBreak } from './pages.js';
import { chineseNumeral } from '../pdf/numerals.js';
import type { TocEntry } from './types.js';
import { MAY_NEED_ESCAPING, xmlChars } from '../escape.js';
import { legendSource, type LegendSource } from './front.js';

/** The custom vocabulary prefix used for per-layer epub:type values. */
export const VOCAB_PREFIX = 'diaoban: https://diaoban.org/vocab#';

/** The one escaping helper for everything the EPUB writes (text and attribute values). */
export function escapeXml(s: string): string {
  if (!MAY_NEED_ESCAPING.test(s)) return s;
  return xmlChars(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Private Use Area code points: they mean nothing outside the font that defined them. */
export function isPrivateUse(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
}

export const codePointLabel = (cp: number): string => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Whether an embedded font draws a code point. */
export type Drawable = (cp: number) => boolean;

/** Whether the EPUB shows a character as it is (else 〓): not Private Use, and drawn when the fonts are known. */
export function showsAsIs(ch: string, drawable?: Drawable): boolean {
  const cp = ch.codePointAt(0)!;
  return !isPrivateUse(cp) && (!drawable || isWhitespace(ch) || cp < 0x20 || drawable(cp));
}

/** A plain string (a title, a label) with every character drawable: the others as 〓. */
export function displayString(s: string, drawable?: Drawable): string {
  return Array.from(s, (ch) => (showsAsIs(ch, drawable) ? ch : GLYPH_PLACEHOLDER)).join('');
}

/** The text a reader sees for an inline, notes included (glyphs without a mapping as 〓). */
export function inlineText(node: Inline): string {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'lacuna':
      return lacunaText(node.value);
    case 'glyph':
      return glyphText(node);
    case 'small':
    case 'note':
    case 'mark':
    case 'annotation':
    case 'correction':
    case 'app':
      return node.children.map(inlineText).join('');
    case 'anchor':
    case 'raise':
      return '';
  }
}

function glyphText(g: Glyph): string {
  return g.replacement !== undefined && [...g.replacement].some((c) => !isWhitespace(c)) ? g.replacement : (g.drawing?.text ?? GLYPH_PLACEHOLDER);
}

/** How the source writes a glyph, for scholars (a title): the code point, the entity, the description. */
export function glyphSource(g: Glyph): string {
  if (g.codePoint !== undefined) return codePointLabel(g.codePoint);
  if (g.entity) return `&${g.entity};`;
  // As the source writes it: {艹虑}, [女*省].
  if (g.description) return g.value.includes(g.description) ? g.value : `{${g.description}}`;
  return Array.from(g.value, (ch) => (isPrivateUse(ch.codePointAt(0)!) ? codePointLabel(ch.codePointAt(0)!) : ch)).join('');
}

/** Text without notes: for TOC labels. */
export function plainText(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.type === 'note' ? '' : inlineText(n))).join('');
}

export interface RenderContext {
  popup: ReadonlySet<LayerId>;
  /** Corrections marked and listed in a 校勘記 per volume (default true). */
  collation?: boolean;
  /** Whether an embedded font draws a code point; without it only Private Use characters become 〓. */
  drawable?: Drawable;
  /** Where this volume's pages start (unit indices, in order; pages.ts). */
  pages?: readonly PageBreak[];
  /** Layers the sources define, for their labels. */
  layers?: readonly LayerDeclaration[];
  /** Seals of this volume: each after the block in which unit `at` falls (its page's end), else after the text. */
  seals?: readonly VolumeSeal[];
  /** The picture of a drawn glyph (its href in the book), where there is one (gaiji/art.ts); else it is 〓. */
  picture?: (drawing: GlyphDrawing) => string | undefined;
}

/** A seal placed in a volume: after the units before `at`, as the image `href`. */
export interface VolumeSeal {
  at: number;
  href: string;
  name?: string;
}

/** A seal as a block of its own after a paragraph: an image whose alt says what it bears. */
export function sealHtml(s: VolumeSeal): string {
  const alt = s.name ? `印：${s.name}` : '印章';
  return `<div class="seal"><img src="${escapeXml(s.href)}" alt="${escapeXml(alt)}"/></div>`;
}

/** A character shown as 〓: how the source writes it, and how often. */
export interface MissingChar {
  source: string;
  count: number;
}

interface VolumeState {
  ctx: RenderContext;
  /** This volume's document and its notes document (volNN.xhtml, volNN-notes.xhtml): links between them. */
  file: string;
  notesFile: string;
  /** Pop-up notes, gathered in the volume's notes document. */
  footnotes: string[];
  notes: number;
  /** Pop-up notes so far by layer: their numbers (附注一, 附注二 …). */
  numbers: Map<LayerId, number>;
  /** Mark kinds used (their emphasis characters go into the fonts). */
  marks: Set<Mark['kind']>;
  headings: number;
  layers: Set<LayerId>;
  jiao: CollationState;
  /** Units written so far (pages.ts volumeUnits counts the same). */
  count: number;
  nextBreak: number;
  /** >0 inside a pop-up note: its page breaks go after its noteref, in the running text. */
  popupDepth: number;
  deferred: string[];
  missing: Map<string, MissingChar>;
  /** Drawn glyphs' pictures used, by href. */
  pictures: Map<string, GlyphDrawing>;
}

/** The name of a layer as readers know it (the table's, or the one the sources declare). */
export function layerName(layer: LayerId, declared: readonly LayerDeclaration[] = []): string {
  return declared.find((d) => d.id === layer)?.label ?? layerLabel(layer);
}

/** The layer that needs no label: plain small print is 注, as in the print. */
const UNLABELLED: LayerId = 'zhu';
export const UNLABELLED_LAYERS: readonly LayerId[] = [UNLABELLED];

/**
 * The label shown before a note, in 〔〕, so that layers differ without
 * colour: the source's own label, or the layer's name; none for 注, nor where
 * the note's text already starts with it (疏曰…, 附注：…).
 */
export function shownLabel(layer: LayerId, text: string, sourceLabel: string | undefined, declared: readonly LayerDeclaration[] = []): string | undefined {
  const label = sourceLabel ?? (layer === UNLABELLED ? undefined : layerName(layer, declared));
  if (!label) return undefined;
  return text.trimStart().startsWith(label) ? undefined : label;
}

export function pagebreakMarker(b: PageBreak): string {
  const label = escapeXml(b.label);
  return `<span id="${escapeXml(b.id)}" class="pagebreak" epub:type="pagebreak" role="doc-pagebreak" title="${label}" aria-label="${label}"></span>`;
}

/** Page breaks due before the next unit: in place, or deferred while inside a pop-up note. */
function pendingBreaks(st: VolumeState): string {
  const pages = st.ctx.pages ?? [];
  let out = '';
  while (st.nextBreak < pages.length && pages[st.nextBreak].index <= st.count) {
    const m = pagebreakMarker(pages[st.nextBreak++]);
    if (st.popupDepth > 0) st.deferred.push(m);
    else out += m;
  }
  return out;
}

function missingChar(source: string, st: VolumeState): string {
  const m = st.missing.get(source);
  if (m) m.count++;
  else st.missing.set(source, { source, count: 1 });
  return `<span class="glyph unmapped" title="${escapeXml(source)}">${GLYPH_PLACEHOLDER}</span>`;
}

/** Characters of a text, counted as units, with page breaks and 〓 where no font draws them. */
function renderChars(value: string, st: VolumeState): string {
  let out = '';
  for (const ch of value) {
    if (isWhitespace(ch)) {
      out += escapeXml(ch);
      continue;
    }
    out += pendingBreaks(st);
    out += showsAsIs(ch, st.ctx.drawable) ? escapeXml(ch) : missingChar(codePointLabel(ch.codePointAt(0)!), st);
    st.count++;
  }
  return out;
}

function renderGlyph(g: Glyph, st: VolumeState): string {
  const before = pendingBreaks(st);
  st.count++;
  return before + glyphMarkup(g, st);
}

/** A glyph as the text shows it: its character where a font has it, else its picture, else 〓. */
function glyphMarkup(g: Glyph, st: VolumeState): string {
  const source = glyphSource(g);
  if (g.drawing) {
    // The list's character where a font has it, else the picture, its alt text what search and a screen reader get.
    const ch = g.replacement !== undefined && [...g.replacement].length === 1 ? g.replacement : undefined;
    if (ch && showsAsIs(ch, st.ctx.drawable)) return `<span class="glyph" title="${escapeXml(source)}">${escapeXml(ch)}</span>`;
    const href = st.ctx.picture?.(g.drawing);
    if (href) {
      st.pictures.set(href, g.drawing);
      return `<img class="gaiji" src="${escapeXml(href)}" alt="${escapeXml(g.drawing.text)}" title="${escapeXml(source)}"/>`;
    }
    return missingChar(source, st);
  }
  const text = glyphText(g);
  if (text === GLYPH_PLACEHOLDER) return missingChar(source, st);
  const shown = Array.from(text, (ch) => (showsAsIs(ch, st.ctx.drawable) ? escapeXml(ch) : GLYPH_PLACEHOLDER)).join('');
  return `<span class="glyph" title="${escapeXml(source)}">${shown}</span>`;
}

function labelSpan(label: string | undefined): string {
  return label ? `<span class="layer-label" aria-hidden="true">${escapeXml(labelText(label))}</span>` : '';
}

/**
 * A note's layer for machines and its name for screen readers: the label the
 * source prints (a 【注】 the tool files under 案 is 注 to every reader, as
 * it is shown), else the layer's name.
 */
function noteAttributes(layer: LayerId, sourceLabel: string | undefined, st: VolumeState): string {
  return `epub:type="diaoban:${layerToken(layer)}" role="note" aria-label="${escapeXml(sourceLabel ?? layerName(layer, st.ctx.layers))}"`;
}

/** A pop-up note's number within its layer and volume, as its reference and its backlink show it: 附注三. */
function nextNumber(layer: LayerId, st: VolumeState): string {
  const n = (st.numbers.get(layer) ?? 0) + 1;
  st.numbers.set(layer, n);
  return chineseNumeral(n);
}

/** The reference in the text: the note's label and number (附注一), linking into the volume's notes document. */
function renderNoteref(layer: LayerId, id: string, label: string, st: VolumeState): string {
  const t = layerToken(layer);
  return `<a class="noteref noteref-${t}" id="${id}-ref" href="${st.notesFile}#${id}" epub:type="noteref" role="doc-noteref">${escapeXml(label)}</a>`;
}

/**
 * A pop-up note's aside, in the notes document: named by the label it shows,
 * led by a link back to its reference that shows the same label and number.
 */
function renderAside(id: string, cls: string, label: string, inner: string, st: VolumeState): string {
  return (
    `<aside id="${id}" class="${cls} popup" epub:type="footnote" role="doc-footnote" aria-label="${escapeXml(label)}">` +
    `<p><a class="backlink" href="${st.file}#${id}-ref" role="doc-backlink">${escapeXml(labelText(label))}</a>${inner}</p></aside>`
  );
}

/** The label a pop-up note shows (the source's own, else its layer's name) with its number: 附注一. */
function numberedLabel(layer: LayerId, sourceLabel: string | undefined, st: VolumeState): string {
  return `${sourceLabel ?? layerName(layer, st.ctx.layers)}${nextNumber(layer, st)}`;
}

function renderInline(node: Inline, st: VolumeState): string {
  switch (node.type) {
    case 'text':
      return renderChars(node.value, st);
    case 'lacuna':
      return `<span class="lacuna">${renderChars(lacunaText(node.value), st)}</span>`;
    case 'glyph':
      return renderGlyph(node, st);
    case 'small':
      return `<span class="small">${inlines(node.children, st)}</span>`;
    case 'note':
      return renderNote(node, st);
    case 'correction':
      return correctionMarkup(node, node.children.map((c) => renderInline(c, st)).join(''), st.jiao);
    case 'app':
      return appMarkup(node, node.children.map((c) => renderInline(c, st)).join(''), st.jiao);
    case 'mark':
      if (node.kind === 'ruby') return renderRuby(node, st);
      // 著重號, 圈點, 專名號, 書名號: styled beside the text (styles/epub.css, marks.ts).
      st.marks.add(node.kind);
      return `<span class="mark mark-${node.kind}">${node.children.map((c) => renderInline(c, st)).join('')}</span>`;
    case 'annotation':
      return renderAnnotation(node, st);
    case 'raise':
      // 抬頭 inside a note or mark: the words after it start a line of their own (a paragraph's are raised: raisedInlines).
      return `<br class="raise raise-${node.level}"/>`;
    case 'anchor':
      return '';
  }
}

/** The language of a reading in another script than the book's, so that screen readers and hyphenation read it right: pinyin (zh-Latn), 注音 (zh-Bopo). */
function rubyLang(text: string): string {
  if (/\p{Script=Latin}/u.test(text)) return ' lang="zh-Latn"';
  if (/\p{Script=Bopomofo}/u.test(text)) return ' lang="zh-Bopo"';
  return '';
}

/**
 * Ruby as HTML ruby: one `<rt>` a character (注音) or one along the span
 * (a gloss). The annotation is not text of the manuscript's units (page
 * mapping), so it is written as it is, not counted.
 */
function renderRuby(node: Mark, st: VolumeState): string {
  const ruby = node.ruby;
  const base = inlines(node.children, st);
  if (!ruby) return base;
  const readings = ruby.text.trim().split(/\s+/u);
  const plain = node.children.every((c) => c.type === 'text');
  const chars = plain ? Array.from(node.children.map((c) => (c.type === 'text' ? c.value : '')).join('')).filter((c) => !isWhitespace(c)) : [];
  const rt = (text: string): string => `<rp>(</rp><rt${rubyLang(text)}>${escapeXml(text)}</rt><rp>)</rp>`;
  if (ruby.by === 'char' && plain && readings.length === chars.length) {
    return `<ruby class="ruby">${chars.map((c, i) => renderChars(c, st) + rt(readings[i])).join('')}</ruby>`;
  }
  return `<ruby class="ruby">${base}${rt(ruby.text.trim())}</ruby>`;
}

/** 眉批 and 側批: notes of their own layers (note-meipi, note-cepi), inline or pop-up as the edition asks. */
function renderAnnotation(node: Annotation, st: VolumeState): string {
  return renderNote({ type: 'note', layer: node.kind, children: node.children, position: node.position }, st);
}

/** Renders children inside a pop-up (its page breaks deferred); returns the markup and the breaks to write after the noteref. */
function insidePopup(render: () => string, st: VolumeState): { inner: string; after: string } {
  st.popupDepth++;
  const inner = render();
  st.popupDepth--;
  return { inner, after: st.popupDepth === 0 ? st.deferred.splice(0).join('') : '' };
}

function renderNote(note: Note, st: VolumeState): string {
  st.layers.add(note.layer);
  const t = layerToken(note.layer);
  const text = note.children.map(inlineText).join('');
  if (st.ctx.popup.has(note.layer)) {
    const id = `fn${++st.notes}`;
    const label = numberedLabel(note.layer, note.label, st);
    // Reserve the aside's place first so that asides keep reading order even when notes nest.
    const slot = st.footnotes.push('') - 1;
    const ref = renderNoteref(note.layer, id, label, st);
    const { inner, after } = insidePopup(() => inlines(note.children, st), st);
    st.footnotes[slot] = renderAside(id, `note note-${t}`, label, inner, st);
    return ref + after;
  }
  const label = labelSpan(shownLabel(note.layer, text, note.label, st.ctx.layers));
  return `<small class="note note-${t}" ${noteAttributes(note.layer, note.label, st)}>${label}${inlines(note.children, st)}</small>`;
}

function inlines(nodes: readonly Inline[], st: VolumeState): string {
  return nodes.map((n) => renderInline(n, st)).join('');
}

/**
 * A paragraph's inlines with its 抬頭: the words after each raise begin a new
 * line, `<span class="raised raised-N">`, raised by N cells above the
 * paragraph's other lines, which keep room for it (`room`: the highest raise).
 */
function raisedInlines(nodes: readonly Inline[], st: VolumeState): { inner: string; room: number } {
  let room = 0;
  let out = '';
  let open = false;
  for (const n of nodes) {
    if (n.type !== 'raise') {
      out += renderInline(n, st);
      continue;
    }
    room = Math.max(room, n.level);
    if (open) out += '</span>';
    out += `<span class="raised${n.level ? ` raised-${n.level}` : ''}">`;
    open = true;
  }
  return { inner: open ? `${out}</span>` : out, room };
}

/** A rendered block: markup split so that a noteref can still be appended before its end tag. */
interface BlockOut {
  /** Page breaks that fall between the previous block and this one. */
  before: string;
  open: string;
  inner: string;
  close: string;
}

function paragraphClass(p: Paragraph): string {
  if (p.role === 'commentary') return `commentary note-${layerToken(p.layer ?? 'zhu')}`;
  return p.role;
}

export interface VolumeDocument {
  filename: string;
  title: string;
  /** The body markup: the volume's `<section>`. */
  body: string;
  /**
   * The volume's pop-up notes, in a document of their own (volNN-notes.xhtml,
   * out of the reading order): epub.js lands right on links between files,
   * and a reader that hides footnote asides is left no blank page.
   */
  notes?: { filename: string; title: string; body: string };
  /** The volume's 校勘記, when it has corrections: a document of its own after the volume's (volNN-collation.xhtml, in the reading order). */
  collation?: { filename: string; title: string; body: string };
  toc: TocEntry;
  layers: Set<LayerId>;
  /** Characters shown as 〓, by how the source writes them. */
  missing: MissingChar[];
  /** Drawn glyphs shown as pictures: each picture's href and the drawing it is made from (the book ships each once). */
  pictures: Array<{ href: string; drawing: GlyphDrawing }>;
  /** Mark kinds used (marks.ts: the emphasis characters the fonts must draw). */
  marks: ReadonlySet<Mark['kind']>;
  /** Page breaks written. */
  pageBreaks: number;
  /** Units written (equals pages.ts volumeUnits(volume).length). */
  units: number;
  /** What the legend shows of this volume (its layers' first texts, its first correction). */
  legend: LegendSource;
}

/** A volume document as JSON can carry it (its sets and map as arrays), for a build cache on disk. */
export type StoredVolumeDocument = Omit<VolumeDocument, 'layers' | 'marks' | 'legend'> & {
  layers: LayerId[];
  marks: Array<Mark['kind']>;
  legend: Omit<LegendSource, 'layers'> & { layers: Array<[LayerId, string]> };
};

export function storedVolumeDocument(doc: VolumeDocument): StoredVolumeDocument {
  return { ...doc, layers: [...doc.layers], marks: [...doc.marks], legend: { ...doc.legend, layers: [...doc.legend.layers] } };
}

export function revivedVolumeDocument(stored: StoredVolumeDocument): VolumeDocument {
  return { ...stored, layers: new Set(stored.layers), marks: new Set(stored.marks), legend: { ...stored.legend, layers: new Map(stored.legend.layers) } };
}

/** vol01.xhtml … (zero-padded to the width of the volume count, at least 2). */
export function volumeFilename(index: number, count: number): string {
  const width = Math.max(2, String(count).length);
  return `vol${String(index + 1).padStart(width, '0')}.xhtml`;
}

export function volumeLabel(volume: Volume, index: number): string {
  return volume.title || (volume.number !== null ? `卷${volume.number}` : `卷${index + 1}`);
}

export function renderVolume(volume: Volume, index: number, count: number, ctx: RenderContext): VolumeDocument {
  const filename = volumeFilename(index, count);
  const id = filename.replace(/\.xhtml$/, '');
  const st: VolumeState = {
    ctx,
    file: filename,
    notesFile: `${id}-notes.xhtml`,
    footnotes: [],
    notes: 0,
    numbers: new Map(),
    marks: new Set(),
    headings: 0,
    layers: new Set(),
    count: 0,
    nextBreak: 0,
    popupDepth: 0,
    deferred: [],
    missing: new Map(),
    pictures: new Map(),
    jiao: collationState(id, ctx.collation !== false, volume.position),
  };
  st.jiao.glyph = (g) => glyphMarkup(g, st);
  const title = displayString(volumeLabel(volume, index), ctx.drawable);
  const toc: TocEntry = { label: title, href: filename, children: [] };
  // Open TOC entries by heading depth, so that a depth-3 heading nests under the last depth-2 one.
  const open: Array<TocEntry | undefined> = [toc, undefined, undefined, undefined];
  const out: BlockOut[] = [];
  let h1Done = false;
  // Heading levels never skip one (h1 → h3 is an error for assistive technology): a heading is at most one below the last.
  let lastLevel = 1;

  const renderBlock = (block: Block): void => {
    if (block.type === 'heading') {
      const before = pendingBreaks(st);
      const hid = `${id}-h${++st.headings}`;
      const level = Math.min(block.depth + 1, lastLevel + 1);
      lastLevel = level;
      const entry: TocEntry = { label: displayString(plainText(block.children), ctx.drawable), href: `${filename}#${hid}`, children: [], at: st.count };
      let parent: TocEntry = toc;
      for (let d = block.depth - 1; d >= 1; d--) {
        const o = open[d];
        if (o) {
          parent = o;
          break;
        }
      }
      parent.children.push(entry);
      open[block.depth] = entry;
      for (let d = block.depth + 1; d <= 3; d++) open[d] = undefined;
      const inner = inlines(block.children, st);
      out.push({ before, open: `<h${level} id="${hid}" class="heading heading-${block.depth}">`, inner, close: `</h${level}>` });
      return;
    }
    if (block.role === 'commentary' && block.layer !== undefined) st.layers.add(block.layer);
    if (block.role === 'commentary' && block.layer !== undefined && ctx.popup.has(block.layer)) {
      const layer = block.layer;
      const nid = `fn${++st.notes}`;
      const label = numberedLabel(layer, block.label, st);
      const before = pendingBreaks(st);
      const slot = st.footnotes.push('') - 1;
      const noteref = renderNoteref(layer, nid, label, st);
      const { inner, after } = insidePopup(() => inlines(block.children, st), st);
      st.footnotes[slot] = renderAside(nid, paragraphClass(block), label, inner, st);
      const ref = before + noteref + after;
      const prev = out[out.length - 1];
      if (prev) prev.inner += ref;
      else out.push({ before: '', open: '<p class="noteref-anchor">', inner: ref, close: '</p>' });
      return;
    }
    const before = pendingBreaks(st);
    const label =
      block.role === 'commentary' ? labelSpan(shownLabel(block.layer ?? 'zhu', block.children.map(inlineText).join(''), block.label, ctx.layers)) : '';
    const raised = raisedInlines(block.children, st);
    const inner = label + raised.inner;
    if (block.role === 'title' && !h1Done) {
      h1Done = true;
      out.push({ before, open: `<h1 class="title">`, inner, close: '</h1>' });
      return;
    }
    const extra = block.role === 'commentary' ? ` ${noteAttributes(block.layer ?? 'zhu', block.label, st)}` : '';
    const room = raised.room ? ` raise-room-${raised.room}` : '';
    out.push({ before, open: `<p class="${paragraphClass(block)}${room}"${extra}>`, inner, close: '</p>' });
  };
  // A seal follows the block in which its page ends.
  const seals = [...(ctx.seals ?? [])].sort((a, b) => a.at - b.at);
  const placeSeals = (upTo: number): void => {
    while (seals.length && seals[0].at <= upTo) out.push({ before: '', open: '', inner: sealHtml(seals.shift()!), close: '' });
  };
  for (const block of volume.children) {
    renderBlock(block);
    placeSeals(st.count);
  }
  placeSeals(Number.MAX_SAFE_INTEGER);
  const units = st.count;
  // Breaks past the last character: a blank page at the volume's end.
  st.count = Number.MAX_SAFE_INTEGER;
  const tail = pendingBreaks(st);

  // The 校勘記 in its own document after the volume's, as after the PDF's page breaks past its text.
  const jiao = collationSection(st.jiao, tallyLines(volume.collation));
  const blocks = out.map((b) => b.before + b.open + b.inner + b.close).join('\n');
  const section = `<section id="${id}" class="volume" epub:type="chapter" role="doc-chapter" aria-label="${escapeXml(title)}">\n${blocks}${tail}\n</section>`;
  const notesTitle = `${title}　注`;
  const notes = st.footnotes.length
    ? {
        filename: st.notesFile,
        title: notesTitle,
        body: `<section id="${id}-notes" class="footnotes" epub:type="footnotes" aria-label="${escapeXml(notesTitle)}">\n${st.footnotes.join('\n')}\n</section>`,
      }
    : undefined;
  const collation = jiao ? { filename: st.jiao.collationFile, title: `${title}　校勘記`, body: jiao } : undefined;
  return { filename, title, body: section, ...(notes ? { notes } : {}), ...(collation ? { collation } : {}), toc, layers: st.layers, missing: [...st.missing.values()], pictures: [...st.pictures].map(([href, drawing]) => ({ href, drawing })), marks: st.marks, pageBreaks: st.nextBreak, units, legend: legendSource(volume) };
}
