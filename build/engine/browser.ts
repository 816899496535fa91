/**
 * Launches Chromium through Puppeteer, offline: headless, over a pipe (so
 * that it exits when this process does, even when killed), a fresh
 * temporary profile, and every request that is not file:, data:, about: or
 * blob: blocked. Errors say what happened and what to do.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer';
import { CHROMIUM_PROFILE, endProcessGroup, makeTempDir, noteChromiumTemp, removeTemp, trackProcessGroup } from './cleanup.js';

/** Debian's Chromium, the one the project is measured with. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Looked up on PATH when /usr/bin/chromium is not there. */
const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--font-render-hinting=none',
  // Fewer processes, less memory: the GPU and network services in the browser process (NetworkServiceInProcess2 in
  // Chromium 156, the older name for older builds), no spare renderer, and no renderer for the omnibox popup (WebUI)
  // that headless Chromium 156 loads ahead and never shows (~60 MB).
  '--in-process-gpu',
  '--enable-features=NetworkServiceInProcess,NetworkServiceInProcess2',
  '--disable-features=SpareRendererForSitePerProcess,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

/** A failure of the browser, with a message a user can act on. */
export class BrowserError extends Error {
  override name = 'BrowserError';
}

export interface LaunchOptions {
  /** Chromium binary (`--chromium`); else PUPPETEER_EXECUTABLE_PATH, /usr/bin/chromium, then chromium … on PATH. */
  executablePath?: string;
  /** Milliseconds to wait for the browser to start. */
  timeout?: number;
  /** More Chromium flags (after the required ones). */
  extraArgs?: string[];
}

export interface PageOptions {
  /**
   * Which main-frame navigations the tab may make (the page we load);
   * every other navigation of the main frame and every file: navigation of
   * a frame is blocked. All main-frame navigations when absent.
   */
  navigate?: (url: string) => boolean;
}

export interface OfflineBrowser {
  browser: Browser;
  /** A new tab whose requests that would leave the machine are blocked. */
  newPage(options?: PageOptions): Promise<Page>;
  /** The browser's main process id (also its process group), for memory sampling. */
  pid: number | undefined;
  /** Closes the browser, kills what is left of its process group and removes its temporary profile. */
  close(): Promise<void>;
}

const INSTALL = 'install one with: apt-get install chromium (or scripts/setup.sh), or point to one with --chromium PATH or PUPPETEER_EXECUTABLE_PATH=PATH';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to run: `explicit` (--chromium), PUPPETEER_EXECUTABLE_PATH, `standard` (/usr/bin/chromium), then chromium … on PATH. */
export function findChromium(explicit?: string, env: NodeJS.ProcessEnv = process.env, standard = CHROMIUM_PATH): string {
  const given = explicit ? { path: explicit, from: '--chromium' } : env.PUPPETEER_EXECUTABLE_PATH ? { path: env.PUPPETEER_EXECUTABLE_PATH, from: 'PUPPETEER_EXECUTABLE_PATH' } : null;
  if (given) {
    if (executable(given.path)) return given.path;
    throw new BrowserError(`Chromium not found at ${given.path} (from ${given.from}): no such program, or not executable; give the path of a Chromium or Chrome binary, or ${INSTALL}`);
  }
  const candidates = [standard, ...(env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => CHROMIUM_NAMES.map((name) => join(dir, name)))];
  const found = candidates.find(executable);
  if (found) return found;
  throw new BrowserError(`no Chromium found (looked for ${standard} and ${CHROMIUM_NAMES.join(', ')} on PATH); diaoban prints PDFs with Chromium: ${INSTALL}`);
}

const ALLOWED = /^(file|data|about|blob):/;

