/**
 * Page numbers for the EPUB: where each page of an edition starts in the
 * text, as pure functions of the tree (and of the layout, for the print
 * edition's pages), so the EPUB's page list and the PDF cannot disagree.
 *
 * A place in a volume is a *unit index*: the number of characters of the
 * volume before it in reading order, counted as `volumeUnits` counts them
 * (every non-white-space code point of text and lacunae, one per glyph; notes
 * where they stand in the tree). The renderer counts the same way while it
 * writes the volume and puts a `pagebreak` marker where a page starts.
 *
 * From the layout this reads only `BookLayout.volumes[].{index, pages}`,
 * `Page.{number, leaf, side, volumeTitle, columns, collation}`, `Column.{index, runs}`,
 * `TextRun.{type, text, offset}` and `NoteChunk.{type, right, left}` with
 * `NoteSegment.{text, style}`.
 */
import type { BookLayout, NoteChunk, Page, TextRun, VolumeLayout } from '../../layout/types.js';
import { GLYPH_PLACEHOLDER } from '../../layout/index.js';
import type { Anchor, Block, Inline, Root, Volume } from '../../tree/types.js';
import { chineseNumeral } from '../pdf/numerals.js';
import { own } from '../../tree/append.js';

/** One page start: before unit `index` of its volume. */
export interface PageBreak {
  index: number;
  /** As a reader cites the page: 三a, 卷二 十五b. */
  label: string;
  /** A document-unique XML id for the marker. */
  id: string;
}

/** The page list of a book: its source, and the breaks of each volume in order. */
export interface PageList {
  /** The edition the pages are those of (pageBreakSource). */
  source: string;
  /** How to read the labels, for the legend. */
  about: string;
  volumes: PageBreak[][];
}

const WHITESPACE = /^\s$/u;
export const isWhitespace = (ch: string): boolean => WHITESPACE.test(ch);

/** What a lacuna shows (□ when its value is only white space, as the layout sets it). */
export function lacunaText(value: string): string {
  return [...value].some((c) => !isWhitespace(c)) ? value : '□';
}

/** A character of the volume in reading order, as the page mapping sees it. */
export interface Unit {
  /** What it shows: one character, or a glyph's replacement (or 〓). */
  text: string;
  /** Source position of the character (a glyph: of its node). */
  file?: string;
  offset?: number;
  /** Set in a note (any depth) or a commentary paragraph: the layout sets it as 夾注. */
  note: boolean;
  /** Index of its block in the volume. */
  block: number;
  glyph: boolean;
}

/** The volume's units, in the order the renderer writes them. */
export function volumeUnits(volume: Volume): Unit[] {
  const out: Unit[] = [];
  volume.children.forEach((block, b) => {
    const note0 = block.type === 'paragraph' && block.role === 'commentary';
    const walk = (node: Inline, note: boolean): void => {
      const file = node.position?.file;
      const base = node.position?.start?.offset;
      switch (node.type) {
        case 'text':
        case 'lacuna': {
          const value = node.type === 'lacuna' ? lacunaText(node.value) : node.value;
          let i = 0;
          for (const ch of value) {
            if (!isWhitespace(ch)) out.push({ text: ch, file, offset: base === undefined ? undefined : base + i, note, block: b, glyph: false });
            i += ch.length;
          }
          return;
        }
        case 'glyph': {
          const r = node.replacement !== undefined && [...node.replacement].some((c) => !isWhitespace(c)) ? node.replacement : GLYPH_PLACEHOLDER;
          out.push({ text: r, file, offset: base, note, block: b, glyph: true });
          return;
        }
        case 'note':
          node.children.forEach((c) => walk(c, true));
          return;
        case 'small':
        case 'mark':
        case 'annotation':
        case 'correction':
        case 'app':
          node.children.forEach((c) => walk(c, note));
          return;
        case 'anchor':
        case 'raise':
          return;
      }
    };
    block.children.forEach((c) => walk(c, note0));
  });
  return out;
}

/** How far ahead a main-text character is looked for (longer than any note between two main characters). */
const MAIN_SEARCH = 100_000;

interface LayoutChar {
  ch: string;
  offset?: number;
  note: boolean;
}

/** A page's characters in reading order: columns right to left, runs top down, a chunk's right sub-column first. */
function pageChars(page: Page): LayoutChar[] {
  const out: LayoutChar[] = [];
  const columns = [...page.columns].sort((a, b) => a.index - b.index);
  for (const column of columns)
    for (const run of column.runs) {
      if (run.type === 'text') {
        const r = run as TextRun;
        let i = 0;
        for (const ch of r.text) {
          out.push({ ch, offset: r.offset === undefined ? undefined : r.offset + i, note: false });
          i += ch.length;
        }
      } else {
        const c = run as NoteChunk;
        // A label the source prints (style label) is not text of the tree: no unit stands for it.
        for (const seg of [...c.right, ...c.left]) if (seg.style !== 'label') for (const ch of seg.text) out.push({ ch, note: true });
      }
    }
  return out;
}

