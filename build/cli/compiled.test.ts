/**
 * The bin runs compiled JavaScript (lib/, scripts/build-lib.mjs), never an
 * old compile: lib/ in this test run is what the sources give, the bin loads
 * it and no TypeScript, and a source newer than the compile sends the bin to
 * the sources (through tsx) instead.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from '../engine/samples.js';
import { libState, sourceDigest, STAMP } from '../../scripts/lib-state.mjs';

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-compiled-'));
  made.push(dir);
  return dir;
}

/** Every module a run of `args` (node arguments) loads, by URL, recorded by a module hook. */
function modulesLoaded(args: string[], cwd = REPO): { urls: string[]; stdout: string; status: number | null } {
  const dir = tempDir();
  const log = path.join(dir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }\n`,
  );
  writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});\n`);
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(path.join(dir, 'register.mjs')).href, ...args], { cwd, encoding: 'utf8' });
  return { urls: readFileSync(log, 'utf8').split('\n').filter(Boolean), stdout: result.stdout, status: result.status };
}

const typescript = (urls: string[]) => urls.filter((u) => /\.ts$|\/node_modules\/tsx\//.test(u));

test('lib/ is compiled from the sources as they are now (npm test compiles first; else run npm run prepare)', () => {
  const stamp = JSON.parse(readFileSync(path.join(REPO, 'lib', STAMP), 'utf8')) as { sources: string };
  assert.equal(stamp.sources, sourceDigest(REPO), 'lib/ was compiled from other sources: run npm run prepare');
  assert.equal(libState(REPO), 'fresh');
});

test('the bin runs the compiled CLI: lib/cli/main.js, no TypeScript and no tsx loaded', () => {
  const run = modulesLoaded([path.join(REPO, 'bin', 'diaoban.js'), '--help']);
  assert.equal(run.status, 0);
  assert.match(run.stdout, /Usage: diaoban/);
  assert.ok(run.urls.includes(pathToFileURL(path.join(REPO, 'lib', 'cli', 'main.js')).href), 'lib/cli/main.js loaded');
  assert.deepEqual(typescript(run.urls), []);
  // --help loads none of the stages' heavy modules.
  assert.deepEqual(run.urls.filter((u) => /\/node_modules\/(puppeteer|pdf-lib|harfbuzzjs|subset-font|opencc-js|epub-gen-memory|remark-parse|yaml)\//.test(u)), []);
  // The detector's negative control: the sources through tsx are seen as such.
  const sources = modulesLoaded(['--import', 'tsx', path.join(REPO, 'build', 'cli', 'main.ts'), '--help']);
  assert.equal(sources.status, 0);
  assert.ok(typescript(sources.urls).length > 0);
});

/** A stand-in checkout: the real bin and lib-state, a "compiled" and a "source" main that say which they are. */
function checkout(): string {
  const root = tempDir();
  for (const dir of ['bin', 'scripts', 'build/cli', 'lib/cli']) mkdirSync(path.join(root, dir), { recursive: true });
  copyFileSync(path.join(REPO, 'bin', 'diaoban.js'), path.join(root, 'bin', 'diaoban.js'));
  copyFileSync(path.join(REPO, 'scripts', 'lib-state.mjs'), path.join(root, 'scripts', 'lib-state.mjs'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  writeFileSync(path.join(root, 'package.json'), '{ "type": "module" }\n');
  for (const file of ['tsconfig.json', 'tsconfig.build.json']) writeFileSync(path.join(root, file), '{}\n');
  writeFileSync(path.join(root, 'build', 'cli', 'main.ts'), "export async function main(_argv: string[]): Promise<void> {\n  process.stdout.write('sources\\n');\n}\n");
  writeFileSync(path.join(root, 'build', 'cli', 'main.test.ts'), '');
  writeFileSync(path.join(root, 'lib', 'cli', 'main.js'), "export async function main() {\n  process.stdout.write('compiled\\n');\n}\n");
  const past = new Date(Date.now() - 60_000);
  for (const p of ['build/cli/main.ts', 'build/cli/main.test.ts', 'build/cli', 'build', 'tsconfig.json', 'tsconfig.build.json']) utimesSync(path.join(root, p), past, past);
  writeFileSync(path.join(root, 'lib', STAMP), '{}\n');
  return root;
}

function runs(root: string): string {
  const r = spawnSync(process.execPath, [path.join(root, 'bin', 'diaoban.js')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '', 'no note when no one watches (stderr is not a terminal)');
  return r.stdout.trim();
}

test('the bin runs the sources, not an old compile, when build/ changed after it', () => {
  const root = checkout();
  assert.equal(runs(root), 'compiled');
  // A test edited: lib/ holds no tests, still current.
  utimesSync(path.join(root, 'build', 'cli', 'main.test.ts'), new Date(), new Date());
  assert.equal(libState(root), 'fresh');
  // A compiled source edited.
  const later = new Date(Date.now() + 5_000);
  utimesSync(path.join(root, 'build', 'cli', 'main.ts'), later, later);
  assert.equal(libState(root), 'stale');
  assert.equal(runs(root), 'sources');
  // Compiled again (a new stamp): lib/ again.
  utimesSync(path.join(root, 'lib', STAMP), later, later);
  assert.equal(runs(root), 'compiled');
  // A file added in a new folder changes the folders' times.
  mkdirSync(path.join(root, 'build', 'engine'));
  writeFileSync(path.join(root, 'build', 'engine', 'x.ts'), '');
  const newer = new Date(Date.now() + 10_000);
  utimesSync(path.join(root, 'build', 'engine'), newer, newer);
  assert.equal(libState(root), 'stale');
  // Never compiled, or a compile that did not finish: the sources.
  rmSync(path.join(root, 'lib', STAMP));
  assert.equal(libState(root), 'missing');
  assert.equal(runs(root), 'sources');
});
