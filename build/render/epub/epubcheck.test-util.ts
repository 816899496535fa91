/** epubcheck on one file, for tests: its CLI's summary line read (fatals and errors counted together). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

export function epubcheck(file: string): { errors: number; output: string } {
  const r = spawnSync('java', ['-jar', '/usr/share/java/epubcheck.jar', file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const output = `${r.stdout}\n${r.stderr}`;
  const m = /Messages: (\d+) fatals? \/ (\d+) errors?/.exec(output);
  assert.ok(m, `epubcheck gave no summary:\n${output}`);
  return { errors: Number(m[1]) + Number(m[2]), output };
}
