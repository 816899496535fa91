/**
 * The 校勘記 in the EPUB: each corrected place shows its new text and a
 * mark linking to its entry in the volume's 校勘記 (`note-jiao`), which
 * links back. The 校勘記 is a document of its own after its volume's
 * (volNN-collation.xhtml, in the reading order): epub.js 0.3 lands links
 * within the shown document off by the page's width taken as its height
 * (managers/default moveTo), links into another document right.
 */
import { changeText, entryExplanation } from '../../layout/collation.js';
import { chineseNumeral } from '../pdf/numerals.js';
import { visit } from 'unist-util-visit';
import type { App, Correction, Glyph, Root, SourcePosition, Volume } from '../../tree/types.js';
import { glyphRuns } from '../../gaiji/resolve.js';
import { escapeXml } from './xhtml.js';

export const JIAO_LAYER = 'jiao';

export interface CollationState {
  /** The volume document's id (vol01): entry ids are unique in the book. */
  volume: string;
  /** The volume's document and its 校勘記's (vol01.xhtml, vol01-collation.xhtml): links go between them. */
  file: string;
  collationFile: string;
  /** false (`collation: off`): corrections show their new text only. */
  on: boolean;
  entries: string[];
  /** The volume's place: the tally's lines cite glyphs from there. */
  position: SourcePosition;
  /** A glyph an entry cites (「&KR0247;」), as the text shows it (its picture where it is drawn). */
  glyph?: (g: Glyph) => string;
}

export function collationState(volume: string, on: boolean, position: SourcePosition): CollationState {
  return { volume, file: `${volume}.xhtml`, collationFile: `${volume}-collation.xhtml`, on, entries: [], position };
}

/** An entry's words, escaped, the glyphs they cite as the text shows them. */
function entryText(text: string, position: SourcePosition, st: CollationState): string {
  return glyphRuns(text, position)
    .map((r) => (r.type === 'text' || !st.glyph ? escapeXml(r.value) : st.glyph(r)))
    .join('');
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

/** What the 校勘記 says of a correction (with the witnesses' readings at its place) or of a collation entry. */
function sample(node: Correction | App): CorrectionSample {
  if (node.type === 'app') return { kind: '校', old: node.apparatus.base, new: '', text: node.apparatus.text };
  return { kind: node.kind, old: node.old, new: plain(node), note: node.note, witness: node.witness, agrees: node.agrees, text: node.apparatus?.text };
}

/** A place the witnesses read otherwise: the base text (rendered by the caller) marked, then the mark linking to its entry. */
export function appMarkup(node: App, inner: string, st: CollationState): string {
  return entryMarkup(node, inner, st, 'app');
}

/** A corrected place: its new text (rendered by the caller), then the mark linking to its entry. */
export function correctionMarkup(node: Correction, inner: string, st: CollationState): string {
  return entryMarkup(node, inner, st, 'correction');
}

function entryMarkup(node: Correction | App, inner: string, st: CollationState, className: string): string {
  if (!st.on) return inner;
  const n = st.entries.length + 1;
  const id = `${st.volume}-jiao-${n}`;
  const entry = sample(node);
  const kind = escapeXml(entry.kind === '校' ? `校：${changeText(entry)}` : `${entry.kind}：${changeText(entry)}`);
  st.entries.push(
    `<li id="${id}" class="jiao-entry" epub:type="endnote"><p><a class="jiao-back" href="${st.file}#${id}-ref" role="doc-backlink" aria-label="回正文 ${kind}">${chineseNumeral(n)}</a>　${entryText(entryExplanation(entry), node.position, st)}</p></li>`,
  );
  const text = inner ? `<span class="${className}">${inner}</span>` : '';
  return `${text}<a class="noteref noteref-jiao" id="${id}-ref" href="${st.collationFile}#${id}" epub:type="noteref" role="doc-noteref" aria-label="校勘記 ${chineseNumeral(n)}">${chineseNumeral(n)}</a>`;
}

/** The volume's 校勘記 (the body of its document), when it has entries or a tally of variant forms (its closing lines). */
export function collationSection(st: CollationState, tally: readonly string[] = []): string {
  if (!st.on || (st.entries.length === 0 && tally.length === 0)) return '';
  const id = `${st.volume}-jiao`;
  return [
    `<section id="${id}" class="jiaokanji note-jiao" epub:type="endnotes" role="doc-endnotes" aria-labelledby="${id}-title">`,
    `<h2 id="${id}-title" class="heading heading-1">校勘記</h2>`,
    ...(st.entries.length > 0 ? [`<ol class="jiao-list">`, ...st.entries, `</ol>`] : []),
    ...tally.map((line) => `<p class="jiao-tally">${entryText(line, st.position, st)}</p>`),
    `</section>`,
  ].join('\n');
}

/** What the legend shows of a correction: its 校勘記 entry. */
export type CorrectionSample = Parameters<typeof entryExplanation>[0];

/** The first correction in a tree or volume, as the legend shows it. */
export function firstCorrection(node: Root | Volume): CorrectionSample | undefined {
  let first: Correction | App | undefined;
  visit(node, (c) => {
    if (c.type === 'correction' || c.type === 'app') first ??= c as Correction | App;
  });
  return first && sample(first);
}

/**
 * The legend's entry for the 校勘記, with the book's first correction as its
 * sample (a pop-up in the legend's notes document, linking back); none without corrections.
 */
export function collationLegendItem(first: CorrectionSample | undefined, legendFile: string, notesFile: string): { item: string; aside: string } | undefined {
  if (!first) return undefined;
  const sample = escapeXml(entryExplanation(first));
  return {
    item:
      `<li class="legend-item"><span class="legend-label">校</span>：校勘記。今本據他本所改、補、刪、乙之處，字旁標號，如` +
      `<a class="noteref noteref-jiao" href="${notesFile}#legend-jiao" epub:type="noteref" role="doc-noteref" id="legend-jiao-ref">一</a>` +
      `，點按即見卷末校勘記之條目。</li>`,
    aside:
      `<aside id="legend-jiao" class="note note-jiao popup" epub:type="footnote" role="doc-footnote" aria-label="校勘記">` +
      `<p><a class="jiao-back" href="${legendFile}#legend-jiao-ref" role="doc-backlink">一</a>　${sample}</p></aside>`,
  };
}
