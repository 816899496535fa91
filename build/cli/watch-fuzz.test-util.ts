/**
 * A real `diaoban watch` process, and what is thrown at its server: generated
 * request lines and headers on raw sockets to 127.0.0.1 (bad methods,
 * targets, versions, encodings, oversized and malformed headers, requests
 * cut short, half-closed, pipelined or reset), and thousands of idle event
 * streams (the descriptor-exhaustion case). Used by watch-server.test.ts (a
 * small fixed sample) and watch-fuzz.slow.ts (the full run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '../parse/test-helpers.js';

const BIN = path.resolve('bin/diaoban.js');

export interface WatchProcess {
  child: ChildProcess;
  port: number;
  /** The edition folder (a copy), its out folder, the temp folder the process runs with. */
  dir: string;
  out: string;
  temp: string;
  cache: string;
  /** A token in the environment of the process and every process it starts. */
  token: string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** A copy of `edition` watched by a real `diaoban watch` (its own TMPDIR and build cache), once its first build is done. */
export async function startWatch(edition: string, root = mkdtempSync(path.join(tmpdir(), 'diaoban-watchfuzz-'))): Promise<WatchProcess> {
  const dir = path.join(root, path.basename(edition));
  cpSync(edition, dir, { recursive: true });
  const out = path.join(root, 'dist');
  const temp = path.join(root, 'tmp');
  const cache = path.join(root, 'cache');
  mkdirSync(temp);
  const token = `DIAOBAN_WATCH_TEST_${randomBytes(6).toString('hex')}`;
  const child = spawn(process.execPath, [BIN, 'watch', '--port', '0', '--out', out, dir], {
    env: { ...process.env, TMPDIR: temp, DIAOBAN_CACHE: cache, [token]: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const look = (): void => {
      const m = /preview at http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
      if (m) resolve(Number(m[1]));
      else if (child.exitCode !== null) reject(new Error(`watch exited: ${stderr}`));
      else setTimeout(look, 50);
    };
    look();
  });
  const w: WatchProcess = { child, port, dir, out, temp, cache, token, stderr: () => stderr, exited };
  await untilBuilt(w, 1);
  return w;
}

/** A plain GET on the loopback: status and body. */
export function get(port: number, target: string, ms = 30_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: target, agent: false, timeout: ms }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to GET ${target} in ${ms} ms`)));
    req.on('error', reject);
    req.end();
  });
}

interface PreviewStateLite {
  generation: number;
  build: number;
  status: string;
}

export async function previewState(port: number): Promise<PreviewStateLite> {
  const r = await get(port, '/state');
  if (r.status !== 200) throw new Error(`/state: ${r.status}`);
  return JSON.parse(r.body) as PreviewStateLite;
}

/** Until the process has finished `builds` builds (good or not), the last one good. */
export async function untilBuilt(w: WatchProcess, builds: number, ms = 300_000): Promise<PreviewStateLite> {
  const end = Date.now() + ms;
  for (;;) {
    if (w.child.exitCode !== null) throw new Error(`watch exited (${w.child.exitCode}): ${w.stderr()}`);
    const s = await previewState(w.port).catch(() => undefined);
    if (s && s.build >= builds && s.status !== 'building') {
      if (s.status !== 'ok') throw new Error(`build ${s.build} failed: ${w.stderr()}`);
      return s;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for build ${builds}: ${w.stderr()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Bytes sent on one connection, and what came back until the server closed it (or `ms` passed: then it is reset). */
export function rawRequest(
  port: number,
  data: string | Buffer | Array<string | Buffer>,
  ms = 3000,
  how: 'close' | 'half-close' | 'reset' | 'stall' = 'close',
): Promise<{ text: string; error?: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, ms);
    socket.on('data', (d: Buffer) => {
      if (chunks.reduce((n, c) => n + c.length, 0) < 1 << 16) chunks.push(d);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('latin1'), error, timedOut });
    });
    socket.on('connect', () => {
      const parts = Array.isArray(data) ? data : [data];
      // Sent in pieces: the parser sees requests split anywhere.
      for (const p of parts) socket.write(p);
      if (how === 'half-close') socket.end();
      else if (how === 'reset') socket.resetAndDestroy();
      // 'stall': nothing more is sent and the connection is left open (the server's timeouts, or ours, end it).
    });
  });
}


export interface FuzzCase {
  parts: Array<string | Buffer>;
  how: 'close' | 'half-close' | 'reset' | 'stall';
  /** What it is, for the report. */
  label: string;
}

/** One generated request: a request line, headers and maybe a body, some of it broken. */
export function fuzzCase(rand: () => number, port: number): FuzzCase {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const junk = (n: number): string => Array.from({ length: n }, () => String.fromCharCode(Math.floor(rand() * 256))).join('');
  const methods = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PATCH', 'PRI', 'get', 'GE T', 'G\x00T', '', 'X'.repeat(300), junk(6)];
  const targets = [
    '/', '/state', '/events', '/book.pdf', '/book.epub', '/preview.js', '/vendor/pdf.mjs', '/nothing',
    '//[', '//', '//[::1', '/[', '/%', '/%zz', '/%00', '/%2e%2e/edition.yaml', '/../../etc/passwd', '/..%2f..%2fetc/passwd',
    `http://127.0.0.1:${port}/state`, 'http://[/', '*', 'evil.example:80', '', '?', '#', '/?q=' + junk(20), '/\u00ff\u00fe', '/\u4e2d',
    '/' + 'a'.repeat(Math.floor(rand() * 20000)), '/\x7f', '/ /', junk(12),
  ];
  const versions = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1 extra', 'HTTP/1.', 'http/1.1', ''];
  const hosts = [`127.0.0.1:${port}`, `127.0.0.1:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, 'evil.example', '', `127.0.0.1:${port}\x00`, 'a'.repeat(5000)];
  // A third are well formed but for their target, so that the server's own checks (host, method, path, caps) are fuzzed too, not only Node's parser.
  if (rand() < 0.33) {
    const keep = rand() < 0.5 ? 'keep-alive' : 'close';
    const text = `GET ${pick(targets)} HTTP/1.1\r\nHost: ${pick(hosts)}\r\nConnection: ${keep}\r\n\r\n`;
    return { parts: [Buffer.from(text, 'latin1')], how: pick(['close', 'half-close'] as const), label: `well formed ${JSON.stringify(text.split(' ')[1]).slice(0, 40)}` };
  }
  const eol = rand() < 0.9 ? '\r\n' : pick(['\n', '\r', '\n\r']);
  const lines: string[] = [];
  const method = pick(methods);
  const target = pick(targets);
  lines.push(`${method} ${target} ${pick(versions)}`.trimEnd());
  const host = rand() < 0.9 ? [`Host: ${pick(hosts)}`] : rand() < 0.5 ? [] : [`Host: 127.0.0.1:${port}`, 'Host: evil.example'];
  lines.push(...host);
  const extras = [
    'Transfer-Encoding: chunked', 'Transfer-Encoding: gzip, chunked', 'Transfer-Encoding: chunked\r\nContent-Length: 5', 'Content-Length: -1',
    'Content-Length: 99999999999999999999', 'Content-Length: 3\r\nContent-Length: 4', 'Content-Length: 0', 'Connection: keep-alive', 'Connection: upgrade\r\nUpgrade: websocket',
    'Expect: 100-continue', 'Accept-Encoding: gzip, br', 'X-Big: ' + 'b'.repeat(Math.floor(rand() * 40000)), 'X-Bad: \x01\x02', 'X-Latin: \u00e9\u00ff',
    ' folded: obs-fold', 'No-Colon', ': empty-name', 'X-Null: a\x00b', 'Range: bytes=0-10', 'Range: bytes=99999999-', 'If-None-Match: *', `Cookie: ${'c=1; '.repeat(500)}`,
  ];
  const count = Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) lines.push(pick(extras));
  if (rand() < 0.02) for (let i = 0; i < 3000; i++) lines.push(`X-Many-${i}: v`);
  let text = lines.join(eol) + eol + eol;
  if (/chunked/.test(text) || rand() < 0.1) text += pick(['5\r\nhello\r\n0\r\n\r\n', 'zz\r\n', 'ffffffffffffffff\r\n', '3\r\nab', 'hello']);
  // Sometimes two requests in one write (pipelined), sometimes bytes after the request.
  if (rand() < 0.1) text += `GET /state HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
  const how = pick(['close', 'close', 'close', 'half-close', 'half-close', 'reset', 'stall'] as const);
  // Cut short: the server sees half a request (and a client that stalls, or closes its side).
  if (rand() < 0.1) text = text.slice(0, Math.floor(rand() * text.length));
  const buffer = Buffer.from(text, 'latin1');
  const parts: Buffer[] = [];
  if (rand() < 0.2) {
    for (let i = 0; i < buffer.length; ) {
      const n = 1 + Math.floor(rand() * 64);
      parts.push(buffer.subarray(i, i + n));
      i += n;
    }
  } else parts.push(buffer);
  return { parts, how, label: `${JSON.stringify(method).slice(0, 20)} ${JSON.stringify(target).slice(0, 40)} (${how})` };
}

