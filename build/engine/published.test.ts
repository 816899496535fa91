/**
 * The output folder's fence (published.ts): a version older than the one
 * published there is never renamed into place, whatever Redis says; the
 * same version (the job's next file, or its retry) is; a newer one is and
 * prunes the older records; a writer that stalled between its check and its
 * rename (simulated: a newer version is published inside its rename) finds
 * out and says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { latestPublished, publishedDir, publishFenced } from './published.js';

async function folder(): Promise<{ out: string; dir: string; write: (name: string, text: string) => Promise<{ temp: string; target: string }> }> {
  const out = await mkdtemp(path.join(tmpdir(), 'diaoban-published-'));
  const dir = publishedDir(out, 'shiji/zhonghua');
  return {
    out,
    dir,
    write: async (name, text) => {
      const temp = path.join(out, `.${name}.tmp`);
      await writeFile(temp, text);
      return { temp, target: path.join(out, name) };
    },
  };
}

test('a version older than the published one is refused, the same and newer are renamed into place', async () => {
  const { out, dir, write } = await folder();
  try {
    assert.equal(dir, path.join(out, 'catalogue', 'shiji', 'zhonghua.published'));
    assert.deepEqual(publishFenced(await write('a.pdf', 'v7'), dir, 7, '{"job":"j7"}'), { published: true });
    assert.equal(await readFile(path.join(out, 'a.pdf'), 'utf8'), 'v7');
    const old = await write('a.pdf', 'v5');
    const refused = publishFenced(old, dir, 5, '{"job":"j5"}');
    assert.equal(refused.published, false);
    assert.equal('newer' in refused && refused.newer.version, 7, 'refused with the version published');
    assert.equal(await readFile(path.join(out, 'a.pdf'), 'utf8'), 'v7', 'the older version did not replace it');
    assert.equal(await readFile(old.temp, 'utf8'), 'v5', 'the temp file is left for the caller to remove');
    assert.deepEqual(publishFenced(await write('a.epub', 'v7'), dir, 7, '{"job":"j7"}'), { published: true }, 'the same version: its next file');
    assert.deepEqual(publishFenced(await write('a.pdf', 'v9'), dir, 9, '{"job":"j9"}'), { published: true });
    assert.deepEqual(await readdir(dir), ['9'], 'the older record pruned');
    assert.deepEqual(latestPublished(dir), { version: 9, entry: '{"job":"j9"}' });
    // The negative control: without a record, any version is written (the fence compares, it does not refuse by itself).
    const other = publishedDir(out, 'other');
    assert.deepEqual(publishFenced(await write('b.pdf', 'v1'), other, 1, ''), { published: true });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('a writer that stalled between its check and its rename finds the newer version it overwrote', async (t) => {
  const { out, dir, write } = await folder();
  try {
    publishFenced(await write('a.pdf', 'v7'), dir, 7, '{"job":"j7"}');
    // Inside the stalled writer's rename, another worker publishes version 8 (its record first, as publishFenced does).
    const rename = fs.renameSync;
    t.mock.method(fs, 'renameSync', (from: fs.PathLike, to: fs.PathLike) => {
      fs.writeFileSync(path.join(dir, '8'), '{"job":"j8"}');
      rename(from, to);
    });
    syncBuiltinESMExports();
    const result = publishFenced(await write('a.pdf', 'v7 again'), dir, 7, '{"job":"j7"}');
    t.mock.restoreAll();
    syncBuiltinESMExports();
    assert.equal(result.published, false);
    assert.deepEqual('overwrote' in result && result.overwrote, { version: 8, entry: '{"job":"j8"}' }, 'it names the version it overwrote, for its job to run again');
    assert.ok((await readdir(dir)).includes('8'), 'the newer record is never removed by the older writer');
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
