/**
 * `layout: source`: the source edition's own leaves and lines. A text that
 * records where its source's lines end (Kanripo `¶`) and its pages start
 * (`<pb:KR1d0028_WYG_005-1b>`) is set line for line: each source line is
 * one column, each page marker starts a new page, so a reader can cite our
 * leaf and line as the source's. The 版心 shows the source's leaf.
 *
 * Within a line the source's arrangement is kept: a full-width space is a
 * blank cell (indents), main characters take their cells, a note takes the
 * cells of its longer sub-column with the source's own split (Kanripo `/`,
 * `Note.split`/`splits`), and a label the source prints before a note (音義,
 * 疏) takes one cell — as 四庫 books print such labels, two characters side
 * by side. A line that does not fit the column is reported at its `¶` and
 * wrapped onto a further column; a page with more lines than the template
 * has columns runs on onto a further page.
 *
 * Pure; the engine's units and chunks are reused (units.ts, jiazhu.ts).
 */
import type { Anchor, Block, ParagraphRole, Volume } from '../tree/types.js';
import type { Column, LayoutDiagnostic, NoteChunk, NoteSegment, Page, PageSpec, TextRun, VolumeLayout } from './types.js';
import { flattenBlockWith, plainText, type AnnotationRef, type Item, type MainChar, type NoteChar } from './flatten.js';
import { mainUnits, noteUnits, unitAdvances, type MainUnit, type Mode, type NoteUnit } from './units.js';
import { MARK_IDS, makeChunk, segmentsOf } from './jiazhu.js';
import { placeAnnotations, type AnchorAt } from './annotations.js';
import { resolveSideMarks, type Marked } from './marks.js';
import { append } from '../tree/append.js';

/** What a source page marker says: its edition, 卷 and leaf (1b), as the tree's anchor has it. */
type SourcePage = NonNullable<Page['sourcePage']>;

interface Placed {
  item: Item;
  block: Block;
}

/** A piece of a source line: a stretch of main text, a printed label, or a note's piece on this line. */
type Piece =
  | { kind: 'main'; units: MainUnit[]; items: Placed[] }
  | { kind: 'label'; chars: NoteChar[] }
  | { kind: 'note'; units: NoteUnit[]; split?: number };

const round = (x: number): number => Math.round(x * 1e4) / 1e4;
const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** 1b → leaf 1, verso; a leaf the marker does not give as a number stays undefined. */
function leafOf(leaf: string | undefined): { leaf: number; side: Page['side'] } | undefined {
  const m = /^(\d+)([ab])?$/u.exec(leaf ?? '');
  return m ? { leaf: Number(m[1]), side: m[2] === 'b' ? 'verso' : 'recto' } : undefined;
}

/** Whether a volume records its source's lines (¶ anchors): only then can it be set line for line. */
export function recordsSourceLines(volume: Volume): boolean {
  const walk = (nodes: readonly { type: string; kind?: string; children?: unknown }[]): boolean =>
    nodes.some((n) => (n.type === 'anchor' && n.kind === 'line') || (Array.isArray(n.children) && walk(n.children as typeof nodes)));
  return volume.children.some((b) => walk(b.children));
}

class SourceSetter {
  readonly pages: Page[] = [];
  readonly diagnostics: LayoutDiagnostic[] = [];
  private page: Page | undefined;
  private sourcePage: SourcePage | undefined;
  /** The source's lines on the current source page (1-based numbering of columns). */
  private lineNo = 0;
  private line: Placed[] = [];
  /** A page marker was just met: the ¶ that ends its own line makes no column. */
  private afterPage = false;
  /** Blank cells at the head of the line in hand. */
  private indent = 0;
  private section: string | undefined;
  private readonly marked: Marked[] = [];
  private readonly anchored: AnchorAt[] = [];
  private readonly cap: number;
  private lines = 0;
  private wrapped = 0;
  private overfull = new Set<Page>();
  private readonly bookmarked = new Set<Block>();

  constructor(
    private readonly volume: Volume,
    private readonly index: number,
    private readonly spec: PageSpec,
    private readonly mode: Mode,
  ) {
    this.cap = 2 * spec.cells;
  }

  private newPage(source: SourcePage | undefined): Page {
    const pageInVolume = this.pages.length + 1;
    const prev = this.pages[this.pages.length - 1];
    const at = leafOf(source?.leaf);
    const page: Page = {
      number: pageInVolume,
      pageInVolume,
      // A page without a marker of its own (before the first, or a run-on page) follows on from the one before.
      leaf: at?.leaf ?? (prev ? prev.leaf + (prev.side === 'verso' ? 1 : 0) : 1),
      side: at?.side ?? (prev ? (prev.side === 'recto' ? 'verso' : 'recto') : 'recto'),
      volume: this.index,
      volumeTitle: this.volume.title,
      bookmarks: pageInVolume === 1 ? [{ level: 1, title: this.volume.title }] : [],
      columns: [],
    };
    if (source) page.sourcePage = source;
    if (this.section !== undefined) page.section = this.section;
    this.pages.push(page);
    this.page = page;
    return page;
  }

