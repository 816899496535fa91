/**
 * A build killed at any moment (SIGKILL, as the OOM killer or a power cut
 * would: no chance to clean up) leaves the previous outputs whole and the
 * cache usable; the next build finishes, leaves no temp file, and gives the
 * bytes of a clean build. The CLI is run for real, killed at a few points
 * (DIAOBAN_KILL_AT): with volume runs cached and others not, with a cache
 * entry half made, with the output half made, before the manifest.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { BuildCache } from './cache.js';
import { buildEdition } from './build.js';
import { fixMiddle, twoVolumeEdition, uniqueRun, VOLUME_ONE, VOLUME_TWO } from './edition.test-util.js';

const BIN = path.resolve('bin/diaoban.js');
let root: string;
let dir: string;
let out: string;
let cacheDir: string;

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-crash-'));
  dir = await twoVolumeEdition(root);
  out = path.join(root, 'dist');
  cacheDir = path.join(root, 'cache');
});
after(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** `diaoban build` in a process group of its own; every process left in the group (Chromium) is killed after. */
function cli(killAt?: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'build', dir, '--out', out], {
      detached: true,
      env: { ...process.env, DIAOBAN_CACHE: cacheDir, ...(killAt ? { DIAOBAN_KILL_AT: killAt } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code, signal) => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is empty: nothing was left behind
      }
      done({ code, signal, stderr });
    });
  });
}

const outputs = async (): Promise<{ pdf: Buffer; epub: Buffer }> => ({ pdf: await readFile(path.join(out, 'heji.pdf')), epub: await readFile(path.join(out, 'heji.epub')) });

async function temps(): Promise<string[]> {
  const inOut = (await readdir(out)).filter((n) => n.endsWith('.tmp'));
  const inCache = await readdir(path.join(cacheDir, 'tmp')).catch(() => [] as string[]);
  return [...inOut, ...inCache];
}

test('killed at any of several points, a build leaves whole outputs and a usable cache; the next build is a clean build’s bytes', async () => {
  const first = await cli();
  assert.equal(first.code, 0, first.stderr);
  let good = await outputs();
  // A place in each volume for each kill, each fixed once: a fix that matched nothing would be an error in the manuscript (exit 1).
  const places = [0.2, 0.4, 0.6, 0.8];
  const runs = await Promise.all(places.map(async (at) => [await uniqueRun(dir, VOLUME_ONE, at), await uniqueRun(dir, VOLUME_TWO, at)] as const));
  let corrections = '';
  for (const [i, point] of ['pdf-run-cached', 'cache-temp-pdf-run', 'pdf-output-temp', 'before-manifest'].entries()) {
    // Both volumes change, so that the build prints two runs and the kill comes with work done and work left.
    corrections += fixMiddle(runs[i][0], '之') + fixMiddle(runs[i][1], i % 2 ? '也' : '龘', `第${i}次`);
    await writeFile(path.join(dir, 'corrections.yaml'), corrections);
    const killed = await cli(point);
    assert.equal(killed.signal, 'SIGKILL', `${point}: killed (${killed.stderr})`);
    const left = await outputs();
    // Whole: the old outputs, or (killed after they were renamed into place) the new ones — never a part.
    await PDFDocument.load(left.pdf);
    const again = await cli();
    assert.equal(again.code, 0, `${point}: the next build succeeds\n${again.stderr}`);
    const now = await outputs();
    for (const kind of ['pdf', 'epub'] as const) {
      assert.ok(left[kind].equals(good[kind]) || left[kind].equals(now[kind]), `${point}: the ${kind} left by the killed build is whole`);
    }
    assert.deepEqual(await temps(), [], `${point}: no temp file is left after the next build`);
    good = now;
  }
  // The last state, built clean in a fresh cache: the same bytes.
  const clean = await buildEdition(dir, { out: path.join(root, 'clean'), targets: { pdf: true, epub: true }, progress: false, cache: new BuildCache(path.join(root, 'clean-cache')) });
  assert.ok(clean.ok, clean.lines.join('\n'));
  assert.ok(good.pdf.equals(await readFile(path.join(root, 'clean', 'heji.pdf'))), 'PDF = a clean build’s');
  assert.ok(good.epub.equals(await readFile(path.join(root, 'clean', 'heji.epub'))), 'EPUB = a clean build’s');
});
