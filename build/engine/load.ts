/**
 * The I/O edge of parse + transform: reads an edition folder (or a lone source
 * file) into VFiles and runs the pure stages over them.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import type { VFileMessage } from 'vfile-message';
import type { EditionConfig, SourceFormat } from '../tree/edition.js';
import type { Root } from '../tree/types.js';
import { defaultEdition, parseCharmap, parseEdition, parseEditionYaml, type ParsedSource } from '../parse/index.js';
import { isFontPath, type EditionPath } from '../parse/edition.js';
import { fontEntryFile, fontProblem } from '../fonts/index.js';
import { createSandbox, openRegularFile, problemReason, problemRule, readCheckedFile, readEditionPath, readInSandbox, resolveEditionPath, systemFontDirs, type Read, type Sandbox } from './sandbox.js';
import { parseCorrections } from '../transform/corrections.js';
import { transformTree } from '../transform/index.js';
import type { LoadMemo } from './load-memo.js';
import { isPng, pngProblem, rasteriseSeal, sealPixels } from './seal-raster.js';
import { lengthToMm } from '../render/pdf/geometry.js';

export interface LoadedEdition {
  /** Null when edition.yaml is unusable; `messages` say why. */
  config: EditionConfig | null;
  /** The tree after transform (target script, layers, charmap, corrections). */
  tree: Root;
  /** The tree as parsed, in the source script: what the fidelity test compares with the sources. */
  parsed: Root;
  sources: ParsedSource[];
  files: VFile[];
  messages: VFileMessage[];
}

export interface LoadOptions {
  format?: SourceFormat;
  /** Skip the transform stage (script conversion …). */
  raw?: boolean;
  /** Folders outside the edition that its files may come from (--allow-read; the person running the build decides, never the edition). */
  allowRead?: readonly string[];
  /** Parse and transform remembered between loads of the same edition (load-memo.ts: rebuilds, watch). */
  memo?: LoadMemo;
  /** A collection's settings, for the keys edition.yaml leaves out (collection.yaml). */
  shared?: SharedSettings;
}

export { applyShared, type SharedSettings } from './shared.js';
import { applyShared, type SharedSettings } from './shared.js';

/** Bytes as a VFile with `shown` as its path (relative to the working folder, as messages show it). */
function vfileOf(bytes: Buffer, shown: string, asText: boolean): VFile {
  return new VFile({ path: shown, value: asText ? bytes.toString('utf8') : new Uint8Array(bytes) });
}

/** How messages name a file of the edition folder: relative to the working folder. */
function shownPath(dir: string, name: string): string {
  return path.relative(process.cwd(), path.resolve(dir, name)) || name;
}

/**
 * The largest file of each kind an edition may name: far above any real one
 * (a whole 注疏 is ~10 MB of text; a CJK font collection ~120 MB), far
 * below what Node can read in one piece (2 GiB).
 */
export const MAX_FILE_BYTES: Readonly<Record<EditionPath['key'], number>> = {
  sources: 256 << 20,
  charmap: 32 << 20,
  corrections: 32 << 20,
  'fonts.main': 512 << 20,
  seals: 4 << 20,
};

const maxFileBytes = (key: string): number => {
  const kind = isFontPath({ key }) ? 'fonts.main' : key;
  return Object.hasOwn(MAX_FILE_BYTES, kind) ? MAX_FILE_BYTES[kind as EditionPath['key']] : 256 << 20;
};

/** Why a file named in edition.yaml is too large to read, or null (fonts, read later by their checked path). */
async function tooLarge(file: string, ref: EditionPath): Promise<string | null> {
  const max = maxFileBytes(ref.key);
  const { size } = await stat(file);
  return size > max ? `"${ref.name}" is ${(size / 1048576).toFixed(0)} MiB; a file of ${ref.key} may have at most ${max / 1048576} MiB, so it is not read` : null;
}

function unreadable(name: string, error: unknown): string {
  return `"${name}" could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check that you may read it`;
}

function fatal(file: VFile, reason: string, ruleId: string): VFile {
  const message = file.message(reason, { ruleId, source: 'diaoban' });
  message.fatal = true;
  return file;
}

const EMPTY_ROOT = (config: EditionConfig): Root => ({ type: 'root', edition: config.meta, children: [] });

/**
 * The files edition.yaml names, each checked against the sandbox (messages
 * at its place in edition.yaml) and read; a font entry is rewritten to the
 * file it resolves to, or left out.
 */
