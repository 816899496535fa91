/**
 * The 校勘記 in the EPUB: each corrected place shows its new text and a
 * mark linking to the volume's 校勘記 section (`note-jiao`), whose entry
 * links back. One section a volume document, after its text.
 */
import { changeText, entryExplanation } from '../../layout/collation.js';
import { chineseNumeral } from '../pdf/numerals.js';
import { visit } from 'unist-util-visit';
import type { Correction, Root, Volume } from '../../tree/types.js';
import { escapeXml } from './xhtml.js';

export const JIAO_LAYER = 'jiao';

export interface CollationState {
  /** The volume document's id (vol01): entry ids are unique in the book. */
  volume: string;
  /** false (`collation: off`): corrections show their new text only. */
  on: boolean;
  entries: string[];
}

export function collationState(volume: string, on: boolean): CollationState {
  return { volume, on, entries: [] };
}

function plain(node: Correction): string {
  let s = '';
  const walk = (n: Correction['children'][number]): void => {
    if (n.type === 'text' || n.type === 'lacuna') s += n.value;
    else if (n.type === 'glyph') s += n.replacement ?? n.value;
    else if ('children' in n) n.children.forEach(walk);
  };
  node.children.forEach(walk);
  return s;
}

/** A corrected place: its new text (rendered by the caller), then the mark linking to its entry. */
export function correctionMarkup(node: Correction, inner: string, st: CollationState): string {
  if (!st.on) return inner;
  const n = st.entries.length + 1;
  const id = `${st.volume}-jiao-${n}`;
  const entry = { kind: node.kind, old: node.old, new: plain(node), note: node.note, witness: node.witness };
  const kind = escapeXml(`${node.kind}：${changeText(entry)}`);
  st.entries.push(
    `<li id="${id}" class="jiao-entry" epub:type="endnote"><p><a class="jiao-back" href="#${id}-ref" role="doc-backlink" aria-label="回正文 ${kind}">${chineseNumeral(n)}</a>　${escapeXml(entryExplanation(entry))}</p></li>`,
  );
  const text = inner ? `<span class="correction">${inner}</span>` : '';
  return `${text}<a class="noteref noteref-jiao" id="${id}-ref" href="#${id}" epub:type="noteref" role="doc-noteref" aria-label="校勘記 ${chineseNumeral(n)}">${chineseNumeral(n)}</a>`;
}

/** The volume's 校勘記, when it has corrections. */
export function collationSection(st: CollationState): string {
  if (!st.on || st.entries.length === 0) return '';
  const id = `${st.volume}-jiao`;
  return [
    `<section id="${id}" class="jiaokanji note-jiao" epub:type="endnotes" role="doc-endnotes" aria-labelledby="${id}-title">`,
    `<h2 id="${id}-title" class="heading heading-1">校勘記</h2>`,
    `<ol class="jiao-list">`,
    ...st.entries,
    `</ol>`,
    `</section>`,
  ].join('\n');
}

/** What the legend shows of a correction: its 校勘記 entry. */
export type CorrectionSample = Parameters<typeof entryExplanation>[0];

/** The first correction in a tree or volume, as the legend shows it. */
export function firstCorrection(node: Root | Volume): CorrectionSample | undefined {
  let first: Correction | undefined;
  visit(node, 'correction', (c: Correction) => {
    first ??= c;
  });
  return first && { kind: first.kind, old: first.old, new: plain(first), note: first.note, witness: first.witness };
}

/** The legend's entry for the 校勘記, with the book's first correction as its sample; empty without corrections. */
export function collationLegendItem(first: CorrectionSample | undefined): string {
  if (!first) return '';
  const sample = escapeXml(entryExplanation(first));
  return (
    `<li class="legend-item"><span class="legend-label">校</span>：校勘記。今本據他本所改、補、刪、乙之處，字旁標號，如` +
    `<a class="noteref noteref-jiao" href="#legend-jiao" epub:type="noteref" role="doc-noteref" id="legend-jiao-ref">一</a>` +
    `，點按即見卷末校勘記之條目。</li>` +
    `<li class="legend-aside"><aside id="legend-jiao" class="note note-jiao popup" epub:type="footnote" role="doc-footnote"><p>${sample}</p></aside></li>`
  );
}
