/**
 * The queue's fuzz (queue-fuzz.slow.ts): job data that anyone able to write
 * to the Redis could write (random values, the audit's fields, hostile
 * paths), a server on loopback that answers the Redis protocol with
 * anything (garbage, 2 GB replies, silence, random values of every type),
 * and the reading of a worker's strace: every path it touched, and which it
 * wrote. Seeded: a failure is replayed by its seed.
 */
import { createServer, type Server, type Socket } from 'node:net';

/** A small seeded generator (mulberry32). */
export function random(seed: number): { next: () => number; int: (n: number) => number; pick: <T>(list: readonly T[]) => T } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)]! };
}

type Random = ReturnType<typeof random>;

/** A random JSON value, `depth` deep at most; strings of any code point, keys that JavaScript treats specially among them. */
export function randomValue(r: Random, depth = 3): unknown {
  const kind = r.int(depth > 0 ? 9 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.next() < 0.5;
    case 2:
      return r.pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER + 2, r.int(1e9)]);
    case 3:
      return Array.from({ length: r.int(12) }, () => String.fromCodePoint(r.pick([0, 0x2f, 0x2e, 0x5c, 0x3a, 0x202e, 0xfeff, 0x4e00 + r.int(2000), 0x10ffff, 0x41 + r.int(26)]))).join('');
    case 4:
      return r.pick(['..', '.', '/', '', '../..', '/etc/passwd', '~', '%2e%2e', 'a//b', 'a/./b', '\\..\\..', 'CON', 'ed01/', '/ed01', 'x'.repeat(5000)]);
    case 5:
      return 'y'.repeat(r.int(3) === 0 ? 200_000 : 20);
    case 6:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth - 1));
    default: {
      const out: Record<string, unknown> = {};
      // Own keys, __proto__ too (as JSON from Redis would have it).
      for (let i = r.int(5); i > 0; i--) Object.defineProperty(out, r.pick(['collection', 'edition', 'digest', 'version', 'targets', 'options', '__proto__', 'constructor', 'pdf', 'epub', 'allowRead', 'cacheDir', 'shared', 'dir', 'name']), { value: randomValue(r, depth - 1), enumerable: true, configurable: true, writable: true });
      return out;
    }
  }
}

/**
 * One job's data: a valid one for `editions` (its version right or wrong),
 * the audit's old-format jobs naming `outside`, a job of valid form naming a
 * hostile place, or a random value. `latest` is told the version a valid job
 * should be built at.
 */
export function fuzzJob(r: Random, outside: string, editions: readonly string[], latest: (edition: string, version: number) => void): unknown {
  const digest = Array.from({ length: 64 }, () => '0123456789abcdef'[r.int(16)]).join('');
  const targets = r.pick([{ pdf: false, epub: true }, { pdf: false, epub: true }, { pdf: true, epub: false }, { pdf: true, epub: true }]);
  const kind = r.int(10);
  if (kind === 0) {
    const edition = r.pick(editions);
    const version = 1 + r.int(1000);
    if (r.next() < 0.7) latest(edition, version);
    return { collection: 'coll', edition, digest, version, targets };
  }
  if (kind <= 2) {
    // The audit's jobs: the options a job used to carry, naming what is outside.
    return {
      edition: { dir: r.pick([`${outside}`, `${outside}/edition`, '/']), name: r.pick(['evil', '../evil', 'ed01']) },
      digest,
      options: { targets, allowRead: [r.pick(['/', outside])], cacheDir: `${outside}/cache`, shared: { template: r.pick(['../../../outside', outside]), fonts: { main: [`${outside}/secret.ttf`] } } },
    };
  }
  if (kind <= 5) {
    const hostile = [
      '..',
      '../outside',
      `${outside}`,
      `${outside}/edition`,
      'link-out',
      'coll/../../outside',
      'coll/link-out',
      'coll\u0000/ed01',
      'coll/ed01/../../../outside',
      '.',
      'coll/',
      '//coll',
      'coll/ed01/edition.yaml',
      'ｃｏｌｌ',
      'coll/\u202eed01',
      '%2e%2e/outside',
    ];
    return { collection: r.pick(['coll', '.', ...hostile]), edition: r.pick([...editions, ...hostile]), digest: r.next() < 0.8 ? digest : randomValue(r), version: r.next() < 0.8 ? 1 + r.int(1000) : randomValue(r), targets: r.next() < 0.8 ? targets : randomValue(r) };
  }
  return randomValue(r);
}

