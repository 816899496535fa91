/**
 * The grid engine: one volume → pages → columns → runs.
 *
 * A cursor walks the volume's blocks. Main text is cut into units
 * (units.ts); notes are collected until the main text resumes (so
 * consecutive notes of any layer, and whole commentary paragraphs, run on as
 * one note) and then set in balanced chunks (jiazhu.ts). A column is drafted
 * in half cells and becomes runs when it is closed, after any compression
 * (禁則 by pulling in) or justification (after pushing out).
 *
 * 禁則 (clreq 6.1.1–6.1.3): when the next unit does not fit and the column
 * may not end before it (a closing mark would head the next column, an
 * opening mark would end this one), the engine tries, in this order:
 * 1. with `hanging: true`, a hangable point hangs below the column;
 * 2. pulling in (modern template): the unit — and whatever must stay with
 *    it — joins this column, which makes room by giving up blank half cells
 *    of its marks: the mark at the foot first, then interpuncts, brackets,
 *    commas/頓號/分號, stops (clreq 6.2.2.3), the ones nearest the foot
 *    first;
 * 3. pushing out: the last units go to the next column with it; the column
 *    is then justified (modern) or left a cell short (siku, a rigid grid).
 * Why this order: see build/layout/README.md.
 */
import type { Block, ParagraphRole, Volume } from '../tree/types.js';
import type { Bookmark, Column, Indent, NoteChunk, NoteSegment, Page, PageSpec, TextRun, VolumeLayout } from './types.js';
import { flattenBlockWith, plainText, type AnnotationRef, type Item, type MainChar, type MarkRef, type NoteChar } from './flatten.js';
import { placeAnnotations, type AnchorAt } from './annotations.js';
import { resolveSideMarks } from './marks.js';
import { MARK_IDS, chooseChunk, makeChunk } from './jiazhu.js';
import { breakable, cut, mainUnits, noteUnits, squeezable, unitAdvances, type MainUnit, type Mode, type NoteUnit } from './units.js';
import { defaultStandard, isMark, isPunctuated } from '../punctuation/index.js';
import { punctuationOf } from './spec.js';
import { append } from '../tree/append.js';

/** Blocks after which a commentary paragraph does not run on but starts a column of its own. */
const NO_RUN_ON: ReadonlySet<string> = new Set(['byline']);
const EPS = 1e-9;
/** At most this many units follow a unit pulled into a column to reach a place where it may end. */
const PULL_AHEAD = 3;
/** At most this many units are pushed out of a column. */
const PUSH_BACK = 3;

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

/** Main cells a block needs when set without breaking (for bylines set low); marks set beside count nothing. */
function cellsNeeded(items: readonly Item[], mode: Mode): number {
  let cells = 0;
  let note = 0;
  const zero = (ch: string): boolean => mode.standard !== 'mainland' && mode.standard !== 'taiwan' && isMark(ch);
  for (const item of items) {
    if (zero(item.ch)) continue;
    if (item.kind === 'note') {
      note++;
    } else {
      cells += Math.ceil(note / 2) + 1;
      note = 0;
    }
  }
  return cells + Math.ceil(note / 2);
}

/** Consecutive main characters, or one note's characters. */
type Segment = { type: 'main'; chars: MainChar[] } | { type: 'note'; chars: NoteChar[] };

function segments(items: readonly Item[]): Segment[] {
  const out: Segment[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (item.kind === 'main') {
      if (last?.type === 'main') last.chars.push(item);
      else out.push({ type: 'main', chars: [item] });
    } else if (last?.type === 'note') last.chars.push(item);
    else out.push({ type: 'note', chars: [item] });
  }
  return out;
}

type Entry =
  | { type: 'unit'; unit: MainUnit; hang?: boolean }
  | { type: 'chunk'; chunk: NoteChunk; halves: number };

/** The column being set, in half cells. */
interface Draft {
  column: Column;
  page: Page;
  entries: Entry[];
  /** Half cells from the column's top where the next entry goes. */
  pos: number;
  /** The first column of a block (an opening mark keeps its whole cell there). */
  blockStart: boolean;
  /** 均排: the block's columns are justified even where the block ends (align: justify). */
  justify: boolean;
}

