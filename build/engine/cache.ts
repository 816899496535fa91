/**
 * The build cache: a content-addressed store under .cache/build/ (git-ignored).
 * An entry is named by a hash of everything its content depends on, so it is
 * never stale: a change makes a new name. What is kept: a volume's layout,
 * its printed PDF pages, the EPUB's parts, and each edition's manifest.
 *
 * Safe against a build killed at any moment: an entry is written to a temp
 * file in the store's tmp/ and renamed into place, so it is whole or absent;
 * every entry carries its length and a SHA-256 of its payload, and one that
 * does not match (truncated, damaged) is deleted and rebuilt, never used.
 * Temp files are named by their owner (cleanup.ts: pid and start time),
 * removed on any exit this process sees, and those of dead processes when
 * the store is opened.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { copyFile, link, mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWNER, OWNER_TAG, ownerAlive, removeTemp, trackOwnedFolder, trackTemp, untrackTemp } from './cleanup.js';
import { killPoint } from './kill-point.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** .cache/build in the checkout; DIAOBAN_CACHE puts it elsewhere. */
export const DEFAULT_CACHE_DIR = process.env.DIAOBAN_CACHE ? resolve(process.env.DIAOBAN_CACHE) : join(ROOT, '.cache', 'build');

const MAGIC = 'diaoban-cache 1';

/** A key: SHA-256 over the parts, each length-prefixed so that no two inputs run together. */
export function hashKey(...parts: ReadonlyArray<string | Uint8Array>): string {
  const h = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
    h.update(`${bytes.byteLength}:`);
    h.update(bytes);
  }
  return h.digest('hex');
}

function encode(payload: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(payload).digest('hex');
  const header = Buffer.from(`${MAGIC} ${payload.byteLength} ${digest}\n`, 'latin1');
  return Buffer.concat([header, payload]);
}

/** The payload of an entry, or null when it is not whole. */
export function decodeEntry(bytes: Uint8Array): Uint8Array | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buf.indexOf(0x0a);
  if (end < 0 || end > 200) return null;
  const m = /^diaoban-cache 1 (\d+) ([0-9a-f]{64})$/.exec(buf.subarray(0, end).toString('latin1'));
  if (!m) return null;
  const payload = buf.subarray(end + 1);
  if (payload.byteLength !== Number(m[1])) return null;
  if (createHash('sha256').update(payload).digest('hex') !== m[2]) return null;
  return payload;
}

export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries found damaged and removed. */
  corrupt: number;
}

