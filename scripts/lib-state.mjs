/**
 * Whether lib/ (the compiled CLI, made by scripts/build-lib.mjs) is up to
 * date with the TypeScript in build/. Plain JavaScript: the bin reads it
 * before anything compiled is loaded, so it must cost next to nothing —
 * file times, as make compares them, not a hash of every source.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The file written last by a complete compile: its time is the compile's. */
export const STAMP = 'build-stamp.json';

/** Sources tsconfig.build.json compiles: tests and test helpers are not part of lib/. */
export function isCompiledSource(name) {
  return name.endsWith('.ts') && !name.endsWith('.d.ts') && !/\.test\.ts$|\.slow\.ts$|\.test-util\.ts$|^test-/.test(name);
}

/**
 * The newest modification time (ms) of what lib/ is compiled from: the
 * compiled sources, the folders that hold them (a file added, removed or
 * renamed changes its folder's time) and the compiler's settings.
 */
export function newestSource(root) {
  let newest = 0;
  const walk = (dir) => {
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (isCompiledSource(entry.name)) newest = Math.max(newest, statSync(join(dir, entry.name)).mtimeMs);
    }
  };
  walk(join(root, 'build'));
  for (const file of ['tsconfig.json', 'tsconfig.build.json']) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

/**
 * 'fresh': lib/ was compiled after every source last changed; 'stale': a
 * source is newer; 'missing': never compiled (or a compile did not finish);
 * 'no-sources': an installed copy without build/, where lib/ is all there is.
 */
export function libState(root) {
  let stamp;
  try {
    stamp = statSync(join(root, 'lib', STAMP)).mtimeMs;
  } catch {
    return 'missing';
  }
  let newest;
  try {
    newest = newestSource(root);
  } catch {
    return 'no-sources';
  }
  return newest <= stamp ? 'fresh' : 'stale';
}

/**
 * A digest of what lib/ is compiled from (each compiled source's path and
 * bytes, the compiler's settings and version): written in the stamp by a
 * compile, compared by the test that lib/ is what the sources give.
 */
export function sourceDigest(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (isCompiledSource(entry.name)) files.push(join(dir, entry.name));
    }
  };
  walk(join(root, 'build'));
  files.sort();
  const hash = createHash('sha256');
  const typescript = JSON.parse(readFileSync(join(root, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
  hash.update(`typescript ${typescript}\0`);
  for (const file of [join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), ...files]) {
    hash.update(relative(root, file) + '\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}