const styleOf = (u: MainUnit, c: MainChar): TextRun['style'] =>
  u.kind === 'tcy' ? 'tcy' : u.kind === 'latin' || u.kind === 'space' ? 'latin' : c.style;

class VolumeSetter {
  readonly pages: Page[] = [];
  private page: Page | undefined;
  private draft: Draft | undefined;
  private rest = 0;
  private role: ParagraphRole | undefined;
  private section: string | undefined;
  private note: NoteChar[] = [];
  /** The last stretch of main text of its block is being set (no note after it). */
  private lastStretch = false;
  /** The current block is set 均排 (align: justify). */
  private justifyBlock = false;
  /** The columns of the current block, with their pages (for 孤行不成頁). */
  private blockColumns: Array<{ page: Page; column: Column }> = [];
  /** Runs and segments under a mark node, for their SideMark once the volume is set. */
  private readonly marked: Array<{ target: TextRun | NoteSegment; mark: MarkRef }> = [];
  /** Where each annotation's anchor landed, for layout/annotations.ts once the volume is set. */
  private readonly anchored: AnchorAt[] = [];
  /** Annotations of blocks with no character, waiting for the next character set. */
  private orphans: AnnotationRef[] = [];
  /** The place after the last character set (for annotations that end the volume). */
  private lastPlace: { column: Column; cell: number } | undefined;
  private readonly annotationIds = { count: 0 };
  private readonly cap: number;

  constructor(
    private readonly volume: Volume,
    private readonly index: number,
    private readonly spec: PageSpec,
    private readonly mode: Mode,
  ) {
    this.cap = 2 * spec.cells;
  }

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

  /** Closes the column being set and opens the next (on a new page when the page is full), the cursor at `indent` (negative: 抬頭, above the grid). */
  private newColumn(indent: number, blockStart = false): Draft {
    this.closeColumn(false);
    let page = this.page;
    if (!page || page.columns.length >= this.spec.columns) page = this.page = this.newPage();
    const column: Column = { index: page.columns.length, runs: [] };
    if (this.role !== undefined) column.role = this.role;
    if (indent < 0) column.raise = -indent as 1 | 2;
    page.columns.push(column);
    this.draft = { column, page, entries: [], pos: 2 * indent, blockStart, justify: this.justifyBlock };
    this.blockColumns.push({ page, column });
    return this.draft;
  }

  /**
   * 抬頭: what follows starts a new column at cell -level (平抬 0: the
   * grid's top, whatever the indent). A column with nothing set in it yet
   * (a block's first) is raised in place.
   */
  private raiseColumn(level: 0 | 1 | 2): void {
    const d = this.draft;
    if (d && this.lastEntry(d) === undefined) {
      d.pos = -2 * level;
      if (level > 0) d.column.raise = level as 1 | 2;
      else delete d.column.raise;
      return;
    }
    this.closeColumn(false);
    this.newColumn(-level);
  }

  private current(): Draft {
    return this.draft ?? this.newColumn(this.rest);
  }

  private widthOf(entry: Entry): number {
    return entry.type === 'chunk' ? entry.halves : entry.hang ? 0 : entry.unit.width;
  }

  private append(d: Draft, unit: MainUnit, hang = false): void {
    // An opening mark at the head of a column gives up its leading half (clreq 6.3.2.3).
    if (!hang && d.entries.length === 0 && !d.blockStart && unit.side === 'end' && squeezable(unit) && this.mode.grid === 'half') cut(unit);
    d.entries.push({ type: 'unit', unit, hang });
    d.pos += hang ? 0 : unit.width;
  }

  /** The last entry that takes a place. */
  private lastEntry(d: Draft): Entry | undefined {
    for (let i = d.entries.length - 1; i >= 0; i--) {
      const e = d.entries[i];
      if (e.type === 'chunk' || e.unit.width > 0) return e;
    }
    return undefined;
  }

