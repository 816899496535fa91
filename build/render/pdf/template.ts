/**
 * Page templates: what a template (templates/<name>/template.json +
 * page.html, styles/<name>.css) says about the page around the grid.
 * The CLI reads the files; everything here works on their text.
 */
import { escapeHtml } from '../escape.js';

export { escapeHtml };

/** Margins as fractions of the page size; `inside` is the binding side. */
export interface TemplateMargins {
  top: number;
  bottom: number;
  inside: number;
  outside: number;
}

export interface TemplateDefinition {
  name: string;
  /** CSS page size when the edition gives none. */
  size: string;
  margins: TemplateMargins;
  /** Double outer frame (版框): outer rule, gap, inner rule, in mm. */
  frame?: { outer: number; gap: number; inner: number };
  /** 版心 strip at the fore-edge, as a fraction of one column's width. */
  banxin?: { width: number; heading: string };
  /** Rules between the columns (界欄), width in mm. */
  rules?: number;
  /** Main character size as a fraction of min(cell height, column width). */
  charScale: number;
  /** Note character size as a fraction of the main character size (capped by half a column's width). */
  noteScale: number;
  /**
   * Space between the two sub-columns of a note, em of the note size (0.25):
   * the pair set closer to each other than to the columns beside, so that
   * it reads as one column of notes.
   */
  noteGap: number;
  /** Running head and folio in the margins (modern). */
  runningHead?: boolean;
  /** How a correction is marked beside its character: ○ (the default) or the number of its 校勘記 entry. */
  correctionMark?: 'circle' | 'number';
}

export interface Template {
  definition: TemplateDefinition;
  /** HTML fragment drawn on each page (frame, 版心); `{{key}}` fields are filled per page. */
  pageHtml: string;
  /** The template's stylesheet (styles/<name>.css), appended after styles/base.css. */
  css: string;
  /** styles/base.css. */
  baseCss: string;
  /** The book's own pages (templates/<name>/cover.html, title.html, colophon.html; book-parts.ts fills them). */
  parts?: Partial<Record<'cover' | 'title' | 'colophon', string>>;
}

function num(value: unknown, what: string, min = 0, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new Error(`template: ${what} must be a number in [${min}, ${max}], got ${JSON.stringify(value)}`);
  }
  return value;
}

/** Checks a template.json's parsed content. */
export function parseTemplateDefinition(json: unknown, name: string): TemplateDefinition {
  if (typeof json !== 'object' || json === null) throw new Error(`template ${name}: template.json is not an object`);
  const o = json as Record<string, unknown>;
  const m = (o.margins ?? {}) as Record<string, unknown>;
  const def: TemplateDefinition = {
    name,
    size: typeof o.size === 'string' ? o.size : 'A5',
    margins: {
      top: num(m.top, 'margins.top', 0, 0.4),
      bottom: num(m.bottom, 'margins.bottom', 0, 0.4),
      inside: num(m.inside, 'margins.inside', 0, 0.4),
      outside: num(m.outside, 'margins.outside', 0, 0.4),
    },
    charScale: num(o.charScale ?? 0.9, 'charScale', 0.3, 1),
    noteScale: num(o.noteScale ?? 0.9, 'noteScale', 0.3, 1),
    noteGap: num(o.noteGap ?? 0.25, 'noteGap', 0, 1),
  };
  if (o.frame !== undefined) {
    const f = o.frame as Record<string, unknown>;
    def.frame = { outer: num(f.outer, 'frame.outer'), gap: num(f.gap, 'frame.gap'), inner: num(f.inner, 'frame.inner') };
  }
  if (o.banxin !== undefined) {
    const b = o.banxin as Record<string, unknown>;
    def.banxin = { width: num(b.width, 'banxin.width', 0.2, 3), heading: typeof b.heading === 'string' ? b.heading : '' };
  }
  if (o.rules !== undefined) def.rules = num(o.rules, 'rules', 0, 2);
  if (o.runningHead !== undefined) def.runningHead = Boolean(o.runningHead);
  if (o.correctionMark !== undefined) {
    if (o.correctionMark !== 'circle' && o.correctionMark !== 'number') throw new Error(`template ${name}: correctionMark must be "circle" or "number"`);
    def.correctionMark = o.correctionMark;
  }
  return def;
}

/** Fills `{{key}}` fields with HTML-escaped values; unknown keys become empty. */
export function fillFields(html: string, fields: Readonly<Record<string, string>>): string {
  return html.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => escapeHtml(fields[key] ?? ''));
}

