/**
 * An edition's settings, as read from its edition.yaml (see
 * manuscript/README.md for the file format). Validated by
 * build/parse/edition.ts; every field here is already checked.
 */
import type { EditionMeta, LayerId, ParagraphRole } from './types.js';
import type { Indent } from '../layout/types.js';

export type SourceFormat = 'daizhige' | 'wikisource' | 'docsify' | 'verse' | 'markdown';

export interface LayoutOverrides {
  columns?: number;
  cells?: number;
  indents?: Partial<Record<ParagraphRole, Indent>>;
  /** Single-line alignment by role (layout/types.ts PageSpec.align). */
  align?: Partial<Record<ParagraphRole, 'start' | 'center' | 'end' | 'justify'>>;
  /** Space between characters in em (疏排 / 紧排; PageSpec.tracking). */
  tracking?: number;
}

export interface PageOverrides {
  /** CSS page size: `A5`, `B5`, `148mm 210mm` … */
  size?: string;
  /** Bleed for print shops, CSS length (`3mm`); none when absent. */
  bleed?: string;
  /** Crop marks (needs bleed). */
  marks?: boolean;
}

export interface FontOverrides {
  /** Font files or fontconfig family names, first wins. */
  main?: string[];
}

export interface EditionConfig {
  meta: EditionMeta;
  /** Source files, relative to the edition folder, in reading order. */
  sources: string[];
  /** Forced importer; auto-detected per file when absent. */
  format?: SourceFormat;
  /** Private Use Area code point (U+E000 …) → replacement text. */
  charmap: Record<string, string>;
  /** Corrections file, relative to the edition folder. */
  corrections?: string;
  layout: LayoutOverrides;
  page: PageOverrides;
  fonts: FontOverrides;
  /** Layers set as pop-up footnotes in the EPUB; the rest stay inline. */
  popupLayers: LayerId[];
  /** Extra layer rules, added in front of the built-in table. */
  layerRules: LayerRuleConfig[];
}

/** A layer rule as an edition writes it: a note segment that matches `pattern` (a RegExp source) gets `layer`. */
export interface LayerRuleConfig {
  layer: LayerId;
  label?: string;
  pattern: string;
}
