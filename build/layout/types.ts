/**
 * The grid layout: what `layout` gives and `render/pdf` reads.
 *
 * Every character sits in a cell of a page → column → cell grid, so the layout
 * needs no font metrics. Columns are numbered in reading order (0 = the
 * rightmost column of the page), cells from the top (0 = the first cell).
 * Plain data, serialisable to JSON.
 */
import type { Correction, LayerId, ParagraphRole, SourcePosition } from '../tree/types.js';

/** Blank cells at the head of a paragraph's first and following columns. */
export interface Indent {
  first: number;
  rest: number;
}

export interface PageSpec {
  /** Columns per page (per half-leaf in the siku template). */
  columns: number;
  /** Cells per column. */
  cells: number;
  indents: Record<ParagraphRole, Indent>;
  /** Bylines are set low: this many cells are left blank below them. */
  bylineFoot: number;
}

/** A piece of main-text characters in consecutive cells of one column. */
export interface TextRun {
  type: 'text';
  /** First cell. */
  start: number;
  /** The characters, one per cell (a string: use Array.from to count). */
  text: string;
  /** `small` for small-size inline text (〈臣〉); `lacuna` for □; `glyph` for a placeholder. */
  style?: 'small' | 'lacuna' | 'glyph';
  /** Source offsets, for mapping back to the tree. */
  offset?: number;
}

/** A run of note text inside one sub-column of a chunk. */
export interface NoteSegment {
  layer: LayerId;
  /** 1 for a note, 2 for a note inside a note, … */
  depth: number;
  text: string;
  /** As for TextRun: lacunae and glyph placeholders inside notes keep their style. */
  style?: 'small' | 'lacuna' | 'glyph';
}

/**
 * One chunk of a jiazhu note: two sub-columns side by side spanning `cells`
 * main cells from `start`. The right sub-column is read first and holds
 * ceil(n/2) characters, the left the rest.
 */
export interface NoteChunk {
  type: 'note';
  start: number;
  /** Main cells spanned: ceil(n/2) for n note characters. */
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
  kind: Correction['kind'];
  old: string;
  new: string;
  note?: string;
  witness?: string;
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

export interface VolumeLayout {
  /** 0-based index of the volume in the tree. */
  index: number;
  title: string;
  pages: Page[];
  /** The volume's 校勘記, when it has corrections and collation is on. */
  collation?: CollationEntry[];
}

export interface BookLayout {
  spec: PageSpec;
  volumes: VolumeLayout[];
}