  /** Whether the column may end after `e` with `u` heading the next. */
  private mayBreak(e: Entry | undefined, u: MainUnit): boolean {
    if (!e) return true;
    return e.type === 'chunk' ? !u.noStart : breakable(e.unit, u);
  }

  /**
   * Sets units[i]; returns the index of the next unit to set (a push-out
   * may hand units back).
   */
  private placeUnit(units: readonly MainUnit[], i: number): number {
    const u = units[i];
    this.flushNote(u);
    const raise = u.chars.find((c) => c.raise !== undefined)?.raise;
    if (raise !== undefined) this.raiseColumn(raise);
    else if (u.chars[0]?.columnBreak && this.draft && this.lastEntry(this.draft) !== undefined) this.newColumn(this.rest);
    const d = this.current();
    if (u.width === 0) {
      d.entries.push({ type: 'unit', unit: u });
      return i + 1;
    }
    // A column with nothing in it takes the unit whatever its width, so that the layout always advances.
    if (this.lastEntry(d) === undefined) {
      this.append(d, u);
      return i + 1;
    }
    const head = d.entries.length === 0 && !d.blockStart && u.side === 'end' && squeezable(u) && this.mode.grid === 'half' ? 1 : 0;
    if (d.pos + u.width - head <= this.cap + EPS) {
      this.append(d, u);
      return i + 1;
    }
    return this.overflow(d, units, i);
  }

  /** units[i] does not fit in the column `d`: where the column ends (see the module comment). */
  private overflow(d: Draft, units: readonly MainUnit[], i: number): number {
    const u = units[i];
    const last = this.lastEntry(d);
    if (this.mayBreak(last, u)) {
      // 孤字不成行 (clreq 7.1.2): a paragraph's last column holds more than one character.
      if (this.mode.grid === 'half' && this.lastStretch && units.slice(i).filter((x) => x.width > 0 && x.kind !== 'mark' && x.kind !== 'pair').length === 1) {
        const from = this.pushOut(d, units, i);
        if (from !== undefined) return from;
      }
      this.closeColumn(true);
      this.newColumn(this.rest);
      return i;
    }
    // 1. Hanging: one point below the column, when the column may end after it.
    if (this.mode.hanging && u.kind === 'mark' && u.row?.hang && breakable(u, units[i + 1])) {
      this.append(d, u, true);
      this.closeColumn(true);
      this.newColumn(this.rest);
      return i + 1;
    }
    // 2. Pulling in: compress this column's marks to make room.
    if (this.mode.grid === 'half') {
      for (let j = i; j < Math.min(units.length, i + PULL_AHEAD + 1); j++) {
        if (!breakable(units[j], units[j + 1])) continue;
        const seq = units.slice(i, j + 1);
        const need = seq.reduce((s, x) => s + x.width, 0);
        const pool = this.squeezePool(d, seq);
        const excess = d.pos + need - this.cap;
        if (excess > pool.others.length + (pool.foot ? 1 : 0) + EPS) break;
        for (const x of seq) this.append(d, x);
        d.pos -= squeezeBy(pool.foot, pool.others, excess);
        this.closeColumn(true);
        this.newColumn(this.rest);
        return j + 1;
      }
    }
    // 3. Pushing out: the last units go to the next column with u.
    const from = this.pushOut(d, units, i);
    if (from !== undefined) return from;
    // Nothing helps (a column of one unit, or a note chunk before u): break anyway.
    this.closeColumn(true);
    this.newColumn(this.rest);
    return i;
  }

