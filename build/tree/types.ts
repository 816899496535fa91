/**
 * The document tree: what every stage after `parse` reads.
 *
 * It follows unist (https://github.com/syntax-tree/unist): every node has a
 * `type`, parents have `children`, literals have `value`, and every node has a
 * `position`. Unist utilities (unist-util-visit, …) work on it unchanged.
 * See README.md in this folder for the node kinds with examples.
 */
import type { Point as UnistPoint, Position as UnistPosition } from 'unist';
import type { PunctuationSetting } from '../punctuation/config.js';

/** A unist point: 1-based line and column, 0-based offset (in UTF-16 code units of the decoded source). */
export type Point = UnistPoint;

/** A unist position plus the source file it comes from (path relative to the edition folder). */
export interface SourcePosition extends UnistPosition {
  file: string;
}

/**
 * Commentary layers. Ids are ASCII so that they can be CSS classes and file
 * names; `build/transform/layers.ts` holds the table with labels and rules.
 * An edition can add layers of its own, so the type stays open.
 */
export type LayerId = 'zhu' | 'yinyi' | 'shu' | 'fuzhu' | 'chuchu' | 'an' | (string & {});

/**
 * Roles of a paragraph.
 * - `text`: main text (經 or the author's own text)
 * - `ji`: 記 text and other supplementary matter after a section label
 * - `label`: a section label such as 右戒賓
 * - `title`: a title line (volume title, 欽定四庫全書, a work or chapter title)
 * - `byline`: the author line (婺源江永撰, 宋 陳祥道 撰)
 * - `commentary`: a whole paragraph of commentary on the paragraph before it
 *   (003's lines in 〈〉, 002's unbracketed commentary); `layer` says which
 * - `front`: front matter (提要 and the like) that is not the work's text
 */
export type ParagraphRole = 'text' | 'ji' | 'label' | 'title' | 'byline' | 'commentary' | 'front';

interface NodeBase {
  position: SourcePosition;
  /** unist's place for data that is not text (a Wikisource era's CE year: `{ era: 1037 }`). */
  data?: Record<string, unknown>;
}

export interface Text extends NodeBase {
  type: 'text';
  value: string;
}

/** □ in the source: a character the source could not read. */
export interface Lacuna extends NodeBase {
  type: 'lacuna';
  value: string;
}

/**
 * A character the source could not write as one Unicode character: a Private
 * Use Area code point, an undecodable byte, a corpus entity (`&KR0433;`) or a
 * composition described by its parts (`{執木}`, `{艹虑}`).
 */
export interface Glyph extends NodeBase {
  type: 'glyph';
  /** The source's own writing of it: the PUA character, `&KR0433;`, `{執木}`. */
  value: string;
  /** The code point, for a single character (PUA, U+FFFD); absent for entities and compositions. */
  codePoint?: number;
  /** A corpus entity's name (`KR0433`). */
  entity?: string;
  /** The components of a composed character (`執木`, `艹虑`). */
  description?: string;
  /** What it stands for, from the charmap or a shipped list (KR-Gaiji's Unicode character, a composition's match). */
  replacement?: string;
  /**
   * How it is drawn in one cell where no font has `replacement` or there is
   * none (transform/charmap.ts): a glyph image of a shipped list, or a
   * composition from its parts. 〓 only where a glyph has neither.
   */
  drawing?: GlyphDrawing;
}

/** A glyph drawn in its cell (not a character of a font): what is drawn, and what search, copy and a screen reader get. */
export interface GlyphDrawing {
  /** An image of the KR-Gaiji list (`KR0433`: data/kr-gaiji/images/KR0433.png). */
  image?: string;
  /** A composition drawn from its parts: an IDS of beside and above (`⿰女省`). */
  ids?: string;
  /** A composition no IDS says (`臊-品+巳`, `艹虑`): its formula written small in the cell. */
  formula?: string;
  /** The text layer's and the alt text's: the reading, an IDS, or the source's own writing (`&KR0433;`, `[臊-品+巳]`). */
  text: string;
  /** How it came to be drawn: for the import report. */
  from: 'kr-gaiji' | 'composition';
}

/** Small-size inline text that is not commentary, such as 〈臣〉. */
export interface Small extends NodeBase {
  type: 'small';
  children: Text[];
}

