/**
 * The table of punctuation marks (clreq appendix A, GB/T 15834—2011, Taiwan's
 * 重訂標點符號手冊): one row a mark, the single source for the layout (width,
 * adjustable space, line-breaking classes, 句讀 forms), the PDF (placement per
 * standard, how the vertical form is drawn) and the EPUB (which marks the
 * reading system may trim). A new mark or standard is a new row or column
 * here, not a branch in a stage.
 */

/** The standards a vertical edition is punctuated by; `judou` and `none` are the classical ones. */
export type PunctuationStandard = 'mainland' | 'taiwan' | 'judou' | 'none';
/** The two modern standards, which place marks in cells. */
export type ModernStandard = 'mainland' | 'taiwan';

/**
 * clreq 5.1 / appendix A classes. 點號 (points): period … colon, question,
 * exclamation; 標號: opening/closing (quotes, brackets, book-title marks),
 * ellipsis, dash, connector, interpunct, solidus.
 */
export type MarkClass =
  | 'period'
  | 'comma'
  | 'enumeration'
  | 'semicolon'
  | 'colon'
  | 'question'
  | 'exclamation'
  | 'opening'
  | 'closing'
  | 'ellipsis'
  | 'dash'
  | 'connector'
  | 'interpunct'
  | 'solidus';

/**
 * Where a mark's ink sits in its cell in vertical text, which decides its
 * adjustable space (clreq 6.3.2.1): `start` = in the upper half (the lower
 * half is blank and may be given up), `end` = in the lower half (the upper
 * half may be given up), `centre` = in the middle (a quarter on each side may
 * be given up), `fixed` = the whole cell, never adjusted.
 */
export type InkSide = 'start' | 'end' | 'centre' | 'fixed';

/**
 * How the PDF places a mark: `{ x, y }` = the glyph drawn upright, its ink's
 * centre anchored there (em, from the top left of the em box of the mark's
 * cell), whatever the font's design; `font` = the font's vertical form
 * (vert/vrt2) where its designer put it (brackets, the ellipsis); `line` =
 * drawn as a rule through the middle of its cells (the dash, which fonts
 * draw shorter than its cells); `corner` = drawn as the corner bracket
 * vertical text uses for it (“” ‘’ → ﹃﹄ ﹁﹂, clreq 5.2, GB/T 15834 §5.2.2),
 * the character itself kept in the text layer.
 */
export type Placement = { x: number; y: number } | 'font' | 'line' | 'corner';

/**
 * Levels of 禁則 (clreq 6.1.1): `basic` keeps points and closing brackets
 * off a column's head and opening brackets off its foot; `gb` also
 * interpuncts, connectors and solidi (the default); `strict` also the
 * ellipsis and the dash (but a paragraph may begin with them); `none` keeps
 * nothing (2-cell marks still never split, clreq 6.1.2).
 */
export type KinsokuLevel = 'none' | 'basic' | 'gb' | 'strict';
export const KINSOKU_LEVELS: readonly KinsokuLevel[] = ['none', 'basic', 'gb', 'strict'];

/** 句讀: a small circle (句, a full stop) or a dot (讀, a pause) beside the character before; null = not printed. */
export type JudouForm = 'circle' | 'dot' | null;

export interface MarkRow {
  /** The mark's code point. */
  char: string;
  name: string;
  cls: MarkClass;
  /**
   * Cells the mark's unit takes (clreq 5.4.1, 6.1.2.1): 2 for the 2-cell
   * units, which are written as two characters (…… ——) and never split;
   * a mark written as one 2-cell character (⸺) has 2 too.
   */
  cells: 1 | 2;
  /** Must not head a column at the default (`gb`) level (clreq 6.1.1, 避頭). */
  noStart: boolean;
  /** Must not end a column (避尾, every level but none). */
  noEnd: boolean;
  /** The lowest 禁則 level that keeps it off a column's head (none: no level does). */
  startLevel?: Exclude<KinsokuLevel, 'none'>;
  /** May hang below a full column (clreq 6.1.3; `hanging: true`). */
  hang: boolean;
  /**
   * Compression priority (clreq 6.2.2.3, reduction steps c–g): the lower is
   * given up first; Infinity = never compressed. The column-end mark (step a)
   * comes before all of them.
   */
  squeeze: number;
  /** Ink side and placement in the mainland (GB/T 15834 §5.2) and Taiwan standards. */
  ink: Record<ModernStandard, InkSide>;
  place: Record<ModernStandard, Placement>;
  /** The Unicode vertical presentation form (U+FE10–FE19, U+FE30–FE4F), for reference; the PDF keeps the ordinary code point. */
  vertical: string | null;
  /** A `corner` placement: single (﹁﹂) or double (﹃﹄) lines. */
  corner?: 'single' | 'double';
  judou: JudouForm;
}

