/**
 * `diaoban init SOURCE [DIR]`: an edition folder from one source file, or
 * from a folder of a work's files (a Kanripo repository: its juan files in
 * order, `_000` the front matter; parse/work.ts). The sources are copied in
 * and edition.yaml written from what the text says about itself: title and
 * volume from its metadata or headings (never the file name), author and
 * dynasty from a byline (a whole work's first juan that has one), the
 * witness a Kanripo text follows (BASEEDITION), the source's script, its
 * format, and a template that suits it. `editionYamlFor` is pure;
 * `initEdition` does the file work.
 */
import { link, lstat, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import { describeSource, parseSource, workTitle, type ParsedSource } from '../parse/index.js';
import { conventionsOf } from '../parse/formats.js';
import { authorOf, parseByline } from '../parse/title.js';
import { readingOfText } from '../engine/text-defaults.js';
import { convertText } from '../transform/script.js';
import type { Inline } from '../tree/types.js';
import { Document, type Scalar } from 'yaml';
import { removeTemp, tempName, trackTemp, untrackTemp } from '../engine/cleanup.js';
import { openRegularFile } from '../engine/sandbox.js';
import { listWork } from '../engine/work-folder.js';
import { witnessName, type WorkFiles } from '../parse/work.js';

function allText(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.type === 'text' ? n.value : 'children' in n ? allText(n.children as Inline[]) : '')).join('');
}

function plain(nodes: readonly Inline[]): string {
  return nodes.map((n) => (n.type === 'text' ? n.value : 'children' in n && n.type !== 'note' ? plain(n.children as Inline[]) : '')).join('').trim();
}

/** 漢鄭氏注　唐陸德明音義 → { dynasty: 漢, author: 鄭氏 }; 宋 陳祥道 撰 → { 宋, 陳祥道 }: the first contributor of the byline (parse/title.ts). */
export function bylineAuthor(byline: string): { author: string; dynasty?: string } | null {
  const first = parseByline(byline.trim())?.[0];
  return first ? { author: first.name, ...(first.dynasty ? { dynasty: first.dynasty } : {}) } : null;
}

export interface InitDescription {
  yaml: string;
  title: string;
  summary: string;
}

/** A witness of the work besides its sources: another copy, with the siglum a 校勘記 names it by. */
export interface Witness {
  siglum: string;
  /** A folder or a file, relative to the edition folder (or a repository's branch). */
  path: string;
  /** The branch of the repository at `path` (a Kanripo witness). */
  branch?: string;
}

/**
 * The other witnesses of a work's folder (a Kanripo repository's other
 * branches): the collation's to list (build/collate/); none until it does,
 * and edition.yaml gets `witnesses:` only when there are some.
 */
export type WitnessLister = (folder: string, base?: string) => Promise<Witness[]>;

/** What a whole work adds to edition.yaml: its Kanripo front matter, and its other witnesses. */
export interface WorkExtras {
  kanripo?: WorkFiles['kanripo'];
  witnesses?: readonly Witness[];
}

