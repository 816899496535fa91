/**
 * The I/O edge of parse + transform: reads an edition folder (or a lone source
 * file) into VFiles and runs the pure stages over them.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import type { VFileMessage } from 'vfile-message';
import type { EditionConfig, SourceFormat } from '../tree/edition.js';
import type { Root, Text } from '../tree/types.js';
import { visit } from 'unist-util-visit';
import { readingOfText } from './text-defaults.js';
import { decodeSource } from '../parse/decode.js';
import { defaultEdition, parseCharmap, parseEdition, parseEditionYaml, parseSource, workTitle, type ParsedSource } from '../parse/index.js';
import { prepareWitness, type Witness } from '../transform/witness.js';
import type { TreeConversionOptions } from '../transform/script.js';
import { listWork } from './work-folder.js';
import { isFontPath, type EditionPath } from '../parse/edition.js';
import { fontEntryFile, fontProblem } from '../fonts/index.js';
import { createSandbox, openRegularFile, problemReason, problemRule, readCheckedFile, readEditionPath, readInSandbox, resolveEditionPath, systemFontDirs, type Read, type Sandbox } from './sandbox.js';
import { parseCorrections } from '../transform/corrections.js';
import { createHash } from 'node:crypto';
import { collateEdition, type CollatedEdition, type Collation, type WitnessSource } from '../collate/index.js';
import { readWitnesses } from './witnesses.js';
import { transformTree } from '../transform/index.js';
import type { LoadMemo } from './load-memo.js';
import { isPng, pngProblem, rasteriseSeal, sealBudget, sealPixels, type SealBudget } from './seal-raster.js';
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
  /** The collation with the witnesses (`witnesses:`), when the edition names any that could be read. */
  collation?: Collation;
  /** What the script conversion reads besides the text (a witness: `conversion: { witness: FILE }`), for `check --script`. */
  conversion?: TreeConversionOptions;
  /** What edition.yaml left out (or, for a lone file or a work's folder, had no edition.yaml to say) and the text gave. */
  fromText: ReadonlyArray<TakenFromText>;
}

export type TakenFromText = 'title' | 'author' | 'dynasty' | 'witness';

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
  'conversion.witness': 256 << 20,
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

/** The script conversion's witness: the files parsed as sources, their text in reading order (their messages are not the edition's). */
function witnessOf(files: readonly VFile[]): Witness {
  let text = '';
  for (const file of files) {
    const parsed = parseSource(new VFile({ path: file.path, value: file.value }), path.basename(file.path ?? 'witness'));
    for (const volume of parsed.volumes) visit(volume, 'text', (t: Text) => void (text += t.value));
  }
  return prepareWitness(text);
}

/** The first traditional witness of `witnesses:` (its script as given, else the edition's), when a simplified source is set in traditional. */
function conversionWitness(config: EditionConfig, witnesses: readonly WitnessSource[]): Witness | undefined {
  const from = config.meta.sourceScript ?? config.meta.script;
  if (from !== 'simplified' || config.meta.script !== 'traditional') return undefined;
  const traditional = witnesses.find((w) => (w.script ?? 'traditional') === 'traditional');
  return traditional ? witnessOf(traditional.files) : undefined;
}

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
): Promise<{ sources: VFile[]; charmap?: VFile; corrections?: VFile; witness?: VFile }> {
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
  let witness: VFile | undefined;
  // Each role's font files as resolved (null: left out), in the order edition.yaml names them.
  const fonts: ResolvedFonts = new Map();
  const fontRoots = systemFontDirs();
  let seal = 0;
  // The seals' time, shared: slow seals one after another cannot hold a build for minutes.
  const seals = sealBudget();
  for (const ref of paths) {
    if (ref.key === 'sources') {
      const file = await read(ref, false);
      if (file) sources.push(file);
    } else if (ref.key === 'charmap') charmap = await read(ref, true);
    else if (ref.key === 'corrections') corrections = await read(ref, true);
    else if (ref.key === 'conversion.witness') witness = await read(ref, false);
    else if (isFontPath(ref)) await checkFontRef(fonts, sandbox, ref, yamlFile, config.fonts, fontRoots);
    else if (ref.key === 'seals') {
      // Seals are in edition.yaml's order, one path each: the image's bytes go with its entry.
      const entry = config.seals?.[seal++];
      const file = await read(ref, false);
      if (!entry || !file) continue;
      const data = await sealImage(new Uint8Array(file.value as Uint8Array), entry.size, seals);
      if (typeof data === 'string') {
        const message = yamlFile.message(`seal "${ref.name}" ${data}; the seal is left out`, { place: ref.place, ruleId: 'seal-image', source: 'diaoban' });
        message.fatal = true;
      } else {
        if (data.warning) yamlFile.message(`seal "${ref.name}" ${data.warning}`, { place: ref.place, ruleId: 'seal-image', source: 'diaoban' });
        entry.data = { bytes: data.bytes, type: data.type };
      }
    }
  }
  config.fonts = withResolvedFonts(config.fonts, fonts);
  return { sources, charmap, corrections, witness };
}

