/**
 * Test and benchmark support (no command uses it): the sample editions'
 * transformed trees, read from manuscript/ through loadEdition. It reads
 * files, so it lives with the other file readers in cli/.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EditionConfig } from '../tree/edition.js';
import type { Root } from '../tree/types.js';
import { loadEdition } from './load.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SAMPLES = ['lishu-gangmu', 'lishu', 'liuyi-gangmu', 'lijing-benyi', 'yili-zhushu'] as const;

/** An edition's config and transformed tree, by folder name under manuscript/. */
export async function loadSample(work: string): Promise<{ config: EditionConfig; tree: Root }> {
  const { config, tree } = await loadEdition(path.join(REPO, 'manuscript', work));
  if (!config) throw new Error(`manuscript/${work}: edition.yaml is unusable`);
  return { config, tree };
}