  /**
   * Ends the column before its last few units (they go on with units[i])
   * where it may end; returns the index to go on from, or undefined when no
   * such place is near.
   */
  private pushOut(d: Draft, units: readonly MainUnit[], i: number): number | undefined {
    const entries = d.entries;
    for (let back = 1; back <= PUSH_BACK; back++) {
      const at = entries.length - back;
      if (at < 1) break;
      const moved = entries.slice(at);
      if (moved.some((e) => e.type !== 'unit' || e.hang)) break;
      const first = (moved[0] as { unit: MainUnit }).unit;
      const before = entries[at - 1];
      const beforeOk = before.type === 'chunk' ? !first.noStart : breakable(before.unit, first);
      if (!beforeOk) continue;
      // The moved units are the ones just before i in this stretch of main text.
      const from = i - moved.length;
      if (from < 0 || units[from] !== first) break;
      d.entries = entries.slice(0, at);
      d.pos -= moved.reduce((s, e) => s + this.widthOf(e), 0);
      this.closeColumn(true);
      this.newColumn(this.rest);
      return from;
    }
    return undefined;
  }

  /**
   * Marks that may give up a half cell if the column must take `seq` too,
   * in the order they give it up: the mark at the foot (clreq 6.2.2.3 a),
   * then by the table's priority (squeezeBy shares a class's part equally).
   */
  private squeezePool(d: Draft, seq: readonly MainUnit[]): { foot: MainUnit | undefined; others: MainUnit[] } {
    const last = seq[seq.length - 1];
    const foot = squeezable(last) && last.side !== 'end' ? last : undefined;
    const all = [...d.entries.flatMap((e) => (e.type === 'unit' && !e.hang ? [e.unit] : [])), ...seq];
    const others = all.filter((x) => x !== foot && squeezable(x) && Number.isFinite(x.row?.squeeze ?? Infinity));
    others.sort((a, b) => (a.row?.squeeze ?? 0) - (b.row?.squeeze ?? 0));
    return { foot, others };
  }

  /** Sets the collected note characters as jiazhu chunks from the cursor on; `next` is the main unit after the note. */
  private flushNote(next?: MainUnit): void {
    const chars = this.note;
    if (chars.length === 0) return;
    this.note = [];
    const units = noteUnits(chars, this.mode);
    // Room the main text after the note needs at the column's foot (a closing mark that must not head a column).
    const after = next && next.noStart && next.width > 0 ? (this.mode.grid === 'half' && squeezable(next) && next.side !== 'end' ? next.width - 1 : next.width) : 0;
    let p = 0;
    while (p < units.length) {
      const d = this.current();
      const choice = chooseChunk(units, p, this.cap - d.pos, d.entries.length === 0, after);
      if (choice.n === 0) {
        this.newColumn(this.rest);
        continue;
      }
      const chunk = makeChunk(units.slice(p, p + choice.n), choice.k, d.pos / 2);
      this.anchorNote(units.slice(p, p + choice.n), choice.k, d.pos / 2, d.column);
      const halves = 2 * chunk.cells;
      d.entries.push({ type: 'chunk', chunk, halves });
      d.pos += halves;
      p += choice.n;
      if (p < units.length) this.newColumn(this.rest);
    }
  }

  /** Where the annotations anchored at a chunk's characters land: each sub-column from the chunk's start. */
  private anchorNote(units: readonly NoteUnit[], k: number, start: number, column: Column): void {
    let right = start;
    let left = start;
    units.forEach((u, i) => {
      const at = i < k ? right : left;
      for (const c of u.chars) for (const ref of c.anchors ?? []) this.anchored.push({ ref, column, cell: round(ref.after ? at + u.width / 2 : at) });
      if (i < k) right += u.width / 2;
      else left += u.width / 2;
    });
    this.lastPlace = { column, cell: round(Math.max(right, left)) };
  }

