/**
 * The EPUB worker: the same EPUB as this thread makes, a worker a job, and
 * this thread's fonts left as they were.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { fontStackFor } from '../fonts/index.js';
import { renderEpub } from '../render/epub/index.js';
import { renderEpubInThread } from './epub-thread.js';
import { loadFontsOnce } from './fonts-memo.js';
import { loadSample } from './samples.js';

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

test('the worker makes the EPUB this thread would, job after job (each in a worker of its own), and leaves this thread its fonts', async () => {
  const { tree } = await loadSample('lishu');
  const specs = fontStackFor();
  const fonts = await loadFontsOnce(specs);
  const before = fonts.map((f) => digest(f.bytes));
  const options = { date: '2024-01-01' };
  const here = await renderEpub(tree, { ...options, fonts });
  // The first job's worker ends with it; the second starts another.
  const first = await renderEpubInThread(tree, options, specs, undefined);
  const second = await renderEpubInThread(tree, options, specs, undefined);
  assert.equal(digest(first), digest(here));
  assert.equal(digest(second), digest(here));
  // The worker reads its own faces: the fonts this thread keeps (the PDF's) are not handed over (detached) nor changed.
  assert.deepEqual(
    fonts.map((f) => digest(f.bytes)),
    before,
  );
});