export interface FuzzFigures {
  seed: number;
  requests: number;
  /** Status codes seen, and connections closed with no answer. */
  statuses: Record<string, number>;
  internalErrors: number;
  dead: number;
  ms: number;
}

/** `count` generated requests, `concurrency` at a time, at a watch process; then whether it is alive and has said nothing of an internal error. */
export async function fuzzRequests(w: WatchProcess, seed: number, count: number, concurrency = 16): Promise<FuzzFigures> {
  const rand = seededRandom(seed);
  const statuses: Record<string, number> = {};
  const t0 = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const c = fuzzCase(rand, w.port);
      // A stalled connection is left to the server's timeouts for at most 1.5 s (the slow run holds some to the end of headersTimeout).
      const r = await rawRequest(w.port, c.parts, c.how === 'stall' ? 1500 : 12_000, c.how);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(r.text);
      const key = m ? m[1] : r.timedOut ? 'no answer (stalled)' : 'closed, no answer';
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const internalErrors = (w.stderr().match(/internal error/g) ?? []).length + (statuses['500'] ?? 0);
  const dead = w.child.exitCode === null ? 0 : 1;
  return { seed, requests: count, statuses, internalErrors, dead, ms: performance.now() - t0 };
}

/**
 * The descriptor-exhaustion case: `count` connections that each ask for
 * /events and stay open, `batch` at a time held; returns how many streams
 * the server gave (200) and how many connections it refused (503) or
 * dropped. All are closed at the end.
 */