async function readNamedFiles(
  dir: string,
  sandbox: Sandbox,
  yamlFile: VFile,
  config: EditionConfig,
  paths: readonly EditionPath[],
): Promise<{ sources: VFile[]; charmap?: VFile; corrections?: VFile }> {
  const tooLargeMessage = (reason: string, ref: EditionPath): void => {
    const message = yamlFile.message(reason, { place: ref.place, ruleId: 'file-too-large', source: 'diaoban' });
    message.fatal = true;
  };
  const read = async (ref: EditionPath, asText: boolean): Promise<VFile | undefined> => {
    try {
      const read = await readEditionPath(sandbox, ref, yamlFile, [], maxFileBytes(ref.key));
      return read ? vfileOf(read.bytes, shownPath(dir, ref.name), asText) : undefined;
    } catch (error) {
      const message = yamlFile.message(unreadable(ref.name, error), { place: ref.place, ruleId: 'file-unreadable', source: 'diaoban' });
      message.fatal = true;
      return undefined;
    }
  };
  const sources: VFile[] = [];
  let charmap: VFile | undefined;
  let corrections: VFile | undefined;
  // Each role's font files as resolved (null: left out), in the order edition.yaml names them.
  const fonts = new Map<string, Array<string | null>>();
  const fontRoots = systemFontDirs();
  let seal = 0;
  for (const ref of paths) {
    if (ref.key === 'sources') {
      const file = await read(ref, false);
      if (file) sources.push(file);
    } else if (ref.key === 'charmap') charmap = await read(ref, true);
    else if (ref.key === 'corrections') corrections = await read(ref, true);
    else if (isFontPath(ref)) {
      const role = ref.key.slice('fonts.'.length);
      const resolved = fonts.get(role) ?? [];
      fonts.set(role, resolved);
      const real = await resolveEditionPath(sandbox, ref, yamlFile, fontRoots);
      const large = real ? await tooLarge(real, ref).catch(() => null) : null;
      if (large) tooLargeMessage(large, ref);
      const problem = real === null || large ? undefined : await fontFileProblem(real, fontFace(config.fonts[role], resolved.length));
      if (problem) {
        const message = yamlFile.message(`font "${ref.name}" ${problem}; it is left out (the default fonts draw its characters)`, { place: ref.place, ruleId: 'font-file', source: 'diaoban' });
        message.fatal = true;
      }
      resolved.push(large || problem ? null : real);
    }
    else if (ref.key === 'seals') {
      // Seals are in edition.yaml's order, one path each: the image's bytes go with its entry.
      const entry = config.seals?.[seal++];
      const file = await read(ref, false);
      if (!entry || !file) continue;
      const data = await sealImage(new Uint8Array(file.value as Uint8Array), entry.size);
      if (typeof data === 'string') {
        const message = yamlFile.message(`seal "${ref.name}" ${data}; the seal is left out`, { place: ref.place, ruleId: 'seal-image', source: 'diaoban' });
        message.fatal = true;
      } else {
        if (data.warning) yamlFile.message(`seal "${ref.name}" ${data.warning}`, { place: ref.place, ruleId: 'seal-image', source: 'diaoban' });
        entry.data = { bytes: data.bytes, type: data.type };
      }
    }
  }
  // Each role's faces in order: each file entry (one EditionPath each, in the same order) becomes its resolved file.
  for (const [role, entries] of Object.entries(config.fonts)) {
    let next = 0;
    config.fonts[role] = entries?.flatMap((entry) => {
      const font = fontEntryFile(entry);
      if (!font) return [entry];
      const real = fonts.get(role)?.[next++];
      return real ? [font.face ? `${real}#${font.face}` : real] : [];
    });
  }
  return { sources, charmap, corrections };
}

/** The face (`#Family`) of the `index`th file entry of a role's faces. */
function fontFace(entries: readonly string[] | undefined, index: number): string | undefined {
  return entries?.map(fontEntryFile).filter((f) => f !== undefined)[index]?.face;
}

/** Checks of font files, by path, size and time (a watch session rebuilds many times). */
const fontChecks = new Map<string, Promise<string | undefined>>();

/**
 * Why a font file named in edition.yaml cannot be used, or undefined: its
 * bytes are checked as a font (fonts/sfnt.ts fontProblem) before anything
 * else parses them. Its size was checked first (tooLarge, MAX_FILE_BYTES).
 */