  /** A new column for source line `sourceLine` (a run-on page when the page is full). */
  private newColumn(role: ParagraphRole | undefined, sourceLine: number, at: Anchor | undefined): Column {
    let page = this.page ?? this.newPage(this.sourcePage);
    if (page.columns.length >= this.spec.columns) {
      if (!this.overfull.has(page)) {
        this.overfull.add(page);
        this.diagnostics.push({
          severity: 'warning',
          reason: `source page ${page.sourcePage?.leaf ?? page.pageInVolume} has more lines than the template's ${this.spec.columns} columns: it runs on onto a further page (set layout.columns to the source's lines a page)`,
          ruleId: 'source-page-overfull',
          position: at?.position,
        });
      }
      page = this.newPage(this.sourcePage);
    }
    const column: Column = { index: page.columns.length, runs: [], sourceLine };
    if (role !== undefined) column.role = role;
    page.columns.push(column);
    return column;
  }

  private pageMarker(anchor: Anchor): void {
    this.flushLine(undefined);
    this.sourcePage = { ...(anchor.edition ? { edition: anchor.edition } : {}), ...(anchor.juan !== undefined ? { juan: anchor.juan } : {}), leaf: anchor.leaf ?? anchor.value };
    this.newPage(this.sourcePage);
    this.lineNo = 0;
    this.afterPage = true;
  }

  private lineMarker(anchor: Anchor): void {
    if (this.line.length > 0) this.flushLine(anchor);
    else if (!this.afterPage) {
      // An empty line of the source: a blank column.
      this.lines++;
      this.newColumn(undefined, ++this.lineNo, anchor);
    }
    this.afterPage = false;
    // The next line's blank cells at its head (the parser kept them on the ¶ before it).
    const indent = anchor.data?.indent;
    this.indent = typeof indent === 'number' && indent > 0 ? indent : 0;
  }

  /** The line's items cut into pieces: main stretches, labels, note pieces (a new piece where the source's split is given). */
  private pieces(items: readonly Placed[]): Piece[] {
    const out: Piece[] = [];
    let main: Placed[] = [];
    let note: NoteChar[] = [];
    let split: number | undefined;
    let label: NoteChar[] = [];
    const flushMain = (): void => {
      if (main.length === 0) return;
      out.push({ kind: 'main', units: mainUnits(main.map((p) => p.item as MainChar), this.mode), items: main });
      main = [];
    };
    const flushNote = (): void => {
      if (note.length === 0) return;
      out.push({ kind: 'note', units: noteUnits(note, this.mode), ...(split !== undefined ? { split } : {}) });
      note = [];
      split = undefined;
    };
    const flushLabel = (): void => {
      if (label.length === 0) return;
      out.push({ kind: 'label', chars: label });
      label = [];
    };
    for (const p of items) {
      const item = p.item;
      if (item.kind === 'main') {
        flushNote();
        flushLabel();
        main.push(p);
      } else if (item.style === 'label') {
        flushMain();
        flushNote();
        label.push(item);
      } else {
        flushMain();
        flushLabel();
        if (item.split !== undefined && note.length > 0) flushNote();
        if (item.split !== undefined) split = item.split;
        note.push(item);
      }
    }
    flushMain();
    flushLabel();
    flushNote();
    return out;
  }

