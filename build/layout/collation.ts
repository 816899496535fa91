/**
 * The 校勘記 in the grid: where each applied correction landed after layout
 * (leaf, side, line), a mark for it on its page (taking no cell), and a
 * section set after the volume's text, one entry per correction.
 *
 * The section comes after everything it cites, on pages of its own, so
 * laying it out cannot move what it cites: the volume is laid out, its
 * corrections located in that layout, then the section is laid out and its
 * pages numbered on from the volume's last, starting a new leaf.
 */
import type { App, Block, Correction, Inline, LayerId, Paragraph, Parent, Root, Volume } from '../tree/types.js';
import { tallyLines } from '../collate/phrase.js';
import { chineseNumeral } from '../render/pdf/numerals.js';
import { glyphRuns } from '../gaiji/resolve.js';
import { assembleBook, layoutVolumeText } from './book.js';
import { layoutVolume } from './engine.js';
import { flattenBlock } from './flatten.js';
import type { BookLayout, CollationEntry, CorrectionMark, Page, PageSpec, VolumeLayout } from './types.js';

/** The layer the 校勘記's notes are set in (PDF colour, EPUB class note-jiao). */
export const COLLATION_LAYER: LayerId = 'jiao';
export const COLLATION_TITLE = '校勘記';

/** A placed character: where the k-th character of the volume's stream sits. */
interface Place {
  page: number;
  column: number;
  cell: number;
  sub?: 'right' | 'left';
}

/** Every character of a volume layout in reading order (right sub-column before left), at the cell its place starts (advances: half cells, marks beside). */
export function placedCharacters(volume: VolumeLayout): Place[] {
  const out: Place[] = [];
  volume.pages.forEach((page, p) => {
    for (const column of page.columns) {
      for (const run of column.runs) {
        if (run.type === 'text') {
          let cell = run.start;
          Array.from(run.text).forEach((_, k) => {
            out.push({ page: p, column: column.index, cell });
            cell += run.advances?.[k] ?? 1;
          });
        } else {
          for (const [sub, segments] of [['right', run.right], ['left', run.left]] as const) {
            let cell = run.start;
            for (const seg of segments) {
              Array.from(seg.text).forEach((_, k) => {
                out.push({ page: p, column: column.index, cell, sub });
                cell += seg.advances?.[k] ?? 1;
              });
            }
          }
        }
      }
    }
  });
  return out;
}

/** Path of child indices from a block to each correction and collation entry in it, in reading order. */
function correctionPaths(block: Block): Array<{ node: Correction | App; path: number[] }> {
  const out: Array<{ node: Correction | App; path: number[] }> = [];
  const walk = (parent: Parent, path: number[]): void => {
    parent.children.forEach((child, i) => {
      if (child.type === 'correction' || child.type === 'app') out.push({ node: child, path: [...path, i] });
      if ('children' in child) walk(child as Parent, [...path, i]);
    });
  };
  walk(block, []);
  return out;
}

/**
 * The corrections applied to a book's text (its `correction` nodes), whether a
 * 校勘記 lists them or not: the 牌記 counts them. A witness's reading where the
 * text follows its base changes nothing and is not counted.
 */
export function correctionCount(tree: Root): number {
  const applied = (block: Block): number => correctionPaths(block).filter(({ node }) => node.type === 'correction').length;
  return tree.children.reduce((n, volume) => n + volume.children.reduce((m, block) => m + applied(block), 0), 0);
}

/** A copy of the block holding only what comes before the node at `path` (inclusive when `through`). */
function truncated(block: Block, path: readonly number[], through: boolean): Block {
  const cut = (parent: Parent, depth: number): Parent => {
    const i = path[depth];
    const last = depth === path.length - 1;
    const before = parent.children.slice(0, i) as Inline[];
    const at = parent.children[i] as Inline;
    const kept = last ? (through ? [...before, at] : before) : [...before, cut(at as Parent, depth + 1) as Inline];
    return { ...parent, children: kept } as Parent;
  };
  return cut(block, 0) as Block;
}

export interface LocatedCorrection {
  node: Correction | App;
  /** Index in the volume's character stream of its first character (or, for a deletion, of the character after it). */
  index: number;
  /** Characters of the new text. */
  length: number;
}

/** The corrections of a volume and where their characters are in its character stream. */
export function correctionsInStream(volume: Volume): { corrections: LocatedCorrection[]; total: number } {
  const corrections: LocatedCorrection[] = [];
  let total = 0;
  for (const block of volume.children) {
    for (const { node, path } of correctionPaths(block)) {
      const before = flattenBlock(truncated(block, path, false)).length;
      const through = flattenBlock(truncated(block, path, true)).length;
      corrections.push({ node, index: total + before, length: through - before });
    }
    total += flattenBlock(block).length;
  }
  return { corrections, total };
}

