/**
 * No orphans: a real `diaoban build` killed with SIGKILL at four moments
 * (while the font converter runs, right after Chromium starts, while
 * Chromium prints, while the PDF is written) leaves no process behind
 * (Chromium, over a pipe, and the converter, reading jobs from a pipe, exit
 * with their parent) and the previous outputs whole; the next build removes
 * every temp file the killed ones left (temp folders, temp outputs, font
 * cache and build cache temps). The build runs with a temp folder of its
 * own (TMPDIR), caches of its own (DIAOBAN_CACHE, DIAOBAN_FONT_CACHE) and a
 * token in its environment, which every process it starts inherits: that
 * is how its processes and files are counted, apart from anyone else's on
 * the machine. The build cache is emptied (its tmp/ kept) before each
 * build, so that every build prints.
 *
 * A SIGTERM (as Ctrl-C) is seen by the build, which cleans up at once.
 *
 * "While written": the test puts a named pipe where the build writes the
 * PDF's temp file (its name is known from the build's pid), reads the first
 * bytes, and kills the build in the middle of that write.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until as waitUntil } from '../engine/until.test-util.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOST } from '../engine/cleanup.js';
import { processesOf } from './watch-fuzz.test-util.js';

const BIN = path.resolve('bin/diaoban.js');
const EDITION = 'manuscript/lishu';
const OUTPUTS = ['lishu.epub', 'lishu.pdf'];
const token = `DIAOBAN_KILL_TEST_${randomBytes(6).toString('hex')}`;
const root = mkdtempSync(path.join(tmpdir(), 'diaoban-kill-'));
const temp = path.join(root, 'tmp');
const out = path.join(root, 'dist');
const buildCache = path.join(root, 'cache');
const fontCache = path.join(root, 'fonts');
execFileSync('mkdir', ['-p', temp, out, fontCache]);

/** The processes that carry the token (the build and everything it started), with their names. */
const processes = (): string[] => processesOf(token);

function ownerTag(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return `${pid}_${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}@${HOST}`;
}

/** Everything a build can leave: its temp folder's entries, temp outputs, font-cache and build-cache temps. */
function leftovers(): string[] {
  const cacheTmp = path.join(buildCache, 'tmp');
  return [
    // tsx (which runs bin/diaoban.js) keeps its compile cache there: a cache every run reuses, not a leftover.
    ...readdirSync(temp).filter((n) => !n.startsWith('tsx-')).map((n) => `tmp/${n}`),
    ...readdirSync(out).filter((n) => !OUTPUTS.includes(n)).map((n) => `dist/${n}`),
    ...readdirSync(fontCache).filter((n) => n.endsWith('.tmp')).map((n) => `fonts/${n}`),
    ...(existsSync(cacheTmp) ? readdirSync(cacheTmp).map((n) => `cache/tmp/${n}`) : []),
  ];
}

/** The build cache emptied but for its tmp/ (what killed builds left there stays, for the next build to remove). */
function emptyBuildCache(): void {
  if (!existsSync(buildCache)) return;
  for (const name of readdirSync(buildCache)) if (name !== 'tmp') rmSync(path.join(buildCache, name), { recursive: true, force: true });
}

