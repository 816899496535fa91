/**
 * A face's facts (cmap, outlines, vertical origin, digest) are kept in the
 * font cache by the file's stamp: a new process learns them without reading
 * the font files (20–30 MB each), and reads a face's bytes only when they
 * are asked for — the same bytes the digest names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO } from './samples.js';

/** What a new process learns of the stack, and how many bytes it read from files to learn it (/proc/self/io). */
function inNewProcess(fontCache: string): { digests: string[]; covered: boolean[]; readToLearn: number; readForBytes: number; bytesMatch: boolean } {
  const script = `
    import { createHash } from 'node:crypto';
    import { readFileSync } from 'node:fs';
    import { loadFontsOnce, fontDigest } from './build/engine/fonts-memo.ts';
    import { coverage, FONT_STACK } from './build/fonts/index.ts';
    import { toolVersion } from './build/engine/cache.ts';
    toolVersion(); // the tool's own sources, hashed once a process: not what is measured
    const read = () => Number(/rchar: (\\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
    const before = read();
    const fonts = await loadFontsOnce(FONT_STACK);
    const covers = coverage(fonts);
    const digests = fonts.map(fontDigest);
    const covered = ['之', '𠀀', '\\u{30000}'].map((c) => covers(c.codePointAt(0)));
    const learnt = read();
    const bytesMatch = createHash('sha256').update(fonts[0].bytes).digest('hex') === digests[0];
    console.log(JSON.stringify({ digests, covered, readToLearn: learnt - before, readForBytes: read() - learnt, bytesMatch }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, env: { ...process.env, DIAOBAN_FONT_CACHE: fontCache }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

test('a new process learns the stack from the facts kept, reading no font file; a face is read when its bytes are asked for', async () => {
  const fontCache = await mkdtemp(path.join(tmpdir(), 'diaoban-font-facts-'));
  try {
    // Negative control: with nothing kept, learning the stack reads the font files.
    const first = inNewProcess(fontCache);
    assert.ok(first.readToLearn > 20e6, `the first process read the fonts (${first.readToLearn} bytes)`);
    const second = inNewProcess(fontCache);
    assert.ok(second.readToLearn < 1e6, `the next process read ${second.readToLearn} bytes to learn the stack`);
    assert.deepEqual(second.digests, first.digests);
    assert.deepEqual(second.covered, first.covered);
    assert.ok(second.readForBytes > 10e6, 'the face is read when its bytes are asked for');
    assert.ok(second.bytesMatch && first.bytesMatch, 'the bytes read are those the digest names');
  } finally {
    await rm(fontCache, { recursive: true, force: true });
  }
});
