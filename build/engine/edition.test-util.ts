/**
 * A small real edition for the rebuild tests: 禮書 卷一百十 and 禮書綱目
 * 卷九 (two volumes, 85 pages on the 四庫 grid) copied into a temp folder,
 * with a corrections file, so that tests can edit it as an editor would.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO } from './samples.js';

export const VOLUME_ONE = 'juan110.txt';
export const VOLUME_TWO = 'juan09.txt';

export async function twoVolumeEdition(root: string, extra = ''): Promise<string> {
  const dir = path.join(root, 'heji');
  await mkdir(dir, { recursive: true });
  await cp(path.join(REPO, 'manuscript', 'lishu', VOLUME_ONE), path.join(dir, VOLUME_ONE));
  await cp(path.join(REPO, 'manuscript', 'lishu-gangmu', VOLUME_TWO), path.join(dir, VOLUME_TWO));
  await writeFile(
    path.join(dir, 'edition.yaml'),
    ['title: 禮書合編', 'author: 陳祥道 江永', 'language: zh-Hant', 'script: traditional', ...(/^template:/m.test(extra) ? [] : ['template: siku']), 'date: 2026-01-01', 'sources:', `  - ${VOLUME_ONE}`, `  - ${VOLUME_TWO}`, 'corrections: corrections.yaml', extra].join('\n') + '\n',
  );
  await writeFile(path.join(dir, 'corrections.yaml'), '[]\n');
  return dir;
}

/** A run of `length` Han characters found once in the edition's sources, from the file `file`, past `from` of its text. */
export async function uniqueRun(dir: string, file: string, from = 0.5, length = 6): Promise<string> {
  const texts = await Promise.all([VOLUME_ONE, VOLUME_TWO].map((f) => readFile(path.join(dir, f), 'utf8')));
  const all = texts.join('\n');
  const text = texts[file === VOLUME_ONE ? 0 : 1];
  for (let i = Math.floor(text.length * from); i < text.length - length; i++) {
    const run = text.slice(i, i + length);
    if (/^\p{Script=Han}+$/u.test(run) && Array.from(run).length === length && all.split(run).length === 2) return run;
  }
  throw new Error(`no unique run in ${file}`);
}

/** A correction entry (YAML) changing the middle character of `run` to `to`. */
export function fixMiddle(run: string, to: string, note = '據某本改'): string {
  const chars = Array.from(run);
  const mid = Math.floor(chars.length / 2);
  chars[mid] = to;
  return `- find: ${run}\n  replace: ${chars.join('')}\n  note: ${note}\n`;
}
