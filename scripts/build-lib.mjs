#!/usr/bin/env node
/**
 * Compiles build/ into lib/ (tsconfig.build.json), the JavaScript that
 * bin/diaoban.js runs: `npm run prepare`, and `npm ci` runs it too. The
 * compile goes to a temporary folder that replaces lib/ only when it is
 * complete, so a failed or interrupted compile leaves no half of one, and a
 * file deleted from build/ leaves nothing behind. The stamp takes the time
 * the compile started: a source saved while it ran is newer, so lib/ reads
 * as stale (scripts/lib-state.mjs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMP, sourceDigest } from './lib-state.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const started = new Date();
const digest = sourceDigest(root);
const tmp = join(root, `lib.tmp-${process.pid}`);
const old = join(root, `lib.old-${process.pid}`);

const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
// The temporary folder sits beside lib/, as deep, so the source maps' paths are lib/'s.
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', tmp], { stdio: 'inherit' });
if (result.status !== 0) {
  rmSync(tmp, { recursive: true, force: true });
  process.stderr.write('build-lib: tsc failed; lib/ is unchanged\n');
  process.exit(result.status ?? 1);
}
const stamp = join(tmp, STAMP);
writeFileSync(stamp, JSON.stringify({ sources: digest }) + '\n');
utimesSync(stamp, started, started);
if (existsSync(join(root, 'lib'))) renameSync(join(root, 'lib'), old);
renameSync(tmp, join(root, 'lib'));
rmSync(old, { recursive: true, force: true });
