/**
 * A collection's shared settings (collection.yaml) put into each edition's
 * config: light to load, since the up-to-date check reads them too.
 */
import { parseDocument } from 'yaml';
import type { ConversionChoices, EditionConfig, FontOverrides } from '../tree/edition.js';

/**
 * What a collection (collection.yaml) sets for all its editions: the
 * template, the fonts (files already resolved to absolute paths: the person
 * running the build named them, not an edition) and the conversion choices.
 */
export interface SharedSettings {
  template?: string;
  fonts?: FontOverrides;
  conversion?: ConversionChoices;
}

/** The top-level keys an edition.yaml sets (none when it is not a mapping). */
function ownKeys(yamlText: string): Set<string> {
  const doc = parseDocument(yamlText, { prettyErrors: false });
  const root = doc.toJSON() as unknown;
  return new Set(root && typeof root === 'object' && !Array.isArray(root) ? Object.keys(root) : []);
}

/** The collection's settings put into an edition's config where its edition.yaml says nothing: the edition's own word wins. */
export function applyShared(config: EditionConfig, yamlText: string, shared: SharedSettings | undefined): void {
  if (!shared) return;
  const own = ownKeys(yamlText);
  if (shared.template !== undefined && !own.has('template')) config.meta.template = shared.template;
  if (shared.fonts && !own.has('fonts')) config.fonts = structuredClone(shared.fonts);
  if (shared.conversion && !own.has('conversion')) config.conversion = structuredClone(shared.conversion);
}

