/**
 * lib/ is byte for byte what tsc makes of the sources now (its JavaScript;
 * the source maps name lib/'s place): compiled again into a temporary folder
 * and compared file by file, with a changed source as the negative control.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO } from '../engine/samples.js';

const require = createRequire(import.meta.url);
const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function compile(): string {
  const out = mkdtempSync(path.join(tmpdir(), 'diaoban-lib-'));
  made.push(out);
  const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(REPO, 'tsconfig.build.json'), '--outDir', out], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  return out;
}

/** Every .js file under `dir`, by path relative to it. */
function scripts(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const full = path.join(entry.parentPath, entry.name);
    found.set(path.relative(dir, full), readFileSync(full, 'utf8'));
  }
  return found;
}

test('lib/ holds exactly the JavaScript tsc makes of build/ now', () => {
  const fresh = scripts(compile());
  const lib = scripts(path.join(REPO, 'lib'));
  assert.ok(fresh.size > 50);
  assert.deepEqual([...lib.keys()].sort(), [...fresh.keys()].sort());
  for (const [file, text] of fresh) assert.equal(lib.get(file), text, `lib/${file} differs from a compile of the sources: run npm run prepare`);
  // Negative control: a compile of other sources differs.
  const changed = new Map(fresh);
  changed.set('cli/main.js', fresh.get('cli/main.js') + '\n');
  assert.notDeepEqual(changed, lib);
});
