/**
 * The grid layout: what `layout` gives and `render/pdf` reads.
 *
 * Every character sits in a cell of a page → column → cell grid, so the layout
 * needs no font metrics. Columns are numbered in reading order (0 = the
 * rightmost column of the page), cells from the top (0 = the first cell).
 * Plain data, serialisable to JSON.
 */
import type { Annotation, Correction, GlyphDrawing, LayerId, Mark, ParagraphRole, SourcePosition } from '../tree/types.js';
import type { Indent } from '../tree/edition.js';
import type { LabelForm } from '../tree/layer-style.js';
import type { KinsokuLevel, PunctuationStandard } from '../punctuation/index.js';

/**
 * How marks are set (build/punctuation/README.md). `grid` is the template's:
 * `half` (modern) places marks in half cells — adjacent marks compressed,
 * 禁則 by pulling in (compressing) or pushing out (then the column is
 * justified); `rigid` (siku) keeps every character on the cell grid — a mark
 * takes a whole cell, 禁則 by pushing out, or no cell at all with judou/none.
 */
export interface PunctuationSpec {
  /** `auto` until layoutBook resolves it from the template and the edition (the BookLayout's spec has the resolved one). */
  standard: PunctuationStandard | 'auto';
  /** Cells two adjacent marks take (1.5, or 1). */
  adjacent: 1 | 1.5;
  /** A closing point may hang below a full column (at cell `cells`, outside the grid). */
  hanging: boolean;
  /** Which marks 禁則 keeps off a column's head or foot (build/punctuation/table.ts). */
  kinsoku: KinsokuLevel;
  grid: 'half' | 'rigid';
}

/** Blank cells at the head of a paragraph's first and following columns (declared with the edition's settings, which override it). */
export type { Indent } from '../tree/edition.js';

export interface PageSpec {
  /** Columns per page (per half-leaf in the siku template). */
  columns: number;
  /** Cells per column. */
  cells: number;
  indents: Record<ParagraphRole, Indent>;
  /** Bylines are set low: this many cells are left blank below them. */
  bylineFoot: number;
  /** Punctuation; absent means `{ standard: 'auto', adjacent: 1.5, hanging: false, kinsoku: 'gb', grid: 'rigid' }`. */
  punctuation?: PunctuationSpec;
  /**
   * Alignment of a block that fits one column (clreq 6.2.1.3): `start` (the
   * default), `center`, `end`, or `justify` (均排: every column of the
   * block spread over the whole column, 6.3.1.2). By the role (headings take
   * `title`'s).
   */
  align?: Partial<Record<ParagraphRole, 'start' | 'center' | 'end' | 'justify'>>;
  /**
   * Space between characters in em (疏排 when more than the template's,
   * 紧排 when less; clreq 6.3.1): the PDF sets the type at cell / (1 +
   * tracking). Absent: the template's own size.
   */
  tracking?: number;
  /** How a label the source prints is set (styles/layers.json): bracketed characters take cells; 陰文 is drawn by the renderer. Absent: 陰文. */
  label?: LabelForm;
  /**
   * 眉批: how many of its small characters a column of the top margin
   * holds (the margin's height in half cells). Absent: 4.
   */
  meipiCells?: number;
  /**
   * `layout: source`: the source edition's own lines and pages (Kanripo `¶`
   * and `<pb:>`) make the columns and pages (layout/source.ts).
   */
  source?: boolean;
}

/**
 * A mark beside the characters of a run (著重號, 圈點, 專名號, 書名號).
 * `first`/`last`: the run begins/ends the marked stretch (a line is shortened
 * there, so that two stretches side by side stay apart).
 */
export interface SideMark {
  kind: Mark['kind'];
  first: boolean;
  last: boolean;
  /** kind `ruby` set character by character (注音): each character's reading, in order ('' for none). */
  readings?: string[];
  /** kind `ruby` set along the span (a gloss, clreq 5.5.6): the part of its text beside this run. */
  ruby?: string;
}

