/**
 * watch follows a file through a symbolic-link episode (issue 29).
 * Reproduction: after a source was briefly a symbolic link (`ln -sf`, even to
 * a file inside the edition) and then a file again, no later save of it
 * rebuilt, and nothing was said: Node's recursive watcher stopped reporting
 * it. Each folder now has a watcher of its own; what a link means for the
 * build is said when a file becomes one, and when it is a file again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { linkNotice, watchTree } from './watch.js';
import { until as waitUntil } from '../engine/until.test-util.js';

const until = (what: string, condition: () => boolean): Promise<void> => waitUntil(what, condition, { ms: 10_000, every: 20 });

test('saves are seen after a source was a symbolic link for a moment, in a subfolder made later too', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-watch-links-'));
  writeFileSync(path.join(dir, 'text.txt'), '一');
  writeFileSync(path.join(dir, 'other.txt'), '二');
  const changes: string[] = [];
  const tree = watchTree(dir, (_event, name) => changes.push(String(name)), () => undefined, () => undefined);
  const seen = async (name: string, write: () => void): Promise<void> => {
    changes.length = 0;
    write();
    await until(`a change of ${name}`, () => changes.includes(name));
  };
  try {
    await seen('text.txt', () => writeFileSync(path.join(dir, 'text.txt'), '三'));
    // ln -sf other.txt text.txt: a link made beside it and renamed over it.
    await seen('text.txt', () => {
      symlinkSync('other.txt', path.join(dir, 'link.tmp'));
      renameSync(path.join(dir, 'link.tmp'), path.join(dir, 'text.txt'));
    });
    await seen('text.txt', () => {
      rmSync(path.join(dir, 'text.txt'));
      writeFileSync(path.join(dir, 'text.txt'), '四');
    });
    // Before: this save, and every later one, was never reported.
    await seen('text.txt', () => writeFileSync(path.join(dir, 'text.txt'), '五'));
    mkdirSync(path.join(dir, 'juan'));
    await new Promise((r) => setTimeout(r, 100));
    await seen(path.join('juan', 'a.txt'), () => writeFileSync(path.join(dir, 'juan', 'a.txt'), '六'));
  } finally {
    tree.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that becomes a link, and a file again, is said once each time', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-watch-links-'));
  try {
    const kinds = new Map<string, 'link' | 'file'>();
    writeFileSync(path.join(dir, 'text.txt'), '一');
    writeFileSync(path.join(dir, 'other.txt'), '二');
    assert.equal(linkNotice(dir, 'text.txt', kinds), undefined, 'a file: nothing to say');
    rmSync(path.join(dir, 'text.txt'));
    symlinkSync('other.txt', path.join(dir, 'text.txt'));
    assert.equal(linkNotice(dir, 'text.txt', kinds), 'diaoban watch: text.txt is a symbolic link now (to other.txt); saves to other.txt rebuild it');
    assert.equal(linkNotice(dir, 'text.txt', kinds), undefined, 'said once');
    rmSync(path.join(dir, 'text.txt'));
    symlinkSync('/etc/hostname', path.join(dir, 'text.txt'));
    kinds.delete('text.txt');
    assert.match(linkNotice(dir, 'text.txt', kinds) ?? '', /to \/etc\/hostname\); saves to that file, outside the edition, are not seen \(and the build reads it only with --allow-read\)/);
    rmSync(path.join(dir, 'text.txt'));
    writeFileSync(path.join(dir, 'text.txt'), '三');
    assert.equal(linkNotice(dir, 'text.txt', kinds), 'diaoban watch: text.txt is a file again; its saves rebuild the edition');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