/**
 * The unit index where each page of a laid-out volume starts (undefined for a
 * page with no characters). Main-text characters are found by their source
 * offset; note characters (which the layout gives without one) by their text,
 * between the main-text characters around them, so a character the layout
 * sets differently or not at all shifts nothing beyond its own note.
 */
export function pageStarts(units: readonly Unit[], pages: readonly Page[]): Array<number | undefined> {
  let next = 0; // first unit not yet matched
  let last = -1; // last unit matched
  let lastGlyphPart = 0; // characters of the last glyph unit's text matched so far
  const match = (c: LayoutChar): number | undefined => {
    if (!c.note) {
      if (c.offset === undefined) return undefined;
      // A glyph's replacement of several characters: each has the glyph's offset.
      if (last >= 0 && units[last].glyph && units[last].offset === c.offset && !units[last].note) return last;
      // Bounded, so that a character the layout has and the tree has not cannot make this quadratic.
      for (let k = next; k < units.length && k < next + MAIN_SEARCH; k++) {
        if (!units[k].note && units[k].offset === c.offset) return take(k);
      }
      return undefined;
    }
    if (last >= 0 && units[last].glyph && units[last].note && lastGlyphPart < [...units[last].text].length && [...units[last].text][lastGlyphPart] === c.ch) {
      lastGlyphPart++;
      return last;
    }
    for (let k = next; k < units.length && units[k].note; k++) {
      if (units[k].glyph ? [...units[k].text][0] === c.ch : units[k].text === c.ch) return take(k);
    }
    return undefined;
  };
  const take = (k: number): number => {
    next = k + 1;
    last = k;
    lastGlyphPart = 1;
    return k;
  };
  return pages.map((page) => {
    let first: number | undefined;
    for (const c of pageChars(page)) {
      const k = match(c);
      if (first === undefined && k !== undefined) first = k;
    }
    return first;
  });
}

/** How a template's pages are cited: by leaf and side (四庫 版心: 三a) or by folio (modern: 五). */
export type PageLabelStyle = 'leaf' | 'folio';

/** The label of front matter (before the work's own leaves start again at 一). */
export const FRONT_LABEL = '卷首';

/** 禮經本義卷一 → 卷一 when the volume title repeats the book title (as the PDF's 版心 and running head print it). */
function shortVolumeTitle(volumeTitle: string, bookTitle: string): string {
  const t = volumeTitle.trim();
  return bookTitle && t.startsWith(bookTitle) && t.length > bookTitle.length ? t.slice(bookTitle.length).trim() : t;
}

/** The page as the PDF prints it: the 版心's leaf and the side (a recto, b verso), or the folio. */
export function printedPageNumber(page: Pick<Page, 'leaf' | 'side'>, style: PageLabelStyle): string {
  if (style === 'leaf') return `${chineseNumeral(page.leaf)}${page.side === 'recto' ? 'a' : 'b'}`;
  // The modern folio counts pages from the leaves, as the PDF's running foot does.
  return chineseNumeral(2 * page.leaf - (page.side === 'recto' ? 1 : 0));
}

export interface PrintPagesOptions {
  style: PageLabelStyle;
  /** pageBreakSource: the print edition (the PDF). */
  source: string;
  /**
   * Where each of a volume's pages starts in its text (`volumeStarts`); a
   * caller that keeps unchanged volumes between builds remembers it.
   */
  startsOf?: (volume: Volume, laid: VolumeLayout) => { starts: ReadonlyArray<number | undefined>; units: number };
}

/**
 * Where each page of a laid-out volume starts in the volume's text (an index
 * of its units; the 校勘記's pages hold none of it and start where it ends),
 * and how many units the text has.
 */
export function volumeStarts(volume: Volume, laid: VolumeLayout): { starts: Array<number | undefined>; units: number } {
  const units = volumeUnits(volume);
  // The 校勘記's pages (layout/collation.ts) come after the text and hold none of it: they start where the text ends
  // (the EPUB sets its own 校勘記 there), and their characters are not looked for in the text.
  const text = laid.pages.filter((page) => !page.collation);
  return { starts: [...pageStarts(units, text), ...laid.pages.slice(text.length).map(() => units.length)], units: units.length };
}

/**
 * The print edition's pages (the PDF built from `layout`): for each volume,
 * the page starts with labels as a reader cites the PDF. In a book of several
 * volumes a label names its volume (卷三 五a); front matter, whose leaves the
 * PDF numbers apart, is 卷首.
 */