/** edition.yaml for the parsed sources of one edition, listed in `fileNames`' order (pure). */
export function editionYamlFor(sources: ParsedSource | readonly ParsedSource[], fileNames: string | readonly string[], text: string, date: string, extras: WorkExtras = {}): InitDescription {
  const all = Array.isArray(sources) ? (sources as readonly ParsedSource[]) : [sources as ParsedSource];
  const names = typeof fileNames === 'string' ? [fileNames] : fileNames;
  const source = all[0]!;
  const found = workTitle(all);
  const title = found?.title ?? '無題';
  const blocks = all.flatMap((s) => s.volumes.flatMap((v) => v.children));
  const byline = blocks.find((b) => b.type === 'paragraph' && b.role === 'byline');
  // The author, never a commentator the byline names (周易 王弼注: 未詳, the contributors in the comment).
  const firstContributor = found ? authorOf(found.title, found.contributors) : undefined;
  const credit = firstContributor
    ? { author: firstContributor.name, dynasty: firstContributor.dynasty }
    : found?.contributors.length
      ? null
      : ((byline && bylineAuthor(plain(byline.children))) ?? (source.meta.author ? { author: source.meta.author } : null));
  const where = found ? `found in ${found.from}${found.line ? ` (${all.length > 1 && found.file ? `${path.basename(found.file)}:` : 'line '}${found.line})` : ''}` : 'the text names no work: fill in';
  const { script, template } = readingOfText(text);
  // The edition is set in traditional characters: so are its title and its author's name (明宫史 → 明宮史).
  const inScript = (value: string, mode: 'text' | 'name' = 'text'): string => (script === 'simplified' ? convertText(value, 'simplified', 'traditional', undefined, undefined, mode) : value);
  const volume = source.volumes[0];
  const summary = describeSource(source.format, source.encoding, all.length === 1 ? source.stats : totalStats(all), conventionsOf(source.format));
  const witness = all.map((s) => s.meta.data.baseedition?.trim()).find(Boolean);
  const formats = new Set(all.map((s) => s.format));
  // Written by the yaml library: a value with a newline, a leading "- " or a colon is quoted as YAML needs, never read as keys.
  const doc = new Document({
    title: inScript(title),
    author: credit ? inScript(credit.author, 'name') : '未詳',
    ...(credit?.dynasty ? { dynasty: inScript(credit.dynasty) } : {}),
    script: 'traditional',
    ...(script === 'simplified' ? { 'source-script': 'simplified' } : {}),
    template,
    date,
    ...(all.length === 1 && volume ? { description: volume.title === title ? title : `${title}　${volume.title}` } : {}),
    ...(witness ? { witness } : {}),
    sources: [...names],
    ...(extras.witnesses?.length ? { witnesses: extras.witnesses.map((w) => ({ siglum: w.siglum, path: w.path, ...(w.branch ? { branch: w.branch } : {}) })) } : {}),
    ...(formats.size === 1 ? { format: source.format } : {}),
    ...(source.encoding !== 'UTF-8' && source.encoding !== 'binary' && all.every((s) => s.encoding === source.encoding) ? { encoding: source.encoding } : {}),
  });
  doc.commentBefore = ` Written by diaoban init from ${names.length === 1 ? names[0] : `the ${names.length} files of a whole work (${names[0]} … ${names[names.length - 1]})`}: ${summary}`;
  const comment = (key: string, text: string): void => {
    const node = doc.get(key, true) as Scalar | undefined;
    if (node) node.comment = ` ${text}`;
  };
  comment('title', where);
  const byWhom = found?.contributors.length ? `contributors (the byline${found.bylineFile ? `, ${path.basename(found.bylineFile)}${found.bylineLine ? `:${found.bylineLine}` : ''}` : ''}): ${found.contributors.map((c) => [c.dynasty, c.name, c.role].filter(Boolean).join(' ')).join('; ')}` : undefined;
  if (byWhom) comment('author', byWhom);
  else if (!credit) comment('author', 'no byline in the text: fill in');
  comment('source-script', 'converted with opencc-js; see diaoban check --script');
  if (witness) comment('witness', `the edition the text follows (BASEEDITION)${witnessName(witness) ? `: ${witnessName(witness)}` : ''}`);
  const front = extras.kanripo?.front;
  if (front) {
    const list = doc.get('sources', true) as { items?: Scalar[] } | undefined;
    const item = list?.items?.find((i) => i.value === front);
    if (item) item.comment = ' front matter (提要, prefaces, contents: what stands before 卷一)';
  }
  return { yaml: doc.toString({ lineWidth: 0 }), title, summary };
}

/** The figures of a whole work: each file's added up. */
function totalStats(sources: readonly ParsedSource[]): ParsedSource['stats'] {
  const total = { ...sources[0]!.stats, layers: { ...sources[0]!.stats.layers } };
  for (const s of sources.slice(1)) {
    for (const key of ['notes', 'commentaryParagraphs', 'pageAnchors', 'lineAnchors', 'entities', 'compositions', 'privateUse', 'volumes', 'headings'] as const) total[key] += s.stats[key];
    for (const [layer, n] of Object.entries(s.stats.layers)) total.layers[layer] = (Object.hasOwn(total.layers, layer) ? total.layers[layer]! : 0) + n;
  }
  return total;
}

export interface InitOptions {
  /** The date edition.yaml records (default today). */
  today?: string;
  /** A work's other witnesses (the collation's lister of a repository's branches); none by default. */
  witnesses?: WitnessLister;
}

