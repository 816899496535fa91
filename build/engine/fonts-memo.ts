/**
 * The font stack read once per process while its files stay the same
 * (a watch session rebuilds many times; reading and splitting the Noto
 * collection costs ~150 ms each time), and what the build asks of each face
 * besides its outlines (its facts: cmap, CFF or not, vertical origin,
 * digest) kept in the font cache by the file's stamp: a new process that
 * prints nothing new, or only from subsets already made, reads no font file
 * (20–30 MB each, 0.3 s of a rebuild's start). A stack face's bytes are read
 * when first asked for (a subset to make); an edition's own font file is
 * read at once, through its sandbox check.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KNOWN_FACES, faceFacts, loadSystemFonts, selectFace, type FaceFacts, type FontSpec, type LoadedFont } from '../fonts/index.js';
import { readCheckedFile } from './sandbox.js';
import { tempName, trackTemp, untrackTemp } from './cleanup.js';
import { hashKey, toolVersion } from './cache.js';

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
  return isStackFile(spec) ? readFile(spec.file) : readCheckedFile(spec.file);
}

const isStackFile = (spec: FontSpec): boolean => KNOWN_FACES.some((f) => f.file === spec.file);

export function loadFontsOnce(specs: readonly FontSpec[]): Promise<LoadedFont[]> {
  const key = JSON.stringify(specs.map((s) => [s.family, s.face ?? '', fileStamp(s.file)]));
  let fonts = loaded.get(key);
  if (!fonts) {
    fonts = Promise.all(specs.map(loadFace));
    fonts.catch(() => loaded.delete(key));
    loaded.set(key, fonts);
  }
  return fonts;
}

async function loadFace(spec: FontSpec): Promise<LoadedFont> {
  const kept = isStackFile(spec) ? readJsonFile(factsFile(spec), isFacts) : undefined;
  if (kept) return lazyFace(spec, kept);
  const [font] = await loadSystemFonts([spec], readFont);
  const facts = faceFacts(font.bytes);
  keepJson(factsFile(spec), facts);
  return { ...font, facts };
}

/** A stack face whose facts are known: its bytes read from its file when first asked for. */
function lazyFace(spec: FontSpec, facts: FaceFacts): LoadedFont {
  let bytes: Uint8Array | undefined;
  return {
    family: spec.family,
    file: spec.file,
    facts,
    get bytes(): Uint8Array {
      return (bytes ??= selectFace(readFileSync(spec.file), spec.face));
    },
  };
}

/** Where a face's facts are kept: by its file's stamp, family and face, and the tool that worked them out. */
function factsFile(spec: FontSpec): string {
  return join(FONT_CACHE, `facts-${hashKey('face-facts', toolVersion(), fileStamp(spec.file), spec.family, spec.face ?? '')}.json`);
}

function isFacts(v: unknown): v is FaceFacts {
  const f = v as FaceFacts;
  return (
    typeof f === 'object' && f !== null && typeof f.cff === 'boolean' && /^[0-9a-f]{64}$/.test(String(f.digest)) &&
    (f.verticalOrigin === undefined || typeof f.verticalOrigin === 'number') &&
    Array.isArray(f.ranges) && f.ranges.every((r) => Array.isArray(r) && r.length === 2 && Number.isInteger(r[0]) && Number.isInteger(r[1]))
  );
}

const facts = new WeakMap<LoadedFont, FaceFacts>();

/** A face's facts: kept by the loader, or worked out from its bytes once per face object. */
export function factsOf(font: LoadedFont): FaceFacts {
  if (font.facts) return font.facts;
  let f = facts.get(font);
  if (!f) facts.set(font, (f = faceFacts(font.bytes)));
  return f;
}

/** A face's SHA-256. */
export function fontDigest(font: LoadedFont): string {
  return factsOf(font).digest;
}

/**
 * A value worked out from the faces of a stack alone (the marks' ink), kept
 * in the font cache by their digests and the tool: a new process does not
 * read the fonts to learn it again.
 */
export function rememberedForFaces<T>(name: string, fonts: readonly LoadedFont[], valid: (v: unknown) => v is T, work: () => T): T {
  const file = join(FONT_CACHE, `${name}-${hashKey(name, toolVersion(), ...fonts.map(fontDigest))}.json`);
  const kept = readJsonFile(file, valid);
  if (kept !== undefined) return kept;
  const made = work();
  keepJson(file, made);
  return made;
}

function readJsonFile<T>(file: string, valid: (v: unknown) => v is T): T | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return valid(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function keepJson(file: string, value: unknown): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Named as every temp of ours (its owner's tag), so that a killed build's is removed by the next (removeStale).
    const temp = tempName(file);
    trackTemp(temp);
    writeFileSync(temp, JSON.stringify(value));
    renameSync(temp, file);
    untrackTemp(temp);
  } catch {
    // a read-only cache: worked out again next time
  }
}