  /** Sets the line in hand as one column (more when it does not fit); `end` is the ¶ that ended it. */
  private flushLine(end: Anchor | undefined): void {
    const items = this.line;
    if (items.length === 0) return;
    this.line = [];
    this.lines++;
    const sourceLine = ++this.lineNo;
    const block = items[0].block;
    const role: ParagraphRole | undefined = block.type === 'paragraph' ? block.role : undefined;
    const pieces = this.pieces(items);
    const width = (us: readonly { width: number }[]): number => us.reduce((s, u) => s + u.width, 0);
    const halvesOf = (piece: Piece): number => {
      if (piece.kind === 'main') return width(piece.units);
      if (piece.kind === 'label') return 2 * Math.ceil(piece.chars.length / 2);
      const k = this.splitAt(piece);
      return Math.max(width(piece.units.slice(0, k)), width(piece.units.slice(k)));
    };
    const total = 2 * this.indent + pieces.reduce((s, p) => s + halvesOf(p), 0);
    if (total > this.cap) {
      this.wrapped++;
      this.diagnostics.push({
        severity: 'warning',
        reason: `source line ${sourceLine}${this.sourcePage ? ` of page ${this.sourcePage.leaf}` : ''} takes ${total / 2} cells (夾注 counted as half cells), more than the column's ${this.spec.cells}: wrapped onto a further column`,
        ruleId: 'source-line-long',
        position: end?.position,
      });
    }
    let column = this.newColumn(role, sourceLine, end);
    let pos = 2 * this.indent;
    this.indent = 0;
    const room = (): number => this.cap - pos;
    const next = (): void => {
      column = this.newColumn(role, sourceLine, end);
      pos = 0;
    };
    for (const piece of pieces) {
      if (piece.kind === 'main') {
        for (const u of piece.units) {
          if (u.width > room() && pos > 0) next();
          this.placeMain(column, u, pos);
          pos += u.width;
        }
      } else if (piece.kind === 'label') {
        if (2 > room() && pos > 0) next();
        this.placeLabel(column, piece.chars, pos);
        pos += halvesOf(piece);
      } else {
        let units = piece.units;
        let k = this.splitAt(piece);
        while (units.length > 0) {
          const need = Math.max(width(units.slice(0, k)), width(units.slice(k)));
          if (need <= room()) {
            pos += this.placeChunk(column, units, k, pos);
            break;
          }
          // Wrapped: as much as the column holds, balanced, then on in the next.
          if (room() < 2) {
            next();
            continue;
          }
          const take = Math.min(units.length, Math.max(1, this.fitting(units, room())));
          const first = units.slice(0, take);
          pos += this.placeChunk(column, first, Math.ceil(first.length / 2), pos);
          units = units.slice(take);
          k = Math.ceil(units.length / 2);
          if (units.length > 0) next();
        }
      }
    }
  }

  /** Units of a note piece in its right sub-column: the source's split (characters) as units; balanced without one. */
  private splitAt(piece: Extract<Piece, { kind: 'note' }>): number {
    if (piece.split === undefined) return Math.ceil(piece.units.length / 2);
    let chars = 0;
    for (let k = 0; k < piece.units.length; k++) {
      if (chars >= piece.split) return k;
      chars += piece.units[k].chars.length;
    }
    return piece.units.length;
  }

  /** How many note units two sub-columns of `halves` hold. */
  private fitting(units: readonly NoteUnit[], halves: number): number {
    let n = 0;
    let used = 0;
    for (const u of units) {
      if (used + u.width > 2 * halves) break;
      used += u.width;
      n++;
    }
    return n;
  }

  private placeMain(column: Column, u: MainUnit, pos: number): void {
    const advances = unitAdvances(u);
    let at = pos / 2 + u.padStart / 2;
    u.chars.forEach((c, i) => {
      const adv = advances[i];
      const cell = round(at);
      this.anchor(c.anchors, column, cell, adv);
      at += adv;
      // A blank of the source takes its cell and sets nothing.
      if (c.blank) return;
      const last = column.runs[column.runs.length - 1];
      const style = u.kind === 'tcy' ? 'tcy' : u.kind === 'latin' || u.kind === 'space' ? 'latin' : c.style;
      const grow =
        last?.type === 'text' &&
        last.style === style &&
        Math.abs(last.start + (last.advances ?? Array.from(last.text, () => 1)).reduce((a, b) => a + b, 0) - cell) < 1e-6 &&
        c.offset !== undefined &&
        last.offset !== undefined &&
        last.offset + last.text.length === c.offset &&
        !c.drawing &&
        !last.drawing &&
        RUN_MARK.get(last) === c.mark;
      if (grow && last.type === 'text') {
        last.text += c.ch;
        (last.advances ??= Array.from(last.text.slice(0, -c.ch.length), () => 1)).push(adv);
        this.marked.find((m) => m.target === last)?.readings?.push(c.reading ?? '');
      } else {
        const run: TextRun = { type: 'text', start: cell, text: c.ch, advances: [adv] };
        if (style) run.style = style;
        if (c.drawing) run.drawing = c.drawing;
        if (c.offset !== undefined) run.offset = c.offset;
        if (c.mark) {
          RUN_MARK.set(run, c.mark);
          this.marked.push({ target: run, mark: c.mark, ...(c.mark.kind === 'ruby' ? { readings: [c.reading ?? ''] } : {}) });
        }
        column.runs.push(run);
      }
    });
    for (const run of column.runs) if (run.type === 'text' && run.advances?.every((a) => a === 1)) delete run.advances;
  }

