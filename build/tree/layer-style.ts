/**
 * The layer style table (styles/layers.json): how a layer's printed label
 * looks in each PDF template and in the EPUB, and each layer's colour in
 * the EPUB. One table for every stage that shows layers: the layout (a
 * bracketed label takes cells), render/pdf (a 陰文 label is drawn) and
 * render/epub (brackets, colours). It is imported as a module, not read
 * from disk, so the stages stay pure.
 */
import table from '../../styles/layers.json' with { type: 'json' };
import type { LayerId } from './types.js';
import { own } from './append.js';

/** `yinwen`: 陰文, white characters in a black box; `bracket`: the label between two characters (〔附注〕). */
export type LabelForm = { form: 'yinwen' } | { form: 'bracket'; open: string; close: string };

export interface LayerStyle {
  id: LayerId;
  /** CSS colour in the EPUB. */
  colour: string;
}

interface Table {
  labels: Record<string, LabelForm>;
  layers: LayerStyle[];
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
  for (const l of t.layers) if (typeof l.id !== 'string' || !/^#[0-9a-f]{6}$/i.test(l.colour)) throw new Error(`styles/layers.json: layer ${JSON.stringify(l)} needs an id and a colour #rrggbb`);
  return t;
}

const TABLE = checked(table);

/** The label form of a PDF template (`siku`, `modern`) or of `epub`; an unknown template takes siku's, as the layout does. */
export function labelForm(target: string): LabelForm {
  return own(TABLE.labels, target) ?? TABLE.labels.siku ?? { form: 'yinwen' };
}

/** The layers that have a style, in the table's order. */
export const LAYER_STYLES: readonly LayerStyle[] = TABLE.layers;

/** A layer's EPUB colour, if the table has one. */
export function layerColour(id: LayerId): string | undefined {
  return TABLE.layers.find((l) => l.id === id)?.colour;
}
