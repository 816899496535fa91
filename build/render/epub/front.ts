/** Front matter: title page and the legend of commentary layers. */
import type { EditionMeta, LayerId, Note, Root, Volume } from '../../tree/types.js';
import { visit } from 'unist-util-visit';
import { layerDescription, layerToken, sortLayers } from './layers.js';
import { displayString, escapeXml, inlineText, layerName, shownLabel, type Drawable, type MissingChar } from './xhtml.js';
import { collationLegendItem, firstCorrection, type CorrectionSample } from './collation.js';

/** 清 蔡德晉 撰-style credit line. */
export function creditLine(meta: EditionMeta): string {
  return [meta.dynasty, meta.author].filter(Boolean).join('　');
}

export function titlePage(meta: EditionMeta): string {
  const parts = [
    `<section class="titlepage" epub:type="titlepage" aria-labelledby="book-title">`,
    `<h1 id="book-title" class="book-title">${escapeXml(meta.title)}</h1>`,
    `<p class="book-author">${escapeXml(creditLine(meta))}</p>`,
  ];
  if (meta.description) parts.push(`<p class="book-description">${escapeXml(meta.description)}</p>`);
  parts.push(`</section>`);
  return parts.join('\n');
}

/** Every layer the tree uses (notes, 眉批 and 側批, commentary paragraphs), with a first sample text. */
export function layersInTree(tree: Root | Volume): Map<LayerId, string> {
  const found = new Map<LayerId, string>();
  visit(tree, (node) => {
    if (node.type === 'note') {
      const n = node as Note;
      if (!found.has(n.layer)) found.set(n.layer, n.children.map(inlineText).join(''));
    } else if (node.type === 'annotation') {
      // 眉批 and 側批 are notes of their own layers (meipi, cepi).
      if (!found.has(node.kind)) found.set(node.kind, node.children.map(inlineText).join(''));
    } else if (node.type === 'paragraph' && node.role === 'commentary' && node.layer !== undefined) {
      if (!found.has(node.layer)) found.set(node.layer, node.children.map(inlineText).join(''));
    }
  });
  return found;
}

const SAMPLE_LENGTH = 10;

/** What the legend shows of a tree or of a volume: each layer's first text, and the first correction. */
export interface LegendSource {
  layers: Map<LayerId, string>;
  correction?: CorrectionSample;
}

export function legendSource(node: Root | Volume): LegendSource {
  const correction = firstCorrection(node);
  return { layers: layersInTree(node), ...(correction ? { correction } : {}) };
}

/** The book's legend source from its volumes' in order (the first sample of each kind wins, as in the book). */
export function joinLegendSources(sources: readonly LegendSource[]): LegendSource {
  const layers = new Map<LayerId, string>();
  for (const s of sources) for (const [id, text] of s.layers) if (!layers.has(id)) layers.set(id, text);
  const correction = sources.find((s) => s.correction)?.correction;
  return { layers, ...(correction ? { correction } : {}) };
}

/** The legend's document, and its pop-up samples' (as a volume's notes document). */
export const LEGEND_FILE = 'legend.xhtml';
export const LEGEND_NOTES_FILE = 'legend-notes.xhtml';
export const LEGEND_NOTES_TITLE = '凡例　注';

export interface LegendDocument {
  body: string;
  /** The pop-up samples' document body, when a layer pops up or the book has corrections. */
  notes?: string;
}

export interface LegendOptions {
  /** What the tree holds (legendSource), when the caller has it from its volumes. */
  source?: LegendSource;
  /** The 校勘記 (edition.yaml collation; default true): its layer is in the legend when the book has corrections. */
  collation?: boolean;
  drawable?: Drawable;
  /** Characters shown as 〓 in the volumes, with the volume they are in. */
  missing?: ReadonlyArray<MissingChar & { volume: string }>;
  /** The page list's source and how to read its labels, when there is one. */
  pages?: { source: string; about: string };
}

/**
 * The legend (凡例): how the book is set. One entry per layer in the tree,
 * naming it and showing a sample of its own text set as in the book (with
 * its label, or as a working pop-up); the characters shown as 〓 with the
 * code points the source has for them; whose pages the page numbers are.
 * The pop-up samples are in a document of their own (LEGEND_NOTES_FILE, out
 * of the reading order), as a volume's notes are: no link within a document.
 */