export function printPageList(tree: Root, layout: BookLayout, options: PrintPagesOptions): PageList {
  const several = tree.children.length > 1;
  const volumes = tree.children.map((volume, v): PageBreak[] => {
    const laid = layout.volumes.find((l) => l.index === v);
    if (!laid) return [];
    const { starts, units } = (options.startsOf ?? volumeStarts)(volume, laid);
    const out: PageBreak[] = [];
    // Front matter: the pages before the leaves start again at 一 (the PDF numbers them apart, so their labels would repeat).
    const restart = laid.pages.findLastIndex((page, i) => i > 0 && page.side === 'recto' && page.leaf <= laid.pages[i - 1].leaf);
    laid.pages.forEach((page, i) => {
      // A page without text (a blank verso the PDF prints all the same) is where the next page with text starts.
      const index = starts.slice(i).find((s) => s !== undefined) ?? units;
      if (out.length && out[out.length - 1].index > index) return;
      const front = i < restart;
      const prefix = front ? FRONT_LABEL : several ? shortVolumeTitle(page.volumeTitle, tree.edition.title) : '';
      const number = printedPageNumber(page, options.style);
      out.push({ index, label: prefix ? `${prefix} ${number}` : number, id: `page-${page.number}` });
    });
    return out;
  });
  const about =
    (options.style === 'leaf' ? '以葉次及前後半葉（a 前半葉、b 後半葉）計，如「三a」' : '以頁次計，如「五」') +
    (several ? `；分卷之書前標卷次，如「卷二 ${options.style === 'leaf' ? '五a' : '五'}」` : '') +
    (volumes.some((v) => v.some((b) => b.label.startsWith(FRONT_LABEL))) ? `；卷前之提要等另計，標「${FRONT_LABEL}」` : '');
  return { source: options.source, about, volumes };
}

/** Source editions known by their corpus ids (Kanripo branches): one row each. */
export const SOURCE_EDITIONS: Readonly<Record<string, string>> = {
  WYG: '文淵閣四庫全書',
  SBCK: '四部叢刊',
  SKQS: '四庫全書',
};

const sourceEditionName = (id: string): string => (own(SOURCE_EDITIONS, id) ? `${own(SOURCE_EDITIONS, id)}（${id}）` : id);

/**
 * The source edition's pages where the sources record them (Kanripo
 * `<pb:…>`, page anchors in the tree): a break at each anchor, labelled with
 * its 卷 and leaf as the source gives them (卷五 1b). Undefined when the tree
 * has no page anchor.
 */
export function sourcePageList(tree: Root): PageList | undefined {
  const editions = new Set<string>();
  const ids = new Set<string>();
  // Two witnesses' markers in one text (Kanripo's <pb:…_WYG_…> and <md:…_SBCK_…>): the list follows one, the most marked.
  const base = mostMarkedEdition(tree);
  const volumes = tree.children.map((volume): PageBreak[] => {
    const out: PageBreak[] = [];
    let count = 0;
    const walk = (node: Inline): void => {
      switch (node.type) {
        case 'text':
        case 'lacuna':
          for (const ch of node.type === 'lacuna' ? lacunaText(node.value) : node.value) if (!isWhitespace(ch)) count++;
          return;
        case 'glyph':
          count++;
          return;
        case 'anchor':
          if (node.kind === 'page' && (node.edition === undefined || base === undefined || node.edition === base)) out.push(anchorBreak(node, count, ids, editions));
          return;
        case 'raise':
          return;
        default:
          node.children.forEach(walk);
      }
    };
    volume.children.forEach((b) => b.children.forEach(walk));
    return out;
  });
  if (!volumes.some((v) => v.length)) return undefined;
  return { source: [...editions].map(sourceEditionName).join('、') || '底本', about: '以底本之卷次及葉次計，如「卷五 1b」', volumes };
}

/** The edition with the most page markers in the tree (the first marked, of equals); undefined when none names one. */
function mostMarkedEdition(tree: Root): string | undefined {
  const counts = new Map<string, number>();
  const walk = (node: Block | Inline): void => {
    if (node.type === 'anchor') {
      if (node.kind === 'page' && node.edition) counts.set(node.edition, (counts.get(node.edition) ?? 0) + 1);
    } else if ('children' in node) (node.children as Array<Block | Inline>).forEach(walk);
  };
  for (const volume of tree.children) volume.children.forEach(walk);
  let best: string | undefined;
  for (const [edition, n] of counts) if (best === undefined || n > counts.get(best)!) best = edition;
  return best;
}

function anchorBreak(a: Anchor, index: number, ids: Set<string>, editions: Set<string>): PageBreak {
  if (a.edition) editions.add(a.edition);
  const leaf = a.leaf ?? a.value;
  const label = a.juan !== undefined ? `卷${chineseNumeral(a.juan)} ${leaf}` : leaf;
  const base = `page-${[a.edition, a.juan, leaf].filter((x) => x !== undefined && x !== '').join('-')}`.replace(/[^A-Za-z0-9_-]/g, '_');
  let id = base;
  for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
  ids.add(id);
  return { index, label, id };
}
