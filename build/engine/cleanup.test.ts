/**
 * Temp files carry their process's tag with its machine's name: workers on
 * several machines share an output folder and a build cache, and one must
 * never take another machine's live temp file for a dead build's leftover.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOST, OWNER, ownerAlive, removeStale } from './cleanup.js';

/** A pid no process has (above the kernel's pid_max default range). */
const GONE = 4_194_305;

test('a tag names its machine: a dead process of this machine is gone, one of another machine is left to that machine', () => {
  assert.match(OWNER, new RegExp(`^\\d+_\\d+@${HOST}$`));
  assert.equal(ownerAlive(OWNER), true, 'this process runs');
  assert.equal(ownerAlive(`${GONE}_1@${HOST}`), false, 'a dead process here (the control)');
  assert.equal(ownerAlive(`${GONE}_1`), false, 'a tag without a machine (older builds) is this machine’s');
  assert.equal(ownerAlive(`${GONE}_1@anothermachine`), true, 'another machine’s process cannot be seen from here');
});

test('removeStale removes this machine’s dead temps in a shared output folder, never another machine’s', async () => {
  const out = mkdtempSync(path.join(tmpdir(), 'diaoban-cleanup-test-'));
  try {
    const mine = `.book.pdf.${GONE}_1@${HOST}.tmp`;
    const theirs = `.book.pdf.${GONE}_1@anothermachine.tmp`;
    const live = `.book.epub.${OWNER}.tmp`;
    for (const name of [mine, theirs, live]) writeFileSync(path.join(out, name), 'partial');
    // A dead process's temp folder of this machine (diaoban-<tag>-<kind>-…): the tag ends before the kind.
    const folder = mkdtempSync(path.join(tmpdir(), `diaoban-${GONE}_1@${HOST}-chromium-`));
    // The temp folder may hold other dead builds' leftovers too: only ours are looked at.
    const removed = await removeStale([out]);
    assert.ok(removed.includes(folder), `the dead process's temp folder is removed: ${removed.join(', ')}`);
    assert.ok(removed.includes(path.join(out, mine)), 'this machine’s dead temp is removed');
    assert.ok(!removed.includes(path.join(out, theirs)), 'another machine’s is left');
    assert.deepEqual(readdirSync(out).sort(), [live, theirs].sort());
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
