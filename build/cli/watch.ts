/**
 * `diaoban watch <edition> [--port N]`: rebuilds the edition (incrementally)
 * whenever one of its files is saved, and serves a preview on 127.0.0.1 —
 * the PDF's pages (pdf.js) beside the EPUB (epub.js), the manuscript's
 * diagnostics with file:line:col, the pages the last build changed
 * highlighted. The page in the browser updates itself (server-sent events)
 * and keeps the reader's place.
 *
 * A save that leaves the edition unreadable (edition.yaml or the corrections
 * file not valid YAML, a source missing) shows the error and keeps the last
 * good pages; fixing it recovers without a restart.
 *
 * The server binds to the loopback interface only, answers only requests
 * for its own host name (no DNS rebinding), and serves nothing but the last
 * good outputs (kept in memory) and a fixed list of preview assets.
 */
import { watch as watchFiles, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEdition, FILE_ERRORS, type BuildResult } from './build.js';
import type { BuildCache } from './cache.js';
import type { VolumeChange } from './changes.js';
import { lazyBrowser, type LazyBrowser } from './lazy-browser.js';
import { formatMessage, severityOf, sortMessages } from './report.js';

const require = createRequire(import.meta.url);
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Every file the server may send besides the outputs: a fixed list, no path from a request reaches the disk. */
const ASSETS: Readonly<Record<string, { file: () => string; type: string }>> = {
  '/': { file: () => path.join(HERE, 'preview', 'index.html'), type: 'text/html; charset=utf-8' },
  '/preview.js': { file: () => path.join(HERE, 'preview', 'preview.js'), type: 'text/javascript; charset=utf-8' },
  '/preview.css': { file: () => path.join(HERE, 'preview', 'preview.css'), type: 'text/css; charset=utf-8' },
  '/vendor/pdf.mjs': { file: () => require.resolve('pdfjs-dist/build/pdf.min.mjs'), type: 'text/javascript; charset=utf-8' },
  '/vendor/pdf.worker.mjs': { file: () => require.resolve('pdfjs-dist/build/pdf.worker.min.mjs'), type: 'text/javascript; charset=utf-8' },
  '/vendor/jszip.js': { file: () => require.resolve('jszip/dist/jszip.min.js'), type: 'text/javascript; charset=utf-8' },
  '/vendor/epub.js': { file: () => require.resolve('epubjs/dist/epub.min.js'), type: 'text/javascript; charset=utf-8' },
};

/** The preview's page: scripts from this server only; pdf.js's worker; epub.js's iframes and the book's stylesheet (blob:). */
const CSP =
  "default-src 'none'; script-src 'self'; worker-src 'self' blob:; connect-src 'self'; img-src 'self' blob: data:; " +
  "style-src 'self' 'unsafe-inline' blob:; font-src 'self' blob: data:; frame-src 'self' blob:; child-src 'self' blob:; base-uri 'none'; form-action 'none'";


export interface WatchOptions {
  /** 0: any free port. */
  port: number;
  out: string;
  /** Called with a line for people (URL, builds, errors). */
  log?: (line: string) => void;
  /** Milliseconds of quiet after a save before building (editors save in several writes). */
  debounce?: number;
  browser?: LazyBrowser;
  /** The build cache (default: the checkout's .cache/build). */
  cache?: BuildCache;
  /** Folders outside the edition its files may come from (--allow-read). */
  allowRead?: readonly string[];
}

export interface PreviewState {
  /** Counts good builds; the preview reloads the outputs when it changes. */
  generation: number;
  /** Counts every build, good or not. */
  build: number;
  status: 'building' | 'ok' | 'error';
  /** The last build's diagnostics, file:line:col severity message (rule). */
  messages: Array<{ text: string; severity: string }>;
  /** Why the last build's pages were not taken, when they were not. */
  error?: string;
  lines: string[];
  /** PDF pages (1-based) the last good build changed, and the report per volume. */
  changedPages: number[];
  changes: VolumeChange[];
  pages: number;
}

export interface WatchSession {
  url: string;
  state(): PreviewState;
  /** Resolves after the next build finishes (for tests and scripts). */
  nextBuild(): Promise<PreviewState>;
  close(): Promise<void>;
}

function changedPdfPages(changes: readonly VolumeChange[] | undefined): number[] {
  return (changes ?? []).flatMap((c) => [...c.pages, ...c.collation].filter((p) => !p.removed).map((p) => p.pdfPage));
}