/** Blocks every request that would leave the machine, and the navigations `options` does not allow. */
export async function blockNetwork(page: Page, options: PageOptions = {}): Promise<void> {
  await page.setRequestInterception(true);
  const allowed = (request: HTTPRequest): boolean => {
    const url = request.url();
    if (!ALLOWED.test(url)) return false;
    if (!request.isNavigationRequest()) return true;
    if (request.frame() === page.mainFrame()) return options.navigate?.(url) ?? true;
    // A frame showing a local file (an injected <iframe src=file:///etc/passwd>) would print it.
    return !url.startsWith('file:');
  };
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (allowed(request)) void request.continue();
    else void request.abort('blockedbyclient');
  });
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<OfflineBrowser> {
  const executablePath = findChromium(options.executablePath);
  const home = await makeTempDir('chromium');
  const profile = join(home, CHROMIUM_PROFILE);
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      // Over a pipe Chromium exits when its parent dies; over a WebSocket it would outlive a killed build.
      pipe: true,
      // cleanup.ts kills the process group and removes the profile on any exit.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      args: [...CHROMIUM_FLAGS, ...(options.extraArgs ?? []), `--user-data-dir=${profile}`],
      // A build writes nothing outside its folders: Chromium's config folder (crashpad's "Crash Reports") in the temp
      // folder, not in ~/.config; GTK's settings in memory, not in dconf's ~/.cache/dconf.
      env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), GSETTINGS_BACKEND: 'memory' },
      timeout: options.timeout ?? 60_000,
      protocolTimeout: 600_000,
    });
  } catch (error) {
    await removeTemp(home);
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new BrowserError(
      `Chromium (${executablePath}) did not start: ${reason}. Check that it runs (${executablePath} --headless --version); reinstall with: apt-get install --reinstall chromium, or point to another with --chromium PATH`,
    );
  }
  // Puppeteer starts Chromium as the leader of a process group of its own (detached).
  const pid = browser.process()?.pid;
  if (pid !== undefined) trackProcessGroup(pid);
  noteChromiumTemp(home);
  // The tab Chromium opens at start would keep a renderer (~100 MB) for nothing.
  for (const tab of await browser.pages()) await tab.close().catch(() => undefined);
  let closing = false;
  let crashed = false;
  browser.on('disconnected', () => {
    if (!closing) crashed = true;
  });
  return {
    browser,
    pid,
    async newPage(pageOptions?: PageOptions) {
      if (crashed) throw new BrowserError('Chromium crashed; run the build again (if it keeps crashing, check free memory: free -h)');
      try {
        const page = await browser.newPage();
        await blockNetwork(page, pageOptions);
        return page;
      } catch (error) {
        // Chromium dying while it opens the tab is a crash too, not an internal error.
        const message = error instanceof Error ? error.message : String(error);
        if (crashed || /Target closed|Session closed|Connection closed|disconnected|Protocol error/i.test(message)) {
          throw new BrowserError(`Chromium crashed while opening a tab (${message.split('\n')[0]}); run the build again (if it keeps crashing, check free memory: free -h)`);
        }
        throw error;
      }
    },
    async close() {
      closing = true;
      let timer: NodeJS.Timeout | undefined;
      // At most 10 s for Chromium to close by itself; the timer must not hold the process after it has.
      await Promise.race([browser.close().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
      // A renderer or helper that outlives the browser process would still write into the profile.
      if (pid !== undefined) await endProcessGroup(pid);
      await removeTemp(home);
    },
  };
}

/** Runs `work` with a timeout, turning a hang or a crash into a BrowserError that says what to do. */
export async function withBrowserDeadline<T>(
  what: string,
  ms: number,
  work: () => Promise<T>,
  /** Whether the browser is still there; when it is not, any failure is a crash. */
  alive: () => boolean = () => true,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BrowserError(`${what} timed out after ${Math.round(ms / 1000)} s in Chromium; try again, or build one edition at a time`)),
      ms,
    );
  });
  try {
    return await Promise.race([work(), deadline]);
  } catch (error) {
    if (error instanceof BrowserError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (!alive() || /Target closed|Session closed|Connection closed|crash|disconnected|Protocol error|too early|detached/i.test(message)) {
      throw new BrowserError(`Chromium crashed while ${what} (${message.split('\n')[0]}); run the build again (if it keeps crashing, check free memory: free -h)`);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Memory of a process and all its descendants, in bytes (Linux /proc):
 * `rss` sums each process's resident set (shared pages such as the mapped
 * font files count once per process); `pss` shares them out (proportional
 * set size), which is what the processes really cost together.
 */
export async function processTreeMemory(pid: number): Promise<{ rss: number; pss: number }> {
  const { readdir, readFile } = await import('node:fs/promises');
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // after the command name: state, ppid, …
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  let rss = 0;
  let pss = 0;
  for (const [child] of parents) {
    let p: number | undefined = child;
    while (p !== undefined && p > 1 && p !== pid) p = parents.get(p);
    if (p !== pid) continue;
    try {
      const rollup = await readFile(`/proc/${child}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return { rss, pss };
}