async function fontFileProblem(file: string, face: string | undefined): Promise<string | undefined> {
  let stamp: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) return 'is not a file';
    stamp = `${file}#${face ?? ''}:${info.size}:${info.mtimeMs}`;
  } catch (error) {
    return `could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  let check = fontChecks.get(stamp);
  if (!check) {
    check = readCheckedFile(file).then(
      (bytes) => fontProblem(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), face),
      (error: NodeJS.ErrnoException) => `could not be read (${error.code ?? error.message})`,
    );
    if (fontChecks.size > 64) fontChecks.clear();
    fontChecks.set(stamp, check);
  }
  return check;
}

/** Seal images above this size are refused: a seal is a small picture. */
const SEAL_MAX_BYTES = 4 << 20;

/**
 * A seal's bytes as a PNG the PDF can draw, or why not: a PNG (by content,
 * not name) with its header and data checked, or an SVG rasterised by resvg
 * under a time limit at the seal's printed size (seal-raster.ts).
 */
export async function sealImage(bytes: Uint8Array, size: string): Promise<{ bytes: Uint8Array; type: 'png'; warning?: string } | string> {
  if (bytes.byteLength > SEAL_MAX_BYTES) return `is ${(bytes.byteLength / 1048576).toFixed(1)} MiB; a seal image must be under 4 MiB`;
  if (isPng(bytes)) return pngProblem(bytes) ?? { bytes, type: 'png' };
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  // An SVG: XML declaration, comments and a doctype allowed before the <svg> root.
  if (!/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'is neither a PNG nor an SVG image (the seal must be one of them)';
  let width: number;
  try {
    width = sealPixels(lengthToMm(size));
  } catch {
    width = sealPixels(20);
  }
  const made = await rasteriseSeal(bytes, width);
  if (typeof made === 'string') return made;
  const problem = pngProblem(made.png);
  if (problem) return `could not be drawn (resvg's image ${problem})`;
  const warning = made.imagesLeftOut ? 'draws images, which are left out (an SVG seal is drawn from its shapes and text; give a raster seal as a PNG)' : undefined;
  return { bytes: made.png, type: 'png', ...(warning ? { warning } : {}) };
}

export async function loadEdition(target: string, options: LoadOptions = {}): Promise<LoadedEdition> {
  const info = await stat(target);
  const files: VFile[] = [];
  const id = info.isDirectory() ? path.basename(path.resolve(target)) : path.basename(target).replace(/\.[^.]+$/, '');
  const fallback = defaultEdition(id, []);
  const unusable = (): LoadedEdition => ({ config: null, tree: EMPTY_ROOT(fallback), parsed: EMPTY_ROOT(fallback), sources: [], files, messages: files.flatMap((f) => f.messages) });
  let config: EditionConfig | null;
  let sourceFiles: VFile[];
  let corrections = undefined;
  if (info.isDirectory()) {
    const sandbox = await createSandbox(target, options.allowRead);
    const yamlShown = shownPath(target, 'edition.yaml');
    let yamlRead: Read;
    try {
      yamlRead = await readInSandbox(sandbox, 'edition.yaml');
    } catch (error) {
      files.push(fatal(new VFile({ path: yamlShown }), unreadable('edition.yaml', error), 'file-unreadable'));
      return unusable();
    }
    if (!yamlRead.ok) {
      const reason =
        yamlRead.problem === 'missing'
          ? `${target} has no edition.yaml; an edition folder needs one (title, author and the sources to read: see manuscript/README.md), or name a source file to read it alone`
          : problemReason(yamlRead, 'the edition file', 'edition.yaml', sandbox);
      files.push(fatal(new VFile({ path: yamlShown }), reason, problemRule(yamlRead.problem)));
      return unusable();
    }
    const yamlFile = vfileOf(yamlRead.bytes, yamlShown, true);
    files.push(yamlFile);
    const result = parseEditionYaml(yamlFile, id);
    config = result.config;
    if (!config) return unusable();
    const named = await readNamedFiles(target, sandbox, yamlFile, config, result.paths);
    applyShared(config, String(yamlFile.value), options.shared);
    sourceFiles = named.sources;
    if (named.charmap) {
      files.push(named.charmap);
      config.charmap = parseCharmap(named.charmap);
    }
    if (named.corrections) {
      files.push(named.corrections);
      corrections = parseCorrections(named.corrections);
    }
  } else {
    // A lone file: the person named it; there is no edition to keep inside.
    config = defaultEdition(id, [path.basename(target)]);
    // It takes its title from its text or metadata (parseEdition), never from its name.
    config.meta.title = '';
    const shown = path.relative(process.cwd(), target) || path.basename(target);
    const opened = await openRegularFile(target);
    if (!opened.ok) {
      files.push(fatal(new VFile({ path: shown }), `${shown} is not a regular file (a device, a pipe or a socket); name a text file`, 'file-kind'));
      return unusable();
    }
    try {
      sourceFiles = [vfileOf(await opened.handle.readFile(), shown, false)];
    } finally {
      await opened.handle.close();
    }
  }
  const { tree: parsed, sources } = (options.memo ?? { parseEdition }).parseEdition(config, sourceFiles, options.format);
  files.push(...sourceFiles);
  const tree = options.raw ? parsed : await (options.memo ?? { transformTree }).transformTree(parsed, config, { corrections, files: sourceFiles });
  return { config, tree, parsed, sources, files, messages: files.flatMap((f) => f.messages) };
}