/** What a fake server does with the commands it gets, after the handshake (or from the first byte). */
export const REPLY_KINDS = ['garbage', 'huge-bulk', 'huge-array', 'long-line', 'silent', 'close', 'ok-to-all', 'errors', 'deep', 'random-resp', 'drip'] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

function randomResp(r: Random, depth = 3): string {
  const kind = r.int(depth > 0 ? 10 : 7);
  switch (kind) {
    case 0:
      return `+${r.pick(['OK', 'PONG', 'QUEUED', '', '1'])}\r\n`;
    case 1:
      return `-${r.pick(['ERR nope', 'NOSCRIPT No matching script', 'WRONGTYPE Operation against a key holding the wrong kind of value', 'LOADING', 'MOVED 1 127.0.0.1:1'])}\r\n`;
    case 2:
      return `:${r.pick([0, 1, -1, 2 ** 53, r.int(1e6)])}\r\n`;
    case 3:
      return '$-1\r\n';
    case 4: {
      const s = r.pick(['', '{}', '{"collection":"coll","edition":"ed01"}', 'null', '[]', '\u0000\u0001', '1', 'wait', 'x'.repeat(r.int(3000))]);
      return `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
    }
    case 5:
      return r.pick(['_\r\n', '#t\r\n', ',3.14\r\n', '(12345678901234567890\r\n', '*-1\r\n', '*0\r\n']);
    case 6:
      return `=${7}\r\ntxt:abc\r\n`;
    default: {
      const n = r.int(5);
      const items = Array.from({ length: n }, () => randomResp(r, depth - 1)).join('');
      return `${r.pick(['*', '*', '~', '>'])}${n}\r\n${items}`;
    }
  }
}

/** The RESP commands in what a client sent (arrays of bulk strings); the rest kept for the next chunk. */
function commands(buffer: string): { names: string[]; rest: string } {
  const names: string[] = [];
  let i = 0;
  while (i < buffer.length) {
    const m = /^\*(\d+)\r\n/.exec(buffer.slice(i));
    if (!m) break;
    let j = i + m[0].length;
    const args: string[] = [];
    let whole = true;
    for (let k = 0; k < Number(m[1]); k++) {
      const b = /^\$(\d+)\r\n/.exec(buffer.slice(j));
      if (!b || j + b[0].length + Number(b[1]) + 2 > buffer.length) {
        whole = false;
        break;
      }
      args.push(buffer.slice(j + b[0].length, j + b[0].length + Number(b[1])));
      j += b[0].length + Number(b[1]) + 2;
    }
    if (!whole) break;
    names.push((args[0] ?? '').toUpperCase() + (args[0]?.toUpperCase() === 'CLIENT' ? ` ${args[1] ?? ''}` : ''));
    i = j;
  }
  return { names, rest: buffer.slice(i) };
}

const INFO = '# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\nloading:0\r\nmaxmemory_policy:noeviction\r\n';

/**
 * A server on loopback that speaks to a Redis client as `kind` says: after
 * a proper handshake (HELLO refused, so RESP2; INFO a Redis 7's) when
 * `handshake`, else from the first byte. Says how many bytes it sent.
 */
export async function fakeRedis(kind: ReplyKind, handshake: boolean, seed: number): Promise<{ url: string; close: () => Promise<void>; sent: () => number }> {
  const r = random(seed);
  let sent = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let timers: NodeJS.Timeout[] = [];
    socket.on('close', () => timers.forEach(clearInterval));
    const write = (text: string | Buffer): void => {
      if (socket.destroyed) return;
      sent += text.length;
      socket.write(text);
    };
    const hostile = (): void => {
      switch (kind) {
        case 'garbage':
          write(Buffer.from(Array.from({ length: 1 + r.int(2000) }, () => r.int(256))));
          break;
        case 'huge-bulk': {
          // Says 2 GB, then sends zeros as fast as the client takes them.
          write('$2000000000\r\n');
          const zeros = Buffer.alloc(1 << 20);
          const pump = (): void => {
            while (!socket.destroyed && socket.write(zeros)) sent += zeros.length;
          };
          socket.on('drain', pump);
          pump();
          break;
        }
        case 'huge-array':
          write('*100000000\r\n' + ':1\r\n'.repeat(10_000));
          break;
        case 'long-line':
          write('+' + 'a'.repeat(4 << 20));
          break;
        case 'silent':
          break;
        case 'close':
          socket.destroy();
          break;
        case 'ok-to-all':
          write('+OK\r\n');
          break;
        case 'errors':
          write(`-ERR ${'no '.repeat(r.int(5))}\r\n`);
          break;
        case 'deep':
          write('*1\r\n'.repeat(100_000) + ':1\r\n');
          break;
        case 'random-resp':
          write(randomResp(r));
          break;
        case 'drip': {
          const reply = randomResp(r);
          let k = 0;
          const t = setInterval(() => {
            if (k >= reply.length || socket.destroyed) return clearInterval(t);
            write(reply[k++]!);
          }, 200);
          timers.push(t);
          break;
        }
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      const { names, rest } = commands(buffer);
      buffer = rest;
      for (const name of names) {
        if (handshake && name === 'HELLO') write("-ERR unknown command 'HELLO'\r\n");
        else if (handshake && name.startsWith('CLIENT')) write('+OK\r\n');
        else if (handshake && name === 'INFO') write(`$${INFO.length}\r\n${INFO}\r\n`);
        else if (handshake && (name === 'SELECT' || name === 'PING')) write(name === 'PING' ? '+PONG\r\n' : '+OK\r\n');
        else hostile();
      }
    });
    timers = [];
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    sent: () => sent,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A syscall of strace's output: the paths it named, and whether it may have written. */
export interface Touched {
  syscall: string;
  paths: string[];
  writes: boolean;
}

const WRITING = /^(rename|renameat2?|unlink|unlinkat|rmdir|mkdir|mkdirat|link|linkat|symlink|symlinkat|chmod|fchmodat|chown|fchownat|lchown|truncate|utimensat|mknod|mknodat|creat)$/;

/**
 * Every file syscall in an strace log (`strace -f -y -s 4096`): its name,
 * the paths it names (a path relative to a directory descriptor joined to
 * that directory, which -y prints; one relative to the working folder
 * joined to `cwd`), whether it writes.
 */
export function touchedPaths(log: string, cwd: string): Touched[] {
  const out: Touched[] = [];
  const unquote = (q: string): string => q.replace(/\\x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\(\d{1,3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))).replace(/\\(.)/g, '$1');
  for (const line of log.split('\n')) {
    const m = /^(?:\[pid\s+)?\d+\]?\s+([a-z0-9_]+)\((.*)$/.exec(line);
    if (!m) continue;
    const [, syscall, rest] = m as unknown as [string, string, string];
    const paths: string[] = [];
    // Each path argument, with the directory descriptor before it if any: `3</dir>, "name"` or `AT_FDCWD</cwd>, "name"` or `"name"`.
    for (const a of rest.matchAll(/(?:(?:AT_FDCWD|\d+)(?:<([^>]*)>)?,\s*)?"((?:[^"\\]|\\.)*)"/g)) {
      const name = unquote(a[2]!);
      paths.push(name.startsWith('/') ? name : `${a[1] ? unquote(a[1]) : cwd}/${name}`);
    }
    if (paths.length === 0) continue;
    const opens = /^(open|openat|openat2)$/.test(syscall) && /O_(WRONLY|RDWR|CREAT|TRUNC|APPEND)/.test(rest);
    out.push({ syscall, paths, writes: opens || WRITING.test(syscall) });
  }
  return out;
}
