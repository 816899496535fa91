/**
 * The fonts a browser run prints with: every face of the stack subset to
 * the characters it draws in that run (a volume), served from the font cache
 * (.cache/fonts) by file: URL.
 *
 * A CFF face (Noto Serif CJK) becomes TrueType (scripts/cff2ttf.py; Chromium
 * would embed CFF as Type 3); a TrueType face (HanaMin) is only subset, so
 * that Chromium need not load and sanitize 20–40 MB per tab. Subsets per run,
 * not per book: a character new to the book changes the fonts of the volume
 * that has it and of no other, so the other volumes' printed pages stay
 * valid. The converter keeps a bank of converted glyphs per face, so a new
 * subset converts only glyphs it has not seen.
 *
 * A face whose run draws more characters than HarfBuzz can subset at once
 * is subset in parts (fonts/subset.ts subsetParts), each its own @font-face
 * after the one before in the stack.
 *
 * Files are named by a hash of face, characters, features and converter:
 * the same request finds the same file, written atomically by whoever made it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignCharacters, editionFonts, fontChooser, KEEP_FEATURES, subsetFace, subsetParts, truetypeSubsetKey, type LoadedFont } from '../fonts/index.js';
import type { FontSource } from '../render/pdf/index.js';
import { hashKey } from './cache.js';
import { makeTempDir, removeTemp, trackChild, untrackChild } from './cleanup.js';
import { writeFileAtomic } from './write.js';
import { FONT_CACHE, factsOf, fontDigest } from './fonts-memo.js';
import { fromCodePoints } from '../tree/append.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The CFF → TrueType converter (Python fontTools; scripts/setup.sh installs python3-fonttools). */
export const CFF2TTF = join(ROOT, 'scripts', 'cff2ttf.py');
/** Debian's Python, where python3-fonttools is installed (not a pyenv/venv one found first on PATH). */
const PYTHON = process.env.DIAOBAN_PYTHON ?? '/usr/bin/python3';
export { FONT_CACHE };

/** A failure of the font preparation that the user can act on. */
export class FontPrepError extends Error {
  override name = 'PdfError';
}

const faceDigest = fontDigest;

let converterBytes: Promise<Uint8Array> | undefined;
const converter = (): Promise<Uint8Array> => (converterBytes ??= readFile(CFF2TTF).then((b) => new Uint8Array(b)));

function converterError(stderr: string, message: string): FontPrepError {
  const missing = /No module named .fontTools|ENOENT/.test(`${stderr} ${message}`);
  return new FontPrepError(
    missing
      ? `converting the CFF font to TrueType needs Python fontTools; run: apt-get install python3-fonttools (or scripts/setup.sh)`
      : `converting the CFF font to TrueType failed: ${stderr.trim() || message}`,
  );
}

/**
 * A converter process per glyph bank, kept while this process lives: its
 * start (Python, fontTools, the bank) costs more than converting a volume's
 * new glyphs. It reads jobs a line at a time and exits the moment our end of
 * the pipe closes (even in the middle of a job: a killed build leaves no
 * converter behind); on a normal exit cleanup.ts kills it too.
 */
interface Converter {
  child: ChildProcessWithoutNullStreams;
  queue: Array<{ resolve: () => void; reject: (error: Error) => void }>;
  stdout: string;
  stderr: string;
}

const converters = new Map<string, Converter>();

function converterFor(bank: string): Converter {
  const known = converters.get(bank);
  if (known && known.child.exitCode === null && !known.child.killed) return known;
  const child = spawn(PYTHON, [CFF2TTF, '--serve', '--bank', bank], { stdio: ['pipe', 'pipe', 'pipe'] });
  const c: Converter = { child, queue: [], stdout: '', stderr: '' };
  if (child.pid !== undefined) trackChild(child.pid);
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    c.stdout += chunk;
    for (let nl = c.stdout.indexOf('\n'); nl >= 0; nl = c.stdout.indexOf('\n')) {
      const line = c.stdout.slice(0, nl);
      c.stdout = c.stdout.slice(nl + 1);
      const job = c.queue.shift();
      if (line === 'ok') job?.resolve();
      else job?.reject(converterError(c.stderr, line.replace(/^error: /, '')));
    }
    if (c.queue.length === 0) unref(c);
  });
  child.stderr.on('data', (chunk: string) => (c.stderr += chunk));
  const fail = (error: Error): void => {
    if (converters.get(bank) === c) converters.delete(bank);
    if (child.pid !== undefined) untrackChild(child.pid);
    for (const job of c.queue.splice(0)) job.reject(converterError(c.stderr, error.message));
  };
  child.on('error', fail);
  child.on('exit', (code) => fail(new Error(`the converter stopped (exit ${code})`)));
  converters.set(bank, c);
  return c;
}

