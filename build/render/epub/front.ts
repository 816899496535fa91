/** Front matter: title page and the legend of commentary layers. */
import type { EditionMeta, LayerId, Note, Root } from '../../tree/types.js';
import { visit } from 'unist-util-visit';
import { layerDescription, layerLabel, layerToken, sortLayers } from './layers.js';
import { escapeXml, inlineText } from './xhtml.js';
import { collationLegendItem } from './collation.js';

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

/** Every layer the tree uses (notes and commentary paragraphs), with a first sample text. */
export function layersInTree(tree: Root): Map<LayerId, string> {
  const found = new Map<LayerId, string>();
  visit(tree, (node) => {
    if (node.type === 'note') {
      const n = node as Note;
      if (!found.has(n.layer)) found.set(n.layer, n.children.map(inlineText).join(''));
    } else if (node.type === 'paragraph' && node.role === 'commentary' && node.layer !== undefined) {
      if (!found.has(node.layer)) found.set(node.layer, node.children.map(inlineText).join(''));
    }
  });
  return found;
}

const SAMPLE_LENGTH = 10;

/** The legend: one entry per layer, naming it and showing how it is set (a sample of its own text). */
export function legendPage(tree: Root, popup: ReadonlySet<LayerId>, collation = true): string {
  const layers = layersInTree(tree);
  const items = sortLayers(layers.keys()).map((id, i) => {
    const t = layerToken(id);
    const chars = [...(layers.get(id) ?? '')];
    const sample = escapeXml(chars.slice(0, SAMPLE_LENGTH).join('') + (chars.length > SAMPLE_LENGTH ? '……' : '') || layerLabel(id));
    const label = escapeXml(layerLabel(id));
    const description = layerDescription(id);
    // The table's description starts with the label (注：…); the label is already shown.
    const about = description ? `<span class="legend-description">${escapeXml(description.replace(/^[^：]*：/, ''))}</span>。` : '';
    if (popup.has(id)) {
      return (
        `<li class="legend-item"><span class="legend-label">${label}</span>：${about}彈出注：正文中之標記` +
        `<a class="noteref noteref-${t}" id="legend-${i}-ref" href="#legend-${i}" epub:type="noteref" role="doc-noteref">${label}</a>` +
        `，點按即見注文。</li>` +
        `<li class="legend-aside"><aside id="legend-${i}" class="note note-${t} popup" epub:type="footnote" role="doc-footnote"><p>${sample}</p></aside></li>`
      );
    }
    return (
      `<li class="legend-item"><span class="legend-label">${label}</span>：${about}小字夾注，如：` +
      `<small class="note note-${t}" epub:type="diaoban:${t}" role="note">${sample}</small></li>`
    );
  });
  const jiao = collation ? collationLegendItem(tree) : '';
  if (jiao) items.push(jiao);
  return [
    `<section class="legend" aria-labelledby="legend-title">`,
    `<h1 id="legend-title">凡例</h1>`,
    `<p class="legend-intro">正文大字；注文小字，各層以字色區別。</p>`,
    `<ul class="legend-list">`,
    ...items,
    `</ul>`,
    `</section>`,
  ].join('\n');
}
