/**
 * A connection to a Redis the tool does not trust to be Redis: whatever
 * answers at the URL may send a reply of 2 GB, bytes that are no reply, or
 * nothing at all. ioredis has time limits (commandTimeout, connectTimeout)
 * but no size limit, so each connection's bytes are also read by a small
 * RESP scanner (sizes and framing only, not values) beside ioredis's
 * decoder: a reply larger than REPLY_LIMITS, nested too deep, or not RESP
 * at all closes the connection at once (ioredis has buffered one chunk of
 * it at most), and the reason is kept for the message. `RedisReplyError`
 * is how the queue's commands say that the server is at fault, not the
 * tool: the command line prints it and exits 1.
 */
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';

/** What a reply may be at most: far above anything the queue stores (a job is a few hundred bytes, a failure's messages some KB). */
export const REPLY_LIMITS = {
  /** Bytes of one bulk string. */
  bulk: 64 << 20,
  /** Bytes of one line (a simple string, an error, a number, a length). */
  line: 1 << 20,
  /** Elements of one array, set or map. */
  elements: 1 << 22,
  /** Arrays inside arrays. */
  depth: 32,
};

/** How long a command may wait for its reply (ms); a worker's blocking reads wait 10 s at most (BullMQ), far less. */
export function commandTimeoutMs(): number {
  const n = Number(process.env.DIAOBAN_REDIS_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : 30_000;
}

/** The server at the URL answered with something that is not a Redis reply the queue can use. */
export class RedisReplyError extends Error {
  constructor(readonly url: string, reason: string) {
    super(`Redis at ${url} ${reason}`);
    this.name = 'RedisReplyError';
  }
}

const LINE_TYPES = new Set('+-:_#,('.split('').map((c) => c.charCodeAt(0)));
const BULK_TYPES = new Set('$!='.split('').map((c) => c.charCodeAt(0)));
const AGGREGATE_TYPES = new Set('*~%>'.split('').map((c) => c.charCodeAt(0)));
const PUSH = 0x3e;
const CR = 13;
const LF = 10;

/**
 * Reads RESP (2 and 3) framing as it arrives and says what is wrong with it,
 * if anything: an unknown type byte, a length that is no number, a reply
 * past REPLY_LIMITS. Values are not kept: a bulk string's bytes are counted
 * and skipped.
 */
export class RespScanner {
  private type = 0;
  private line: number[] = [];
  private lineLength = 0;
  private last = 0;
  /** Bytes of a bulk string (and its CRLF) still to skip. */
  private skip = 0;
  /** Elements each open aggregate still waits for. */
  private open: number[] = [];

  /** Reads `chunk`; the first problem found, or undefined. */
  feed(chunk: Uint8Array): string | undefined {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        if (this.skip === 0) this.valueDone();
        continue;
      }
      const byte = chunk[i++]!;
      if (this.type === 0) {
        if (!LINE_TYPES.has(byte) && !BULK_TYPES.has(byte) && !AGGREGATE_TYPES.has(byte)) return `sent a byte that begins no reply (0x${byte.toString(16).padStart(2, '0')}): it does not speak the Redis protocol`;
        // ioredis reads a push (>) only as a reply of its own, never inside another: its reader would be left broken.
        if (byte === PUSH && this.open.length > 0) return 'sent a push inside a list: it does not speak the Redis protocol';
        this.type = byte;
        this.lineLength = 0;
        this.line = [];
        this.last = 0;
        continue;
      }
      if (++this.lineLength > REPLY_LIMITS.line) return `sent a line of more than ${REPLY_LIMITS.line} bytes`;
      if (byte !== LF) {
        // A length or count line is short: only its first bytes are kept.
        if (this.line.length < 24) this.line.push(byte);
        this.last = byte;
        continue;
      }
      if (this.last !== CR) return 'sent a line that does not end in CRLF: it does not speak the Redis protocol';
      const problem = this.lineDone(String.fromCharCode(...this.line).replace(/\r$/, ''));
      if (problem) return problem;
    }
    return undefined;
  }

  private lineDone(text: string): string | undefined {
    const type = this.type;
    this.type = 0;
    if (LINE_TYPES.has(type)) {
      this.valueDone();
      return undefined;
    }
    if (!/^-?\d{1,19}$/.test(text)) return `sent a length that is not a number (${JSON.stringify(text)})`;
    const n = Number(text);
    if (n < -1) return `sent a negative length (${n})`;
    if (BULK_TYPES.has(type)) {
      if (n > REPLY_LIMITS.bulk) return `sent a reply of ${n} bytes; more than ${REPLY_LIMITS.bulk / 1048576} MiB is not what the queue stores`;
      if (n === -1) this.valueDone();
      else this.skip = n + 2;
      return undefined;
    }
    const elements = type === 0x25 ? 2 * n : n; // a map: keys and values
    if (elements > REPLY_LIMITS.elements) return `sent a list of ${n} elements; more than ${REPLY_LIMITS.elements} is not what the queue stores`;
    if (elements <= 0) {
      this.valueDone();
      return undefined;
    }
    if (this.open.length >= REPLY_LIMITS.depth) return `sent lists nested more than ${REPLY_LIMITS.depth} deep`;
    this.open.push(elements);
    return undefined;
  }

  /** A whole value was read: its aggregate has one fewer to wait for, and ends when none is left. */
  private valueDone(): void {
    while (this.open.length > 0) {
      const left = this.open[this.open.length - 1]! - 1;
      if (left > 0) {
        this.open[this.open.length - 1] = left;
        return;
      }
      this.open.pop();
    }
  }
}

