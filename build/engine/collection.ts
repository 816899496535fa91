/**
 * A collection: a folder of edition folders, or a `collection.yaml` that
 * names them (paths or globs, relative to it) and gives the settings they
 * share (template, fonts, conversion). Which editions it holds, which part
 * of it a shard builds, and how many a machine builds at once.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { VFile } from 'vfile';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { parseEditionYaml } from '../parse/index.js';
import type { ResolvedFonts, SharedSettings } from './load.js';
import { isFontPath } from '../parse/edition.js';
import { listWork } from './work-folder.js';

export const COLLECTION_FILE = 'collection.yaml';

export interface CollectionEdition {
  /** The edition folder, absolute. */
  dir: string;
  /** Its path relative to the collection's folder ('/' separated): what shards and the catalogue name it by. */
  name: string;
}

export interface Collection {
  /** The collection's folder, absolute. */
  root: string;
  editions: CollectionEdition[];
  shared?: SharedSettings;
  /** collection.yaml with its messages (file:line:col), when there is one. */
  file?: VFile;
}

/**
 * Whether `dir` is a collection rather than one edition: it has a
 * collection.yaml, or no edition.yaml and edition folders inside (or, not
 * being a work's folder itself, folders of works: a folder of Kanripo repositories).
 */
export async function isCollection(dir: string): Promise<boolean> {
  if (existsSync(path.join(dir, COLLECTION_FILE))) return true;
  if (existsSync(path.join(dir, 'edition.yaml'))) return false;
  try {
    return (await subEditions(dir, !(await listWork(dir)))).length > 0;
  } catch {
    return false;
  }
}

/** The edition folders in `root`: those with an edition.yaml, and folders of works (work-folder.ts) unless `root` is one. */
async function subEditions(root: string, works = true): Promise<string[]> {
  const entries = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.'));
  const found: string[] = [];
  for (const e of entries) if (existsSync(path.join(root, e.name, 'edition.yaml')) || (works && (await listWork(path.join(root, e.name))))) found.push(e.name);
  return found.sort();
}

/** Keys of collection.yaml besides the shared settings. */
const OWN_KEYS = new Set(['editions']);
const SHARED_KEYS = new Set(['template', 'fonts', 'conversion']);

/**
 * The shared settings, read by the edition.yaml reader itself (one reader
 * for one convention): collection.yaml's shared keys, with a title, an
 * author and a source added after them so that the reader asks for nothing
 * more; its messages keep their places in collection.yaml.
 */
async function readShared(file: VFile, text: string, root: string, allowRead: readonly string[] | undefined): Promise<SharedSettings | undefined> {
  const doc = parseDocument(text, { prettyErrors: false });
  if (!isMap(doc.contents)) return undefined;
  const keys = doc.contents.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : ''));
  for (const [i, key] of keys.entries()) {
    if (OWN_KEYS.has(key) || SHARED_KEYS.has(key)) continue;
    const node = doc.contents.items[i]!.key as { range?: [number, number, number] };
    const message = file.message(`unknown key "${key}" in collection.yaml is ignored; known keys: editions, ${[...SHARED_KEYS].join(', ')}`, { ruleId: 'collection-unknown-key', source: 'diaoban', place: placeOf(text, node.range?.[0] ?? 0) });
    message.fatal = false;
  }
  if (!keys.some((k) => SHARED_KEYS.has(k))) return undefined;
  // Only the shared keys are read: `editions` and anything else are blanked to comments, so that positions stay.
  const lines = text.split('\n');
  doc.contents.items.forEach((pair, i) => {
    if (SHARED_KEYS.has(keys[i]!)) return;
    const start = (pair.key as { range?: [number, number, number] }).range?.[0] ?? 0;
    const end = (pair.value as { range?: [number, number, number] } | null)?.range?.[2] ?? start;
    const from = placeOf(text, start).line - 1;
    const to = placeOf(text, Math.max(start, end - 1)).line - 1;
    for (let l = from; l <= to; l++) lines[l] = '#';
  });
  const probe = new VFile({ path: file.path, value: `${lines.join('\n')}\ntitle: collection\nauthor: collection\nsources: [collection]\n` });
  const { config, paths } = parseEditionYaml(probe, 'collection');
  const fonts: ResolvedFonts = new Map();
  const fontRefs = paths.filter(isFontPath);
  if (config && keys.includes('fonts') && fontRefs.length > 0) {
    // A font file collection.yaml names is checked as an edition's is: inside the collection folder (or the system's font folders, or --allow-read), a regular file, a font.
    const { checkFontRef } = await import('./load.js');
    const { createSandbox } = await import('./sandbox.js');
    const sandbox = await createSandbox(root, allowRead, 'the collection folder');
    for (const ref of fontRefs) await checkFontRef(fonts, sandbox, ref, probe, config.fonts);
  }
  for (const m of probe.messages) {
    const copy = file.message(m.reason.replace(/edition\.yaml/g, 'collection.yaml'), { ruleId: m.ruleId ?? undefined, source: 'diaoban', place: m.place ?? undefined });
    copy.fatal = m.fatal;
  }
  if (!config) return undefined;
  const shared: SharedSettings = {};
  if (keys.includes('template')) shared.template = config.meta.template;
  if (keys.includes('conversion') && config.conversion) shared.conversion = config.conversion;
  if (keys.includes('fonts') && Object.keys(config.fonts).length > 0) {
    const { withResolvedFonts } = await import('./load.js');
    shared.fonts = withResolvedFonts(config.fonts, fonts);
  }
  return shared;
}

function placeOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/**
 * The editions of a collection folder, sorted by name: those collection.yaml
 * names (each entry a folder or a glob of folders, inside the collection),
 * else every subfolder with an edition.yaml.
 */
export async function readCollection(dir: string, allowRead?: readonly string[]): Promise<Collection> {
  const root = path.resolve(dir);
  const yamlPath = path.join(root, COLLECTION_FILE);
  if (!existsSync(yamlPath)) {
    const editions = (await subEditions(root)).map((name) => ({ dir: path.join(root, name), name }));
    const file = new VFile({ path: path.relative(process.cwd(), root) || '.' });
    return collisions(file, editions, '') ? { root, editions: [], file } : { root, editions };
  }
  const text = await readFile(yamlPath, 'utf8');
  const file = new VFile({ path: path.relative(process.cwd(), yamlPath) || COLLECTION_FILE, value: text });
  const error = (reason: string, offset = 0): void => {
    const m = file.message(reason, { ruleId: 'collection-yaml', source: 'diaoban', place: placeOf(text, offset) });
    m.fatal = true;
  };
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  for (const e of doc.errors) error(`collection.yaml is not valid YAML: ${e.message.split('\n')[0]}`, e.pos[0]);
  if (doc.errors.length > 0) return { root, editions: [], file };
  if (doc.contents !== null && !isMap(doc.contents)) {
    error('collection.yaml must be a mapping (editions: [...], template: …, fonts: …, conversion: …)');
    return { root, editions: [], file };
  }
  const shared = await readShared(file, text, root, allowRead);
  const list = isMap(doc.contents) ? doc.contents.get('editions', true) : undefined;
  let patterns: Array<{ pattern: string; offset: number }> = [];
  if (list === undefined) patterns = [{ pattern: '*', offset: 0 }];
  else if (isSeq(list) && list.items.every((i) => isScalar(i) && typeof i.value === 'string')) {
    patterns = list.items.map((i) => ({ pattern: String((i as { value: string }).value), offset: (i as { range?: [number, number, number] }).range?.[0] ?? 0 }));
  } else error('editions must be a list of edition folders or globs, relative to collection.yaml (editions: [kanripo/*, extra/mengzi])', (list as { range?: [number, number, number] }).range?.[0] ?? 0);
  const found = new Map<string, CollectionEdition>();
  for (const { pattern, offset } of patterns) {
    const names = (await glob(pattern, { cwd: root, onlyDirectories: true, expandDirectories: false, followSymbolicLinks: false })).map((n) => n.replace(/\/$/, ''));
    // Inside the collection only: no absolute paths, no climbing out.
    const inside = names.filter((n) => !path.isAbsolute(n) && !path.relative(root, path.resolve(root, n)).startsWith('..'));
    const editions = inside.filter((n) => existsSync(path.join(root, n, 'edition.yaml')));
    if (editions.length === 0) {
      const m = file.message(`"${pattern}" names no edition folder (a folder with an edition.yaml) inside ${path.relative(process.cwd(), root) || '.'}`, { ruleId: 'collection-empty', source: 'diaoban', place: placeOf(text, offset) });
      m.fatal = false;
    }
    for (const name of editions) found.set(name, { dir: path.join(root, name), name });
  }
  const editions = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { root, editions: collisions(file, editions, text) ? [] : editions, ...(shared ? { shared } : {}), file };
}

/**
 * Whether two editions would write outputs of one name: their paths in the
 * collection name the outputs (shiji/zhonghua.pdf), so only paths that a
 * file system may take as one — differing in case or in Unicode
 * normalisation alone (macOS, Windows, many shared drives) — can. Each such
 * pair is an error naming both places: the build refuses them rather than
 * lose one book.
 */
function collisions(file: VFile, editions: readonly CollectionEdition[], text: string): boolean {
  const seen = new Map<string, string>();
  let found = false;
  for (const e of editions) {
    const key = e.name.normalize('NFC').toLowerCase();
    const other = seen.get(key);
    if (other === undefined) {
      seen.set(key, e.name);
      continue;
    }
    found = true;
    const at = text.indexOf(e.name.split('/')[0]!);
    const m = file.message(`the editions ${other} and ${e.name} would write outputs of one name (${e.name}.pdf) on a file system that does not tell case or Unicode normalisation apart; rename one of the folders`, { ruleId: 'collection-collision', source: 'diaoban', place: placeOf(text, Math.max(0, at)) });
    m.fatal = true;
  }
  return found;
}

/**
 * Whether shard `k` of `n` (1-based) builds the edition: by a hash of its
 * name in the collection, never its place in the list, so that adding or
 * removing an edition moves no other between shards.
 */
export function inShard(name: string, shard: { k: number; n: number }): boolean {
  const h = createHash('sha256').update(name).digest();
  return h.readUInt32BE(0) % shard.n === shard.k - 1;
}

export { BUILD_PEAK_BYTES, defaultJobs, parseShard } from './jobs.js';