const CENTRE = { x: 0.5, y: 0.5 } as const;

/** Compression priorities (clreq 6.2.2.3 c–g). */
const SQ_INTERPUNCT = 1;
const SQ_BRACKET = 2;
const SQ_COMMA = 3;
const SQ_STOP = 4;
const NEVER = Infinity;

type Defaults = Omit<MarkRow, 'char' | 'name' | 'vertical'>;

/** A point (點號): below its character toward the right (mainland), centred (Taiwan). */
function point(cls: MarkClass, mainland: Placement, judou: JudouForm, squeeze: number, hang: boolean): Defaults {
  return {
    cls,
    cells: 1,
    noStart: true,
    noEnd: false,
    startLevel: 'basic',
    hang,
    squeeze,
    ink: { mainland: 'start', taiwan: 'centre' },
    place: { mainland, taiwan: CENTRE },
    judou,
  };
}

/**
 * ？！ are centred in both standards and never adjusted: Taiwan's rule
 * (clreq 5.1.1.2), and the mainland style clreq 6.2.2.3 g allows, chosen
 * because their ink fills most of the cell's height.
 */
function stop(cls: MarkClass): Defaults {
  return {
    cls,
    cells: 1,
    noStart: true,
    noEnd: false,
    startLevel: 'basic',
    hang: false,
    squeeze: NEVER,
    ink: { mainland: 'fixed', taiwan: 'fixed' },
    place: { mainland: CENTRE, taiwan: CENTRE },
    judou: 'circle',
  };
}

function bracket(cls: 'opening' | 'closing'): Defaults {
  const side: InkSide = cls === 'opening' ? 'end' : 'start';
  return {
    cls,
    cells: 1,
    noStart: cls === 'closing',
    noEnd: cls === 'opening',
    ...(cls === 'closing' ? { startLevel: 'basic' as const } : {}),
    hang: false,
    squeeze: SQ_BRACKET,
    ink: { mainland: side, taiwan: side },
    place: { mainland: 'font', taiwan: 'font' },
    judou: null,
  };
}

/** Curly quotes: brackets drawn as the corner brackets of vertical text. */
function corner(cls: 'opening' | 'closing', lines: 'single' | 'double'): Defaults & { corner: 'single' | 'double' } {
  return { ...bracket(cls), place: { mainland: 'corner', taiwan: 'corner' }, corner: lines };
}

/** Other marks: `noStart` at the gb level (interpuncts, connectors, solidi), or at the strict level only (ellipsis, dash). */
function other(cls: MarkClass, cells: 1 | 2, noStart: boolean, squeeze = NEVER, place: Placement = CENTRE): Defaults {
  const ink: InkSide = squeeze === NEVER ? 'fixed' : 'centre';
  const startLevel = noStart ? ('gb' as const) : ('strict' as const);
  return { cls, cells, noStart, noEnd: false, startLevel, hang: false, squeeze, ink: { mainland: ink, taiwan: ink }, place: { mainland: place, taiwan: place }, judou: null };
}

/*
 * Mainland ink centres (em from the em box's top left) are those of the
 * vertical presentation forms ︐︑︒︓︔ as Noto Serif CJK draws them: the
 * placement GB/T 15834 §5.2.1 describes (below the character, to the
 * right); ； a little higher than ︔, whose ink is shorter than ；'s.
 */
