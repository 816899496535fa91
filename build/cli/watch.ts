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
 * good outputs (kept in memory) and a fixed list of preview assets. It is a
 * server for one user, and nothing a client sends can stop it: a malformed
 * request gets a 400, connections and event streams are capped (a 503 past
 * the cap, WATCH_LIMITS), slow or silent clients time out, and the file
 * watcher, the server and every socket and stream have error handlers (a
 * watcher that fails, as on EMFILE, is started again and the edition
 * rebuilt).
 */
import { existsSync, lstatSync, readdirSync, readlinkSync, watch as watchFiles, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEdition, FILE_ERRORS, type BuildResult } from '../engine/build.js';
import type { BuildCache } from '../engine/cache.js';
import type { VolumeChange } from '../engine/changes.js';
import { keepEpubThread } from '../engine/epub-thread.js';
import { lazyBrowser, type LazyBrowser } from '../engine/lazy-browser.js';
import { formatMessage, severityOf, sortMessages } from '../engine/report.js';
import { say } from './terminal.js';

const require = createRequire(import.meta.url);
// The preview's files stay in build/cli/preview: the compiled watch.js (lib/cli/) reads them there too.
const HERE = fileURLToPath(new URL('../../build/cli/', import.meta.url));

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

/**
 * What one user's preview needs, with room: a few tabs, each an event
 * stream and a few requests at a time. Past `connections` a connection gets
 * a 503 and is closed; past `connections + 64` Node drops it unanswered
 * (server.maxConnections), so that descriptors stay bounded whatever comes.
 */
export const WATCH_LIMITS = {
  /** Open /events streams. */
  streams: 16,
  /** Open connections, event streams included. */
  connections: 64,
  /** Milliseconds for a client to send a request's headers, and all of it. */
  headersTimeout: 10_000,
  requestTimeout: 20_000,
  /** Milliseconds an idle keep-alive connection stays open. */
  keepAliveTimeout: 5_000,
  /** Milliseconds between comments on an idle event stream (a peer gone is noticed at the next write). */
  heartbeat: 15_000,
} as const;

const CONNECTIONS_DROPPED = WATCH_LIMITS.connections + 64;

/** The answer to a request Node's parser refused, by its error code (anything else: 400). */
const CLIENT_ERROR_STATUS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** A whole response written on a raw socket (before Node's HTTP layer has a request to answer). */
const rawResponse = (status: string): string => `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;

/**
 * The path of a request target, or undefined if it is not one: only the
 * origin form (`/path?query`), read as a path on this host — `//[`, which
 * `new URL(target, base)` reads as a host and throws on, is a path here.
 */
export function requestPath(target: string | undefined): string | undefined {
  if (!target?.startsWith('/')) return undefined;
  try {
    return new URL(`http://localhost${target}`).pathname;
  } catch {
    return undefined;
  }
}

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

export interface TreeWatcher {
  /** The fs watcher now running (none between a failure and the restart). */
  current(): FSWatcher | undefined;
  close(): void;
}

/**
 * Watches a folder and what is in it, and keeps watching: one watcher a
 * folder (the folder and each subfolder, links to folders not followed),
 * since Node's recursive watcher stops reporting a file that was a symbolic
 * link for a moment (`ln -sf`, then the file restored: no later save seen).
 * A folder made later is watched when it appears. A watcher that fails
 * (EMFILE when descriptors run out, ENOSPC for inotify's watches, the
 * folder gone for a moment) is said on `log`, all are started again a
 * second later, then `restarted` is called (saves may have been missed
 * meanwhile). `onChange` gets names relative to `dir`.
 */
export function watchTree(dir: string, onChange: (event: string, name: string | Buffer | null) => void, log: (line: string) => void, restarted: () => void): TreeWatcher {
  const root = path.resolve(dir);
  const watchers = new Map<string, FSWatcher>();
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  const closeAll = (): void => {
    for (const w of watchers.values()) w.close();
    watchers.clear();
  };
  const failed = (error: NodeJS.ErrnoException): void => {
    closeAll();
    log(`diaoban watch: watching ${dir} failed (${error.code ?? error.message}); watching again in a second`);
    retry ??= setTimeout(() => {
      retry = undefined;
      if (closed) return;
      try {
        watchFolder(root);
      } catch (again) {
        failed(again as NodeJS.ErrnoException);
        return;
      }
      restarted();
    }, 1000);
  };
  const watchFolder = (folder: string): void => {
    if (closed || watchers.has(folder)) return;
    const w = watchFiles(folder, (event, name) => {
      const file = name === null ? folder : path.join(folder, String(name));
      // A folder made (or moved in) since: watched too.
      if (event === 'rename' && name !== null) {
        try {
          if (lstatSync(file).isDirectory() && !path.basename(file).startsWith('.')) watchFolder(file);
        } catch {
          // gone already
        }
      }
      onChange(event, name === null ? null : path.relative(root, file));
    });
    w.on('error', (error: NodeJS.ErrnoException) => {
      w.close();
      if (watchers.get(folder) === w) watchers.delete(folder);
      // A subfolder removed: nothing to watch there any more.
      if (folder !== root && !existsSync(folder)) return;
      failed(error);
    });
    watchers.set(folder, w);
    for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory() && !entry.name.startsWith('.')) watchFolder(path.join(folder, entry.name));
  };
  // The first start must work: a folder that cannot be watched at all is for the user to fix.
  watchFolder(root);
  return {
    current: () => watchers.get(root),
    close() {
      closed = true;
      clearTimeout(retry);
      closeAll();
    },
  };
}

