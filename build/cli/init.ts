/**
 * `diaoban init SOURCE [DIR]`: an edition folder from one source file. The
 * source is copied in and edition.yaml written from what the text says about
 * itself: title and volume from its metadata or headings (never the file
 * name), author and dynasty from a byline, the source's script, its format,
 * and a template that suits it. `editionYamlFor` is pure; `initEdition` does
 * the file work.
 */
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import { describeSource, parseSource, workTitle, type ParsedSource } from '../parse/index.js';
import { conventionsOf } from '../parse/formats.js';
import { authorOf, parseByline } from '../parse/title.js';
import { convertPlain } from '../transform/script.js';
import type { Inline, Script } from '../tree/types.js';
import { writeFileAtomic } from '../engine/write.js';
import { Document, type Scalar } from 'yaml';
import { removeTemp, tempName, trackTemp, untrackTemp } from '../engine/cleanup.js';

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

/** Simplified or traditional: which way of converting changes fewer characters. */
export function sourceScript(text: string): Script {
  const sample = text.slice(0, 20000);
  const differing = (a: string, b: string) => {
    let n = 0;
    const x = Array.from(a);
    const y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) n++;
    return n;
  };
  const simplifiedOnly = differing(sample, convertPlain(sample, 'simplified', 'traditional'));
  const traditionalOnly = differing(sample, convertPlain(sample, 'traditional', 'simplified'));
  return simplifiedOnly > traditionalOnly ? 'simplified' : 'traditional';
}

export interface InitDescription {
  yaml: string;
  title: string;
  summary: string;
}

/** edition.yaml for a parsed source (pure). */
export function editionYamlFor(source: ParsedSource, fileName: string, text: string, date: string): InitDescription {
  const found = workTitle([source]);
  const title = found?.title ?? '無題';
  const blocks = source.volumes.flatMap((v) => v.children);
  const byline = blocks.find((b) => b.type === 'paragraph' && b.role === 'byline');
  // The author, never a commentator the byline names (周易 王弼注: 未詳, the contributors in the comment).
  const firstContributor = found ? authorOf(found.title, found.contributors) : undefined;
  const credit = firstContributor
    ? { author: firstContributor.name, dynasty: firstContributor.dynasty }
    : found?.contributors.length
      ? null
      : ((byline && bylineAuthor(plain(byline.children))) ?? (source.meta.author ? { author: source.meta.author } : null));
  const where = found ? `found in ${found.from}${found.line ? ` (line ${found.line})` : ''}` : 'the text names no work: fill in';
  const script = sourceScript(text);
  const punctuated = (text.match(/[，。、；：？！]/gu)?.length ?? 0) / Math.max(1, text.length) > 0.02;
  const volume = source.volumes[0];
  const summary = describeSource(source.format, source.encoding, source.stats, conventionsOf(source.format));
  // Written by the yaml library: a value with a newline, a leading "- " or a colon is quoted as YAML needs, never read as keys.
  const doc = new Document({
    title,
    author: credit ? credit.author : '未詳',
    ...(credit?.dynasty ? { dynasty: credit.dynasty } : {}),
    script: 'traditional',
    ...(script === 'simplified' ? { 'source-script': 'simplified' } : {}),
    template: punctuated ? 'modern' : 'siku',
    date,
    ...(volume ? { description: volume.title === title ? title : `${title}　${volume.title}` } : {}),
    sources: [fileName],
    format: source.format,
    ...(source.encoding !== 'UTF-8' && source.encoding !== 'binary' ? { encoding: source.encoding } : {}),
  });
  doc.commentBefore = ` Written by diaoban init from ${fileName}: ${summary}`;
  const comment = (key: string, text: string): void => {
    const node = doc.get(key, true) as Scalar | undefined;
    if (node) node.comment = ` ${text}`;
  };
  comment('title', where);
  if (found?.contributors.length) comment('author', `contributors (the byline): ${found.contributors.map((c) => [c.dynasty, c.name, c.role].filter(Boolean).join(' ')).join('; ')}`);
  else if (!credit) comment('author', 'no byline in the text: fill in');
  comment('source-script', 'converted with opencc-js; see diaoban check --script');
  return { yaml: doc.toString({ lineWidth: 0 }), title, summary };
}

/** Creates DIR (default: manuscript/<name> where manuscript/ exists, else ./<name>) with the source and its edition.yaml. */
export async function initEdition(sourcePath: string, dir: string | undefined, today = new Date().toISOString().slice(0, 10)): Promise<{ dir: string; title: string; summary: string }> {
  const fileName = path.basename(sourcePath);
  const id = fileName.replace(/\.[^.]+$/, '').replace(/[^\p{L}\p{N}_-]+/gu, '-');
  let base = 'manuscript';
  try {
    if (!(await stat(base)).isDirectory()) base = '.';
  } catch {
    base = '.';
  }
  const target = dir ?? path.join(base, id);
  const yamlPath = path.join(target, 'edition.yaml');
  const copyPath = path.join(target, fileName);
  const copying = path.resolve(sourcePath) !== path.resolve(copyPath);
  // Nothing is overwritten, and no link is followed: a file (or a link, even a broken one) in the way stops init before it writes anything.
  for (const taken of copying ? [yamlPath, copyPath] : [yamlPath]) {
    if (await present(taken)) throw new Error(`${taken} exists already; init never overwrites a file: give another folder (diaoban init ${sourcePath} DIR) or move it away`);
  }
  const bytes = new Uint8Array(await readFile(sourcePath));
  // No fallback title: a title must come from the text, not from the file's name.
  const parsed = parseSource(new VFile({ path: fileName, value: bytes }), '');
  const text = parsed.volumes.flatMap((v) => v.children.map((b) => allText(b.children))).join('');
  const description = editionYamlFor(parsed, fileName, text, today);
  await mkdir(target, { recursive: true });
  // Exclusive creation (O_EXCL): what appeared since the check is refused too, and a link there is not followed.
  if (copying) await copyFile(sourcePath, copyPath, constants.COPYFILE_EXCL);
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
async function writeFileExclusive(target: string, data: string): Promise<void> {
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