export async function watchEdition(dir: string, options: WatchOptions): Promise<WatchSession> {
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const browser = options.browser ?? lazyBrowser();
  const own = options.browser === undefined;
  let state: PreviewState = { generation: 0, build: 0, status: 'building', messages: [], lines: [], changedPages: [], changes: [], pages: 0 };
  let outputs: { pdf?: Buffer; epub?: Buffer } = {};
  const clients = new Set<ServerResponse>();
  const waiters: Array<(s: PreviewState) => void> = [];

  const publish = (): void => {
    const data = `event: build\ndata: ${JSON.stringify({ generation: state.generation, build: state.build, status: state.status })}\n\n`;
    for (const c of clients) c.write(data);
    if (state.status !== 'building') for (const w of waiters.splice(0)) w(state);
  };

  const messagesOf = (result: BuildResult) =>
    sortMessages(result.messages).map((m) => ({ text: formatMessage(m), severity: severityOf(m) }));

  const build = async (): Promise<void> => {
    state = { ...state, status: 'building' };
    publish();
    let result: BuildResult;
    try {
      result = await buildEdition(dir, { out: options.out, targets: { pdf: true, epub: true }, progress: false, browser: browser.get, stopOnFileErrors: true, allowRead: options.allowRead, ...(options.cache ? { cache: options.cache } : {}) });
    } catch (error) {
      state = { ...state, build: state.build + 1, status: 'error', error: `the build failed: ${(error as Error).message}` };
      log(`diaoban watch: ${state.error}`);
      publish();
      return;
    }
    const messages = messagesOf(result);
    const blocking = result.messages.filter((m) => m.fatal && FILE_ERRORS.has(m.ruleId ?? ''));
    const pdf = result.manifest?.outputs.pdf?.path;
    const epub = result.manifest?.outputs.epub?.path;
    if (!result.ok || blocking.length > 0 || !pdf || !epub) {
      const why = blocking.length > 0 ? blocking.map((m) => formatMessage(m)).join('\n') : result.lines.filter((l) => /not written|not built/.test(l)).join('\n');
      state = { ...state, build: state.build + 1, status: 'error', messages, lines: result.lines, error: why || 'the build failed' };
      for (const line of [...messages.filter((m) => m.severity === 'error').map((m) => m.text), `diaoban watch: not updated (the last good pages stay): ${state.error}`]) log(line);
      publish();
      return;
    }
    outputs = { pdf: await readFile(pdf), epub: await readFile(epub) };
    state = {
      generation: state.generation + 1,
      build: state.build + 1,
      status: 'ok',
      messages,
      lines: result.lines,
      changedPages: changedPdfPages(result.changes),
      changes: result.changes ?? [],
      pages: result.manifest?.pages.length ?? 0,
    };
    for (const line of result.lines) log(line);
    publish();
  };

  // One build at a time; saves during a build make one more build after it.
  let running: Promise<void> | undefined;
  let again = false;
  const schedule = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = build().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        schedule();
      }
    });
  };

  let timer: NodeJS.Timeout | undefined;
  const resolvedOut = path.resolve(options.out);
  const watcher: FSWatcher = watchFiles(dir, { recursive: true }, (_event, name) => {
    // The outputs and editors' swap files are not the edition's files.
    const file = name ? path.resolve(dir, String(name)) : '';
    if (file.startsWith(resolvedOut + path.sep) || /(^|\/)\.|~$|\.sw.$/.test(String(name ?? ''))) return;
    clearTimeout(timer);
    timer = setTimeout(schedule, options.debounce ?? 150);
  });

  const server: Server = createServer((req, res) => void serve(req, res));
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const address = server.address() as AddressInfo;
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${address.port}` && host !== `localhost:${address.port}`) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    const url = new URL(req.url ?? '/', `http://${host}`);
    const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': CSP, 'Referrer-Policy': 'no-referrer' };
    if (url.pathname === '/events') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      res.write(`event: build\ndata: ${JSON.stringify({ generation: state.generation, build: state.build, status: state.status })}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (url.pathname === '/state') {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(state));
      return;
    }
    if (url.pathname === '/book.pdf' || url.pathname === '/book.epub') {
      const bytes = url.pathname === '/book.pdf' ? outputs.pdf : outputs.epub;
      if (!bytes) {
        res.writeHead(404, headers).end('not built yet');
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Type': url.pathname === '/book.pdf' ? 'application/pdf' : 'application/epub+zip' }).end(bytes);
      return;
    }
    const asset = ASSETS[url.pathname];
    if (!asset) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    try {
      res.writeHead(200, { ...headers, 'Content-Type': asset.type }).end(await readFile(asset.file()));
    } catch {
      res.writeHead(500, headers).end('asset missing');
    }
  };
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port, '127.0.0.1', () => ready());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  log(`diaoban watch: ${path.resolve(dir)} — preview at ${url} (Ctrl-C to stop)`);
  schedule();

  return {
    url,
    state: () => state,
    nextBuild: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      clearTimeout(timer);
      watcher.close();
      for (const c of clients) c.end();
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      await closed;
      await running;
      if (own) await browser.close();
    },
  };
}
