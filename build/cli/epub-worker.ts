/**
 * The EPUB renderer in a worker thread (epub-thread.ts starts it): its
 * ~0.3–1 s of JavaScript runs beside the PDF's, on the other core, without
 * holding up the main thread that drives Chromium. Fonts are read here
 * (once), font subsets come from the build cache as in the main thread.
 */
import { parentPort } from 'node:worker_threads';
import type { FontSpec } from '../fonts/index.js';
import { renderEpub } from '../render/epub/index.js';
import type { EpubOptions } from '../render/epub/index.js';
import type { Root } from '../tree/types.js';
import { BuildCache } from './cache.js';
import { epubSubsetter } from './epub-fonts.js';
import { loadFontsOnce } from './fonts-memo.js';

export interface EpubJob {
  id: number;
  tree: Root;
  options: Pick<EpubOptions, 'popupLayers' | 'date' | 'collation' | 'pageList'>;
  specs: FontSpec[];
  cacheDir?: string;
}

const caches = new Map<string, BuildCache>();

parentPort?.on('message', (job: EpubJob) => {
  void (async () => {
    try {
      const fonts = await loadFontsOnce(job.specs);
      let cache: BuildCache | undefined;
      if (job.cacheDir) {
        cache = caches.get(job.cacheDir) ?? new BuildCache(job.cacheDir);
        // The last cache is the session's; others (a clean build's) are let go with their memory.
        caches.delete(job.cacheDir);
        caches.set(job.cacheDir, cache);
        for (const dir of caches.keys()) if (caches.size > 2) caches.delete(dir);
      }
      const bytes = await renderEpub(job.tree, {
        ...job.options,
        fonts,
        subset: epubSubsetter(cache),
        onVolume: (done, total) => parentPort?.postMessage({ id: job.id, progress: [done, total] }),
      });
      parentPort?.postMessage({ id: job.id, bytes }, [bytes.buffer as ArrayBuffer]);
    } catch (error) {
      parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error), name: error instanceof Error ? error.name : 'Error' });
    }
  })();
});
