/**
 * A redis-server of a test's own (Debian's, as the project installs it), on
 * a loopback port nobody else has, with nothing saved to disk.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { until } from './until.test-util.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Whether a Redis answers at `url` now. */
export async function redisAlive(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Starts redis-server on `port` (a free one by default) and waits until it
 * answers. `dir`: its folder, where an explicit SAVE writes dump.rdb and
 * whence a restart loads it (a Redis restored from an older snapshot).
 */
export async function startRedis(port?: number, dir?: string): Promise<{ url: string; port: number; server: ChildProcess }> {
  const p = port ?? (await freePort());
  const url = `redis://127.0.0.1:${p}`;
  const server = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(dir ? ['--dir', dir, '--dbfilename', 'dump.rdb'] : [])], { stdio: 'ignore' });
  await until('redis-server', () => redisAlive(url), { ms: 30_000, every: 100 });
  return { url, port: p, server };
}
