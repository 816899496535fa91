/**
 * Benchmark of what a volume costs: the same text (80,000 characters of
 * 禮經本義, its Han characters in paragraphs of 200) built as one volume
 * and as 1,000 volumes of 80 characters, each a clean `diaoban build`
 * (PDF + EPUB) of its own process with an empty build cache (the font cache
 * warm), in rounds that alternate the two (the machine is shared and
 * noisy). Target: 1,000 volumes ≤ 1.5 × one volume (medians of three).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from '../build/engine/samples.js';
import { ensureCompiled, timedCliBuild } from './cli-build.js';
import { median } from './rebuild.js';

const CHARACTERS = 80_000;
const PARAGRAPH = 200;
const ROUNDS = 3;

/** An edition folder holding `text` in `volumes` volumes of equal length. */
async function editionOf(root: string, name: string, text: string[], volumes: number): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  const per = Math.ceil(text.length / volumes);
  const parts: string[] = [];
  for (let v = 0; v < volumes; v++) {
    const chars = text.slice(v * per, (v + 1) * per);
    const paragraphs: string[] = [];
    for (let i = 0; i < chars.length; i += PARAGRAPH) paragraphs.push(chars.slice(i, i + PARAGRAPH).join(''));
    parts.push(`# 卷${v + 1}\n\n${paragraphs.join('\n\n')}\n`);
  }
  await writeFile(join(dir, 'text.md'), parts.join('\n'));
  await writeFile(join(dir, 'edition.yaml'), `title: 禮經本義\nauthor: 蔡德晉\nlanguage: zh-Hant\nscript: traditional\ntemplate: siku\ndate: 2026-01-01\nsources:\n  - text.md\n`);
  return dir;
}

/** A clean build of `dir` in a process of its own (ms). */
async function build(dir: string, cache: string, out: string, fontCache: string): Promise<number> {
  return (await timedCliBuild(dir, out, { DIAOBAN_CACHE: cache, DIAOBAN_FONT_CACHE: fontCache })).ms;
}

export async function run(): Promise<Record<string, number | string>> {
  ensureCompiled();
  const source = await readFile(join(REPO, 'manuscript', 'lijing-benyi', 'lijing-benyi.txt'), 'utf8');
  const han = Array.from(source).filter((c) => /\p{Script=Han}/u.test(c));
  if (han.length < CHARACTERS) throw new Error(`the sample has ${han.length} Han characters, fewer than ${CHARACTERS}`);
  const text = han.slice(0, CHARACTERS);
  const root = await mkdtemp(join(tmpdir(), 'diaoban-bench-volumes-'));
  try {
    const one = await editionOf(root, 'one', text, 1);
    const many = await editionOf(root, 'many', text, 1000);
    const fontCache = join(root, 'fonts');
    let n = 0;
    const clean = (dir: string): Promise<number> => build(dir, join(root, `cache-${n}`), join(root, `out-${n++}`), fontCache);
    // Warm-up, not timed: the font cache (both texts use the same characters) and the page cache.
    await clean(one);
    const ones: number[] = [];
    const manys: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      ones.push(await clean(one));
      manys.push(await clean(many));
    }
    const oneMs = median(ones);
    const manyMs = median(manys);
    return {
      characters: CHARACTERS,
      one_volume_s: Math.round(oneMs / 100) / 10,
      one_volume_runs_s: ones.map((ms) => (ms / 1000).toFixed(1)).join(' '),
      volumes_1000_s: Math.round(manyMs / 100) / 10,
      volumes_1000_runs_s: manys.map((ms) => (ms / 1000).toFixed(1)).join(' '),
      volumes_1000_per_one: Math.round((manyMs / oneMs) * 100) / 100,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