interface Connector {
  connect(emitter: unknown): Promise<Socket>;
}
// ioredis exports no StandaloneConnector: the guard wraps its own, from its file.
const { default: StandaloneConnector } = createRequire(import.meta.url)('ioredis/built/connectors/StandaloneConnector.js') as { default: new (options: unknown) => Connector };

/** What went wrong with a URL's replies, last (shared by every connection to it: BullMQ duplicates the one it is given). */
export interface ReplyGuard {
  url: string;
  problem?: string;
  /** Told of the first problem (a worker stops: a server that sends what no Redis does is not one to wait for). */
  onProblem?: (error: RedisReplyError) => void;
}

function guardedConnector(guard: ReplyGuard): new (options: unknown) => Connector {
  return class GuardedConnector extends StandaloneConnector {
    override async connect(emitter: unknown): Promise<Socket> {
      const stream = await super.connect(emitter);
      const scanner = new RespScanner();
      let failed = false;
      stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        const problem = scanner.feed(chunk);
        if (!problem) return;
        failed = true;
        const first = guard.problem === undefined;
        guard.problem = problem;
        const error = new RedisReplyError(guard.url, problem);
        stream.destroy(error);
        if (first) guard.onProblem?.(error);
      });
      return stream;
    }
  };
}

/**
 * A connection for BullMQ (which wants a client made here under ESM) from a
 * redis:// URL, its replies bounded in size (RespScanner) and time
 * (commandTimeout). A worker's retries its commands until the worker gives
 * up (--wait-redis) and reconnects (ioredis); a command's gives up soon.
 */
export function connection(url: string, worker = false): { client: Redis; guard: ReplyGuard } {
  const u = new URL(url);
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error(`${url}: give a redis:// URL`);
  const guard: ReplyGuard = { url: `${u.protocol}//${u.host}` };
  const options: RedisOptions = {
    Connector: guardedConnector(guard) as unknown as RedisOptions['Connector'],
    commandTimeout: commandTimeoutMs(),
    connectTimeout: Math.min(10_000, commandTimeoutMs()),
    ...(worker ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, retryStrategy: (times: number) => (times > 3 ? null : 200 * times) }),
  };
  const client = new Redis(url, options);
  // Connection errors reach the commands (and the worker's 'error' event); unheard, ioredis would print each one.
  client.on('error', () => undefined);
  return { client, guard };
}

/** What a client throws when it cannot reach the server, or the server went away: the user's to start or name (the command line says so). */
export const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EPIPE|ECONNABORTED|socket hang up|Stream isn't writeable|NOAUTH|WRONGPASS|max retries|offline queue|Connection is closed/i;

/**
 * Runs `talk` (commands to the Redis behind `guard`) and turns what a bad
 * server makes the clients throw into a RedisReplyError: a reply the guard
 * refused, ioredis's protocol errors, a time-out, a reply of the wrong shape
 * (BullMQ reading what is not its data). Unreachable servers keep their own
 * errors (the command line tells them apart).
 */
export async function fromRedis<T>(guard: ReplyGuard, talk: () => Promise<T>): Promise<T> {
  try {
    return await talk();
  } catch (error) {
    if (error instanceof RedisReplyError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (guard.problem) throw new RedisReplyError(guard.url, guard.problem);
    if (UNREACHABLE.test(message)) throw error;
    if (/timed out|timeout/i.test(message)) throw new RedisReplyError(guard.url, `did not answer within ${commandTimeoutMs() / 1000} s (${message.split('\n')[0]})`);
    if (error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError || /protocol|reply|unexpected/i.test(message) || (error as { name?: string }).name === 'ReplyError') {
      throw new RedisReplyError(guard.url, `answered in a way the queue cannot use (${message.split('\n')[0].slice(0, 200)}); is it a Redis, and the queue's?`);
    }
    throw error;
  }
}
