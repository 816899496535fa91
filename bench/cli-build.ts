/**
 * `diaoban build` as a user runs it, for the benches that time new
 * processes: the compiled bin (compiled first when build/ is newer, as
 * `npm run prepare` would), each build a process of its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from '../build/engine/samples.js';
import { libState } from '../scripts/lib-state.mjs';

export const BIN = join(REPO, 'bin', 'diaoban.js');

/** lib/ compiled from the sources as they are. */
export function ensureCompiled(): void {
  if (libState(REPO) === 'fresh') return;
  const built = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-lib.mjs')], { cwd: REPO, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('lib/ could not be compiled (scripts/build-lib.mjs)');
}

/** `diaoban build --quiet --out out dir` with `env` added, timed from spawn to exit (ms); a failed build fails the bench. */
export function timedCliBuild(dir: string, out: string, env: Record<string, string>): Promise<{ ms: number; stderr: string }> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'build', '--quiet', '--out', out, dir], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done({ ms: performance.now() - t0, stderr }) : fail(new Error(`diaoban build ${dir} exited ${code}:\n${stderr.slice(-2000)}`))));
  });
}
