/**
 * A collection of small real editions for the collection and queue tests:
 * each a few paragraphs of 禮書 卷一百十 (text and 夾注, a page or two on
 * the 四庫 grid), in a temp folder; one may be broken (an edition.yaml
 * error with its place: it still builds, with errors).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO } from './samples.js';

export const BROKEN_LINE = 6;

/** `count` editions `ed01` … under `root`; `broken`: the folder name of the one with an unknown template (edition.yaml line BROKEN_LINE). */
export async function smallCollection(root: string, count: number, broken?: string): Promise<string[]> {
  const text = await readFile(path.join(REPO, 'manuscript', 'lishu', 'juan110.txt'), 'utf8');
  const paragraphs = text.split('\n').filter((l) => l.includes('【') && Array.from(l).length > 40);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `ed${String(i + 1).padStart(2, '0')}`;
    const dir = path.join(root, name);
    await mkdir(dir, { recursive: true });
    const body = [0, 1, 2].map((k) => paragraphs[(i * 3 + k) % paragraphs.length]).join('\n\n');
    await writeFile(path.join(dir, 'text.txt'), `禮書選${i + 1}\n\n${body}\n`);
    await writeFile(
      path.join(dir, 'edition.yaml'),
      [`title: 禮書選 第${i + 1}`, 'author: 陳祥道', 'dynasty: 宋', 'language: zh-Hant', 'script: traditional', name === broken ? 'template: nosuch' : 'template: siku', 'date: 2026-01-01', 'sources:', '  - text.txt'].join('\n') + '\n',
    );
    names.push(name);
  }
  return names;
}