/** An inline note (夾注). Notes can nest: a note inside a note. */
export interface Note extends NodeBase {
  type: 'note';
  layer: LayerId;
  /** The label the source prints before the note's text (【集解】, 疏曰, 附注); renderers show it, it is not text. */
  label?: string;
  /**
   * Characters the source puts in the right sub-column (Kanripo's `/`): the
   * source's own split, data for `layout: source`, never text.
   */
  split?: number;
  /**
   * A note that runs over several source lines (Kanripo `)¶\n(`): the split of
   * each line in order (`split` is the first); the lines are parted by its line anchors.
   */
  splits?: number[];
  /** The source prints it at full size after its label (四庫 注疏's 注 after a bare 注): `layout: source` sets it so, other layouts as a note. */
  fullSize?: boolean;
  /** A note that stands at a reference mark (a Markdown footnote `[^1]`): its id. */
  footnote?: string;
  children: Inline[];
}

/**
 * A place in the source edition's own layout: `line` where a line of the
 * source ends (Kanripo `¶`), `page` where a page starts (`<pb:KR1d0028_WYG_005-1b>`).
 * Takes no cell and has no text; kept for `layout: source`, page lists and margins.
 */
export interface Anchor extends NodeBase {
  type: 'anchor';
  kind: 'line' | 'page';
  /** The marker as written in the source. */
  value: string;
  /** page: the source edition's id (WYG, SBCK). */
  edition?: string;
  /** page: the 卷 of the source edition (5 in KR1d0028_WYG_005-1b). */
  juan?: number;
  /** page: leaf and side as the source cites them (1b). */
  leaf?: string;
}

/**
 * Marks set beside characters (clreq 5.3, 5.5, 5.6; 評點本 圈點): `dot` the
 * 著重號 dot, `circle` ○, `sesame` 、, `double` ◎ (雙圈) and `heavy` ● (the
 * 評點本's 重點) — right of the characters; `proper` the straight 專名號 and
 * `book` the wavy 書名號 — left of them; `box` a frame round them (示亡號,
 * clreq 5.1.1.4); `ruby` an interlinear annotation (注音, a gloss) on the
 * right, its text in `ruby`. Takes no cell. `dot`, `proper`, `book` and
 * `box` are punctuation (標號, printed in a modern standard only); the
 * 圈點 and ruby print in every standard.
 */
export interface Mark extends NodeBase {
  type: 'mark';
  kind: 'dot' | 'circle' | 'sesame' | 'double' | 'heavy' | 'proper' | 'book' | 'box' | 'ruby';
  /**
   * kind `ruby`: the annotation. `by: 'char'` one reading per character of
   * the children, in order, parted by spaces (注音: `ㄉㄧㄠ ㄅㄢˇ`); `by:
   * 'word'` one text along the whole span (a gloss, clreq 5.5.6).
   */
  ruby?: { text: string; by: 'char' | 'word' };
  children: Inline[];
}

/**
 * 抬頭: the text after it starts a new column, raised `level` cells above the
 * others (0 平抬, 1 單抬, 2 雙抬), into the top margin of the frame.
 */
export interface Raise extends NodeBase {
  type: 'raise';
  level: 0 | 1 | 2;
}

/** A note outside the running text, anchored where it stands: 眉批 (top margin) or 側批 (between columns). */
export interface Annotation extends NodeBase {
  type: 'annotation';
  kind: 'meipi' | 'cepi';
  children: Inline[];
}

/**
 * An editor's correction, applied (transform/corrections.ts): the children are
 * the new text, `old` what the source had. The edition's 校勘記 is made of these.
 */
export interface Correction extends NodeBase {
  type: 'correction';
  /** 改 replace, 補 insert, 刪 delete, 乙 transpose. */
  kind: '改' | '補' | '刪' | '乙';
  old: string;
  note?: string;
  /** The witness the correction follows (文淵閣本, 阮刻本). */
  witness?: string;
  /** Where the entry stands in the corrections file. */
  entry: SourcePosition;
  /** The witnesses (sigla) that read the corrected text here (collation: `witnesses:`). */
  agrees?: string[];
  /** What other witnesses read here (the collation's entry at the same place, merged into this one). */
  apparatus?: Apparatus;
  children: Inline[];
}

/** One witness's reading at a place of the base text. */
export interface WitnessReading {
  /** The witness's siglum (四庫本). */
  witness: string;
  /** What the witness reads ('' where it lacks the base's text), in the edition's script. */
  text: string;
  /** omission: the witness lacks the base text; addition: it has text the base lacks; move: it has the base's text elsewhere. */
  kind: 'reading' | 'omission' | 'addition' | 'move';
  /** Where the witness has it (file:line:col of its source). */
  place?: string;
  /** A move: the base text the witness sets it after. */
  after?: string;
}

