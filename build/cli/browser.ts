/**
 * Launches Debian's Chromium through Puppeteer, offline: headless, a fresh
 * temporary profile, and every request that is not file:, data: or about:
 * blocked. Errors say what happened and what to do.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--font-render-hinting=none',
  // Fewer processes, less memory: the GPU and network services in the browser process, no spare renderer.
  '--in-process-gpu',
  '--enable-features=NetworkServiceInProcess',
  '--disable-features=SpareRendererForSitePerProcess',
];

/** A failure of the browser, with a message a user can act on. */
export class BrowserError extends Error {
  override name = 'BrowserError';
}

export interface LaunchOptions {
  /** Chromium binary; /usr/bin/chromium by default. */
  executablePath?: string;
  /** Milliseconds to wait for the browser to start. */
  timeout?: number;
  /** More Chromium flags (after the required ones). */
  extraArgs?: string[];
}

export interface OfflineBrowser {
  browser: Browser;
  /** A new tab whose non-file requests are blocked. */
  newPage(): Promise<Page>;
  /** The browser's main process id, for memory sampling. */
  pid: number | undefined;
  /** Closes the browser and removes its temporary profile. */
  close(): Promise<void>;
}

const ALLOWED = /^(file|data|about|blob):/;

/** Blocks every request that would leave the machine. */
export async function blockNetwork(page: Page): Promise<void> {
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (ALLOWED.test(request.url())) void request.continue();
    else void request.abort('blockedbyclient');
  });
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<OfflineBrowser> {
  const executablePath = options.executablePath ?? CHROMIUM_PATH;
  if (!existsSync(executablePath)) {
    throw new BrowserError(
      `Chromium not found at ${executablePath}; diaoban prints PDFs with Debian's Chromium. Run: apt-get install chromium`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'diaoban-chromium-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS, ...(options.extraArgs ?? []), `--user-data-dir=${profile}`],
      timeout: options.timeout ?? 60_000,
      protocolTimeout: 600_000,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new BrowserError(
      `Chromium (${executablePath}) did not start: ${reason}. Check that it runs (chromium --headless --version); reinstall with: apt-get install --reinstall chromium`,
    );
  }
  // The tab Chromium opens at start would keep a renderer (~100 MB) for nothing.
  for (const tab of await browser.pages()) await tab.close().catch(() => undefined);
  let closing = false;
  let crashed = false;
  browser.on('disconnected', () => {
    if (!closing) crashed = true;
  });
  return {
    browser,
    pid: browser.process()?.pid,
    async newPage() {
      if (crashed) throw new BrowserError('Chromium crashed; run the build again (if it keeps crashing, check free memory: free -h)');
      const page = await browser.newPage();
      await blockNetwork(page);
      return page;
    },
    async close() {
      closing = true;
      try {
        await browser.close();
      } catch {
        browser.process()?.kill('SIGKILL');
      }
      await rm(profile, { recursive: true, force: true });
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
