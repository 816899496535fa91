/**
 * An edition's settings, as read from its edition.yaml (see
 * manuscript/README.md for the file format). Validated by
 * build/parse/edition.ts; every field here is already checked.
 */
import type { EditionMeta, LayerId, ParagraphRole, Point, Script } from './types.js';

/** An edition's overrides of its format's conventions (`conventions:` in edition.yaml). */
export interface ConventionOverrides {
  /** Note bracket pairs, each as two characters: `()`, `（）`. */
  notes?: Array<[string, string]>;
  /** The sub-column split mark inside notes (`/`), or '' for none. */
  split?: string;
  /** Labels inside notes → layer ids: `{ 集解: jijie }`. */
  labels?: Record<string, string>;
  /** Bracket pairs whose whole lines are commentary. */
  commentaryLines?: Array<[string, string]>;
  /** Extra heading patterns (regular expressions; group 1 the heading's text). */
  headings?: string[];
  /** Extra metadata line patterns (group 1 the key, group 2 the value). */
  metadata?: string[];
  /** Readings the whole text decides unless the edition says (parse/decide.ts): */
  /** one paragraph a line, or lines run on to a blank line. */
  paragraphs?: 'line' | 'blank';
  /** 〈…〉 around two or three characters: described characters (true) or notes (false). */
  descriptions?: boolean;
  /** Which sub-column of a note split by `/` comes first. */
  subcolumns?: 'right-first' | 'left-first';
}

/** How an edition converts one-to-many characters (`conversion:` in edition.yaml). */
export interface ConversionChoices {
  /** Characters left as written (于 stays 于). */
  keep: string[];
  /** The form this edition uses for a one-to-many character (为 → 爲). */
  prefer: Record<string, string>;
  /** Phrases converted as given, before anything else (后稷 → 后稷). */
  phrases: Record<string, string>;
  /** A traditional copy of the same work: its character is taken where the two agree around a one-to-many character (transform/witness.ts). */
  witness?: string;
}

/** Blank cells at the head of a paragraph's first and following columns (an edition's `layout.indents`; the layout's PageSpec takes it). */
export interface Indent {
  first: number;
  rest: number;
}

export type SourceFormat = 'kanripo' | 'chtxt' | 'guoxue' | 'wikisource-md' | 'site-md' | 'bracketed' | 'pandoc-txt' | 'daizhige' | 'wikisource' | 'docsify' | 'verse' | 'markdown';

export interface LayoutOverrides {
  columns?: number;
  cells?: number;
  indents?: Partial<Record<ParagraphRole, Indent>>;
  /** Single-line alignment by role (layout/types.ts PageSpec.align). */
  align?: Partial<Record<ParagraphRole, 'start' | 'center' | 'end' | 'justify'>>;
  /** Space between characters in em (疏排 / 紧排; PageSpec.tracking). */
  tracking?: number;
  /** `layout: source`: the source's own lines and pages make the columns and pages (Kanripo ¶ and <pb:>). */
  source?: boolean;
}

export interface PageOverrides {
  /** CSS page size: `A5`, `B5`, `148mm 210mm` … */
  size?: string;
  /** Bleed for print shops, CSS length (`3mm`); none when absent. */
  bleed?: string;
  /** Crop marks (needs bleed). */
  marks?: boolean;
  /** The ink of the frame, the rules and the 魚尾: black (烏絲欄, the default) or red (朱絲欄: a spot colour in the print PDF). */
  frame?: 'black' | 'red';
}

/**
 * `fonts:` — per role, font files or family names, first wins: `main` (the
 * text), `label` (labels the source prints) or a layer id (zhu, meipi …);
 * build/fonts/roles.ts puts them over the template's.
 */
export interface FontOverrides {
  main?: string[];
  [role: string]: string[] | undefined;
}