/**
 * A piece of main-text characters in consecutive places of one column.
 *
 * Positions are in cells from the top of the column. On the siku grid they
 * are whole cells; in the modern template a run may start at a half cell (a
 * compressed mark before it), a quarter (the space before rotated Latin) or,
 * in a justified column, anywhere.
 */
export interface TextRun {
  type: 'text';
  /** Where the first character's place starts (cells; see above). */
  start: number;
  /** The characters, one per cell unless `advances` says otherwise (a string: use Array.from to count). */
  text: string;
  /**
   * The place each character takes, in cells, when not all are 1: 0.5 for a
   * compressed mark (the half holding its ink), 0 for a mark set beside the
   * character before (句讀) or not printed (`none`), 0 for the second and
   * third digit of a 縱中橫 run, 0.5 for a character of rotated Latin, more
   * than 1 in a justified column (the share of the column's spare space
   * after it). Absent: every character takes one cell.
   */
  advances?: number[];
  /**
   * `small` for small-size inline text (〈臣〉); `lacuna` for □; `glyph` for a
   * placeholder; `tcy` for 1–3 digits set upright together in one cell
   * (縱中橫); `latin` for Latin text rotated a quarter turn; `label` for a
   * one-character label the source prints (疏, in `layout: source`: not text
   * of the tree, no offset).
   */
  style?: 'small' | 'lacuna' | 'glyph' | 'tcy' | 'latin' | 'label';
  /** A mark beside the characters (著重號, 專名號, 書名號 …). */
  mark?: SideMark;
  /** Style `glyph`, one character: drawn in its cell (an image, a composition) where no font has the character (〓 or the list's Unicode character). */
  drawing?: GlyphDrawing;
  /** Source offset of the run's first character; `offset + i` is character i's (UTF-16, within a run the characters are contiguous in the source). */
  offset?: number;
}

/** A run of note text inside one sub-column of a chunk. */
export interface NoteSegment {
  layer: LayerId;
  /** 1 for a note, 2 for a note inside a note, … */
  depth: number;
  text: string;
  /** As for TextRun: the place of each character in main cells, when not all are 1. */
  advances?: number[];
  /**
   * As for TextRun: lacunae and glyph placeholders inside notes keep their
   * style. `label`: the label the source prints before the note (附注, 音義;
   * Note.label, not text), with its brackets where the template sets them
   * so; `head`: the label words the note's text begins with (疏曰, 案),
   * drawn as a label where the template draws labels 陰文.
   */
  style?: 'small' | 'lacuna' | 'glyph' | 'label' | 'head';
  mark?: SideMark;
  /** As for TextRun. */
  drawing?: GlyphDrawing;
}

/**
 * One chunk of a jiazhu note: two sub-columns side by side spanning `cells`
 * main cells from `start`. The right sub-column is read first and holds
 * about half the characters (ceil(n/2) when all take a cell; one or two more
 * or fewer to keep a closing mark off the left sub-column's head or an
 * opening one off the right's foot), the left the rest.
 */
export interface NoteChunk {
  type: 'note';
  start: number;
  /** Main cells spanned: the longer sub-column (ceil(n/2) for n characters of one cell each). */
  cells: number;
  right: NoteSegment[];
  left: NoteSegment[];
}

export type Run = TextRun | NoteChunk;

export interface Column {
  /** Reading order within the page, 0 = rightmost. */
  index: number;
  /** Role of the paragraph the column belongs to, if any. */
  role?: ParagraphRole;
  /**
   * 抬頭 (單抬 1, 雙抬 2): the column starts this many cells above the
   * grid, in the top margin: its first run starts at -raise and the column
   * holds `cells + raise` cells. 平抬 (0) is an ordinary column at cell 0.
   */
  raise?: 1 | 2;
  /** `layout: source`: the source line this column sets (1-based within its page), when it does. */
  sourceLine?: number;
  runs: Run[];
}

export interface Bookmark {
  /** 1 = volume, 2 = heading depth 1, … */
  level: number;
  title: string;
}