export function legendPage(tree: Root, popup: ReadonlySet<LayerId>, options: LegendOptions = {}): LegendDocument {
  const source = options.source ?? legendSource(tree);
  const layers = source.layers;
  const declared = tree.layers ?? [];
  const asides: string[] = [];
  const items = sortLayers(layers.keys()).map((id, i) => {
    const t = layerToken(id);
    const chars = [...displayString(layers.get(id) ?? '', options.drawable)];
    const sample = escapeXml(chars.slice(0, SAMPLE_LENGTH).join('') + (chars.length > SAMPLE_LENGTH ? '……' : '') || layerName(id, declared));
    const name = layerName(id, declared);
    const label = escapeXml(name);
    const description = declared.find((d) => d.id === id)?.description ?? layerDescription(id);
    // The table's description starts with the label (注：…); the label is already shown.
    const about = description ? `<span class="legend-description">${escapeXml(description.replace(/^[^：]*：/, ''))}</span>。` : '';
    if (popup.has(id)) {
      asides.push(
        `<aside id="legend-${i}" class="note note-${t} popup" epub:type="footnote" role="doc-footnote" aria-label="${label}">` +
          `<p><a class="backlink" href="${LEGEND_FILE}#legend-${i}-ref" role="doc-backlink">〔${label}〕</a>${sample}</p></aside>`,
      );
      return (
        `<li class="legend-item"><span class="legend-label">${label}</span>：${about}彈出注：正文中之標記` +
        `<a class="noteref noteref-${t}" id="legend-${i}-ref" href="${LEGEND_NOTES_FILE}#legend-${i}" epub:type="noteref" role="doc-noteref">${label}</a>` +
        `，點按即見注文；注文前之〔${label}〕點按即返回正文。</li>`
      );
    }
    const shown = shownLabel(id, layers.get(id) ?? '', undefined, declared);
    const labelSpan = shown ? `<span class="layer-label" aria-hidden="true">〔${escapeXml(shown)}〕</span>` : '';
    return (
      `<li class="legend-item"><span class="legend-label">${label}</span>：${about}小字夾注${shown ? `，前標〔${escapeXml(shown)}〕` : ''}，如：` +
      `<small class="note note-${t}" epub:type="diaoban:${t}" role="note" aria-label="${label}">${labelSpan}${sample}</small></li>`
    );
  });
  const jiao = options.collation !== false ? collationLegendItem(source.correction, LEGEND_FILE, LEGEND_NOTES_FILE) : undefined;
  if (jiao) {
    items.push(jiao.item);
    asides.push(jiao.aside);
  }
  const parts = [
    `<section class="legend" aria-labelledby="legend-title">`,
    `<h1 id="legend-title">凡例</h1>`,
    `<p class="legend-intro">正文大字，注文小字。注文各層以名稱區別：注以外之各層，注文前標其名（如〔音義〕），或注文自以其名起（如「疏曰」）；彈出注以上標之名稱及序數為記（如「附注一」）。各層字號、字重、縮排及旁線亦各不同；字色僅為輔助。</p>`,
    `<ul class="legend-list">`,
    ...items,
    `</ul>`,
  ];
  const missing = options.missing ?? [];
  if (missing.length) {
    parts.push(
      `<h2 id="legend-missing">缺字</h2>`,
      `<p class="legend-intro">底本所用而無通行字可代之字（如私用區字），書中以〓代之，與 PDF 印本同。其原碼如下：</p>`,
      `<ul class="legend-missing">`,
      ...missing.map(
        (m) =>
          `<li><span class="glyph unmapped" title="${escapeXml(m.source)}">〓</span>　${escapeXml(m.source)}　${escapeXml(m.volume)}${m.count > 1 ? `，${m.count}處` : ''}</li>`,
      ),
      `</ul>`,
    );
  }
  if (options.pages) {
    parts.push(`<h2 id="legend-pages">頁碼</h2>`, `<p class="legend-intro">書中頁碼依${escapeXml(options.pages.source)}，${escapeXml(options.pages.about)}。</p>`);
  }
  parts.push(`</section>`);
  const notes = asides.length ? [`<section class="footnotes" epub:type="footnotes" aria-label="${LEGEND_NOTES_TITLE}">`, ...asides, `</section>`].join('\n') : undefined;
  return { body: parts.join('\n'), ...(notes ? { notes } : {}) };
}