/**
 * The first page of the work proper: leaves count again there after front
 * matter (layout/engine.ts), so the pages before it are the 提要's.
 */
export function workStart(pages: readonly Page[]): number {
  for (let p = pages.length - 1; p > 0; p--) if (pages[p].leaf === 1 && pages[p].side === 'recto') return p;
  return 0;
}

/**
 * 葉三 + a/b (前半葉 a, 後半葉 b), as a reader's note or a terminal cites it;
 * in the printed book 葉三上/葉三下, as Chinese bibliography cites a leaf's
 * halves (a Latin letter has no place in a column of Chinese). 提要 before
 * the work proper, whose leaves are counted apart.
 */
export function leafLabel(page: Page, front: boolean, printed = false): string {
  const side = page.side === 'recto' ? (printed ? '上' : 'a') : printed ? '下' : 'b';
  return `${front ? '提要' : ''}葉${chineseNumeral(page.leaf)}${side}`;
}

/** 葉三b 第五行 (terminal, EPUB), 葉三下第五行 (the printed 校勘記). */
export function locatorLabel(page: Page, front: boolean, column: number, printed = false): string {
  return `${leafLabel(page, front, printed)}${printed ? '' : ' '}第${chineseNumeral(column + 1)}行`;
}

function newText(node: Correction | App): string {
  let s = '';
  const walk = (n: Inline): void => {
    if (n.type === 'text' || n.type === 'lacuna') s += n.value;
    else if (n.type === 'glyph') s += n.replacement ?? n.value;
    else if ('children' in n) n.children.forEach(walk);
  };
  node.children.forEach(walk);
  return s;
}

function locate(volume: VolumeLayout, found: readonly LocatedCorrection[], total: number): CollationEntry[] {
  const places = placedCharacters(volume);
  const start = workStart(volume.pages);
  return found.map((c, i) => {
    // A deletion is marked at the character after it (before it at the very end).
    const at = Math.max(0, Math.min(c.index, Math.min(total, places.length) - 1));
    const place = places[at] ?? { page: 0, column: 0, cell: 0 };
    const page = volume.pages[place.page];
    const node = c.node;
    const entry: CollationEntry = {
      number: i + 1,
      kind: node.type === 'app' ? '校' : node.kind,
      old: node.type === 'app' ? node.apparatus.base : node.old,
      new: node.type === 'app' ? '' : newText(node),
      entry: node.type === 'app' ? node.position : node.entry,
      source: c.node.position,
      page: place.page + 1,
      leaf: page.leaf,
      side: page.side,
      column: place.column,
      cell: place.cell,
      locator: locatorLabel(page, place.page < start, place.column),
    };
    if (place.sub) entry.sub = place.sub;
    if (place.page < start) entry.front = true;
    if (node.type === 'app') entry.text = node.apparatus.text;
    else {
      if (node.note !== undefined) entry.note = node.note;
      if (node.witness !== undefined) entry.witness = node.witness;
      if (node.agrees) entry.agrees = node.agrees;
      if (node.apparatus) entry.text = node.apparatus.text;
    }
    return entry;
  });
}

/** old→new as the section prints it: 前→先, 補及, 刪未, 庚辛→辛庚; a witness's entry its own words. */
export function changeText(e: Pick<CollationEntry, 'kind' | 'old' | 'new'> & { text?: string }): string {
  if (e.kind === '校') return e.text ?? '';
  if (e.kind === '補' || e.old === '') return `補${e.new}`;
  if (e.kind === '刪' || e.new === '') return `刪${e.old}`;
  return `${e.old}→${e.new}`;
}

/**
 * The explanation of an entry: change, note, witness (unless the note names
 * it: 據四庫本改 where the collation found the witness reads so, 從 it
 * otherwise), then what the witnesses read at the same place.
 */
export function entryExplanation(e: Pick<CollationEntry, 'kind' | 'old' | 'new' | 'note' | 'witness' | 'agrees' | 'text'>): string {
  if (e.kind === '校') return changeText(e);
  const parts = [changeText(e)];
  if (e.note) parts.push(e.note);
  if (e.witness && !(e.note ?? '').includes(e.witness)) parts.push(e.agrees?.includes(e.witness) ? `據${e.witness}改` : `從${e.witness}`);
  if (e.text) parts.push(e.text);
  return parts.join('　');
}

