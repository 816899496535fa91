/**
 * Tree → XHTML body markup, one document per volume. Pure string building.
 *
 * Shape (the contract the stylesheet, the tests and readers rely on):
 * - main text is plain; a note is `<small class="note note-<layer>" …>`;
 *   notes nest;
 * - a pop-up layer's note becomes `<a class="noteref noteref-<layer>"
 *   epub:type="noteref" role="doc-noteref" href="#fnN">label</a>` plus
 *   `<aside id="fnN" class="note note-<layer> popup" epub:type="footnote"
 *   role="doc-footnote">` right after the block that refers to it;
 * - a commentary paragraph is `<p class="commentary note-<layer>">` (or an
 *   aside, when its layer pops up, referred to from the block before it).
 * Layers are classes because epub-gen-memory drops data-* attributes.
 */
import type { Block, Inline, LayerId, Note, Paragraph, Volume } from '../../tree/types.js';
import { layerLabel, layerToken } from './layers.js';
import type { TocEntry } from './types.js';

/** The custom vocabulary prefix used for per-layer epub:type values. */
export const VOCAB_PREFIX = 'diaoban: https://diaoban.org/vocab#';

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The text a reader sees for an inline, notes included. */
export function inlineText(node: Inline): string {
  switch (node.type) {
    case 'text':
    case 'lacuna':
      return node.value;
    case 'glyph':
      return node.replacement ?? node.value;
    case 'small':
    case 'note':
    case 'mark':
    case 'annotation':
    case 'correction':
      return node.children.map(inlineText).join('');
    case 'anchor':
    case 'raise':
      return '';
  }
}

/** Text without notes: for TOC labels. */
export function plainText(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.type === 'note' ? '' : inlineText(n))).join('');
}

export interface RenderContext {
  popup: ReadonlySet<LayerId>;
}

interface VolumeState {
  ctx: RenderContext;
  /** Pop-up notes waiting to be written after the current block. */
  asides: string[];
  notes: number;
  headings: number;
  layers: Set<LayerId>;
}

function noteAttributes(layer: LayerId): string {
  return `epub:type="diaoban:${layerToken(layer)}" role="note"`;
}

function renderNoteref(layer: LayerId, id: string): string {
  const t = layerToken(layer);
  return `<a class="noteref noteref-${t}" id="${id}-ref" href="#${id}" epub:type="noteref" role="doc-noteref">${escapeXml(layerLabel(layer))}</a>`;
}

function renderInline(node: Inline, st: VolumeState): string {
  switch (node.type) {
    case 'text':
      return escapeXml(node.value);
    case 'lacuna':
      return `<span class="lacuna">${escapeXml(node.value)}</span>`;
    case 'glyph':
      return `<span class="glyph">${escapeXml(node.replacement ?? node.value)}</span>`;
    case 'small':
      return `<span class="small">${node.children.map((c) => renderInline(c, st)).join('')}</span>`;
    case 'note':
      return renderNote(node, st);
    case 'mark':
      // 著重號, 圈點, 專名號, 書名號: styled beside the text (styles/epub.css).
      return `<span class="mark mark-${node.kind}">${node.children.map((c) => renderInline(c, st)).join('')}</span>`;
    case 'annotation':
    case 'correction':
      return node.children.map((c) => renderInline(c, st)).join('');
    case 'anchor':
    case 'raise':
      return '';
  }
}

function renderNote(note: Note, st: VolumeState): string {
  st.layers.add(note.layer);
  const t = layerToken(note.layer);
  if (st.ctx.popup.has(note.layer)) {
    const id = `fn${++st.notes}`;
    // Reserve the aside's place first so that asides keep reading order even when notes nest.
    const slot = st.asides.push('') - 1;
    const inner = note.children.map((c) => renderInline(c, st)).join('');
    st.asides[slot] = `<aside id="${id}" class="note note-${t} popup" epub:type="footnote" role="doc-footnote"><p>${inner}</p></aside>`;
    return renderNoteref(note.layer, id);
  }
  return `<small class="note note-${t}" ${noteAttributes(note.layer)}>${note.children.map((c) => renderInline(c, st)).join('')}</small>`;
}

function inlines(nodes: readonly Inline[], st: VolumeState): string {
  return nodes.map((n) => renderInline(n, st)).join('');
}

/** A rendered block: markup split so that a noteref can still be appended before its end tag. */
interface BlockOut {
  open: string;
  inner: string;
  close: string;
  after: string[];
}

function paragraphClass(p: Paragraph): string {
  if (p.role === 'commentary') return `commentary note-${layerToken(p.layer ?? 'zhu')}`;
  return p.role;
}

export interface VolumeDocument {
  filename: string;
  title: string;
  /** The `<section>` markup for the document body. */
  body: string;
  toc: TocEntry;
  layers: Set<LayerId>;
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
  const st: VolumeState = { ctx, asides: [], notes: 0, headings: 0, layers: new Set() };
  const title = volumeLabel(volume, index);
  const toc: TocEntry = { label: title, href: filename, children: [] };
  // Open TOC entries by heading depth, so that a depth-3 heading nests under the last depth-2 one.
  const open: Array<TocEntry | undefined> = [toc, undefined, undefined, undefined];
  const out: BlockOut[] = [];
  let h1Done = false;

  const renderBlock = (block: Block): void => {
    if (block.type === 'heading') {
      const hid = `${id}-h${++st.headings}`;
      const level = block.depth + 1;
      const entry: TocEntry = { label: plainText(block.children), href: `${filename}#${hid}`, children: [] };
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
      out.push({ open: `<h${level} id="${hid}" class="heading heading-${block.depth}">`, inner, close: `</h${level}>`, after: st.asides.splice(0) });
      return;
    }
    if (block.role === 'commentary' && block.layer !== undefined) st.layers.add(block.layer);
    if (block.role === 'commentary' && block.layer !== undefined && ctx.popup.has(block.layer)) {
      const nid = `fn${++st.notes}`;
      const inner = inlines(block.children, st);
      const aside = `<aside id="${nid}" class="${paragraphClass(block)} popup" epub:type="footnote" role="doc-footnote"><p>${inner}</p></aside>`;
      const ref = renderNoteref(block.layer, nid);
      const prev = out[out.length - 1];
      if (prev) {
        prev.inner += ref;
        prev.after.push(aside, ...st.asides.splice(0));
      } else {
        out.push({ open: '<p class="noteref-anchor">', inner: ref, close: '</p>', after: [aside, ...st.asides.splice(0)] });
      }
      return;
    }
    const inner = inlines(block.children, st);
    if (block.role === 'title' && !h1Done) {
      h1Done = true;
      out.push({ open: `<h1 class="title">`, inner, close: '</h1>', after: st.asides.splice(0) });
      return;
    }
    const extra = block.role === 'commentary' ? ` ${noteAttributes(block.layer ?? 'zhu')}` : '';
    out.push({ open: `<p class="${paragraphClass(block)}"${extra}>`, inner, close: '</p>', after: st.asides.splice(0) });
  };
  volume.children.forEach(renderBlock);

  const blocks = out.map((b) => b.open + b.inner + b.close + b.after.join('')).join('\n');
  const body = `<section id="${id}" class="volume" epub:type="chapter" role="doc-chapter" aria-label="${escapeXml(title)}">\n${blocks}\n</section>`;
  return { filename, title, body, toc, layers: st.layers };
}