/**
 * What watch says when a file of the edition becomes a symbolic link, or a
 * file again: a link's target is read only inside the edition (or
 * --allow-read), and saves to a target outside the edition are not seen.
 * Said once a change of kind; `kinds` remembers each name's last.
 */
export function linkNotice(dir: string, name: string, kinds: Map<string, 'link' | 'file'>): string | undefined {
  const file = path.resolve(dir, name);
  let kind: 'link' | 'file';
  let target = '';
  try {
    const info = lstatSync(file);
    if (info.isDirectory()) return undefined;
    kind = info.isSymbolicLink() ? 'link' : 'file';
    if (kind === 'link') target = readlinkSync(file);
  } catch {
    return undefined;
  }
  const before = kinds.get(name);
  kinds.set(name, kind);
  if (kind === 'link') {
    if (before === 'link') return undefined;
    const real = path.resolve(path.dirname(file), target);
    const outside = path.relative(path.resolve(dir), real).startsWith('..');
    return `diaoban watch: ${name} is a symbolic link now (to ${target})${outside ? '; saves to that file, outside the edition, are not seen (and the build reads it only with --allow-read)' : `; saves to ${path.relative(path.resolve(dir), real)} rebuild it`}`;
  }
  return before === 'link' ? `diaoban watch: ${name} is a file again; its saves rebuild the edition` : undefined;
}