/**
 * The glyph bank of a CFF face: its glyphs converted before, by whatever
 * build converted them. TrueType faces (only pinned, nothing to bank) share
 * one converter, under a bank that stays empty.
 */
function bankFile(font: LoadedFont, cacheDir: string): string {
  return join(cacheDir, factsOf(font).cff ? `bank-${faceDigest(font).slice(0, 32)}.pkl` : 'bank-truetype.pkl');
}

/**
 * Starts the converter of each face that was converted before (its bank is
 * there) ahead of its first job: Python and the bank load while the runs
 * are worked out, so a rebuild's new subset does not wait for them.
 */
export function warmConverters(fonts: readonly LoadedFont[], cacheDir: string = FONT_CACHE): void {
  for (const font of fonts) {
    const bank = bankFile(font, cacheDir);
    if (existsSync(bank)) unref(converterFor(bank));
  }
}

/** Lets this process end while the converter waits for work (it ends with our pipe). */
function unref(c: Converter): void {
  c.child.unref();
  for (const s of [c.child.stdin, c.child.stdout, c.child.stderr] as Array<{ unref?: () => void }>) s.unref?.();
}

function ref(c: Converter): void {
  c.child.ref();
  for (const s of [c.child.stdin, c.child.stdout, c.child.stderr] as Array<{ ref?: () => void }>) s.ref?.();
}

function convertWithBank(bank: string, pairs: ReadonlyArray<readonly [string, string]>): Promise<void> {
  const c = converterFor(bank);
  ref(c);
  return Promise.all(
    pairs.map(
      ([source, target]) =>
        new Promise<void>((resolve, reject) => {
          c.queue.push({ resolve, reject });
          c.child.stdin.write(`${source}\t${target}\n`);
        }),
    ),
  ).then(() => undefined);
}

interface Wanted {
  font: LoadedFont;
  text: string;
  file: string;
  /** Through scripts/cff2ttf.py: CFF converted to TrueType, or TrueType with its glyphs' vertical origins pinned. */
  convert: boolean;
}

const converterDigests = new WeakMap<Uint8Array, string>();
function converterDigest(conv: Uint8Array): string {
  let digest = converterDigests.get(conv);
  if (!digest) converterDigests.set(conv, (digest = hashKey('converter', conv)));
  return digest;
}

/** Each run text's sources and the subsets they name, by faces, converter, cache folder and text. */
const runSources = new Map<string, { sources: FontSource[]; subsets: Wanted[] }>();

function sourcesOf(
  fonts: readonly LoadedFont[],
  text: string,
  choose: (cp: number) => number,
  byName: readonly string[],
  conv: Uint8Array,
  cacheDir: string,
): { sources: FontSource[]; subsets: Wanted[] } {
  const parts = assignCharacters(fonts, text);
  // Spaces need no glyph to be read, but the 版心's spacing is drawn with them: the first font that has them gets them.
  for (const space of [' ', '\u3000']) {
    const i = text.includes(space) ? choose(space.codePointAt(0)!) : -1;
    if (i >= 0) parts[i] = fromCodePoints([...new Set([...parts[i], space])].map((c) => c.codePointAt(0)!).sort((a, b) => a - b));
  }
  const sources: FontSource[] = byName.map((name) => ({ local: name }));
  const subsets: Wanted[] = [];
  fonts.forEach((font, i) => {
    const { verticalOrigin } = factsOf(font);
    const convert = verticalOrigin !== undefined;
    // A face's characters in parts HarfBuzz can subset (subsetParts), each a face of the stack after the one before.
    for (const part of subsetParts(parts[i])) {
      const key = convert
        ? truetypeSubsetKey(Buffer.from(faceDigest(font), 'hex'), part, conv)
        : hashKey('truetype-subset', faceDigest(font), part, KEEP_FEATURES.join(','));
      const file = join(cacheDir, `${key}.ttf`);
      subsets.push({ font, text: part, file, convert });
      sources.push(convert ? { file, verticalOrigin } : { file });
    }
  });
  return { sources, subsets };
}

