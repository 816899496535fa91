/**
 * A build process of `build DIR --jobs N` (collection-build.ts): takes one
 * edition at a time from its parent, builds it with its own Chromium (kept
 * between editions) and sends the outcome back. It dies with its parent.
 */
import { findChromium, launchBrowser } from './browser.js';
import { installSignalCleanup } from './cleanup.js';
import { buildCollectionEdition, type CollectionBuildOptions } from './collection-build.js';
import type { CollectionEdition } from './collection.js';
import { lazyBrowser, type LazyBrowser } from './lazy-browser.js';

installSignalCleanup();
let browser: LazyBrowser | undefined;

process.on('message', (m: { edition?: CollectionEdition; options?: CollectionBuildOptions; stop?: boolean }) => {
  if (m.stop || !m.edition || !m.options) {
    void browser?.close().finally(() => process.exit(0));
    if (!browser) process.exit(0);
    return;
  }
  const { edition, options } = m;
  browser ??= lazyBrowser(() => launchBrowser({ executablePath: options.targets.pdf ? findChromium(options.chromium) : undefined }));
  buildCollectionEdition(edition, options, browser).then(
    ({ outcome }) => process.send!({ outcome }),
    // What buildEdition does not catch is a bug of ours; the parent reports the edition as not built.
    (error: unknown) => {
      process.stderr.write(`diaoban: internal error while building ${edition.name}: ${(error as Error).message}\n`);
      process.exit(2);
    },
  );
});
// The parent is gone (killed): so is this build, with its Chromium (cleanup.ts on exit).
process.on('disconnect', () => process.exit(1));
process.send!({ ready: true });
