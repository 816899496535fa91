/**
 * The CLI's `--notes` value → the layers set as pop-up footnotes.
 *
 *   --notes inline             every layer inline (no pop-ups)
 *   --notes popup              the edition's `notes: popup:` layers, or 疏 and 附注 when it names none
 *   --notes popup=shu,fuzhu    these layers (ids or labels: popup=疏,附注)
 *
 * Without the option the edition's list (EditionConfig.popupLayers) is used.
 */
import type { LayerId } from '../../tree/types.js';
import { layerFromTag } from '../../tree/layers.js';

export const DEFAULT_POPUP_LAYERS: readonly LayerId[] = ['shu', 'fuzhu'];

export function popupLayersFromOption(value: string | undefined, edition: readonly LayerId[]): LayerId[] {
  if (value === undefined) return [...edition];
  const v = value.trim();
  if (v === 'inline') return [];
  if (v === 'popup') return edition.length ? [...edition] : [...DEFAULT_POPUP_LAYERS];
  const m = /^popup[=:](.+)$/.exec(v);
  if (!m) throw new Error(`--notes ${value}: expected inline, popup, or popup=<layers> (e.g. popup=shu,fuzhu)`);
  return m[1]
    .split(/[,，、\s]+/)
    .filter(Boolean)
    .map((t) => layerFromTag(t) ?? (/^[A-Za-z][\w-]*$/.test(t) ? t : undefined) ?? failLayer(t));
}

function failLayer(t: string): never {
  throw new Error(`--notes: unknown layer "${t}" (use an id such as shu, or a label such as 疏)`);
}
