/**
 * The font stack read once per process while its files stay the same
 * (a watch session rebuilds many times; reading and splitting the Noto
 * collection costs ~150 ms each time), and each face's digest for cache keys.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FONT_STACK, loadSystemFonts, type FontSpec, type LoadedFont } from '../fonts/index.js';
import { readCheckedFile } from './sandbox.js';
import { tempName, trackTemp, untrackTemp } from './cleanup.js';

const loaded = new Map<string, Promise<LoadedFont[]>>();

/** Subsets by key: a rebuild of the same volume reuses them (same bytes, no conversion). DIAOBAN_FONT_CACHE puts it elsewhere. */
export const FONT_CACHE = process.env.DIAOBAN_FONT_CACHE
  ? resolve(process.env.DIAOBAN_FONT_CACHE)
  : join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.cache', 'fonts');

/** What a font file is, for keys: path, size and modification time (no reading of 20 MB). */
export function fileStamp(file: string): string {
  try {
    const s = statSync(file);
    return `${file}:${s.size}:${s.mtimeMs}`;
  } catch {
    return `${file}:missing`;
  }
}

/**
 * A font file's bytes. A file an edition names was checked in its sandbox
 * at load and stands here by its real path: it is read only if the open
 * descriptor is still that path (a folder swapped for a link since then is
 * refused). The stack's own files are the tool's, read as they are.
 */
function readFont(spec: FontSpec): Promise<Uint8Array> {
  return FONT_STACK.some((f) => f.file === spec.file) ? readFile(spec.file) : readCheckedFile(spec.file);
}

export function loadFontsOnce(specs: readonly FontSpec[]): Promise<LoadedFont[]> {
  const key = JSON.stringify(specs.map((s) => [s.family, s.face ?? '', fileStamp(s.file)]));
  let fonts = loaded.get(key);
  if (!fonts) {
    fonts = loadSystemFonts(specs, readFont);
    fonts.catch(() => loaded.delete(key));
    loaded.set(key, fonts);
  }
  return fonts;
}

const digests = new WeakMap<LoadedFont, string>();

/** Where a face's digest is kept, by its file's stamp (as cache keys know fonts) and its family: no process hashes 20–30 MB again. */
function digestFile(font: LoadedFont): string | undefined {
  if (!font.file) return undefined;
  return join(FONT_CACHE, 'digest-' + createHash('sha256').update(`${fileStamp(font.file)}\u0000${font.family}\u0000${font.bytes.byteLength}`).digest('hex'));
}

/** A face's SHA-256, once per loaded face (and per font file while its stamp stays). */
export function fontDigest(font: LoadedFont): string {
  let d = digests.get(font);
  if (!d) {
    const kept = digestFile(font);
    try {
      const known = kept ? readFileSync(kept, 'utf8') : '';
      if (/^[0-9a-f]{64}$/.test(known)) d = known;
    } catch {
      // not kept yet
    }
    if (!d) {
      d = createHash('sha256').update(font.bytes).digest('hex');
      if (kept) keepDigest(kept, d);
    }
    digests.set(font, d);
  }
  return d;
}

function keepDigest(file: string, digest: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Named as every temp of ours (its owner's tag), so that a killed build's is removed by the next (removeStale).
    const temp = tempName(file);
    trackTemp(temp);
    writeFileSync(temp, digest);
    renameSync(temp, file);
    untrackTemp(temp);
  } catch {
    // a read-only cache: the digest is worked out again next time
  }
}
