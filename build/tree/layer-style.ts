/**
 * The layer style table (styles/layers.json): how a layer's printed label
 * looks in each PDF template and in the EPUB, and each layer's colour in
 * the EPUB. One table for every stage that shows layers: the layout (a
 * bracketed label takes cells), render/pdf (a 陰文 label is drawn) and
 * render/epub (brackets, each layer's size, face, weight, indentation, rule and colours). It is imported as a module, not read
 * from disk, so the stages stay pure.
 */
import table from '../../styles/layers.json' with { type: 'json' };
import type { LayerId } from './types.js';
import { own } from './append.js';

/** `yinwen`: 陰文, white characters in a black box; `bracket`: the label between two characters (〔附注〕). */
export type LabelForm = { form: 'yinwen' } | { form: 'bracket'; open: string; close: string };

/** A colour for light backgrounds and one for dark (prefers-color-scheme: dark), #rrggbb. */
export interface SchemeColour {
  light: string;
  dark: string;
}

/** What tells a layer apart in grey and at night: size, face, weight, indentation, the rule beside it; colour only helps. */
export interface LayerStyle {
  id: LayerId;
  /** Inline note size, em of the text around it. */
  size: number;
  /** A face of the table's `faces` (tried before the embedded fonts), or `serif`: the book's own. */
  face: string;
  /** CSS font-weight. */
  weight: number;
  /** A commentary paragraph's indentation, em. */
  indent: number;
  /** CSS border style of the rule beside a commentary paragraph or pop-up note (`none`: no rule). */
  rule: string;
  /** The label's, noteref's and rule's colour; absent: the reader's text colour. */
  colour?: SchemeColour;
}

interface Table {
  labels: Record<string, LabelForm>;
  /** Per template: the faces a role (main, label, a layer id) is set in. */
  fonts: Record<string, Record<string, string[]>>;
  faces: Record<string, string[]>;
  layers: LayerStyle[];
}

const RULES = new Set(['none', 'solid', 'dotted', 'dashed', 'double']);
const HEX = /^#[0-9a-f]{6}$/i;

function layerProblem(l: LayerStyle, faces: Record<string, string[]>): string | undefined {
  if (typeof l.id !== 'string') return 'an id';
  if (!(l.size > 0 && l.size <= 1)) return 'a size in em (0–1]';
  if (l.face !== 'serif' && !faces[l.face]) return `a face: serif or one of ${Object.keys(faces).join(', ')}`;
  if (![400, 700].includes(l.weight)) return 'a weight 400 or 700';
  if (!(l.indent >= 0)) return 'an indent in em';
  if (!RULES.has(l.rule)) return `a rule: ${[...RULES].join(', ')}`;
  if (l.colour !== undefined && !(HEX.test(l.colour.light) && HEX.test(l.colour.dark))) return 'a colour { light, dark } as #rrggbb';
  return undefined;
}

/** Checks the table's shape once, at load: a broken table is our bug, said plainly. */
function checked(value: unknown): Table {
  const t = value as Table;
  const forms = Object.entries(t?.labels ?? {});
  if (forms.length === 0 || !Array.isArray(t.layers)) throw new Error('styles/layers.json: needs "labels" and "layers"');
  for (const [name, f] of forms) {
    const ok = f.form === 'yinwen' || (f.form === 'bracket' && typeof f.open === 'string' && typeof f.close === 'string' && [...f.open].length === 1 && [...f.close].length === 1);
    if (!ok) throw new Error(`styles/layers.json: labels.${name} must be { form: yinwen } or { form: bracket, open, close } (one character each)`);
  }
  const faces = t.faces ?? {};
  const fonts = t.fonts ?? {};
  for (const [name, roles] of Object.entries(fonts)) {
    const ok = typeof roles === 'object' && roles !== null && Object.values(roles).every((list) => Array.isArray(list) && list.every((f) => typeof f === 'string'));
    if (!ok) throw new Error(`styles/layers.json: fonts.${name} must map roles to lists of faces ({ main: [TW-Kai] })`);
  }
  for (const l of t.layers) {
    const problem = layerProblem(l, faces);
    if (problem) throw new Error(`styles/layers.json: layer ${JSON.stringify(l)} needs ${problem}`);
  }
  return { ...t, faces, fonts };
}

const TABLE = checked(table);

/** The label form of a PDF template (`siku`, `modern`) or of `epub`; an unknown template takes siku's, as the layout does. */
export function labelForm(target: string): LabelForm {
  return own(TABLE.labels, target) ?? TABLE.labels.siku ?? { form: 'yinwen' };
}

/** The layers that have a style, in the table's order. */
export const LAYER_STYLES: readonly LayerStyle[] = TABLE.layers;

/** A layer's EPUB style, if the table has one. */
export function layerStyle(id: LayerId): LayerStyle | undefined {
  return TABLE.layers.find((l) => l.id === id);
}

/** The family names of a face of the table (`kai`); none for `serif`, the book's own fonts. */
export function faceFamilies(face: string): readonly string[] {
  return TABLE.faces[face] ?? [];
}

/** The faces a template sets each role of the text in (main, label, a layer id), by default; an unknown template takes siku's, as the layout does. */
export function templateFonts(template: string): Readonly<Record<string, readonly string[]>> {
  return own(TABLE.fonts, template) ?? TABLE.fonts.siku ?? {};
}