export interface Page {
  /** 1-based page number within the whole book. */
  number: number;
  /** 1-based page number within the volume. */
  pageInVolume: number;
  /** Leaf (葉) number within the volume: pages 1 and 2 are leaf 1. */
  leaf: number;
  /**
   * 前半葉 (recto: the odd page, the right half of the printed leaf, read first)
   * or 後半葉 (verso: the even page). In the bound book a recto faces left.
   */
  side: 'recto' | 'verso';
  volume: number;
  volumeTitle: string;
  /** The section current at the top of the page, for running heads. */
  section?: string;
  /** Volumes and headings that start on this page. */
  bookmarks: Bookmark[];
  columns: Column[];
  /** Marks of the corrections on this page (layout/collation.ts); they take no cell. */
  corrections?: CorrectionMark[];
  /** A page of the volume's 校勘記 (after its text). */
  collation?: boolean;
  /** 眉批 and 側批 set on this page (layout/annotations.ts). */
  annotations?: PlacedAnnotation[];
  /** `layout: source`: the source edition's page this page sets (`<pb:KR1d0028_WYG_005-1b>`: leaf 1b), shown in the 版心. */
  sourcePage?: { edition?: string; juan?: number; leaf: string };
}

/** Where a correction's mark goes: beside a cell (of a jiazhu sub-column when `sub`). */
export interface CorrectionMark {
  /** 1-based within the volume, as its 校勘記 entry. */
  number: number;
  column: number;
  cell: number;
  sub?: 'right' | 'left';
}

/** A 校勘記 entry: a correction and where it stands after layout. */
export interface CollationEntry {
  number: number;
  /** A correction's kind, or 校: what the witnesses read where the edition follows its base (collate/). */
  kind: Correction['kind'] | '校';
  /** The source's text (校: the base reading cited). */
  old: string;
  new: string;
  note?: string;
  witness?: string;
  /** The witnesses that read the corrected text (a correction that follows one says 據某本改). */
  agrees?: string[];
  /** The collation's words: a 校 entry's whole text, or what the witnesses read at a correction's place. */
  text?: string;
  /** The entry's place in the corrections file. */
  entry: SourcePosition;
  /** The corrected text's place in the source. */
  source: SourcePosition;
  /** Page in the volume (1-based), its leaf and side, the column (0-based, reading order) and cell of the mark. */
  page: number;
  leaf: number;
  side: 'recto' | 'verso';
  column: number;
  cell: number;
  sub?: 'right' | 'left';
  /** In the front matter (提要), whose leaves are counted apart. */
  front?: boolean;
  /** 葉三b 第五行 */
  locator: string;
}

/**
 * A piece of an annotation set on a page. 眉批: a column of the top margin,
 * `lane` half columns from the page's right (lane 2c is the right half of
 * column c, 2c + 1 its left half), read from its top (`start` 0), each
 * character taking one of the margin's `meipiCells` places. 側批: in the
 * gutter left of column `column`'s text, from `start` (cells from the
 * grid's top), each character half a cell.
 */
export interface AnnotationPiece {
  column: number;
  lane?: number;
  start: number;
  text: string;
}

export interface PlacedAnnotation {
  kind: Annotation['kind'];
  /** Where its anchor landed: the column and the cell. */
  anchor: { column: number; cell: number };
  pieces: AnnotationPiece[];
  /** Moved from its anchor's place because another annotation (or a 抬頭) was there first. */
  moved?: boolean;
}

/** Something the layout tells the user about (a source line too long for its column), at its place in the sources. */
export interface LayoutDiagnostic {
  severity: 'warning' | 'info';
  reason: string;
  ruleId: string;
  position?: SourcePosition;
}

export interface VolumeLayout {
  /** 0-based index of the volume in the tree. */
  index: number;
  title: string;
  pages: Page[];
  /** The volume's 校勘記, when it has corrections and collation is on. */
  collation?: CollationEntry[];
  /** What the layout of this volume has to say (layout: source — lines wrapped, lines and leaves found). */
  diagnostics?: LayoutDiagnostic[];
}

export interface BookLayout {
  spec: PageSpec;
  volumes: VolumeLayout[];
}
