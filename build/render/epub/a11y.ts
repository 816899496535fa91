/**
 * The package's accessibility metadata (EPUB Accessibility 1.1): what the
 * book offers, the conformance claim it meets (checked by DAISY Ace and
 * epubcheck in the tests), and a summary in the book's language and in English.
 */
import type { Script } from '../../tree/types.js';
import { convertText } from '../../transform/script.js';

/** The claim: EPUB Accessibility 1.1 with WCAG 2.1 AA (the level EN 301 549 asks for). */
export const CONFORMS_TO = 'EPUB Accessibility 1.1 - WCAG 2.1 Level AA';
/** Who evaluated the claim: the producing tool, by its own automated checks (Ace, epubcheck). */
export const CERTIFIED_BY = 'diaoban';

export interface AccessibilityFacts {
  /** Package language (zh-Hant). */
  lang: string;
  script: Script;
  /** Names of the commentary layers used, in legend order. */
  layers: readonly string[];
  /** Names of the layers set as pop-up footnotes. */
  popup: readonly string[];
  /** Names of the inline layers set without a printed label (注: plain small print, as in the print). */
  unlabelled?: readonly string[];
  /** The page list's source, when the book has one. */
  pageSource?: string;
  /** Characters shown as 〓. */
  missing: number;
  cover: boolean;
}

export interface AccessibilityMetadata {
  accessModes: string[];
  features: string[];
  summaries: Array<{ lang: string; text: string }>;
  conformsTo: string;
  certifiedBy: string;
  pageSource?: string;
}

export function accessibilityMetadata(f: AccessibilityFacts): AccessibilityMetadata {
  const unlabelled = (f.unlabelled ?? []).filter((l) => f.layers.includes(l) && !f.popup.includes(l));
  const features = ['structuralNavigation', 'tableOfContents', 'readingOrder', 'annotations'];
  if (f.cover) features.push('alternativeText');
  if (f.pageSource) features.push('pageBreakMarkers', 'pageNavigation');
  const zh = [
    '本書符合 EPUB 無障礙規範 1.1 及 WCAG 2.1 AA 級（經 DAISY Ace 與 epubcheck 檢查）。',
    '直排，自右而左；嵌入字型涵蓋書中一切用字',
    f.missing ? '，底本無從編碼之字以〓代之，原碼列於凡例。' : '。',
    f.layers.length
      ? `正文大字，注文小字，凡${f.layers.length}層（${f.layers.join('、')}）：${unlabelled.length ? `${unlabelled.join('、')}之小字，底本不標其名者亦不標，如印本；其餘各層前標其名` : '各層前標其名'}，各層字號、字重及旁線亦各不同，並為讀屏軟體標明層名；字色僅為輔助。`
      : '',
    f.popup.length ? `${f.popup.join('、')}為彈出注，正文中以層名及序數為記（如「${f.popup[0]}一」），連至各卷注文頁，注文可連回正文。` : '',
    f.pageSource ? `附${f.pageSource}之頁碼（頁碼表與分頁標記）。` : '',
    '可依卷及章節導覽。',
  ].join('');
  const en = [
    `This publication meets ${CONFORMS_TO} (checked with DAISY Ace and epubcheck). `,
    'Vertical Chinese text, read top to bottom and right to left, in embedded fonts that draw every character',
    f.missing ? '; characters the source could not encode are shown as 〓, with their code points listed in the legend. ' : '. ',
    f.layers.length
      ? `The main text is in full size; the commentary, in ${f.layers.length} layer(s) (${f.layers.join(', ')}), is in small print, ${unlabelled.length ? `${unlabelled.join(', ')} without a label where the source prints none, as in the print, every other layer introduced by its printed label` : 'each layer introduced by its printed label'}; the layers differ in size, weight and side rule too, and each is named for screen readers; colour only helps. `
      : '',
    f.popup.length ? `The layers ${f.popup.join(', ')} are pop-up footnotes, referred to by layer and number (${f.popup[0]}一) and gathered in a notes document per volume, linked from the text and back. ` : '',
    f.pageSource ? `Page numbers of the print edition (${f.pageSource}) through a page list and page break markers. ` : '',
    'Navigation by volume and section.',
  ].join('');
  return {
    accessModes: f.cover ? ['textual', 'visual'] : ['textual'],
    features,
    summaries: [
      { lang: f.lang, text: f.script === 'simplified' ? convertText(zh, 'traditional', 'simplified') : zh },
      { lang: 'en', text: en },
    ],
    conformsTo: CONFORMS_TO,
    certifiedBy: CERTIFIED_BY,
    pageSource: f.pageSource,
  };
}
