/**
 * Page specifications: the grid of each template and the edition's overrides.
 *
 * Headings have no indent of their own in PageSpec (the contract): they take
 * the `title` indent. An unknown template name does not throw: pageSpecFor
 * falls back to the default template (`siku`) and the caller warns, using
 * isKnownTemplate().
 */
import type { ParagraphRole } from '../tree/types.js';
import type { LayoutOverrides } from '../tree/edition.js';
import type { Indent, PageSpec, PunctuationSpec } from './types.js';
import { labelForm } from '../tree/layer-style.js';

const ROLES: readonly ParagraphRole[] = ['text', 'ji', 'label', 'title', 'byline', 'commentary', 'front'];

function ind(first: number, rest: number): Indent {
  return { first, rest };
}

/** 四庫全書: 8 columns × 21 cells per half-leaf; 記 and labels set low (低一格/二格). */
const SIKU: PageSpec = {
  columns: 8,
  cells: 21,
  indents: {
    text: ind(0, 0),
    ji: ind(1, 1),
    label: ind(2, 2),
    title: ind(0, 0),
    byline: ind(0, 0),
    commentary: ind(1, 1),
    front: ind(0, 0),
  },
  bylineFoot: 2,
  punctuation: { standard: 'auto', adjacent: 1.5, hanging: false, kinsoku: 'gb', grid: 'rigid' },
  // The 天頭 (templates/siku: 0.17 of the page, twice the 地腳) holds 眉批 of seven characters a lane.
  meipiCells: 7,
};

/** A modern reading edition: 10 × 24, paragraphs with a two-cell first-line indent. */
const MODERN: PageSpec = {
  columns: 10,
  cells: 24,
  indents: {
    text: ind(2, 0),
    ji: ind(4, 2),
    label: ind(2, 2),
    title: ind(0, 0),
    byline: ind(0, 0),
    commentary: ind(2, 0),
    front: ind(2, 0),
  },
  bylineFoot: 2,
  punctuation: { standard: 'auto', adjacent: 1.5, hanging: false, kinsoku: 'gb', grid: 'half' },
};

/** What a spec without `punctuation` (an older or hand-made one) means. */
export const DEFAULT_PUNCTUATION: PunctuationSpec = { standard: 'auto', adjacent: 1.5, hanging: false, kinsoku: 'gb', grid: 'rigid' };

export function punctuationOf(spec: PageSpec): PunctuationSpec {
  return spec.punctuation ?? DEFAULT_PUNCTUATION;
}

const TEMPLATES: Readonly<Record<string, PageSpec>> = { siku: SIKU, modern: MODERN };

export const DEFAULT_TEMPLATE = 'siku';

/** Names of the templates that have a grid. */
export const templateNames: readonly string[] = Object.keys(TEMPLATES);

export function isKnownTemplate(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(TEMPLATES, name);
}

function positiveInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`layout: ${what} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

function checkIndent(indent: Indent, role: string): Indent {
  for (const key of ['first', 'rest'] as const) {
    const v = indent[key];
    if (!Number.isInteger(v) || v < 0) {
      throw new Error(`layout: indent ${role}.${key} must be a non-negative integer, got ${String(v)}`);
    }
  }
  return { first: indent.first, rest: indent.rest };
}

/**
 * The page specification of a template with the edition's overrides applied.
 * Unknown templates give the default (siku) grid — check isKnownTemplate()
 * to warn. Throws a plain Error only for overrides that make no grid
 * (columns or cells not a positive integer, a negative indent). Indents that
 * do not fit a column are clamped when laid out, not here.
 */
export function pageSpecFor(template: string, overrides: LayoutOverrides = {}): PageSpec {
  const base = TEMPLATES[isKnownTemplate(template) ? template : DEFAULT_TEMPLATE];
  const indents = {} as Record<ParagraphRole, Indent>;
  for (const role of ROLES) {
    const o = overrides.indents?.[role];
    indents[role] = checkIndent(o ?? base.indents[role], role);
  }
  const name = isKnownTemplate(template) ? template : DEFAULT_TEMPLATE;
  return {
    columns: positiveInteger(overrides.columns ?? base.columns, 'columns'),
    cells: positiveInteger(overrides.cells ?? base.cells, 'cells'),
    indents,
    bylineFoot: base.bylineFoot,
    punctuation: { ...punctuationOf(base) },
    ...(overrides.align ? { align: { ...overrides.align } } : {}),
    ...(overrides.tracking !== undefined ? { tracking: overrides.tracking } : {}),
    label: labelForm(name),
    meipiCells: base.meipiCells ?? 4,
    ...(overrides.source ? { source: true } : {}),
  };
}
