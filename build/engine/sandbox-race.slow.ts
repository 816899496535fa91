/**
 * The sandbox under a race: while another process swaps the folder `sub`
 * of an edition between a real folder, a symbolic link to a folder outside
 * and a folder whose file is a FIFO, the edition (`sources: [sub/a.md]`)
 * is loaded again and again. What is read is what was checked (the open
 * descriptor), so no byte of the outside file is ever read and no load
 * waits on the FIFO; the swaps are seen (each kind of load happens), so the
 * test could fail. (A font, checked at load and read later, is tested in
 * sandbox.test.ts.)
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEdition } from './load.js';

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const SECRET = '秘密之文在外不可讀';
const INSIDE = '主人戒賓';
const LOADS = Number(process.env.DIAOBAN_RACE_LOADS ?? 1500);

/** outer/secret/a.md (outside), and ed/ with three states of `sub` to swap in: sub.dir, sub.link (to outer/secret), sub.fifo. */
function setup(): { outer: string; ed: string } {
  const outer = mkdtempSync(path.join(tmpdir(), 'diaoban-race-'));
  made.push(outer);
  mkdirSync(path.join(outer, 'secret'));
  writeFileSync(path.join(outer, 'secret', 'a.md'), `${SECRET}\n`);
  const ed = path.join(outer, 'ed');
  mkdirSync(path.join(ed, 'sub.dir'), { recursive: true });
  writeFileSync(path.join(ed, 'sub.dir', 'a.md'), `${INSIDE}\n`);
  symlinkSync(path.join(outer, 'secret'), path.join(ed, 'sub.link'));
  mkdirSync(path.join(ed, 'sub.fifo'));
  execFileSync('mkfifo', [path.join(ed, 'sub.fifo', 'a.md')]);
  writeFileSync(path.join(ed, 'edition.yaml'), 'title: 試\nauthor: 某\nsources:\n  - sub/a.md\n');
  return { outer, ed };
}

/** Another process renames each state to `sub` and back, as fast as it can, until killed. */
function swapper(ed: string) {
  const script = `const fs = require('fs'); process.chdir(${JSON.stringify(ed)});
    for (;;) for (const s of ['sub.dir', 'sub.link', 'sub.fifo', 'sub.dir']) { try { fs.renameSync(s, 'sub'); fs.renameSync('sub', s); } catch {} }`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

test(`${LOADS} loads while sub/ is swapped between a folder, a link outside and a FIFO: no outside byte read, no hang`, { timeout: 600_000 }, async () => {
  const { ed } = setup();
  const child = swapper(ed);
  const seen = { read: 0, outside: 0, missing: 0, special: 0 };
  try {
    for (let i = 0; i < LOADS; i++) {
      const loaded = await loadEdition(ed, { raw: true });
      const text = loaded.files.map((f) => (typeof f.value === 'string' ? f.value : Buffer.from(f.value ?? '').toString('utf8'))).join('\n');
      assert.ok(!text.includes(SECRET), `load ${i} read the file outside the edition`);
      assert.ok(!JSON.stringify(loaded.parsed).includes(SECRET), `load ${i} put the file outside in the tree`);
      const rules = loaded.messages.map((m) => m.ruleId);
      if (text.includes(INSIDE)) seen.read++;
      else if (rules.includes('file-outside')) seen.outside++;
      else if (rules.includes('file-kind')) seen.special++;
      else if (rules.includes('file-missing') || rules.includes('file-unreadable')) seen.missing++;
      else assert.fail(`load ${i}: neither read nor refused (${loaded.messages.map(String).join('; ')})`);
    }
  } finally {
    child.kill('SIGKILL');
  }
  console.log(`race: ${LOADS} loads — read ${seen.read}, refused as outside ${seen.outside}, as not a file ${seen.special}, missing ${seen.missing}; 0 outside bytes`);
  assert.ok(seen.read > 0 && seen.outside > 0, 'the swaps were seen (the race was run)');
});
