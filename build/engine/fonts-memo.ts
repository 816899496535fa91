/**
 * The font stack read once per process while its files stay the same
 * (a watch session rebuilds many times; reading and splitting the Noto
 * collection costs ~150 ms each time), and each face's digest for cache keys.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { FONT_STACK, loadSystemFonts, type FontSpec, type LoadedFont } from '../fonts/index.js';
import { readCheckedFile } from './sandbox.js';

const loaded = new Map<string, Promise<LoadedFont[]>>();

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

/** A face's SHA-256, once per loaded face. */
export function fontDigest(font: LoadedFont): string {
  let d = digests.get(font);
  if (!d) {
    d = createHash('sha256').update(font.bytes).digest('hex');
    digests.set(font, d);
  }
  return d;
}