  /**
   * Turns the draft into the column's runs. `justify`: the column was ended
   * by what follows (not by its block), so in the modern template any space
   * left at its foot is shared out between its units (clreq 6.2.2.4); a
   * column that ends with a note chunk keeps the chunk's blank cells.
   */
  private closeColumn(justify: boolean): void {
    const d = this.draft;
    if (!d) return;
    this.draft = undefined;
    const placed = d.entries.filter((e) => this.widthOf(e) > 0);
    const used = placed.reduce((s, e) => s + this.widthOf(e), 0);
    const start = d.pos - used;
    const last = placed[placed.length - 1];
    const extraOf = new Map<Entry, number>();
    if ((justify || d.justify) && this.mode.grid === 'half' && placed.length >= 2 && last?.type === 'unit') {
      // Expansion (clreq 6.2.2.4): the space around and between Latin words first, up to half a cell each; then every gap alike.
      let spare = this.cap - d.pos;
      const inner = placed.slice(0, -1);
      const western = inner.filter((e) => e.type === 'unit' && (e.unit.kind === 'space' || e.unit.padEnd > 0));
      if (spare > EPS && western.length > 0) {
        const each = Math.min(1, spare / western.length);
        for (const e of western) extraOf.set(e, each);
        spare -= each * western.length;
      }
      if (spare > EPS) for (const e of inner) extraOf.set(e, (extraOf.get(e) ?? 0) + spare / inner.length);
    }
    let pos = start;
    let lastRun: TextRun | undefined;
    let lastEnd = -1;
    let nextOffset: number | undefined;
    // Where the note just set began, when main text of this column came before it: a mark that takes no place
    // right after the note (a 句讀 after 湯湯【音義…】) stands by that main text, not by the note's last character.
    let noteAfterMain: number | undefined;
    let mainBefore = false;
    for (const e of d.entries) {
      const width = this.widthOf(e);
      const extra = extraOf.get(e) ?? 0;
      if (e.type === 'chunk') {
        // A chunk in a justified column keeps its own spacing: it is one unit of the column.
        e.chunk.start = round(pos / 2);
        d.column.runs.push(e.chunk);
        lastRun = undefined;
        noteAfterMain = mainBefore ? pos : undefined;
        mainBefore = false;
        pos += width + extra;
        continue;
      }
      const u = e.unit;
      const at = e.hang ? this.cap : pos;
      const advances = unitAdvances(u, extra);
      let charPos = at + u.padStart;
      // The marks that take no place at the head of the first unit after the note.
      let leading = !e.hang && noteAfterMain !== undefined;
      const besideAt = noteAfterMain;
      if (u.width > 0) {
        noteAfterMain = undefined;
        mainBefore = true;
      }
      u.chars.forEach((c, ci) => {
        const style = styleOf(u, c);
        const adv = advances[ci];
        leading &&= adv === 0;
        const cell = leading ? round(besideAt! / 2) : round(charPos / 2);
        // A hanging point is a run of its own, below the grid.
        const canGrow =
          !e.hang &&
          lastRun !== undefined &&
          lastRun.style === style &&
          Math.abs(lastEnd - cell) < 1e-6 &&
          c.offset !== undefined &&
          c.offset === nextOffset &&
          !c.drawing &&
          !lastRun.drawing &&
          sameMark(MARKS_OF.get(lastRun), c.mark);
        if (canGrow && lastRun) {
          lastRun.text += c.ch;
          lastRun.advances?.push(adv);
          READINGS_OF.get(lastRun)?.push(c.reading ?? '');
        } else {
          const run: TextRun = { type: 'text', start: cell, text: c.ch, advances: [adv] };
          if (style) run.style = style;
          if (c.drawing) run.drawing = c.drawing;
          if (c.offset !== undefined) run.offset = c.offset;
          if (c.mark) {
            MARKS_OF.set(run, c.mark);
            this.marked.push({ target: run, mark: c.mark });
            if (c.mark.kind === 'ruby') READINGS_OF.set(run, [c.reading ?? '']);
          }
          d.column.runs.push(run);
          lastRun = run;
        }
        for (const ref of c.anchors ?? []) this.anchored.push({ ref, column: d.column, cell: ref.after ? round(cell + adv) : cell });
        this.lastPlace = { column: d.column, cell: round(cell + adv) };
        lastEnd = round(cell + adv);
        nextOffset = c.offset === undefined ? undefined : c.offset + c.ch.length;
        charPos += adv * 2;
      });
      if (!e.hang) pos += width + extra;
    }
    for (const run of d.column.runs) {
      if (run.type === 'text' && run.advances && run.advances.every((a) => a === 1)) delete run.advances;
      if (run.type === 'note') for (const seg of [...run.right, ...run.left]) this.noteMarks(seg);
    }
  }