/** Font files as checked, by role (`fonts.<role>`), each role's in the order they are named (null: left out). */
export type ResolvedFonts = Map<string, Array<string | null>>;

/** Checks the font file named at `ref` (checkFontPath) and adds its real path, or null, to its role's list. */
export async function checkFontRef(resolved: ResolvedFonts, sandbox: Sandbox, ref: EditionPath, yamlFile: VFile, fonts: EditionConfig['fonts'], fontRoots = systemFontDirs()): Promise<void> {
  const role = ref.key.slice('fonts.'.length);
  const list = resolved.get(role) ?? [];
  resolved.set(role, list);
  list.push(await checkFontPath(sandbox, ref, yamlFile, fontFace(fonts[role], list.length), fontRoots));
}

/** Each role's faces in order: each file entry (one EditionPath each, in the same order) becomes its checked real path, or is left out; a family name stays. */
export function withResolvedFonts(fonts: EditionConfig['fonts'], resolved: ResolvedFonts): EditionConfig['fonts'] {
  const out: EditionConfig['fonts'] = {};
  for (const [role, entries] of Object.entries(fonts)) {
    let next = 0;
    out[role] = entries?.flatMap((entry) => {
      const font = fontEntryFile(entry);
      if (!font) return [entry];
      const real = resolved.get(role)?.[next++];
      return real ? [font.face ? `${real}#${font.face}` : real] : [];
    });
  }
  return out;
}

/**
 * A font file named at `ref` (edition.yaml's fonts.<role>, or collection.yaml's):
 * inside the sandbox or the system's font folders, a regular file (a FIFO or
 * device is a message at its place), not too large, and a font (fontProblem);
 * its real path, or null with the message on `yamlFile`.
 */
export async function checkFontPath(sandbox: Sandbox, ref: EditionPath, yamlFile: VFile, face: string | undefined, fontRoots = systemFontDirs()): Promise<string | null> {
  const real = await resolveEditionPath(sandbox, ref, yamlFile, fontRoots);
  if (real === null) return null;
  const large = await tooLarge(real, ref).catch(() => null);
  if (large) {
    const message = yamlFile.message(large, { place: ref.place, ruleId: 'file-too-large', source: 'diaoban' });
    message.fatal = true;
    return null;
  }
  const problem = await fontFileProblem(real, face);
  if (!problem) return real;
  const message = yamlFile.message(`font "${ref.name}" ${problem}; it is left out (the default fonts draw its characters)`, { place: ref.place, ruleId: 'font-file', source: 'diaoban' });
  message.fatal = true;
  return null;
}

