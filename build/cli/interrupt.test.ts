/**
 * Ctrl-C stops any build within a second (issue 20). The edition carries the
 * pattern that used to hang the build (`^(主+)+$` in layers, headings and
 * metadata, against thousands of lines of 40 × 主 then 戒): with a
 * backtracking engine the event loop never turned, so SIGINT and SIGTERM did
 * nothing and only SIGKILL ended it. A real `diaoban build` gets SIGINT at
 * three moments (reading and parsing, laying out, printing: told by the phase
 * timings DIAOBAN_TIMING prints as each phase ends); each time it exits 130
 * within a second and leaves no process it started.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processesOf } from './watch-fuzz.test-util.js';

const BIN = path.resolve('bin/diaoban.js');
const token = `DIAOBAN_INTERRUPT_TEST_${randomBytes(6).toString('hex')}`;
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-interrupt-'));
after(() => {
  for (const p of processesOf(token)) process.kill(Number(p.split(' ')[0]), 'SIGKILL');
  rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

/** Far more than Ctrl-C may take: what a slower machine needs is not what the user waits for. */
const WITHIN_MS = 1000;

const dir = path.join(work, 'redos');
mkdirSync(dir);
const line = `${'主'.repeat(40)}戒`;
writeFileSync(path.join(dir, 'a.txt'), Array.from({ length: 3000 }, (_, i) => (i % 3 === 2 ? `${line}【${line}】` : line)).join('\n\n') + '\n');
writeFileSync(
  path.join(dir, 'edition.yaml'),
  'title: 試\nauthor: 某\nsources:\n  - a.txt\nconventions:\n  headings: ["^(主+)+$"]\n  metadata: ["^(主+)+$"]\nlayers:\n  - { layer: an, pattern: "^(主+)+$" }\n',
);

/** The moment: right after the build prints this phase's timing line. */
const MOMENTS = { 'reading and parsing': /^timing inputs /m, 'laying out': /^timing volume digests /m, printing: /^timing pdf tab load /m };

async function interruptAfter(phase: RegExp): Promise<{ code: number | null; signal: NodeJS.Signals | null; took: number; stderr: string }> {
  const env = { ...process.env, [token]: '1', DIAOBAN_TIMING: '1', TMPDIR: path.join(work, 'tmp'), DIAOBAN_CACHE: path.join(work, 'cache') };
  mkdirSync(env.TMPDIR, { recursive: true });
  rmSync(env.DIAOBAN_CACHE, { recursive: true, force: true });
  const child = spawn(process.execPath, [BIN, 'build', '--out', path.join(work, 'dist'), dir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let reached: () => void = () => {};
  const moment = new Promise<void>((resolve) => (reached = resolve));
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString('utf8');
    if (phase.test(stderr)) reached();
  });
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
  await Promise.race([moment, exited]);
  assert.equal(child.exitCode, null, `the build is still running after ${phase.source}: ${stderr}`);
  const t0 = performance.now();
  child.kill('SIGINT');
  // A build that does not end is killed, and fails the test, rather than the suite waiting for it.
  const stuck = setTimeout(() => child.kill('SIGKILL'), 10 * WITHIN_MS);
  const [code, signal] = await exited;
  clearTimeout(stuck);
  return { code, signal, took: performance.now() - t0, stderr };
}

test('Ctrl-C stops a build of an edition whose patterns used to hang it within a second, at three moments, leaving no process', { timeout: 600_000 }, async () => {
  const figures: string[] = [];
  try {
    for (const [name, phase] of Object.entries(MOMENTS)) {
      const r = await interruptAfter(phase);
      figures.push(`SIGINT ${name}: exit ${r.code ?? r.signal} after ${r.took.toFixed(0)} ms`);
      assert.equal(r.code, 130, r.stderr);
      assert.ok(r.took < WITHIN_MS, `exit after ${r.took.toFixed(0)} ms`);
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
      // Chromium and the font converter follow their parent out (they see their pipes close).
      const until = Date.now() + 10_000;
      while (processesOf(token).length > 0 && Date.now() < until) await new Promise((res) => setTimeout(res, 50));
      assert.deepEqual(processesOf(token), [], 'no process left');
    }
  } finally {
    process.stderr.write(`# interrupt figures: ${figures.join('; ')}\n`);
  }
});