export async function watchEdition(dir: string, options: WatchOptions): Promise<WatchSession> {
  const log = options.log ?? ((line: string) => say(process.stderr, line));
  const browser = options.browser ?? lazyBrowser();
  const own = options.browser === undefined;
  // The session rebuilds one edition: the EPUB's worker keeps what it made, so a correction re-renders its volume only.
  keepEpubThread();
  let state: PreviewState = { generation: 0, build: 0, status: 'building', messages: [], lines: [], changedPages: [], changes: [], pages: 0 };
  let outputs: { pdf?: Buffer; epub?: Buffer } = {};
  const clients = new Set<ServerResponse>();
  const waiters: Array<(s: PreviewState) => void> = [];

  const publish = (): void => {
    const data = `event: build\ndata: ${JSON.stringify({ generation: state.generation, build: state.build, status: state.status })}\n\n`;
    for (const c of clients) if (!c.destroyed) c.write(data);
    if (state.status !== 'building') for (const w of waiters.splice(0)) w(state);
  };

  const messagesOf = (result: BuildResult) =>
    sortMessages(result.messages).map((m) => ({ text: formatMessage(m), severity: severityOf(m) }));

  const failed = (error: unknown): void => {
    state = { ...state, build: state.build + 1, status: 'error', error: `the build failed: ${(error as Error).message}` };
    log(`diaoban watch: ${state.error}`);
    publish();
  };

  const build = async (): Promise<void> => {
    state = { ...state, status: 'building' };
    publish();
    let result: BuildResult;
    try {
      result = await buildEdition(dir, { out: options.out, targets: { pdf: true, epub: true }, progress: false, browser: browser.get, stopOnFileErrors: true, allowRead: options.allowRead, ...(options.cache ? { cache: options.cache } : {}) });
    } catch (error) {
      failed(error);
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
    try {
      outputs = { pdf: await readFile(pdf), epub: await readFile(epub) };
    } catch (error) {
      failed(error);
      return;
    }
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
    running = build()
      .catch(failed)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
  };

  let timer: NodeJS.Timeout | undefined;
  const resolvedOut = path.resolve(options.out);
  const kinds = new Map<string, 'link' | 'file'>();
  const onChange = (_event: string, name: string | Buffer | null): void => {
    // The outputs and editors' swap files are not the edition's files.
    const file = name ? path.resolve(dir, String(name)) : '';
    if (file.startsWith(resolvedOut + path.sep) || /(^|\/)\.|~$|\.sw.$/.test(String(name ?? ''))) return;
    const notice = name ? linkNotice(dir, String(name), kinds) : undefined;
    if (notice) log(notice);
    clearTimeout(timer);
    timer = setTimeout(schedule, options.debounce ?? 150);
  };
  const files = watchTree(dir, onChange, log, schedule);

  const sockets = new Set<Socket>();
  /** Connections answered with a 503 at once: nothing they send is served. */
  const refused = new WeakSet<Socket>();
  const server: Server = createServer(
    { headersTimeout: WATCH_LIMITS.headersTimeout, requestTimeout: WATCH_LIMITS.requestTimeout, keepAliveTimeout: WATCH_LIMITS.keepAliveTimeout, connectionsCheckingInterval: 1000 },
    (req, res) => {
      req.on('error', () => res.destroy());
      res.on('error', () => res.destroy());
      if (refused.has(req.socket)) {
        res.destroy();
        return;
      }
      serve(req, res).catch((error: unknown) => {
        // Our bug, not the client's: said on stderr (the fuzz counts these), and the request answered.
        log(`diaoban watch: internal error answering ${req.method} ${JSON.stringify(req.url)}: ${(error as Error).stack ?? String(error)}`);
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    },
  );
  server.maxConnections = CONNECTIONS_DROPPED;
  server.on('connection', (socket: Socket) => {
    socket.on('error', () => socket.destroy());
    if (sockets.size >= WATCH_LIMITS.connections) {
      refused.add(socket);
      socket.end(rawResponse('503 Service Unavailable'));
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A request Node cannot parse (bad method, target, encoding, a header too large), or a client too slow: a 400 (or 408), then closed.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && !refused.has(socket) && error.code !== 'ECONNRESET') socket.end(rawResponse(CLIENT_ERROR_STATUS[error.code ?? ''] ?? '400 Bad Request'));
    socket.destroy();
  });
  const heartbeat = setInterval(() => {
    for (const c of clients) if (!c.destroyed) c.write(': \n\n');
  }, WATCH_LIMITS.heartbeat);
  heartbeat.unref();

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
    const pathname = requestPath(req.url);
    if (pathname === undefined) {
      res.writeHead(400).end('bad request');
      return;
    }
    const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': CSP, 'Referrer-Policy': 'no-referrer' };
    if (pathname === '/events') {
      if (clients.size >= WATCH_LIMITS.streams) {
        res.writeHead(503, { ...headers, 'Retry-After': '5' }).end('too many event streams');
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      res.write(`event: build\ndata: ${JSON.stringify({ generation: state.generation, build: state.build, status: state.status })}\n\n`);
      clients.add(res);
      res.on('close', () => clients.delete(res));
      return;
    }
    if (pathname === '/state') {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(state));
      return;
    }
    if (pathname === '/book.pdf' || pathname === '/book.epub') {
      const bytes = pathname === '/book.pdf' ? outputs.pdf : outputs.epub;
      if (!bytes) {
        res.writeHead(404, headers).end('not built yet');
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Type': pathname === '/book.pdf' ? 'application/pdf' : 'application/epub+zip' }).end(bytes);
      return;
    }
    const asset = Object.hasOwn(ASSETS, pathname) ? ASSETS[pathname] : undefined;
    if (!asset) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(asset.file());
    } catch {
      res.writeHead(500, headers).end('asset missing');
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': asset.type }).end(bytes);
  };
  try {
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(options.port, '127.0.0.1', () => {
        server.off('error', fail);
        ready();
      });
    });
  } catch (error) {
    files.close();
    clearInterval(heartbeat);
    throw error;
  }
  // After listening, an error (accept() out of descriptors: EMFILE) is said and the server goes on.
  server.on('error', (error: NodeJS.ErrnoException) => log(`diaoban watch: the server: ${error.code ?? error.message}`));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  log(`diaoban watch: ${path.resolve(dir)} — preview at ${url} (Ctrl-C to stop)`);
  schedule();

  return {
    url,
    state: () => state,
    nextBuild: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      clearTimeout(timer);
      clearInterval(heartbeat);
      files.close();
      for (const c of clients) c.end();
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      await closed;
      await running;
      if (own) await browser.close();
    },
  };
}