/** The face (`#Family`) of the `index`th file entry of a role's faces. */
export function fontFace(entries: readonly string[] | undefined, index: number): string | undefined {
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
export async function sealImage(bytes: Uint8Array, size: string, budget: SealBudget = sealBudget()): Promise<{ bytes: Uint8Array; type: 'png'; warning?: string } | string> {
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
  const made = await rasteriseSeal(bytes, width, budget);
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
  const unusable = (): LoadedEdition => ({ config: null, tree: EMPTY_ROOT(fallback), parsed: EMPTY_ROOT(fallback), sources: [], files, messages: files.flatMap((f) => f.messages), fromText: [] });
  let config: EditionConfig | null;
  let sourceFiles: VFile[];
  let corrections = undefined;
  let witnessRead: (() => Promise<WitnessSource[]>) | undefined;
  let witness: Witness | undefined;
  // No edition.yaml (a lone file, a whole work's folder): its script and template are read from its text, as init would.
  let noYaml = false;
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
    // No edition.yaml: a folder of a work's files (a Kanripo repository) is read as that work, as a lone file is.
    const work = !yamlRead.ok && yamlRead.problem === 'missing' ? await readWork(target, sandbox, id) : null;
    if (work) {
      files.push(work.folder);
      config = work.config;
      sourceFiles = work.sources;
      noYaml = true;
    } else if (!yamlRead.ok) {
      const reason =
        yamlRead.problem === 'missing'
          ? `${target} has no edition.yaml and no source files (.txt, .md) to read as a whole work; an edition folder needs one (title, author and the sources to read: see manuscript/README.md), or name a source file to read it alone`
          : problemReason(yamlRead, 'the edition file', 'edition.yaml', sandbox);
      files.push(fatal(new VFile({ path: yamlShown }), reason, problemRule(yamlRead.problem)));
      return unusable();
    } else {
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
      const witnesses = config.witnesses;
      if (witnesses?.length) {
        let read: Promise<WitnessSource[]> | undefined;
        witnessRead = () =>
          (read ??= readWitnesses(sandbox, witnesses, yamlFile, (name) => shownPath(target, name)).then((ws) =>
            ws.map((w) => ({ siglum: w.witness.siglum, ...(w.witness.script ? { script: w.witness.script } : {}), files: w.files })),
          ));
      }
      if (named.witness) witness = witnessOf([named.witness]);
    }
  } else {
    // A lone file: the person named it; there is no edition to keep inside.
    config = defaultEdition(id, [path.basename(target)]);
    // It takes its title from its text or metadata (parseEdition), never from its name.
    config.meta.title = '';
    noYaml = true;
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
  if (noYaml) config = withTextDefaults(config, sourceFiles);
  const { tree: parsed, sources } = (options.memo ?? { parseEdition }).parseEdition(config, sourceFiles, options.format);
  files.push(...sourceFiles);
  // What the text gave is the edition's, for every stage after (the PDF's and the EPUB's title, the catalogue).
  const fromText = TAKEN.filter((key) => !config.meta[key] && parsed.edition[key]);
  if (fromText.length > 0) {
    config.meta = { ...config.meta, ...Object.fromEntries(fromText.map((key) => [key, parsed.edition[key]])) };
    if (info.isDirectory()) sayTaken(files[0]!, config.meta, fromText, sources);
  }
  // A witness of the collation helps the conversion where conversion: { witness } names none (issue 32).
  if (!witness && witnessRead && !options.raw) witness = conversionWitness(config, await witnessRead());
  let tree = options.raw ? parsed : await (options.memo ?? { transformTree }).transformTree(parsed, config, { corrections, files: sourceFiles, witness });
  // What the text gave, in the edition's script (a simplified source's 明宫史 is 明宮史 on every page, as in its text).
  if (!options.raw && fromText.length > 0) config.meta = { ...config.meta, ...Object.fromEntries(fromText.map((key) => [key, tree.edition[key] ?? config.meta[key]])) };
  let collation: Collation | undefined;
  if (witnessRead && !options.raw) {
    const collated = collateMemo(tree, config, await witnessRead(), sources);
    if (collated) ({ tree, collation } = collated);
  }
  return { config, tree, parsed, sources, files, messages: files.flatMap((f) => f.messages), ...(collation ? { collation } : {}), ...(witness ? { conversion: { witness } } : {}), fromText };
}

/**
 * The collation of a tree, remembered by the tree (a rebuild's unchanged
 * edition is the same tree: load-memo.ts) and what the witnesses and the
 * options are: aligning a large work takes seconds.
 */
const collations = new WeakMap<Root, { key: string; result: CollatedEdition | undefined }>();
function collateMemo(tree: Root, config: EditionConfig, witnesses: WitnessSource[], sources: ParsedSource[]): CollatedEdition | undefined {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([config.variants ?? null, config.meta.script, config.meta.sourceScript ?? null, config.conversion ?? null]));
  for (const w of witnesses) {
    hash.update(`\0${w.siglum}\0${w.script ?? ''}`);
    for (const f of w.files) hash.update(`\0${f.path}\0`).update(f.value as Uint8Array);
  }
  const key = hash.digest('hex');
  const known = collations.get(tree);
  if (known?.key === key) return known.result;
  const result = collateEdition(tree, config, witnesses, sources);
  collations.set(tree, { key, result });
  return result;
}

const TAKEN: readonly TakenFromText[] = ['title', 'author', 'dynasty', 'witness'];

/**
 * The message that says what the edition took from its text because
 * edition.yaml (or the folder, having none) did not say it: where, and how
 * to choose otherwise; a warning when the text gave no title or no author.
 */
