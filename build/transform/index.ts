/**
 * transform: the parsed tree → the tree the renderers set. Each step is a
 * tree → tree function; the order matters only in that corrections see the
 * source script and layers are told apart before the script changes.
 */
import type { VFile } from 'vfile';
import type { EditionConfig } from '../tree/edition.js';
import type { Root } from '../tree/types.js';
import { applyCharmap } from './charmap.js';
import { applyCorrections, convertCorrectionsOld, type CorrectionEntry } from './corrections.js';
import { classifyLayers } from './layers.js';
import { splitCommentators } from './commentators.js';
import { reporterFor } from './report.js';
import { convertScript } from './script.js';
import type { Witness } from './witness.js';

export interface TransformOptions {
  corrections?: readonly CorrectionEntry[];
  /** The source files, for messages at node positions. */
  files?: readonly VFile[];
  /** A traditional copy of the work for the script conversion (`conversion: { witness: FILE }`). */
  witness?: Witness;
}

export function transformTree(parsed: Root, config: EditionConfig, options: TransformOptions = {}): Root {
  const report = reporterFor(options.files ?? []);
  // The parser bounds nesting (parse/inline.ts MAX_DEPTH), so this clone never recurses deep.
  let tree: Root = structuredClone(parsed);
  const from = config.meta.sourceScript ?? config.meta.script;
  if (options.corrections) tree = applyCorrections(tree, options.corrections, { from, to: config.meta.script, choices: config.conversion });
  tree = classifyLayers(tree, config.layerRules);
  tree = applyCharmap(tree, config.charmap, report);
  tree = splitCommentators(tree, report);
  return convertCorrectionsOld(convertScript(tree, from, config.meta.script, config.conversion, { witness: options.witness }), from, config.meta.script, config.conversion);
}
