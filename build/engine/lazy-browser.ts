/**
 * A browser launched when first asked for, and closed if it was: a build
 * whose volumes all come from the cache starts no Chromium.
 */
import { launchBrowser, type OfflineBrowser } from './browser.js';

export interface LazyBrowser {
  get: () => Promise<OfflineBrowser>;
  /** Whether it was launched. */
  launched: () => boolean;
  close: () => Promise<void>;
}

export function lazyBrowser(launch: () => Promise<OfflineBrowser> = () => launchBrowser()): LazyBrowser {
  let pending: Promise<OfflineBrowser> | undefined;
  return {
    get: () => {
      pending ??= launch();
      pending.catch(() => {
        pending = undefined;
      });
      return pending;
    },
    launched: () => pending !== undefined,
    close: async () => {
      const p = pending;
      pending = undefined;
      if (p) await (await p.catch(() => undefined))?.close();
    },
  };
}
