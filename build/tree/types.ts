/**
 * The document tree: what every stage after `parse` reads.
 *
 * It follows unist (https://github.com/syntax-tree/unist): every node has a
 * `type`, parents have `children`, literals have `value`, and every node has a
 * `position`. Unist utilities (unist-util-visit, …) work on it unchanged.
 * See README.md in this folder for the node kinds with examples.
 */
import type { Point as UnistPoint, Position as UnistPosition } from 'unist';

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

/** A Private Use Area or otherwise unencodable character. */
export interface Glyph extends NodeBase {
  type: 'glyph';
  /** The character as it stands in the source. */
  value: string;
  codePoint: number;
  /** What the edition's charmap maps it to, when it has an entry. */
  replacement?: string;
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
  children: Inline[];
}

export type Inline = Text | Lacuna | Glyph | Small | Note;

export interface Paragraph extends NodeBase {
  type: 'paragraph';
  role: ParagraphRole;
  /** Only for role `commentary`: the layer of the whole paragraph. */
  layer?: LayerId;
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
  children: Block[];
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
}

export interface Root {
  type: 'root';
  edition: EditionMeta;
  children: Volume[];
  position?: SourcePosition;
}

export type Parent = Root | Volume | Paragraph | Heading | Note | Small;
export type Node = Root | Volume | Block | Inline;
