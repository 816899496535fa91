/** Layer labels and ordering for the EPUB, from the shared table in build/tree/layers.ts. */
import type { LayerId } from '../../tree/types.js';
import { LAYERS, layerLabel } from '../../tree/layers.js';
import { LAYER_STYLES, faceFamilies, labelForm } from '../../tree/layer-style.js';
import { cssString } from '../escape.js';

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

/**
 * The EPUB's layer styles, from the layer style table (styles/layers.json):
 * each layer's size and weight (inline notes), face, indentation (commentary
 * paragraphs) and rule (commentary paragraphs and pop-up notes, cloned on
 * every page the note runs onto), then the colours of its label, noteref,
 * backlink and rule, light and under prefers-color-scheme: dark. The text
 * keeps the reader's colour. `bookFamilies`: the embedded fonts' CSS family
 * list, after a face's own families.
 */
export function layerCss(bookFamilies: string): string {
  const rules: string[] = [];
  const dark: string[] = [];
  for (const l of LAYER_STYLES) {
    const t = layerToken(l.id);
    const faces = faceFamilies(l.face);
    const family = faces.length ? ` font-family: ${[...faces.map(cssString), bookFamilies].join(', ')};` : '';
    // Weight for inline small print only: whole paragraphs and pages of notes in bold read as shouting.
    rules.push(`small.note-${t} { font-size: ${l.size}em;${family} font-weight: ${l.weight}; }`);
    const rule = l.rule === 'none' ? '' : ` border-block-start: ${l.rule === 'double' ? 3 : 2}px ${l.rule} ${l.colour?.light ?? 'currentColor'}; padding-block-start: 0.3em; box-decoration-break: clone; -webkit-box-decoration-break: clone;`;
    rules.push(`p.commentary.note-${t} {${family} padding-inline-start: ${l.indent}em;${rule} }`);
    if (family || rule) rules.push(`aside.note-${t} {${family}${rule} }`);
    if (!l.colour) continue;
    const coloured = `.note-${t} > .layer-label, a.noteref-${t}, .note-${t} a.backlink`;
    rules.push(`${coloured} { color: ${l.colour.light}; }`);
    dark.push(`  ${coloured} { color: ${l.colour.dark}; }`);
    if (l.rule !== 'none') dark.push(`  p.commentary.note-${t}, aside.note-${t} { border-block-start-color: ${l.colour.dark}; }`);
  }
  return `${rules.join('\n')}\n@media (prefers-color-scheme: dark) {\n${dark.join('\n')}\n}`;
}

/** A label as the EPUB shows it (the table's form for `epub`): 〔音義〕. */
export function labelText(label: string): string {
  const form = labelForm('epub');
  return form.form === 'bracket' ? `${form.open}${label}${form.close}` : label;
}
