/**
 * The EPUB's zip, written with Node's zlib instead of jszip's JavaScript
 * deflate (pako): several times faster, and each entry's compressed bytes
 * are remembered by its content, so a rebuild after a correction deflates
 * only the volume that changed (and the package documents). Deterministic:
 * fixed dates, entries in the given order, `mimetype` first and stored.
 */
import { createHash } from 'node:crypto';
import { crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Absent for a folder. */
  data?: Uint8Array;
  /** Stored rather than deflated (`mimetype`). */
  store?: boolean;
}

const compressed = new Map<string, Uint8Array>();
const MEMORY_BYTES = 16 << 20;
let remembered = 0;

/** Compressed bytes kept between builds (the engine's build cache), by the SHA-256 of what they compress. */
export interface DeflatedStore {
  get(kind: 'epub-deflated', key: string): Promise<Uint8Array | undefined>;
  put(kind: 'epub-deflated', key: string, bytes: Uint8Array): Promise<void>;
}

function deflateKey(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Compressed bytes remembered by the SHA-256 of what they compress (all let go once past MEMORY_BYTES). */
function rememberDeflated(key: string, out: Uint8Array): void {
  if (remembered > MEMORY_BYTES) {
    compressed.clear();
    remembered = 0;
  }
  compressed.set(key, out);
  remembered += out.byteLength;
}

function deflate(data: Uint8Array, key: string, made?: Map<string, Uint8Array>): Uint8Array {
  let out = compressed.get(key);
  if (!out) {
    out = new Uint8Array(deflateRawSync(data, { level: 9 }));
    made?.set(key, out);
    rememberDeflated(key, out);
  }
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of the zip format (zlib's where Node has it, 20.15 and later). */
export function crc32(data: Uint8Array): number {
  if (typeof zlibCrc32 === 'function') return zlibCrc32(data) >>> 0;
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function dosDateTime(date: Date): { time: number; day: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/**
 * writeZip with the compressed bytes of earlier builds: those `store` has
 * are not deflated again (a new process rebuilding after a correction
 * deflates its volume's documents only), and those made are put there.
 */
export async function writeZipWithStore(entries: readonly ZipEntry[], date: Date, store: DeflatedStore): Promise<Uint8Array> {
  const keys = entries.map((e) => (e.data && !e.store ? deflateKey(e.data) : undefined));
  await Promise.all(
    keys.map(async (key) => {
      if (!key || compressed.has(key)) return;
      const bytes = await store.get('epub-deflated', key);
      if (bytes) rememberDeflated(key, bytes);
    }),
  );
  const made = new Map<string, Uint8Array>();
  const zip = writeZip(entries, date, { keys, made });
  await Promise.all([...made].map(([key, bytes]) => store.put('epub-deflated', key, bytes)));
  return zip;
}

/** A zip archive of `entries`, every entry dated `date`. */
export function writeZip(
  entries: readonly ZipEntry[],
  date: Date,
  known: { keys?: ReadonlyArray<string | undefined>; made?: Map<string, Uint8Array> } = {},
): Uint8Array {
  const { time, day } = dosDateTime(date);
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [i, entry] of entries.entries()) {
    const name = Buffer.from(entry.name, 'utf8');
    const folder = entry.data === undefined;
    const data = entry.data ?? new Uint8Array(0);
    const body = folder || entry.store ? data : deflate(data, known.keys?.[i] ?? deflateKey(data), known.made);
    const method = folder || entry.store ? 0 : 8;
    const crc = folder ? 0 : crc32(data);
    const flags = /[^\x20-\x7e]/.test(entry.name) ? 0x0800 : 0;
    // The fields a local header and its central directory entry share, from `at`: version needed … name length.
    const shared = (b: Buffer, at: number): void => {
      b.writeUInt16LE(20, at);
      b.writeUInt16LE(flags, at + 2);
      b.writeUInt16LE(method, at + 4);
      b.writeUInt16LE(time, at + 6);
      b.writeUInt16LE(day, at + 8);
      b.writeUInt32LE(crc, at + 10);
      b.writeUInt32LE(body.byteLength, at + 14);
      b.writeUInt32LE(data.byteLength, at + 18);
      b.writeUInt16LE(name.byteLength, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    locals.push(local, name, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    shared(dir, 6);
    dir.writeUInt32LE(folder ? 0x10 : 0, 38);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += 30 + name.byteLength + body.byteLength;
  }
  const size = central.reduce((n, b) => n + b.byteLength, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  const out = Buffer.concat([...locals, ...central, end]);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