const ROWS: MarkRow[] = [
  { char: '。', name: '句號', vertical: '︒', ...point('period', { x: 0.78, y: 0.22 }, 'circle', SQ_STOP, true) },
  { char: '．', name: '句號（科技）', vertical: '︒', ...point('period', { x: 0.78, y: 0.22 }, 'circle', SQ_STOP, true) },
  { char: '，', name: '逗號', vertical: '︐', ...point('comma', { x: 0.8, y: 0.25 }, 'dot', SQ_COMMA, true) },
  { char: '、', name: '頓號', vertical: '︑', ...point('enumeration', { x: 0.78, y: 0.2 }, 'dot', SQ_COMMA, true) },
  { char: '；', name: '分號', vertical: '︔', ...point('semicolon', { x: 0.73, y: 0.4 }, 'circle', SQ_COMMA, false) },
  { char: '：', name: '冒號', vertical: '︓', ...point('colon', { x: 0.75, y: 0.37 }, 'dot', SQ_COMMA, false) },
  { char: '？', name: '問號', vertical: '︖', ...stop('question') },
  { char: '！', name: '嘆號', vertical: '︕', ...stop('exclamation') },
  { char: '‼', name: '雙嘆號', vertical: null, ...stop('exclamation') },
  { char: '⁇', name: '雙問號', vertical: null, ...stop('question') },
  { char: '⁈', name: '問嘆號', vertical: null, ...stop('question') },
  { char: '⁉', name: '嘆問號', vertical: null, ...stop('exclamation') },
  { char: '「', name: '引號', vertical: '﹁', ...bracket('opening') },
  { char: '」', name: '引號', vertical: '﹂', ...bracket('closing') },
  { char: '『', name: '引號', vertical: '﹃', ...bracket('opening') },
  { char: '』', name: '引號', vertical: '﹄', ...bracket('closing') },
  { char: '“', name: '引號', vertical: '﹃', ...corner('opening', 'double') },
  { char: '”', name: '引號', vertical: '﹄', ...corner('closing', 'double') },
  { char: '‘', name: '引號', vertical: '﹁', ...corner('opening', 'single') },
  { char: '’', name: '引號', vertical: '﹂', ...corner('closing', 'single') },
  { char: '（', name: '括號', vertical: '︵', ...bracket('opening') },
  { char: '）', name: '括號', vertical: '︶', ...bracket('closing') },
  { char: '〔', name: '括號', vertical: '︹', ...bracket('opening') },
  { char: '〕', name: '括號', vertical: '︺', ...bracket('closing') },
  { char: '［', name: '括號', vertical: '﹇', ...bracket('opening') },
  { char: '］', name: '括號', vertical: '﹈', ...bracket('closing') },
  { char: '｛', name: '括號', vertical: '︷', ...bracket('opening') },
  { char: '｝', name: '括號', vertical: '︸', ...bracket('closing') },
  { char: '【', name: '括號', vertical: '︻', ...bracket('opening') },
  { char: '】', name: '括號', vertical: '︼', ...bracket('closing') },
  { char: '〖', name: '括號', vertical: '︗', ...bracket('opening') },
  { char: '〗', name: '括號', vertical: '︘', ...bracket('closing') },
  { char: '《', name: '書名號', vertical: '︽', ...bracket('opening') },
  { char: '》', name: '書名號', vertical: '︾', ...bracket('closing') },
  { char: '〈', name: '書名號', vertical: '︿', ...bracket('opening') },
  { char: '〉', name: '書名號', vertical: '﹀', ...bracket('closing') },
  // 2-cell units: written as two characters of one cell each, kept together.
  { char: '…', name: '省略號', vertical: '︙', ...other('ellipsis', 1, false, NEVER, 'font') },
  { char: '⋯', name: '省略號', vertical: '︙', ...other('ellipsis', 1, false, NEVER, 'font') },
  { char: '—', name: '破折號', vertical: '︱', ...other('dash', 1, false, NEVER, 'line') },
  { char: '⸺', name: '破折號', vertical: null, ...other('dash', 2, false, NEVER, 'line') },
  { char: '～', name: '連接號', vertical: '︴', ...other('connector', 1, true, NEVER, 'font') },
  { char: '–', name: '連接號', vertical: '︲', ...other('connector', 1, true, NEVER, 'line') },
  { char: '·', name: '間隔號', vertical: null, ...other('interpunct', 1, true, SQ_INTERPUNCT) },
  { char: '‧', name: '間隔號', vertical: null, ...other('interpunct', 1, true, SQ_INTERPUNCT) },
  { char: '・', name: '間隔號', vertical: null, ...other('interpunct', 1, true, SQ_INTERPUNCT) },
  { char: '／', name: '分隔號', vertical: null, ...other('solidus', 1, true, NEVER, 'font') },
];

/** Every row, in table order (for documentation and tests). */
export const MARKS: readonly MarkRow[] = ROWS;

const BY_CHAR: ReadonlyMap<string, MarkRow> = new Map(ROWS.map((r) => [r.char, r]));

/** The row of a character, or undefined when it is not a punctuation mark. */
export function markOf(ch: string | undefined): MarkRow | undefined {
  return ch === undefined ? undefined : BY_CHAR.get(ch);
}

export function isMark(ch: string | undefined): boolean {
  return markOf(ch) !== undefined;
}

/** Classes whose doubled characters form one 2-cell unit that never splits (…… ——). */
export const PAIRED: ReadonlySet<MarkClass> = new Set(['ellipsis', 'dash']);

/** ？！ written together (？？ ！！ ？！ ！？) make one rigid 2-cell unit (clreq 5.1.1.3). */
export const STACKED: ReadonlySet<MarkClass> = new Set(['question', 'exclamation']);

const RANK: Record<KinsokuLevel, number> = { none: 0, basic: 1, gb: 2, strict: 3 };

/** Whether a mark may not head a column at a 禁則 level. */
export function noStartAt(row: MarkRow, level: KinsokuLevel): boolean {
  return row.startLevel !== undefined && RANK[level] >= RANK[row.startLevel];
}

/** Whether a mark may not end a column at a 禁則 level. */
export function noEndAt(row: MarkRow, level: KinsokuLevel): boolean {
  return row.noEnd && level !== 'none';
}