  private noteMarks(seg: NoteSegment): void {
    const mark = MARK_IDS.get(seg);
    if (mark) this.marked.push({ target: seg, mark });
  }

  private feed(items: readonly Item[]): void {
    const all = segments(items);
    all.forEach((segment, k) => {
      if (segment.type === 'note') {
        append(this.note, segment.chars);
        return;
      }
      this.lastStretch = k === all.length - 1;
      const units = mainUnits(segment.chars, this.mode);
      let i = 0;
      while (i < units.length) i = this.placeUnit(units, i);
      this.lastStretch = false;
    });
  }

  /** Starts a block in a column of its own at its indent. */
  private startBlock(block: Block, items: readonly Item[]): void {
    this.flushNote();
    this.endBlock();
    const indent = blockIndent(block, this.spec);
    this.role = block.type === 'paragraph' ? block.role : undefined;
    this.rest = indent.rest;
    let first = indent.first;
    const role: ParagraphRole = block.type === 'heading' ? 'title' : block.role;
    const align = this.spec.align?.[role];
    const need = cellsNeeded(items, this.mode);
    const free = this.spec.cells - first;
    if (block.type === 'paragraph' && block.role === 'byline') {
      // Set low: end `bylineFoot` cells above the foot when the byline fits.
      const low = this.spec.cells - this.spec.bylineFoot - need;
      if (low > first) first = low;
    } else if ((align === 'center' || align === 'end') && need < free) {
      // Single-line alignment (clreq 6.2.1.3) of a block that fits one column.
      first += align === 'center' ? Math.floor((free - need) / 2) : free - need;
    }
    this.justifyBlock = align === 'justify';
    this.newColumn(first, true);
  }

  /**
   * The block set, its last column closed: 孤行不成頁 (clreq 7.1.2) — a
   * block whose last column alone heads a page takes the column before it
   * along, from the foot of the previous page, when that page keeps two of
   * its columns (modern template).
   */
  private endBlock(): void {
    this.closeColumn(false);
    const cols = this.blockColumns;
    this.blockColumns = [];
    if (this.mode.grid !== 'half' || cols.length < 4) return;
    const [a, b, c] = cols.slice(-3);
    const lastOnPage = (x: { page: Page; column: Column }): boolean => x.page.columns[x.page.columns.length - 1] === x.column;
    if (c.page === b.page || b.page !== a.page || c.page.columns.length !== 1 || !lastOnPage(b) || c.page.number !== b.page.number + 1) return;
    b.page.columns.pop();
    c.page.columns.unshift(b.column);
    c.page.columns.forEach((col, i) => (col.index = i));
  }

  /**
   * Leaves the rest of the page blank, and a blank verso after a recto, so
   * that the next column opens a recto.
   */
  private breakToRecto(): void {
    this.flushNote();
    this.endBlock();
    this.page = undefined;
    if (this.pages.length % 2 === 1) this.newPage();
    this.leafBase = this.pages.length;
  }

  private addBookmark(bookmark: Bookmark): void {
    this.page?.bookmarks.push(bookmark);
  }

  /** SideMark of every run and segment under a mark node (marks.ts). */
  private resolveMarks(): void {
    resolveSideMarks(this.marked.map(({ target, mark }) => ({ target, mark, readings: 'type' in target ? READINGS_OF.get(target) : undefined })));
  }

