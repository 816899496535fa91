/**
 * The grid engine: one volume → pages → columns → runs.
 *
 * A cursor (page, column, cell) walks the volume's blocks. Main-text
 * characters take one cell each; notes are collected until the main text
 * resumes (so consecutive notes of any layer, and whole commentary
 * paragraphs, run on as one note) and then set in balanced chunks.
 */
import type { Block, ParagraphRole, Volume } from '../tree/types.js';
import type { Bookmark, Column, Indent, Page, PageSpec, TextRun, VolumeLayout } from './types.js';
import { flattenBlock, plainText, type Item, type MainChar, type NoteChar } from './flatten.js';
import { chooseChunk, makeChunk } from './jiazhu.js';

/** Blocks after which a commentary paragraph does not run on but starts a column of its own. */
const NO_RUN_ON: ReadonlySet<string> = new Set(['byline']);

function isFront(block: Block): boolean {
  return block.type === 'paragraph' && block.role === 'front';
}

function clampIndent(indent: Indent, cells: number): Indent {
  const max = Math.max(0, cells - 1);
  return { first: Math.min(indent.first, max), rest: Math.min(indent.rest, max) };
}

function blockIndent(block: Block, spec: PageSpec): Indent {
  // Headings have no indent in PageSpec: they take the title indent.
  const role: ParagraphRole = block.type === 'heading' ? 'title' : block.role;
  return clampIndent(spec.indents[role], spec.cells);
}

/** Main cells a block needs when set without breaking (for bylines set low). */
function cellsNeeded(items: readonly Item[]): number {
  let cells = 0;
  let note = 0;
  for (const item of items) {
    if (item.kind === 'note') {
      note++;
    } else {
      cells += Math.ceil(note / 2) + 1;
      note = 0;
    }
  }
  return cells + Math.ceil(note / 2);
}

class VolumeSetter {
  readonly pages: Page[] = [];
  private page: Page | undefined;
  private column: Column | undefined;
  private cell = 0;
  private rest = 0;
  private role: ParagraphRole | undefined;
  private section: string | undefined;
  private note: NoteChar[] = [];
  /** Source offset right after the last main character set, to know when a run may grow. */
  private nextOffset: number | undefined;

  constructor(
    private readonly volume: Volume,
    private readonly index: number,
    private readonly spec: PageSpec,
  ) {}

  /** Pages before the work proper (front matter): leaves are counted again after them, as 四庫 volumes number 提要 and 卷 apart. */
  private leafBase = 0;

  private newPage(): Page {
    const pageInVolume = this.pages.length + 1;
    const page: Page = {
      number: pageInVolume,
      pageInVolume,
      leaf: Math.ceil((pageInVolume - this.leafBase) / 2),
      side: pageInVolume % 2 === 1 ? 'recto' : 'verso',
      volume: this.index,
      volumeTitle: this.volume.title,
      bookmarks: pageInVolume === 1 ? [{ level: 1, title: this.volume.title }] : [],
      columns: [],
    };
    if (this.section !== undefined) page.section = this.section;
    this.pages.push(page);
    return page;
  }

  /** Opens the next column (on a new page when the page is full), the cursor at `indent`. */
  private newColumn(indent: number): Column {
    let page = this.page;
    if (!page || page.columns.length >= this.spec.columns) page = this.page = this.newPage();
    const column: Column = { index: page.columns.length, runs: [] };
    if (this.role !== undefined) column.role = this.role;
    page.columns.push(column);
    this.column = column;
    this.cell = indent;
    this.nextOffset = undefined;
    return column;
  }

  private currentColumn(): Column {
    if (!this.column || this.cell >= this.spec.cells) return this.newColumn(this.rest);
    return this.column;
  }