function sayTaken(file: VFile, meta: EditionConfig['meta'], taken: readonly TakenFromText[], sources: readonly ParsedSource[]): void {
  const found = workTitle(sources);
  const at = (f?: string, line?: number): string => (f ? ` (${path.basename(f)}${line ? `:${line}` : ''})` : '');
  const parts: string[] = [];
  if (taken.includes('title')) parts.push(`title ${meta.title}${found ? `, from its ${found.from}${at(found.file, found.line)}` : ''}`);
  if (taken.includes('author')) parts.push(`author ${[meta.dynasty, meta.author].filter(Boolean).join(' ')}, from the byline${at(found?.bylineFile ?? found?.file, found?.bylineFile ? found.bylineLine : undefined)}`);
  if (taken.includes('witness')) parts.push(`witness ${meta.witness} (BASEEDITION)`);
  const yaml = file.basename === 'edition.yaml';
  const write = yaml ? 'write them in edition.yaml to choose otherwise' : `diaoban init ${file.path} writes them into an edition.yaml, to keep or correct`;
  file.message(`taken from the text, as ${yaml ? 'edition.yaml has none' : 'there is no edition.yaml'}: ${parts.join('; ')}; ${write}`, { ruleId: 'from-text', source: 'diaoban' }).fatal = undefined;
  const missing = [...(meta.title && meta.title !== '無題' ? [] : ['title']), ...(meta.author ? [] : ['author'])];
  if (missing.length > 0) {
    const add = missing.map((k) => `"${k}: …"`).join(' and ');
    file.message(`the text names no ${missing.join(' and no ')}: add ${add} to ${yaml ? 'edition.yaml' : `the edition.yaml diaoban init ${file.path} writes`}`, { ruleId: 'from-text', source: 'diaoban' }).fatal = false;
  }
}

/**
 * An edition with no edition.yaml set as init would set it: a simplified
 * text converted into traditional characters, a text punctuated as a modern
 * edition in the modern template; said on its first source, with how to
 * choose otherwise.
 */
function withTextDefaults(config: EditionConfig, sources: readonly VFile[]): EditionConfig {
  const first = sources[0];
  if (!first) return config;
  // The sources decoded as parse decodes them (GB18030, UTF-16 …), the bytes left as they are for parse.
  const text = sources.map((f) => decodeSource(typeof f.value === 'string' ? Buffer.from(f.value) : f.value ?? new Uint8Array(), config.encoding).text).join('\n');
  const { script, template } = readingOfText(text);
  const meta = { ...config.meta, template, ...(script !== config.meta.script ? { sourceScript: script } : {}) };
  const said = [
    ...(meta.sourceScript ? [`its text is simplified: set in traditional characters (opencc-js and the context model; diaoban check --script lists the doubtful choices)`] : []),
    ...(template === 'modern' ? ['it is punctuated as a modern edition: set in the modern template'] : []),
  ];
  if (said.length > 0) first.message(`${said.join('; ')}; an edition.yaml chooses otherwise (script:, source-script:, template:; diaoban init writes one)`, { ruleId: 'text-defaults', source: 'diaoban', place: { line: 1, column: 1 } }).fatal = undefined;
  return { ...config, meta };
}

/**
 * A folder with no edition.yaml read as a whole work (parse/work.ts): a
 * Kanripo repository's juan files in order, or any folder of a work's text
 * files, each read in the folder's sandbox (a link out of it is refused, a
 * folder or a device named like a text is said to be one). Null when the
 * folder holds no text file.
 */
async function readWork(dir: string, sandbox: Sandbox, id: string): Promise<{ config: EditionConfig; folder: VFile; sources: VFile[] } | null> {
  const work = await listWork(dir);
  if (!work) return null;
  const folder = new VFile({ path: shownPath(dir, '.') });
  const config = defaultEdition(id, work.files);
  config.meta.title = '';
  const sources: VFile[] = [];
  for (const name of work.files) {
    try {
      const read = await readInSandbox(sandbox, name, [], MAX_FILE_BYTES.sources);
      if (read.ok) sources.push(vfileOf(read.bytes, shownPath(dir, name), false));
      else fatal(folder, problemReason(read, 'the source', name, sandbox), problemRule(read.problem));
    } catch (error) {
      fatal(folder, unreadable(name, error), 'file-unreadable');
    }
  }
  const [first, last] = [work.files[0]!, work.files[work.files.length - 1]!];
  const front = work.kanripo?.front ? `, ${work.kanripo.front} its front matter` : '';
  folder.message(`read as a whole work, having no edition.yaml: ${work.files.length} file${work.files.length === 1 ? '' : 's'} (${first}${last !== first ? ` … ${last}` : ''})${front}; diaoban init ${folder.path} writes an edition.yaml to keep its title, author and sources`, { ruleId: 'work-folder', source: 'diaoban' }).fatal = undefined;
  return { config, folder, sources };
}