/**
 * The @font-face sources for each of `texts` (one per browser run): the
 * edition's fonts named without a file first (local()), then a subset of
 * every face that draws something in that text. Missing subsets are made
 * in one go: HarfBuzz subsets (subset-font), then one converter process for
 * all the CFF ones.
 */
export async function printFontSourcesFor(
  main: readonly string[] | undefined,
  fonts: readonly LoadedFont[],
  texts: readonly string[],
  cacheDir: string = FONT_CACHE,
): Promise<FontSource[][]> {
  const { specs, byName } = editionFonts(main);
  if (specs.length !== fonts.length) throw new Error('printFontSources: fonts must be loaded from the same specs');
  const conv = await converter();
  const wanted = new Map<string, Wanted>();
  const choose = fontChooser(fonts);
  const faces = fonts.map((f) => faceDigest(f)).join(',');
  const out = texts.map((text) => {
    // A run's text gives the same sources every build: worked out once a session (a rebuild has ~25 runs, one or two new).
    const memoKey = `${faces}\u0000${converterDigest(conv)}\u0000${cacheDir}\u0000${text}`;
    let known = runSources.get(memoKey);
    if (!known) {
      known = sourcesOf(fonts, text, choose, byName, conv, cacheDir);
      if (runSources.size > 4096) runSources.clear();
      runSources.set(memoKey, known);
    }
    for (const w of known.subsets) if (!wanted.has(w.file) && !existsSync(w.file)) wanted.set(w.file, w);
    return known.sources;
  });
  if (wanted.size > 0) await makeSubsets([...wanted.values()], cacheDir);
  return out;
}

/** The sources for one text (a browser run). */
export async function printFontSources(main: readonly string[] | undefined, fonts: readonly LoadedFont[], text: string, cacheDir: string = FONT_CACHE): Promise<FontSource[]> {
  return (await printFontSourcesFor(main, fonts, [text], cacheDir))[0];
}

async function makeSubsets(wanted: readonly Wanted[], cacheDir: string): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const work = await makeTempDir('fonts');
  try {
    const banks = new Map<string, Array<readonly [string, string]>>();
    for (const [i, w] of wanted.entries()) {
      const subset = await subsetFace(w.font, w.text).catch((error: Error) => {
        throw new FontPrepError(`font "${w.font.family}" (${w.font.file}): HarfBuzz could not subset it to ${Array.from(w.text).length} characters (${error.message}); try another font file`);
      });
      if (!w.convert) {
        // A face the converter leaves alone: its subset is the file, written atomically beside its name.
        await writeFileAtomic(w.file, subset);
        continue;
      }
      const otf = join(work, `${i}.otf`);
      await writeFile(otf, subset);
      const bank = bankFile(w.font, cacheDir);
      const list = banks.get(bank) ?? [];
      list.push([otf, join(work, `${i}.ttf`)]);
      banks.set(bank, list);
    }
    // One converter process per face (usually one: Noto), kept for the next build.
    for (const [bank, pairs] of banks) await convertWithBank(bank, pairs);
    for (const [i, w] of wanted.entries()) {
      if (!w.convert) continue;
      // Renamed into the cache: whole or absent, even if two builds make it at once.
      await rename(join(work, `${i}.ttf`), w.file).catch(async () => writeFileAtomic(w.file, await readFile(join(work, `${i}.ttf`))));
    }
  } finally {
    await removeTemp(work);
  }
}

