/**
 * `build DIR --jobs 2` without Redis, for real: a build process SIGKILLed
 * while it builds fails its edition alone (the others are built, in the same
 * bytes as one at a time; no half-written file is visible), the next build
 * builds that edition alone, and after a one-character correction the next
 * builds the corrected edition alone.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { smallCollection } from './collection.test-util.js';
import { REPO } from './samples.js';
import { until } from './until.test-util.js';

const CLI = path.join(REPO, 'bin', 'diaoban.js');
const COUNT = 8;
let root: string;

function env(cache: string): NodeJS.ProcessEnv {
  return { ...process.env, SOURCE_DATE_EPOCH: '1767225600', DIAOBAN_FONT_CACHE: path.join(root, 'fonts'), DIAOBAN_CACHE: path.join(root, cache) };
}

function cli(args: string[], cache: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, env: env(cache), encoding: 'utf8', timeout: 1_200_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The outputs of a folder: name → bytes (temp files and the catalogue apart). */
async function outputs(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const name of (await readdir(dir)).sort()) if (/\.(pdf|epub)$/.test(name) && !name.startsWith('.')) files.set(name, await readFile(path.join(dir, name)));
  return files;
}

/** The pids whose parent is `pid` (from /proc). */
async function children(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) found.push(Number(entry));
  }
  return found;
}


before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-jobs-'));
  await smallCollection(path.join(root, 'coll'), COUNT);
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('build DIR --jobs 2: a killed build process fails its edition alone; the next build builds it alone, and a correction alone', { timeout: 3_600_000 }, async () => {
  const one = cli(['build', 'coll', '--jobs', '1', '--out', 'one'], 'cache-one');
  assert.equal(one.status, 0, one.stderr);
  const reference = await outputs(path.join(root, 'one'));
  assert.equal(reference.size, 2 * COUNT);

  // --jobs 2 into its own folder with its own cache, so that every edition is printed: from one's cache the editions
  // were only assembled, and a fast machine finished them all before the kill could land in one. One build process killed.
  const child = spawn(process.execPath, [CLI, 'build', 'coll', '--jobs', '2', '--out', 'two'], { cwd: root, env: env('cache-two'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // After the first edition ends, both build processes hold an edition (the next is sent as one ends).
  await until('an edition built', () => /two\/ed\d\d\.pdf: \d+ page/.test(stderr));
  const builders = await children(child.pid!);
  assert.equal(builders.length, 2, `two build processes: ${builders.join(', ')}`);
  process.kill(builders[0]!, 'SIGKILL');
  const status = await exited;
  assert.equal(status, 1, `an edition not built makes the exit 1: ${stderr}`);
  const dead = [...stderr.matchAll(/^(ed\d\d): not built: its build process ended \(SIGKILL\); build it again$/gm)].map((m) => m[1]!);
  assert.equal(dead.length, 1, `one edition lost with its process: ${stderr}`);
  const killed = dead[0]!;
  assert.match(stdout, new RegExp(`^${killed}\\s.*failed`, 'm'), 'the summary table says so');
  const two = await outputs(path.join(root, 'two'));
  for (const [name, bytes] of reference) {
    if (name.startsWith(`${killed}.`)) continue;
    assert.ok(two.get(name)?.equals(bytes), `${name}: the same bytes as one at a time`);
  }
  // Whatever of the killed edition is visible is whole: absent, or the same bytes.
  for (const ext of ['pdf', 'epub']) {
    const got = two.get(`${killed}.${ext}`);
    assert.ok(got === undefined || got.equals(reference.get(`${killed}.${ext}`)!), `${killed}.${ext} whole or absent`);
  }
  const temps = (await readdir(path.join(root, 'two'))).filter((n) => n.endsWith('.tmp'));
  assert.ok(temps.every((n) => n.startsWith('.') && n.includes(`.${builders[0]}_`)), `temps only hidden and the killed process's: ${temps.join(', ')}`);
  const catalogue = JSON.parse(await readFile(path.join(root, 'two', 'catalogue.json'), 'utf8')) as { editions: Array<{ name: string; status: string }> };
  assert.equal(catalogue.editions.length, COUNT, 'the catalogue lists every edition');
  assert.equal(catalogue.editions.find((e) => e.name === killed)?.status, 'failed', 'the lost edition as failed');

  // The next build builds the lost edition alone.
  const again = cli(['build', 'coll', '--jobs', '2', '--out', 'two'], 'cache-two');
  assert.equal(again.status, 0, again.stderr);
  const fresh = (text: string): string[] => [...text.matchAll(/^(ed\d\d)\s.*\sbuilt\s{2}/gm)].map((m) => m[1]!);
  // The lost edition is built again, no other — or none, when the kill came after its outputs and its manifest were
  // whole (its process died before it could say so): then it is up to date, as it is.
  const rebuilt = fresh(again.stdout);
  assert.ok(rebuilt.length === 0 || (rebuilt.length === 1 && rebuilt[0] === killed), again.stdout);
  const listed = JSON.parse(await readFile(path.join(root, 'two', 'catalogue.json'), 'utf8')) as { editions: Array<{ name: string; status: string }> };
  assert.notEqual(listed.editions.find((e) => e.name === killed)?.status, 'failed', 'the lost edition is in the catalogue as built now');
  assert.deepEqual(await outputs(path.join(root, 'two')), reference, 'the collection whole, in the same bytes');
  assert.deepEqual((await readdir(path.join(root, 'two'))).filter((n) => n.endsWith('.tmp')), [], 'the killed process’s temps removed');

  // A one-character correction: that edition alone is built again.
  const fixed = path.join(root, 'coll', 'ed03', 'text.txt');
  await writeFile(fixed, (await readFile(fixed, 'utf8')).replace('禮書選', '禮書撰'));
  const corrected = cli(['build', 'coll', '--jobs', '2', '--out', 'two'], 'cache-two');
  assert.equal(corrected.status, 0, corrected.stderr);
  assert.deepEqual(fresh(corrected.stdout), ['ed03'], corrected.stdout);
  const after = await outputs(path.join(root, 'two'));
  for (const [name, bytes] of after) {
    if (name.startsWith('ed03.')) assert.ok(!bytes.equals(reference.get(name)!), `${name} changed`);
    else assert.ok(bytes.equals(reference.get(name)!), `${name} untouched`);
  }
});
