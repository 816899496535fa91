/**
 * The EPUB renderer in a worker thread (epub-thread.ts starts it): its
 * ~0.3–1 s of JavaScript runs beside the PDF's, on the other core, without
 * holding up the main thread that drives Chromium. The fonts are known by
 * their facts and a face read only for a subset the build cache has not
 * (fonts-memo.ts); subsets come from the build cache as in the main thread.
 */
import { parentPort } from 'node:worker_threads';
import type { FontSpec } from '../fonts/index.js';
import { renderEpub } from '../render/epub/index.js';
import type { EpubOptions } from '../render/epub/index.js';
import type { Root } from '../tree/types.js';
import { revivedVolumeDocument, storedVolumeDocument, type StoredVolumeDocument, type VolumeDocument } from '../render/epub/xhtml.js';
import { BuildCache } from './cache.js';
import { epubSubsetter } from './epub-fonts.js';
import { loadFontsOnce } from './fonts-memo.js';

export interface EpubJob {
  id: number;
  tree: Root;
  options: Pick<EpubOptions, 'popupLayers' | 'date' | 'collation' | 'pageList' | 'seals'>;
  specs: FontSpec[];
  cacheDir?: string;
  /** Each volume's key (build.ts: its tree, its pages and the options): a volume whose key the last job had is not rendered again. */
  volumeKeys?: string[];
}

/** The volume documents of each cache's last job, by key: a rebuild after a correction renders its volume only. */
const volumeDocuments = new Map<string, Map<string, VolumeDocument>>();

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
      const keys = job.cacheDir ? job.volumeKeys : undefined;
      const last = (job.cacheDir && volumeDocuments.get(job.cacheDir)) || new Map<string, VolumeDocument>();
      // A new process finds the documents of the last build in the cache on disk.
      if (cache && keys) {
        await Promise.all(
          keys.map(async (key) => {
            if (last.has(key)) return;
            const stored = await cache.getJson<StoredVolumeDocument>('epub-volume', key);
            if (stored) last.set(key, revivedVolumeDocument(stored));
          }),
        );
      }
      const kept = new Map<string, VolumeDocument>();
      const rendered: string[] = [];
      const bytes = await renderEpub(job.tree, {
        ...job.options,
        ...(keys
          ? {
              volumeMemo: (i: number, render: () => VolumeDocument): VolumeDocument => {
                let doc = last.get(keys[i]);
                if (!doc) {
                  doc = render();
                  rendered.push(keys[i]);
                }
                kept.set(keys[i], doc);
                return doc;
              },
            }
          : {}),
        fonts,
        store: cache,
        subset: epubSubsetter(cache),
        onVolume: (done, total) => parentPort?.postMessage({ id: job.id, progress: [done, total] }),
      });
      if (cache) await Promise.all(rendered.map((key) => cache.putJson('epub-volume', key, storedVolumeDocument(kept.get(key)!))));
      if (job.cacheDir) {
        volumeDocuments.set(job.cacheDir, kept);
        for (const dir of volumeDocuments.keys()) if (!caches.has(dir)) volumeDocuments.delete(dir);
      }
      parentPort?.postMessage({ id: job.id, bytes }, [bytes.buffer as ArrayBuffer]);
    } catch (error) {
      parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error), name: error instanceof Error ? error.name : 'Error' });
    }
  })();
});