export interface EditionConfig {
  meta: EditionMeta;
  /** Source files, relative to the edition folder, in reading order. */
  sources: string[];
  /** Forced importer; auto-detected per file when absent. */
  format?: SourceFormat;
  /** The sources' encoding when it is not UTF-8 and detection fails (`encoding: GB18030`). */
  encoding?: string;
  /** Overrides of the format's conventions (build/parse/formats.ts), as edition.yaml gives them. */
  conventions?: ConventionOverrides;
  /** Script conversion choices (build/transform/script.ts). */
  conversion?: ConversionChoices;
  /** Private Use Area code point (U+E000 …) → replacement text. */
  charmap: Record<string, string>;
  /** Corrections file, relative to the edition folder. */
  corrections?: string;
  /** Where the 校勘記 goes: at the end of each volume (the default), or nowhere (`off`: no marks, no section). */
  collation?: 'end-of-volume' | 'off';
  /** The collation's variant forms (`collation: { variants: … }`): listed, counted (the default), or left unsaid. */
  variants?: 'list' | 'count' | 'omit';
  /** Other copies of the work to collate the sources with (`witnesses:`). */
  witnesses?: WitnessConfig[];
  layout: LayoutOverrides;
  page: PageOverrides;
  fonts: FontOverrides;
  /** Layers set as pop-up footnotes in the EPUB; the rest stay inline. */
  popupLayers: LayerId[];
  /** Seals (印章) drawn over the PDF's pages (`seals:`); absent when none. */
  seals?: SealConfig[];
  /** The PDF's standard (`pdf:`); screen when absent. */
  pdf?: PdfSettings;
  /** The PDF's own pages before and after the text (`book:`); absent for an edition not read from edition.yaml (none then). */
  book?: BookParts;
  /** Extra layer rules, added in front of the built-in table. */
  layerRules: LayerRuleConfig[];
}

/**
 * A witness as edition.yaml names it: its siglum and where its text is — a
 * folder of its files, one file, or (with `branch`) a branch of the git
 * repository at `path` (a Kanripo repository keeps each witness a branch).
 */
export interface WitnessConfig {
  siglum: string;
  path: string;
  branch?: string;
  /** The script its files are written in; the base's sources' when absent. */
  script?: Script;
  /** Where the entry stands in edition.yaml (messages about the witness go there). */
  place?: { start: Point; end: Point };
}

/**
 * The book's own front and back in the PDF (`book:` in edition.yaml, each
 * part on unless set false): a cover (書衣 with its title slip, 書簽), a
 * title page (書名頁: the title, the author with his dynasty, the edition)
 * and a colophon (牌記: the source, the edition, the date, the corrections
 * applied), each made from the edition's own data.
 */
export interface BookParts {
  cover: boolean;
  titlePage: boolean;
  colophon: boolean;
  /** The edition statement on the title page and in the 牌記 (據文淵閣四庫全書本排印); absent: none. */
  edition?: string;
  /** Where the text was taken from, for the 牌記 (四庫全書本，中華文庫錄文); absent: the source files' names. */
  source?: string;
}

/** The PDF's standard: `screen` (Chromium's file), `print` (PDF/X for a print shop), `archive` (PDF/A-2u for deposit). */
export type PdfStandard = 'screen' | 'print' | 'archive';
export const PDF_STANDARDS: readonly PdfStandard[] = ['screen', 'print', 'archive'];
/** Which PDF/X a print file is: X-4 (transparency kept, the default) or X-1a (none left). */
export type PdfxVersion = 'x-4' | 'x-1a';
export const PDFX_VERSIONS: readonly PdfxVersion[] = ['x-4', 'x-1a'];

/** `pdf: print` or `pdf: { standard: print, pdfx: x-1a }`. */
export interface PdfSettings {
  standard: PdfStandard;
  /** For `print` only. */
  pdfx?: PdfxVersion;
}

/** A layer rule as an edition writes it: a note segment that matches `pattern` (a RegExp source) gets `layer`. */
export interface LayerRuleConfig {
  layer: LayerId;
  label?: string;
  pattern: string;
}

/** Where on its page a seal sits: a corner of the text block, or its middle. */
export type SealPosition = 'lower-left' | 'lower-right' | 'upper-left' | 'upper-right' | 'center';

/** A seal (印章) as edition.yaml gives it (`seals:`). */
export interface SealConfig {
  /** The image (PNG or SVG), relative to the edition folder. */
  image: string;
  /** The book page it is stamped on (1 = the first), or the last page. */
  page: number | 'last';
  position: SealPosition;
  /** Its width (and height: seals are drawn square at most), a CSS length; default 20mm. */
  size: string;
  /** The words the seal bears (文淵閣寶): the EPUB's alt text for it; absent, the alt says 印章 only. */
  name?: string;
  /** The image's bytes and kind, filled in by the loader once the sandbox let it read the file. */
  data?: { bytes: Uint8Array; type: 'png' | 'svg' };
}