  run(): VolumeLayout {
    let previous: Block | undefined;
    for (const block of this.volume.children) {
      const { items, orphans } = flattenBlockWith(block, { labels: this.spec.label, annotationIds: this.annotationIds });
      if (items.length === 0) {
        // A block of annotations only: they stand by the next character set.
        append(this.orphans, orphans);
        continue;
      }
      if (this.orphans.length > 0) {
        items[0].anchors = [...this.orphans, ...(items[0].anchors ?? [])];
        this.orphans = [];
      }
      if (isFront(block)) markDateLine(items);
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
    this.endBlock();
    if (this.pages.length === 0) this.newPage();
    this.resolveMarks();
    // Annotations after the volume's last character stand after it.
    const last = this.lastPlace ?? { column: this.pages[0].columns[0] ?? { index: 0, runs: [] }, cell: 0 };
    for (const ref of this.orphans) this.anchored.push({ ref: { ...ref, after: true }, column: last.column, cell: last.cell });
    const moved = placeAnnotations(this.pages, this.anchored, this.spec, () => this.newPage());
    return { index: this.index, title: this.volume.title, pages: this.pages, ...(moved.length ? { diagnostics: moved } : {}) };
  }
}

/**
 * The date a 四庫 提要 ends with (乾隆四十四年十月恭校上): a line of its own
 * in the print, so it starts a column, whatever the run of the text before it.
 */
const TIYAO_DATE = /(?:乾隆|嘉慶)[〇零一二三四五六七八九十廿]{1,6}年[閏正〇一二三四五六七八九十]{1,4}月(?:[〇一二三四五六七八九十廿初]{1,4}日)?恭校上[。．.]?$/u;

/** Marks the first character of a front paragraph's closing date (TIYAO_DATE), which then starts its own column. */
function markDateLine(items: Item[]): void {
  const main = items.filter((i): i is MainChar => i.kind === 'main');
  const text = main.map((c) => c.ch).join('');
  const m = TIYAO_DATE.exec(text);
  if (!m || m.index === 0) return;
  // The match's start in characters (the text is joined from one character an item).
  main[Array.from(text.slice(0, m.index)).length].columnBreak = true;
}

/** The mark node of a run while it may still grow. */
const MARKS_OF = new WeakMap<TextRun, MarkRef>();
/** A ruby's readings of a run's characters, while it may still grow. */
const READINGS_OF = new WeakMap<TextRun, string[]>();

function sameMark(a: MarkRef | undefined, b: MarkRef | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.id === b.id && a.kind === b.kind);
}

/**
 * Takes `excess` half cells from marks: the mark at the column's foot
 * gives its whole half; then each class of the table's priority in turn,
 * its marks alike (clreq 6.2.2.3: 同時、同等量), until enough. Returns what
 * was taken.
 */
function squeezeBy(foot: MainUnit | undefined, pool: readonly MainUnit[], excess: number): number {
  let left = excess;
  let k = 0;
  if (foot && left > EPS) {
    cut(foot);
    left -= 1;
  }
  while (left > EPS && k < pool.length) {
    const squeeze = pool[k].row?.squeeze;
    let j = k;
    while (j < pool.length && pool[j].row?.squeeze === squeeze) j++;
    const members = pool.slice(k, j);
    const each = Math.min(1, left / members.length);
    for (const m of members) {
      m.width -= each;
      m.cut = true;
    }
    left -= each * members.length;
    k = j;
  }
  return excess - Math.max(0, left);
}

/** Positions to 1/10000 cell: stable JSON, no float noise. */
function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * Lays out one volume on its own: pages numbered from 1 within the volume
 * (page 1 a recto). `number` is set to the page in the volume; layoutBook
 * renumbers for the whole book. Depends on nothing outside the volume.
 */
export function layoutVolume(volume: Volume, index: number, spec: PageSpec): VolumeLayout {
  return new VolumeSetter(volume, index, spec, modeOf(spec, () => volume.children.map((b) => plainText(b.children)).join(''))).run();
}

/**
 * The punctuation mode of a spec. A spec still `auto` (layoutVolume called
 * on its own) takes the template's default for the volume's own text, as if
 * the edition were zh-Hant; layoutBook resolves the edition's first.
 */
export function modeOf(spec: PageSpec, text: () => string, language = 'zh-Hant'): Mode {
  const p = punctuationOf(spec);
  const standard = p.standard === 'auto' ? defaultStandard(p.grid, language, isPunctuated(text())) : p.standard;
  return { standard, grid: p.grid, adjacent: p.adjacent, hanging: p.hanging, kinsoku: p.kinsoku ?? 'gb' };
}
