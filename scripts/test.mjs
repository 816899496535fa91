#!/usr/bin/env node
/**
 * `npm test`: every build/**\/*.test.ts, each file in a process of its own
 * (node:test), two files at a time: a file keeps about one core busy (Node,
 * then Chromium, Java or Python in turn), so two side by side use both cores
 * of the machine the suite is measured on. The slowest files start first,
 * so that none of them is left to run alone at the end.
 *
 * Files that measure time, kill or count processes, or hold a server to a
 * deadline run after, one at a time, with the machine to themselves (as far
 * as this run goes). The others share only what is made safe to share: their
 * own temp folders, ports from the system, and the checkout's .cache/build
 * and .cache/fonts, whose entries are written whole under a name of their
 * content (temp file, rename) and read by anyone.
 *
 * Each file runs as `node --import tsx FILE` (node:test reports it; no
 * runner process a file), its output printed whole when it ends, and each
 * file's wall time listed at the end, slowest first. Options go to node
 * (`npm test -- --test-reporter=spec`); other arguments pick the files whose
 * path starts with one of them (`npm test -- build/parse`);
 * DIAOBAN_TEST_CONCURRENCY sets how many files run at once (1: every file in
 * turn).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Timing-sensitive: a deadline, a kill at a moment, or a look at every process. */
const ALONE = [
  'build/cli/interrupt.test.ts', // Ctrl-C answered within a second
  'build/cli/kill.test.ts', // builds killed at moments; no process left (read from /proc)
  'build/cli/watch.test.ts', // a save shown within seconds
  'build/cli/watch-server.test.ts', // exit and connection deadlines
  'build/transform/limits.test.ts', // 8,000 corrections within 20 s
  'build/parse/fuzz.test.ts', // hangs counted by the clock
  'build/parse/edition-fuzz.test.ts', // hangs counted by the clock
];

/** The slowest files (30–100 s each under load), started first. */
const FIRST = [
  'build/render/pdf/punctuation.test.ts',
  'build/render/epub/epub.test.ts',
  'build/cli/cli.test.ts',
];

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return testFiles(full);
    return e.name.endsWith('.test.ts') ? [relative(root, full)] : [];
  });
}

/** node's options: the spec reporter when the run is watched on a terminal (a child's output is a pipe). */
const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith('-'));
const picks = args.filter((a) => !a.startsWith('-'));
const nodeArgs = [...(process.stdout.isTTY && !options.some((a) => a.startsWith('--test-reporter')) ? ['--test-reporter=spec'] : []), ...options];

/** One test file in a process of its own: its exit status, wall time and output. */
function runFile(file) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code, signal) => {
      process.stdout.write(Buffer.concat(out));
      process.stderr.write(Buffer.concat(err));
      // node:test's own summary of the file (TAP `# pass N`, spec `ℹ pass N`): the run's totals add them up.
      const text = Buffer.concat(out).toString('utf8');
      const count = (what) => Number(new RegExp(`^(?:#|ℹ) ${what} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      done({ file, ok: code === 0, status: signal ?? code, seconds: (performance.now() - started) / 1000, passed: count('pass'), failed: count('fail') });
    });
  });
}

/** The files in order, `n` at a time. */
async function pool(files, n) {
  const queue = [...files];
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await runFile(file));
  };
  await Promise.all(Array.from({ length: Math.min(n, files.length) }, worker));
  return results;
}

const started = performance.now();
const every = testFiles(join(root, 'build')).sort();
for (const f of [...ALONE, ...FIRST]) if (!every.includes(f)) throw new Error(`scripts/test.mjs names ${f}, which is not a test file`);
const all = picks.length ? every.filter((f) => picks.some((p) => f.startsWith(p))) : every;
const concurrency = Math.max(1, Number(process.env.DIAOBAN_TEST_CONCURRENCY ?? 2));
const results =
  concurrency > 1
    ? [...(await pool([...FIRST.filter((f) => all.includes(f)), ...all.filter((f) => !FIRST.includes(f) && !ALONE.includes(f))], concurrency)), ...(await pool(ALONE.filter((f) => all.includes(f)), 1))]
    : await pool(all, 1);

const failed = results.filter((r) => !r.ok);
const rows = [...results].sort((a, b) => b.seconds - a.seconds).map((r) => `${r.seconds.toFixed(1).padStart(7)} s  ${r.file}${r.ok ? '' : `  FAILED (${r.status})`}`);
process.stderr.write(`\n# test files, wall time each (${concurrency} at a time):\n${rows.join('\n')}\n`);
process.stderr.write(`# ${results.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s; ${failed.length ? `failed: ${failed.map((r) => r.file).join(' ')}` : 'all passed'}\n`);
// The plain closing line a reader of the log (or CI) looks for; a file that died before its summary counts as one failure.
const sum = (key) => results.reduce((n, r) => n + r[key], 0);
process.stdout.write(`tests: ${sum('passed')} passed, ${sum('failed') + failed.filter((r) => r.failed === 0).length} failed\n`);
process.exit(failed.length ? 1 : 0);
