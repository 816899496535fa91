/**
 * `diaoban init SOURCE [DIR]`: an edition folder from one source file. The
 * source is copied in and edition.yaml written from what the text says about
 * itself: title and volume from its metadata or headings (never the file
 * name), author and dynasty from a byline, the source's script, its format,
 * and a template that suits it. `editionYamlFor` is pure; `initEdition` does
 * the file work.
 */
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import { describeSource, parseSource, workTitle, type ParsedSource } from '../parse/index.js';
import { conventionsOf } from '../parse/formats.js';
import { parseByline } from '../parse/title.js';
import { convertPlain } from '../transform/script.js';
import type { Inline, Script } from '../tree/types.js';
import { writeFileAtomic } from './write.js';

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

function yamlString(value: string): string {
  return /^[\p{L}\p{N}\p{M}\u3000-\u303f\uff00-\uffef·・ ._-]+$/u.test(value) && !/^\s|\s$/.test(value) ? value : JSON.stringify(value);
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
  const firstContributor = found?.contributors[0];
  const credit = firstContributor
    ? { author: firstContributor.name, dynasty: firstContributor.dynasty }
    : ((byline && bylineAuthor(plain(byline.children))) ?? (source.meta.author ? { author: source.meta.author } : null));
  const where = found ? `found in ${found.from}${found.line ? ` (line ${found.line})` : ''}` : 'the text names no work: fill in';
  const contributors = found?.contributors.length ? [`# contributors (the byline): ${found.contributors.map((c) => [c.dynasty, c.name, c.role].filter(Boolean).join(' ')).join('; ')}`] : [];
  const script = sourceScript(text);
  const punctuated = (text.match(/[，。、；：？！]/gu)?.length ?? 0) / Math.max(1, text.length) > 0.02;
  const volume = source.volumes[0];
  const lines = [
    `# Written by diaoban init from ${fileName}: ${describeSource(source.format, source.encoding, source.stats, conventionsOf(source.format))}`,
    `title: ${yamlString(title)}  # ${where}`,
    ...contributors,
    credit ? `author: ${yamlString(credit.author)}` : 'author: 未詳                # no byline in the text: fill in',
    ...(credit?.dynasty ? [`dynasty: ${credit.dynasty}`] : []),
    'script: traditional',
    ...(script === 'simplified' ? ['source-script: simplified  # converted with opencc-js; see diaoban check --script'] : []),
    `template: ${punctuated ? 'modern' : 'siku'}`,
    `date: ${date}`,
    ...(volume ? [`description: ${yamlString(volume.title === title ? title : `${title}　${volume.title}`)}`] : []),
    'sources:',
    `  - ${yamlString(fileName)}`,
    `format: ${source.format}`,
    ...(source.encoding !== 'UTF-8' && source.encoding !== 'binary' ? [`encoding: ${source.encoding}`] : []),
  ];
  return { yaml: lines.join('\n') + '\n', title, summary: describeSource(source.format, source.encoding, source.stats, conventionsOf(source.format)) };
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
  if (await exists(yamlPath)) throw new Error(`${yamlPath} exists already; give another folder (diaoban init ${sourcePath} DIR)`);
  const bytes = new Uint8Array(await readFile(sourcePath));
  // No fallback title: a title must come from the text, not from the file's name.
  const parsed = parseSource(new VFile({ path: fileName, value: bytes }), '');
  const text = parsed.volumes.flatMap((v) => v.children.map((b) => allText(b.children))).join('');
  const description = editionYamlFor(parsed, fileName, text, today);
  await mkdir(target, { recursive: true });
  if (path.resolve(sourcePath) !== path.resolve(target, fileName)) await copyFile(sourcePath, path.join(target, fileName));
  await writeFileAtomic(yamlPath, description.yaml);
  return { dir: target, title: description.title, summary: description.summary };
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}
