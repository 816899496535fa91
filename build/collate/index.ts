/**
 * The collation stage: an edition's tree (after transform) and its
 * witnesses' files → the tree with the 校勘記's entries marked (`app` nodes,
 * corrections' agreements, each volume's tally of variant forms) and the
 * apparatus as data (`diaoban collate`). Pure: the engine reads the files.
 */
import type { VFile } from 'vfile';
import type { EditionConfig } from '../tree/edition.js';
import type { Root, Script } from '../tree/types.js';
import { parseEdition, type ParsedSource } from '../parse/index.js';
import type { SourceTexts } from './stream.js';
import { collate, type Collation, type WitnessText } from './collate.js';
import { annotateTree } from './annotate.js';
import { applyCharmap } from '../transform/charmap.js';

export { collate, pairFiles, entryText, type Collation, type RawEntry, type VariantPlace, type WitnessStats, type WitnessText } from './collate.js';
export { annotateTree } from './annotate.js';
export { apparatusText, countWords, tallyLines } from './phrase.js';
export { isVariantForm, variantSources } from './variants.js';

export interface WitnessSource {
  siglum: string;
  script?: Script;
  files: VFile[];
}

/** A witness's files parsed as the edition's sources are (its importer detected file by file). */
export function parseWitness(config: EditionConfig, witness: WitnessSource): WitnessText {
  const { tree, sources } = parseEdition({ ...config, sources: witness.files.map((f) => f.path) }, witness.files);
  // Its glyphs stand for what the base's do (the edition's charmap, then the lists): &KR0433; and 㐅 are one reading.
  // What the witness leaves unmapped is no message of the edition's.
  applyCharmap(tree, config.charmap ?? {}, () => undefined);
  return {
    siglum: witness.siglum,
    texts: sourceTexts(sources),
    script: witness.script ?? config.meta.sourceScript ?? config.meta.script,
    files: witness.files.map((f) => ({ name: f.path, volumes: tree.children.filter((v) => v.position?.file === f.path) })),
  };
}

export interface CollatedEdition {
  tree: Root;
  collation: Collation;
}

/** Parsed sources' texts by file, for places. */
export function sourceTexts(sources: readonly ParsedSource[]): SourceTexts {
  return new Map(sources.flatMap((s) => (s.text !== undefined && s.file.path ? [[s.file.path, { text: s.text }] as const] : [])));
}

/** The tree collated with the witnesses (nothing done without any); `sources`: the base's, parsed, for places. */
export function collateEdition(tree: Root, config: EditionConfig, witnesses: readonly WitnessSource[], sources: readonly ParsedSource[] = []): CollatedEdition | undefined {
  if (witnesses.length === 0) return undefined;
  const texts = witnesses.map((w) => parseWitness(config, w));
  const collation = collate(tree, texts, { script: config.meta.script, ...(config.conversion ? { choices: config.conversion } : {}), texts: sourceTexts(sources) });
  const annotated = annotateTree(tree, collation, texts.map((t) => t.siglum), config.variants ?? 'count');
  return { tree: annotated, collation };
}