  private setMain(item: MainChar): void {
    this.flushNote();
    const column = this.currentColumn();
    const last = column.runs[column.runs.length - 1];
    if (
      last &&
      last.type === 'text' &&
      last.style === item.style &&
      last.start + Array.from(last.text).length === this.cell &&
      item.offset !== undefined &&
      item.offset === this.nextOffset
    ) {
      last.text += item.ch;
    } else {
      const run: TextRun = { type: 'text', start: this.cell, text: item.ch };
      if (item.style) run.style = item.style;
      if (item.offset !== undefined) run.offset = item.offset;
      column.runs.push(run);
    }
    this.nextOffset = item.offset === undefined ? undefined : item.offset + item.ch.length;
    this.cell++;
  }

  /** Sets the collected note characters as jiazhu chunks from the cursor on. */
  private flushNote(): void {
    const chars = this.note;
    if (chars.length === 0) return;
    this.note = [];
    let p = 0;
    while (p < chars.length) {
      const column = this.currentColumn();
      const cap = 2 * (this.spec.cells - this.cell);
      const n = chooseChunk(chars, p, cap, column.runs.length === 0);
      if (n === 0) {
        this.newColumn(this.rest);
        continue;
      }
      const chunk = makeChunk(chars.slice(p, p + n), this.cell);
      column.runs.push(chunk);
      this.cell += chunk.cells;
      this.nextOffset = undefined;
      p += n;
      if (p < chars.length) this.newColumn(this.rest);
    }
  }

  private feed(items: readonly Item[]): void {
    for (const item of items) {
      if (item.kind === 'note') this.note.push(item);
      else this.setMain(item);
    }
  }

  /** Starts a block in a column of its own at its indent. */
  private startBlock(block: Block, items: readonly Item[]): void {
    this.flushNote();
    const indent = blockIndent(block, this.spec);
    this.role = block.type === 'paragraph' ? block.role : undefined;
    this.rest = indent.rest;
    let first = indent.first;
    if (block.type === 'paragraph' && block.role === 'byline') {
      // Set low: end `bylineFoot` cells above the foot when the byline fits.
      const low = this.spec.cells - this.spec.bylineFoot - cellsNeeded(items);
      if (low > first) first = low;
    }
    this.newColumn(first);
  }

  /**
   * Leaves the rest of the page blank, and a blank verso after a recto, so
   * that the next column opens a recto.
   */
  private breakToRecto(): void {
    this.flushNote();
    this.page = undefined;
    this.column = undefined;
    if (this.pages.length % 2 === 1) this.newPage();
    this.leafBase = this.pages.length;
  }

  private addBookmark(bookmark: Bookmark): void {
    this.page?.bookmarks.push(bookmark);
  }

  run(): VolumeLayout {
    let previous: Block | undefined;
    for (const block of this.volume.children) {
      const items = flattenBlock(block);
      if (items.length === 0) continue;
      // The work proper starts on a recto after the front matter (提要).
      const afterFront = previous !== undefined && isFront(previous) && !isFront(block);
      if (afterFront) this.breakToRecto();
      const runOn =
        block.type === 'paragraph' &&
        block.role === 'commentary' &&
        previous !== undefined &&
        !afterFront &&
        !(previous.type === 'paragraph' && NO_RUN_ON.has(previous.role));
      if (runOn) {
        // Commentary on the block before: jiazhu running on in its column.
        this.role = this.role ?? 'commentary';
      } else {
        // The note before ends under the old section: set it before the section changes.
        this.flushNote();
        const title = block.type === 'heading' || (block.type === 'paragraph' && block.role === 'label')
          ? plainText(block.children)
          : undefined;
        if (title !== undefined && title !== '') this.section = title;
        this.startBlock(block, items);
        if (block.type === 'heading' && title) this.addBookmark({ level: 1 + block.depth, title });
      }
      this.feed(items);
      previous = block;
    }
    this.flushNote();
    if (this.pages.length === 0) this.newPage();
    return { index: this.index, title: this.volume.title, pages: this.pages };
  }
}

/**
 * Lays out one volume on its own: pages numbered from 1 within the volume
 * (page 1 a recto). `number` is set to the page in the volume; layoutBook
 * renumbers for the whole book. Depends on nothing outside the volume.
 */
export function layoutVolume(volume: Volume, index: number, spec: PageSpec): VolumeLayout {
  return new VolumeSetter(volume, index, spec).run();
}