/**
 * Creates DIR (default: manuscript/<name> where manuscript/ exists, else
 * ./<name>) with the sources and their edition.yaml. SOURCE is a text file,
 * or a folder of a work's files (all copied in, unless DIR is that folder:
 * then only edition.yaml is written, beside them).
 */
export async function initEdition(sourcePath: string, dir: string | undefined, options: InitOptions | string = {}): Promise<{ dir: string; title: string; summary: string }> {
  const opts: InitOptions = typeof options === 'string' ? { today: options } : options;
  const today = opts.today ?? new Date().toISOString().slice(0, 10);
  const isFolder = (await stat(sourcePath)).isDirectory();
  const work = isFolder ? await listWork(sourcePath) : null;
  if (isFolder && !work) throw new Error(`${sourcePath} is a folder with no source files (.txt, .md) in it; name a source file, or a folder of a work's files (a Kanripo repository)`);
  const folder = isFolder ? sourcePath : path.dirname(sourcePath);
  const fileNames = work ? work.files : [path.basename(sourcePath)];
  const name = isFolder ? path.basename(path.resolve(sourcePath)) : fileNames[0]!.replace(/\.[^.]+$/, '');
  const id = name.replace(/[^\p{L}\p{N}_-]+/gu, '-');
  let base = 'manuscript';
  try {
    if (!(await stat(base)).isDirectory()) base = '.';
  } catch {
    base = '.';
  }
  const target = dir ?? path.join(base, id);
  const yamlPath = path.join(target, 'edition.yaml');
  const copying = path.resolve(folder) !== path.resolve(target);
  // Nothing is overwritten, and no link is followed: a file (or a link, even a broken one) in the way stops init before it writes anything.
  for (const taken of copying ? [yamlPath, ...fileNames.map((f) => path.join(target, f))] : [yamlPath]) {
    if (await present(taken)) throw new Error(`${taken} exists already; init never overwrites a file: give another folder (diaoban init ${sourcePath} DIR) or move it away`);
  }
  // Each source read once, from a descriptor checked to be a regular file (a pipe or a device would never end): what is parsed is what is copied.
  const read: Uint8Array[] = [];
  for (const file of fileNames) {
    const shown = path.join(folder, file);
    const opened = await openRegularFile(shown);
    if (!opened.ok) throw new Error(`${shown} is ${opened.problem === 'folder' ? 'a folder' : opened.problem === 'missing' ? 'missing' : 'not a regular file (a device, a pipe or a socket)'}; name a text file${isFolder ? ', or take it out of the work\'s folder' : ', or a folder of a work\'s files'}`);
    try {
      read.push(new Uint8Array(await opened.handle.readFile()));
    } finally {
      await opened.handle.close();
    }
  }
  // No fallback title: a title must come from the text, not from the file's name.
  const parsed = fileNames.map((file, i) => parseSource(new VFile({ path: file, value: read[i] }), ''));
  const text = parsed.flatMap((p) => p.volumes.flatMap((v) => v.children.map((b) => allText(b.children)))).join('');
  // A repository's other branches are witnesses where the edition is the repository (init in place): a copy could not reach them.
  const baseEdition = parsed.map((p) => p.meta.data.baseedition?.trim()).find(Boolean);
  const witnesses = work && !copying && opts.witnesses ? await opts.witnesses(sourcePath, baseEdition) : [];
  const description = editionYamlFor(parsed, fileNames, text, today, { ...(work?.kanripo ? { kanripo: work.kanripo } : {}), witnesses });
  await mkdir(target, { recursive: true });
  // Exclusive creation (O_EXCL): what appeared since the check is refused too, and a link there is not followed.
  if (copying) for (const [i, file] of fileNames.entries()) await writeFileExclusive(path.join(target, file), read[i]!);
  await writeFileExclusive(yamlPath, description.yaml);
  return { dir: target, title: description.title, summary: description.summary };
}

/** Whether anything is at `p`, a link included (lstat: a link is not followed). */
async function present(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Writes a file that must not exist yet: whole (temp file, then a hard link, which fails on anything there) or not at all. */
async function writeFileExclusive(target: string, data: string | Uint8Array): Promise<void> {
  const temp = tempName(target);
  trackTemp(temp);
  try {
    await writeFile(temp, data, { flag: 'wx' });
    await link(temp, target);
  } finally {
    await removeTemp(temp);
    untrackTemp(temp);
  }
}
