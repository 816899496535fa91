/**
 * Benchmark of starting diaoban, as a user runs it: each command a new
 * process of the compiled bin (bin/diaoban.js running lib/; compiled first
 * here when build/ is newer, as `npm run prepare` would):
 * - `diaoban --help`,
 * - `diaoban check <file>` for each text in ../shared/corpora/ (fonts
 *   checked, as by default),
 * - and, the floor to compare with, Node's own bare start (`node -e 0`),
 * - and `--help` from the sources through tsx, as the bin ran before lib/.
 * Rounds are interleaved (each round runs every command once) so that the
 * shared machine's load falls on all of them alike; each figure is the
 * median of five rounds, with its ratio to Node's start in the same run.
 * Targets: `--help` ≤ 200 ms and each check ≤ 500 ms on an idle machine.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../build/engine/samples.js';
import { BIN, ensureCompiled } from './cli-build.js';

const ROUNDS = 5;
const CORPORA = join(REPO, '..', 'shared', 'corpora');

interface Command {
  name: string;
  args: string[];
}

/** Wall time of one run (ms); a crash, or an exit code of ours (2), fails the bench. */
function timeRun(command: Command): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, command.args, { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // check exits 1 for errors in a text: the text's, not a failed start.
  if (result.status === null || result.status > 1) throw new Error(`${command.name}: exit ${result.status ?? result.signal}: ${result.stderr.slice(0, 400)}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function run(): Promise<Record<string, number | string>> {
  ensureCompiled();
  const texts = readdirSync(CORPORA).filter((f) => f.endsWith('.txt')).sort();
  const commands: Command[] = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: '--help', args: [BIN, '--help'] },
    { name: '--help, sources via tsx', args: ['--import', 'tsx', join(REPO, 'build', 'cli', 'main.ts'), '--help'] },
    ...texts.map((t) => ({ name: `check ${t.replace(/\.txt$/, '')}`, args: [BIN, 'check', join(CORPORA, t)] })),
  ];
  const times = new Map<string, number[]>(commands.map((c) => [c.name, []]));
  // A first run of each warms the page cache (the bin, node_modules, the fonts' cmaps), as any run but a machine's first finds it.
  for (const c of commands) timeRun(c);
  for (let round = 0; round < ROUNDS; round++) for (const c of commands) times.get(c.name)!.push(timeRun(c));

  const node = median(times.get('node -e 0')!);
  const figures: Record<string, number | string> = { 'node -e 0 (ms)': Math.round(node) };
  let slowest = 0;
  for (const c of commands.slice(1)) {
    const ms = median(times.get(c.name)!);
    if (c.name.startsWith('check ')) slowest = Math.max(slowest, ms);
    figures[`${c.name} (ms)`] = Math.round(ms);
    figures[`${c.name} / node`] = ms / node;
  }
  figures['check, slowest text (ms)'] = Math.round(slowest);
  return figures;
}
