/**
 * Test and benchmark support (not used by the stage itself): the sample
 * editions' trees through build/cli/load.ts. Loaded dynamically so that the
 * layout tests still run, and say why they skip, while the loader or a stage
 * it needs is not there yet.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EditionConfig } from '../tree/edition.js';
import type { Root } from '../tree/types.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SAMPLES = ['lishu-gangmu', 'lishu', 'liuyi-gangmu', 'lijing-benyi', 'yili-zhushu'] as const;

interface Loaded {
  config: EditionConfig | null;
  tree: Root;
}
type LoadEdition = (dir: string) => Promise<Loaded>;

/** loadEdition from build/cli/load.ts, or the reason it cannot be had. */
export async function findLoader(): Promise<{ loadEdition: LoadEdition } | { missing: string }> {
  const file = path.join(REPO, 'build/cli/load.ts');
  try {
    const mod = (await import(pathToFileURL(file).href)) as { loadEdition?: LoadEdition };
    if (typeof mod.loadEdition !== 'function') return { missing: 'build/cli/load.ts does not export loadEdition' };
    return { loadEdition: mod.loadEdition };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === 'ERR_MODULE_NOT_FOUND') {
      return { missing: `build/cli/load.ts cannot be loaded yet (${(e.message ?? '').split('\n')[0]})` };
    }
    throw error;
  }
}

/** An edition's config and transformed tree, by folder name under manuscript/. */
export async function loadSample(loadEdition: LoadEdition, work: string): Promise<{ config: EditionConfig; tree: Root }> {
  const { config, tree } = await loadEdition(path.join(REPO, 'manuscript', work));
  if (!config) throw new Error(`manuscript/${work}: edition.yaml is unusable`);
  return { config, tree };
}