/** The section's blocks: its title, then one entry a correction (locator in full size, the change and note as a note), then the variant forms' tally. */
export function collationBlocks(entries: readonly CollationEntry[], pages: readonly Page[], numbered: boolean, tally: readonly string[] = [], place?: CollationEntry['entry']): Block[] {
  if (entries.length === 0 && tally.length === 0) return [];
  const at = entries[0]?.entry ?? place!;
  const title: Block = { type: 'heading', depth: 1, children: [{ type: 'text', value: COLLATION_TITLE, position: at }], position: at };
  return [
    title,
    ...entries.map((e): Paragraph => {
      const page = pages[e.page - 1];
      const head = `${numbered ? `〔${chineseNumeral(e.number)}〕` : ''}${page ? locatorLabel(page, e.front === true, e.column, true) : ''}`;
      return {
        type: 'paragraph',
        role: 'ji',
        position: e.entry,
        children: [
          { type: 'text', value: head, position: e.entry },
          // A drawn glyph the entry cites (「&KR0247;」) drawn in its cell, as in the text.
          { type: 'note', layer: COLLATION_LAYER, position: e.entry, children: glyphRuns(entryExplanation(e), e.entry) },
        ],
      };
    }),
    ...tally.map((line): Paragraph => ({ type: 'paragraph', role: 'ji', position: at, children: [{ type: 'note', layer: COLLATION_LAYER, position: at, children: glyphRuns(line, at) }] })),
  ];
}

function marksOf(entries: readonly CollationEntry[], pages: Page[]): void {
  for (const e of entries) {
    const page = pages[e.page - 1];
    if (!page) continue;
    const mark: CorrectionMark = { number: e.number, column: e.column, cell: e.cell };
    if (e.sub) mark.sub = e.sub;
    (page.corrections ??= []).push(mark);
  }
}

export interface CollationOptions {
  /** false (`collation: off`): no marks, no section. */
  collation: boolean;
  /** Number the entries (the modern template's marks are numbers; the 四庫 one's are ○). */
  numbered: boolean;
  /** The edition's language (the punctuation standard when the spec leaves it to the text). */
  language?: string;
}

/**
 * The section's pages, after the volume's last page: they start a leaf (a
 * recto; the text's last recto gets a blank verso), numbered on from it
 * (page in volume, side, leaf), without the volume's bookmark.
 */
function sectionPages(section: VolumeLayout, last: Page): Page[] {
  const out: Page[] = [];
  if (last.side === 'recto') {
    out.push({ ...last, number: last.pageInVolume + 1, pageInVolume: last.pageInVolume + 1, side: 'verso', bookmarks: [], columns: [], corrections: undefined, section: last.section });
  }
  const before = out[out.length - 1] ?? last;
  section.pages.forEach((page, k) => {
    const pageInVolume = before.pageInVolume + 1 + k;
    out.push({
      ...page,
      number: pageInVolume,
      pageInVolume,
      leaf: before.leaf + 1 + Math.floor(k / 2),
      side: k % 2 === 0 ? 'recto' : 'verso',
      bookmarks: page.bookmarks.filter((b) => b.level > 1),
      collation: true,
    });
  });
  return out.map((p) => {
    const { corrections, ...rest } = p;
    return corrections ? p : (rest as Page);
  });
}

/**
 * One volume laid out with its corrections located and marked, and its
 * 校勘記 on pages of its own after the text (so that laying the section out
 * cannot move what it cites, and its title never ends a page alone).
 */
export function layoutVolumeWithCollation(volume: Volume, index: number, spec: PageSpec, options: CollationOptions): VolumeLayout {
  const text = layoutVolumeText(volume, index, spec, options.language);
  if (!options.collation) return text;
  const { corrections, total } = correctionsInStream(volume);
  const tally = tallyLines(volume.collation);
  if (corrections.length === 0 && tally.length === 0) return text;
  const entries = locate(text, corrections, total);
  const section = layoutVolume({ ...volume, children: collationBlocks(entries, text.pages, options.numbered, tally, volume.position) }, index, spec);
  const pages = [...text.pages, ...sectionPages(section, text.pages[text.pages.length - 1])];
  marksOf(entries, pages);
  return { ...text, pages, collation: entries };
}

/** The book with every volume's 校勘記 (layoutBook plus collation). */
export function layoutEdition(tree: Root, spec: PageSpec, options: CollationOptions): BookLayout {
  return assembleBook(
    spec,
    tree.children.map((volume, i) => layoutVolumeWithCollation(volume, i, spec, { language: tree.edition.language, ...options })),
  );
}