/** A collation entry's facts: the base reading, the witnesses' readings, the entry as the 校勘記 prints it. */
export interface Apparatus {
  /** The base text cited ('' for an addition). */
  base: string;
  /** Base characters just before the place (an addition is 「某」下有…). */
  before?: string;
  /** Base characters just after (an addition at a block's start is 「某」上有…). */
  following?: string;
  /** In a note (注). */
  inNote?: boolean;
  readings: WitnessReading[];
  /** The entry in the classical form: 「某」，四庫本作「某」. */
  text: string;
}

/**
 * A place where witnesses differ from the base text (collate/): the
 * children are the base's own text there (empty for an addition); the
 * apparatus says what the witnesses read. Changes nothing of the text; the
 * 校勘記 lists it beside the corrections (TEI's <app>).
 */
export interface App extends NodeBase {
  type: 'app';
  apparatus: Apparatus;
  children: Inline[];
}

export type Inline = Text | Lacuna | Glyph | Small | Note | Anchor | Mark | Raise | Annotation | Correction | App;

export interface Paragraph extends NodeBase {
  type: 'paragraph';
  role: ParagraphRole;
  /** Only for role `commentary`: the layer of the whole paragraph. */
  layer?: LayerId;
  /** Only for role `commentary`: the label the source prints before it (【附注】 → 附注); as Note.label, not text. */
  label?: string;
  children: Inline[];
}

/** A section heading inside a volume (鄉射禮, 嘉禮, 士冠禮, 鹿中 …). */
export interface Heading extends NodeBase {
  type: 'heading';
  /** 1 = part (嘉禮), 2 = chapter (士冠禮), 3 = item (鹿中). */
  depth: 1 | 2 | 3;
  children: Inline[];
}

export type Block = Paragraph | Heading;

/** A volume (卷). */
export interface Volume extends NodeBase {
  type: 'volume';
  /** The 卷 number (九 → 9), or null where the source has none. */
  number: number | null;
  /** The volume title as the source gives it (禮書綱目卷九). */
  title: string;
  /** The collation's summary of the volume: variant forms folded, by witness (collate/). */
  collation?: VolumeCollation;
  children: Block[];
}

/** Variant forms (異體) a witness writes where the base has another form of the same character, not listed as readings. */
export interface VariantTally {
  witness: string;
  /** Places folded. */
  count: number;
  /** Base form, witness form, places; most first. */
  pairs: Array<[string, string, number]>;
}

export interface VolumeCollation {
  /** `collation: { variants: … }`: list the pairs, count them, or say nothing. */
  variants: 'list' | 'count' | 'omit';
  tallies: VariantTally[];
}

export type Script = 'traditional' | 'simplified';

export interface EditionMeta {
  /** Folder name of the edition, used for output file names. */
  id: string;
  title: string;
  author: string;
  /** 朝代 of the author: 清, 宋, 元 … */
  dynasty?: string;
  /** BCP 47, e.g. zh-Hant. */
  language: string;
  /** The script the edition is set in. */
  script: Script;
  /** The script of the sources, when it differs from `script`. */
  sourceScript?: Script;
  template: string;
  description?: string;
  /** ISO date used for outputs, so that builds are reproducible. */
  date?: string;
  /** The witness (底本) the sources follow: Kanripo's BASEEDITION (WYG, SBCK, T …; parse/work.ts names them). */
  witness?: string;
  /** edition.yaml `punctuation`: the standard and its options (defaults by template: build/punctuation/config.ts). */
  punctuation?: PunctuationSetting;
}

/** A layer an edition's sources define beyond the built-in table (集解, 索隱, 正義; a 集注's commentators). */
export interface LayerDeclaration {
  id: LayerId;
  /** The label readers know and the print shows: 集解, 祕曰. */
  label: string;
  description?: string;
}

export interface Root {
  type: 'root';
  edition: EditionMeta;
  /** Layers the sources define (importers add them); the built-in ones are in tree/layers.ts. */
  layers?: LayerDeclaration[];
  children: Volume[];
  position?: SourcePosition;
}

export type Parent = Root | Volume | Paragraph | Heading | Note | Small | Mark | Annotation | Correction | App;
export type Node = Root | Volume | Block | Inline;