/** An entry's payload as JSON; undefined when there is none or it is not JSON. */
function parseJson<T>(bytes: Uint8Array | undefined): T | undefined {
  if (!bytes) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

export class BuildCache {
  readonly stats: CacheStats = { hits: 0, misses: 0, corrupt: 0 };
  private readonly tmp: string;
  /** Entries read or written lately, checked once, kept in memory (a watch session reads the same runs again). */
  private readonly recent = new Map<string, Uint8Array>();
  private recentBytes = 0;
  private static readonly RECENT_MAX = 16 << 20;
  /** Bytes this process wrote into the store since prune last looked (for its estimate of the store's size). */
  private added = 0;
  /** The store held nothing when this instance opened it. */
  private readonly emptyAtOpen: boolean;

  constructor(readonly dir: string = DEFAULT_CACHE_DIR) {
    this.tmp = join(dir, 'tmp');
    mkdirSync(this.tmp, { recursive: true });
    // A store that holds nothing but its tmp/ is empty: prune knows its size without scanning it.
    this.emptyAtOpen = readdirSync(dir).length === 1;
    trackOwnedFolder(this.tmp);
    this.removeStaleTemps();
  }

  /** Temp files are named <owner>.<random>.tmp: those of processes that are gone are left over from a killed build. */
  private removeStaleTemps(): void {
    for (const name of readdirSync(this.tmp)) {
      const owner = new RegExp(`^(${OWNER_TAG})\\.`).exec(name)?.[1];
      if (owner === undefined || (owner !== OWNER && !ownerAlive(owner))) rmSync(join(this.tmp, name), { force: true });
    }
  }

  /** A temp file in the store's tmp/, removed on exit unless renamed into place first. */
  private tempFile(): string {
    const temp = join(this.tmp, `${OWNER}.${randomBytes(6).toString('hex')}.tmp`);
    trackTemp(temp);
    return temp;
  }

  path(kind: string, key: string): string {
    return join(this.dir, kind, key.slice(0, 2), key);
  }

  private remember(kind: string, key: string, payload: Uint8Array): void {
    const id = `${kind}/${key}`;
    // A key written again (a manifest) has new content: the old is forgotten in any case.
    const old = this.recent.get(id);
    if (old) {
      this.recent.delete(id);
      this.recentBytes -= old.byteLength;
    }
    if (payload.byteLength > BuildCache.RECENT_MAX / 8) return;
    this.recent.set(id, payload);
    this.recentBytes += payload.byteLength;
    // Oldest first out.
    for (const [k, v] of this.recent) {
      if (this.recentBytes <= BuildCache.RECENT_MAX) break;
      this.recent.delete(k);
      this.recentBytes -= v.byteLength;
    }
  }

  /** What was read or written whole lately is still whole (and its key says what it is). */
  private known(kind: string, key: string): Uint8Array | undefined {
    const known = this.recent.get(`${kind}/${key}`);
    if (known) this.stats.hits++;
    return known;
  }

  /** An entry's bytes as read (undefined: no file): its payload when whole, counted and remembered. */
  private accept(kind: string, key: string, bytes: Uint8Array | undefined): Uint8Array | undefined {
    const payload = bytes && decodeEntry(bytes);
    if (!payload) {
      if (bytes) this.stats.corrupt++;
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.remember(kind, key, payload);
    return payload;
  }

  /** The entry's payload; undefined when absent or damaged (then removed). Recently used entries survive pruning (touched). */
  async get(kind: string, key: string): Promise<Uint8Array | undefined> {
    const known = this.known(kind, key);
    if (known) return known;
    const file = this.path(kind, key);
    const bytes = await readFile(file).catch(() => undefined);
    const payload = this.accept(kind, key, bytes);
    if (bytes && !payload) await rm(file, { force: true });
    if (payload) await utimes(file, new Date(), new Date()).catch(() => undefined);
    return payload;
  }

  async put(kind: string, key: string, payload: Uint8Array): Promise<void> {
    const file = this.path(kind, key);
    const temp = this.tempFile();
    try {
      await mkdir(dirname(file), { recursive: true });
      const encoded = encode(payload);
      await writeFile(temp, encoded);
      this.added += encoded.byteLength;
      killPoint(`cache-temp-${kind}`);
      await rename(temp, file);
      untrackTemp(temp);
      this.remember(kind, key, payload);
    } catch (error) {
      await removeTemp(temp);
      throw error;
    }
  }

  /**
   * get, read at once: for a caller that cannot wait (the load memo's parse,
   * called back from a synchronous stage).
   */
  getSync(kind: string, key: string): Uint8Array | undefined {
    const known = this.known(kind, key);
    if (known) return known;
    const file = this.path(kind, key);
    let bytes: Uint8Array | undefined;
    try {
      bytes = readFileSync(file);
    } catch {
      bytes = undefined;
    }
    const payload = this.accept(kind, key, bytes);
    try {
      if (bytes && !payload) rmSync(file, { force: true });
      if (payload) utimesSync(file, new Date(), new Date());
    } catch {
      // pruned meanwhile: the payload read is whole all the same
    }
    return payload;
  }

  /** put, written at once (temp + rename, as put). */
  putSync(kind: string, key: string, payload: Uint8Array): void {
    const file = this.path(kind, key);
    const temp = this.tempFile();
    try {
      mkdirSync(dirname(file), { recursive: true });
      const encoded = encode(payload);
      writeFileSync(temp, encoded);
      this.added += encoded.byteLength;
      renameSync(temp, file);
      untrackTemp(temp);
      this.remember(kind, key, payload);
    } catch (error) {
      rmSync(temp, { force: true });
      untrackTemp(temp);
      throw error;
    }
  }

  /** Whether an entry is there (not whether it is whole: get says that). */
  async has(kind: string, key: string): Promise<boolean> {
    return stat(this.path(kind, key)).then(
      () => true,
      () => false,
    );
  }

  /**
   * A file kept as it is under its own SHA-256 (an output, for diff --html):
   * hard-linked into the store when it can be (no copy of megabytes), else copied.
   */
  async keepFile(kind: string, file: string, sha256: string): Promise<void> {
    const target = this.path(kind, sha256);
    if (await this.has(kind, sha256)) return;
    await mkdir(dirname(target), { recursive: true });
    const temp = this.tempFile();
    try {
      await link(file, temp).catch(() => copyFile(file, temp));
      await rename(temp, target);
    } finally {
      await removeTemp(temp);
    }
  }

  /** A file kept by keepFile, when it is there and still has the content its name says. */
  async getFile(kind: string, sha256: string): Promise<Uint8Array | undefined> {
    const bytes = await readFile(this.path(kind, sha256)).catch(() => undefined);
    if (!bytes) return undefined;
    if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
      this.stats.corrupt++;
      await rm(this.path(kind, sha256), { force: true });
      return undefined;
    }
    return bytes;
  }

  async getJson<T>(kind: string, key: string): Promise<T | undefined> {
    return parseJson<T>(await this.get(kind, key));
  }

  putJson(kind: string, key: string, value: unknown): Promise<void> {
    return this.put(kind, key, Buffer.from(JSON.stringify(value), 'utf8'));
  }

  /** getJson, read at once (getSync). */
  getJsonSync<T>(kind: string, key: string): T | undefined {
    return parseJson<T>(this.getSync(kind, key));
  }

  /** putJson, written at once (putSync). */
  putJsonSync(kind: string, key: string, value: unknown): void {
    this.putSync(kind, key, Buffer.from(JSON.stringify(value), 'utf8'));
  }

  /** The cached value, or computes, stores and returns it. */
  async memo(kind: string, key: string, compute: () => Promise<Uint8Array>): Promise<{ bytes: Uint8Array; cached: boolean }> {
    const hit = await this.get(kind, key);
    if (hit) return { bytes: hit, cached: true };
    const bytes = await compute();
    await this.put(kind, key, bytes);
    return { bytes, cached: false };
  }

  /**
   * Keeps the store under `maxBytes`: the least recently used entries go
   * first (every hit touches its entry). Manifests are kept.
   *
   * Scanning the store costs a stat an entry (30–150 ms, a tenth of a new
   * process's rebuild): the size the last scan found is kept (usage.json),
   * with what was written since added to it, and the store is scanned only
   * when that could be near the limit, or the last scan is an hour old (the
   * estimate misses what other processes wrote at the same moment, and
   * entries written again over themselves count twice: it is a bound, not a size).
   */
  async prune(maxBytes: number, keepKinds: readonly string[] = ['manifest']): Promise<number> {
    const usageFile = join(this.dir, 'usage.json');
    const usage = await readFile(usageFile, 'utf8').then(
      (t) => JSON.parse(t) as { bytes: number; time: number },
      () => (this.emptyAtOpen ? { bytes: 0, time: Date.now() } : undefined),
    );
    const added = this.added;
    this.added = 0;
    if (usage && Number.isFinite(usage.bytes) && Date.now() - usage.time < 3_600_000 && usage.bytes + added <= maxBytes * 0.9) {
      if (added > 0) await this.writeUsage(usageFile, usage.bytes + added, usage.time);
      return 0;
    }
    const entries: Array<{ file: string; size: number; time: number }> = [];
    let total = 0;
    for (const kind of await readdir(this.dir).catch(() => [] as string[])) {
      if (kind === 'tmp' || keepKinds.includes(kind)) continue;
      for (const shard of await readdir(join(this.dir, kind)).catch(() => [] as string[])) {
        for (const name of await readdir(join(this.dir, kind, shard)).catch(() => [] as string[])) {
          const file = join(this.dir, kind, shard, name);
          const s = await stat(file).catch(() => null);
          if (!s) continue;
          entries.push({ file, size: s.size, time: s.mtimeMs });
          total += s.size;
        }
      }
    }
    if (total <= maxBytes) {
      await this.writeUsage(usageFile, total, Date.now());
      return 0;
    }
    entries.sort((a, b) => a.time - b.time);
    let removed = 0;
    for (const e of entries) {
      if (total <= maxBytes * 0.8) break;
      await rm(e.file, { force: true });
      total -= e.size;
      removed++;
    }
    await this.writeUsage(usageFile, total, Date.now());
    return removed;
  }

  private async writeUsage(file: string, bytes: number, time: number): Promise<void> {
    const temp = this.tempFile();
    try {
      await writeFile(temp, JSON.stringify({ bytes, time }));
      await rename(temp, file);
      untrackTemp(temp);
    } catch {
      // a read-only store: scanned again next time
      await removeTemp(temp);
    }
  }
}

/** Small values of a book's volumes by their keys, read from one cache entry and written back whole when one was added. */
export interface KeptTable<T> {
  get(key: string): T | undefined;
  /** Adds a value (returned). */
  set(key: string, value: T): T;
  /** Writes the table with these keys only (the book's volumes now), if a value was added or one is no longer wanted. */
  keep(keys: readonly string[]): void;
}

/**
 * A table of small per-volume values in one entry of `cache` (none: a table
 * in memory only): a work in a thousand 卷 is not a thousand files.
 */
export function keptTable<T>(cache: BuildCache | undefined, kind: string, key: string): KeptTable<T> {
  const kept = new Map(Object.entries(cache?.getJsonSync<Record<string, T>>(kind, key) ?? {}));
  let added = false;
  return {
    get: (k) => kept.get(k),
    set(k, value) {
      kept.set(k, value);
      added = true;
      return value;
    },
    keep(keys) {
      if (!added && keys.length === kept.size && keys.every((k) => kept.has(k))) return;
      cache?.putJsonSync(kind, key, Object.fromEntries(keys.filter((k) => kept.has(k)).map((k) => [k, kept.get(k)])));
    },
  };
}

let version: string | undefined;

/**
 * The tool's version for cache keys: package.json and its lock, and every
 * source file the outputs depend on (build/, templates/, styles/, scripts/),
 * so that changed code never reuses what older code made.
 */
export function toolVersion(root: string = ROOT): string {
  if (version && root === ROOT) return version;
  const files: string[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (!/\.test(-util)?\.ts$|\.png$|\.md$/.test(name)) files.push(full);
    }
  };
  for (const dir of ['build', 'templates', 'styles', 'scripts']) walk(join(root, dir));
  const parts: Array<string | Uint8Array> = [];
  for (const file of [join(root, 'package.json'), join(root, 'package-lock.json'), ...files]) {
    parts.push(file.slice(root.length));
    try {
      parts.push(readFileSync(file));
    } catch {
      parts.push('');
    }
  }
  const v = hashKey(...parts);
  if (root === ROOT) version = v;
  return v;
}
