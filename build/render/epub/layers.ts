/** Layer labels and ordering for the EPUB, from the shared table in build/tree/layers.ts. */
import type { LayerId } from '../../tree/types.js';
import { LAYERS, layerLabel } from '../../tree/layers.js';
import { LAYER_STYLES, labelForm } from '../../tree/layer-style.js';

export { layerLabel };

export const LAYER_LABELS: Readonly<Record<string, string>> = Object.fromEntries(LAYERS.map((d) => [d.id, d.label]));

/** The built-in layers in the order a legend lists them. */
export const LAYER_ORDER: readonly LayerId[] = LAYERS.map((d) => d.id);

/** The legend's line for a layer; undefined for a layer the table does not know. */
export function layerDescription(id: LayerId): string | undefined {
  return LAYERS.find((d) => d.id === id)?.description;
}

/** A CSS-class-safe form of a layer id (ids are ASCII by contract; this guards the class syntax). */
export function layerToken(id: LayerId): string {
  const t = id.replace(/[^A-Za-z0-9_-]/g, '_');
  return /^[A-Za-z_]/.test(t) ? t : `_${t}`;
}

/** Sorts layer ids: built-in ones in table order, then the rest alphabetically. */
export function sortLayers(ids: Iterable<LayerId>): LayerId[] {
  const rank = (id: LayerId): number => {
    const i = LAYER_ORDER.indexOf(id);
    return i < 0 ? LAYER_ORDER.length : i;
  };
  return [...new Set(ids)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The EPUB's layer colours, from the layer style table (styles/layers.json): a note, its noteref, a commentary paragraph. */
export function layerColourCss(): string {
  return LAYER_STYLES.map((l) => {
    const t = layerToken(l.id);
    return `.note-${t}, a.noteref-${t} { color: ${l.colour}; }`;
  }).join('\n');
}

/** A label as the EPUB shows it (the table's form for `epub`): 〔音義〕. */
export function labelText(label: string): string {
  const form = labelForm('epub');
  return form.form === 'bracket' ? `${form.open}${label}${form.close}` : label;
}