function start(): { child: ChildProcess; done: Promise<number | null>; stderr: () => string } {
  emptyBuildCache();
  const child = spawn(process.execPath, [BIN, 'build', '--out', out, EDITION], {
    env: { ...process.env, TMPDIR: temp, DIAOBAN_CACHE: buildCache, DIAOBAN_FONT_CACHE: fontCache, [token]: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, done, stderr: () => stderr };
}

/** The moment a kill lands matters: looked at every 10 ms. */
const until = (what: string, condition: () => boolean): Promise<void> => waitUntil(what, condition, { ms: 180_000, every: 10 });

/**
 * Until no process of the build is left, and none for `hold` ms: a process
 * caught between fork and exec (Chromium's wrapper script starting the
 * browser) can be missing from one look at /proc and back in the next.
 */
async function untilNoneLeft(ms = 10_000, hold = 500): Promise<void> {
  const end = Date.now() + ms;
  let noneSince: number | undefined;
  while (Date.now() < end) {
    if (processes().length > 0) noneSince = undefined;
    else if ((noneSince ??= Date.now()) + hold <= Date.now()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A whole build; returns its exit code. */
async function build(): Promise<number | null> {
  const run = start();
  const code = await run.done;
  assert.doesNotMatch(run.stderr(), /internal error|\n\s+at /, run.stderr());
  assert.ok(code === 0 || code === 1, `the build ran (exit ${code}): ${run.stderr()}`);
  return code;
}

const chromiumRuns = (): boolean => processes().some((p) => /chrom/i.test(p));
const converterRuns = (): boolean => processes().some((p) => /python/i.test(p));
const workFolder = (): string | undefined => readdirSync(temp).find((n) => /-pdf-/.test(n));
/** The printer's work folder is there: runs are being paginated and printed (the tabs got their shell while the edition was laid out). */
const printing = (): boolean => workFolder() !== undefined;

const MOMENTS: Record<string, (child: ChildProcess) => Promise<void>> = {
  // While the font converter (kept running between builds, reading jobs on a pipe) converts a cold font cache.
  'converting fonts': async () => {
    for (const name of readdirSync(fontCache)) rmSync(path.join(fontCache, name), { force: true });
    await until('the converter to start', converterRuns);
    await new Promise((r) => setTimeout(r, 300));
  },
  // Right after Chromium is started: the moment a browser launched over a WebSocket would be orphaned.
  'Chromium started': async () => until('Chromium to start', chromiumRuns),
  // While Chromium lays out and prints the first run.
  'Chromium printing': async () => {
    await until('the first run to print', printing);
    await new Promise((r) => setTimeout(r, 600));
  },
  // In the middle of writing the PDF's temp file.
  'writing the PDF': async (child) => {
    const fifo = path.join(out, `.lishu.pdf.${ownerTag(child.pid!)}.tmp`);
    execFileSync('mkfifo', [fifo]);
    const reader = await open(fifo, 'r');
    const { bytesRead } = await reader.read(Buffer.alloc(4096), 0, 4096, null);
    assert.ok(bytesRead > 0, 'the build started writing');
    // Killed below, before the reader lets the write go on.
    setTimeout(() => void reader.close(), 2000);
  },
};

test('a build killed at four moments leaves no process and its previous outputs whole; the next build leaves no temp file', { timeout: 900_000 }, async () => {
  const status = await build();
  const whole = OUTPUTS.map((n) => readFileSync(path.join(out, n)));
  const figures: string[] = [];
  try {
    for (const [moment, reach] of Object.entries(MOMENTS)) {
      const run = start();
      await reach(run.child);
      const before = processes().length;
      run.child.kill('SIGKILL');
      await run.done;
      const killedAt = Date.now();
      // Chromium and the converter notice their pipes closed and exit (Chromium with its children).
      await untilNoneLeft();
      const left = processes();
      const tempsLeft = leftovers();
      figures.push(`${moment}: ${before} processes at the kill, ${left.length} left after ${Date.now() - killedAt} ms (none for the last 500); ${tempsLeft.length} temp entries left (${tempsLeft.join(', ')})`);
      assert.deepEqual(left, [], `${moment}: no process left`);
      OUTPUTS.forEach((n, i) => assert.ok(readFileSync(path.join(out, n)).equals(whole[i]), `${moment}: ${n} is still the previous, whole output`));
    }
    // Ctrl-C or a SIGTERM is seen: the build kills Chromium's process group and removes its temp files itself.
    const run = start();
    await MOMENTS['Chromium printing'](run.child);
    run.child.kill('SIGTERM');
    const code = await run.done;
    const tempsLeft = leftovers();
    const endedAt = Date.now();
    // Chromium's crash handlers (outside its process group) go when it does.
    await untilNoneLeft();
    const left = processes();
    figures.push(`SIGTERM while printing: exit ${code}, ${tempsLeft.length} temp entries left at once, ${left.length} processes after ${Date.now() - endedAt} ms`);
    assert.equal(code, 143);
    assert.deepEqual(left, []);
    assert.deepEqual(tempsLeft, []);

    // The next build starts by removing what the killed ones left (each build also did so for the one before).
    assert.equal(await build(), status, 'the next build runs as the first did');
    const after = leftovers();
    figures.push(`after the next build: ${processes().length} processes, ${after.length} temp entries`);
    assert.deepEqual(after, [], 'the next build removed what the killed ones left');
    assert.deepEqual(processes(), []);
    OUTPUTS.forEach((n, i) => assert.ok(readFileSync(path.join(out, n)).equals(whole[i]), `${n} rebuilt whole (byte-identical)`));
  } finally {
    process.stderr.write(`# kill test figures:\n${figures.map((f) => `#   ${f}`).join('\n')}\n`);
    for (const p of processes()) process.kill(Number(p.split(' ')[0]), 'SIGKILL');
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
});