export async function idleStreams(port: number, count: number, batch = 512): Promise<{ streams: number; refused: number; dropped: number; held: Socket[] }> {
  let streams = 0;
  let refused = 0;
  let dropped = 0;
  const held: Socket[] = [];
  for (let done = 0; done < count; ) {
    const n = Math.min(batch, count - done);
    await Promise.all(
      Array.from({ length: n }, () =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port });
          let answered = false;
          socket.on('error', () => undefined);
          socket.once('data', (d: Buffer) => {
            answered = true;
            const status = /^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1];
            if (status === '200') {
              streams++;
              held.push(socket);
            } else {
              refused++;
              socket.destroy();
            }
            resolve();
          });
          socket.on('close', () => {
            if (!answered) {
              dropped++;
              resolve();
            }
          });
          socket.on('connect', () => socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
        }),
      ),
    );
    done += n;
  }
  return { streams, refused, dropped, held };
}

/** Processes carrying the watch process's token (it and everything it started). */
export function processesOf(token: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`).includes(token)) found.push(`${pid} ${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`);
    } catch {
      // ended, or not ours to read
    }
  }
  return found;
}

/** Ends a watch process and everything it started, and removes its folder (each test file's after()). */
export function stopWatch(w: WatchProcess): void {
  for (const p of processesOf(w.token)) process.kill(Number(p.split(' ')[0]), 'SIGKILL');
  rmSync(path.dirname(w.dir), { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