  /** A label the source prints: one cell, two characters side by side (a chunk), one character full size. */
  private placeLabel(column: Column, chars: readonly NoteChar[], pos: number): void {
    for (const c of chars) this.anchor(c.anchors, column, pos / 2, 0);
    if (chars.length === 1) {
      column.runs.push({ type: 'text', start: pos / 2, text: chars[0].ch, style: 'label' });
      return;
    }
    const half = Math.ceil(chars.length / 2);
    const seg = (cs: readonly NoteChar[]): NoteSegment[] => (cs.length ? [{ layer: cs[0].layer, depth: cs[0].depth, text: cs.map((c) => c.ch).join(''), style: 'label' }] : []);
    column.runs.push({ type: 'note', start: pos / 2, cells: half, right: seg(chars.slice(0, half)), left: seg(chars.slice(half)) });
  }

  /** A note piece as one chunk at `pos`: units[0, k) right, the rest left. Returns the halves it takes. */
  private placeChunk(column: Column, units: readonly NoteUnit[], k: number, pos: number): number {
    const chunk: NoteChunk = makeChunk(units, k, pos / 2);
    let right = pos / 2;
    let left = pos / 2;
    units.forEach((u, i) => {
      for (const c of u.chars) this.anchor(c.anchors, column, i < k ? right : left, u.width / 2);
      if (i < k) right += u.width / 2;
      else left += u.width / 2;
    });
    column.runs.push(chunk);
    for (const seg of [...chunk.right, ...chunk.left]) {
      const mark = MARK_IDS.get(seg);
      if (mark) this.marked.push({ target: seg, mark });
    }
    return 2 * chunk.cells;
  }

  private anchor(refs: readonly AnnotationRef[] | undefined, column: Column, cell: number, advance: number): void {
    for (const ref of refs ?? []) this.anchored.push({ ref, column, cell: round(ref.after ? cell + advance : cell) });
  }

  /** A block starts on the page in hand: a heading's bookmark and the running section go there. */
  private headingStarts(block: Block): void {
    if (this.bookmarked.has(block)) return;
    this.bookmarked.add(block);
    const title = block.type === 'heading' || (block.type === 'paragraph' && block.role === 'label') ? plainText(block.children) : '';
    if (!title) return;
    this.section = title;
    const page = this.page ?? this.newPage(this.sourcePage);
    if (block.type === 'heading') page.bookmarks.push({ level: 1 + block.depth, title });
    page.section ??= title;
  }

  run(): VolumeLayout {
    const annotationIds = { count: 0 };
    let pendingBreaks: Array<{ anchor: Anchor }> = [];
    const walk = (anchor: Anchor): void => (anchor.kind === 'page' ? this.pageMarker(anchor) : this.lineMarker(anchor));
    for (const block of this.volume.children) {
      const { items, breaks } = flattenBlockWith(block, { labels: this.spec.label, source: true, annotationIds });
      if (items.length === 0) {
        append(pendingBreaks, breaks);
        continue;
      }
      for (const b of pendingBreaks) walk(b.anchor);
      pendingBreaks = [];
      for (const item of items) {
        for (const b of item.breaks ?? []) if (!b.after) walk(b.anchor);
        if (this.line.length === 0 || this.line[this.line.length - 1].block !== block) this.headingStarts(block);
        this.line.push({ item, block });
        for (const b of item.breaks ?? []) if (b.after) walk(b.anchor);
      }
    }
    for (const b of pendingBreaks) walk(b.anchor);
    this.flushLine(undefined);
    if (this.pages.length === 0) this.newPage(undefined);
    resolveSideMarks(this.marked);
    this.diagnostics.push(...placeAnnotations(this.pages, this.anchored, this.spec, () => this.newPage(undefined)));
    const marked = this.pages.filter((p) => p.sourcePage).length;
    this.diagnostics.unshift({
      severity: 'info',
      reason: `layout: source: ${plural(this.lines, 'source line')} on ${plural(marked, 'source page')} (${plural(this.pages.length, 'page')} set)${this.wrapped ? `, ${plural(this.wrapped, 'line')} longer than the column wrapped` : ''}`,
      ruleId: 'source-layout',
      position: this.volume.position,
    });
    return { index: this.index, title: this.volume.title, pages: this.pages, diagnostics: this.diagnostics };
  }
}

/** The mark node of a run while it may still grow. */
const RUN_MARK = new WeakMap<TextRun, MainChar['mark']>();

/** Lays out a volume line for line as its source (see the module comment). */
export function layoutSourceVolume(volume: Volume, index: number, spec: PageSpec, mode: Mode): VolumeLayout {
  return new SourceSetter(volume, index, spec, mode).run();
}
