/**
 * The read texts (read-texts.yaml: 75 texts of dev/ and kanripo/, each read
 * against its source by a person before the tool ran on it) measured through
 * the code `check --json` runs (read-texts.test-util.ts): a text the tool
 * misreads must never get the verdict ok, and a text it reads right is
 * flagged for at most one in ten of those. The same measure goes to docs/read-texts.tsv
 * with `npm run corpus`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { loadEdition } from '../engine/load.js';
import { importReports } from '../cli/import-reports.js';
import { CORPORA, measureRead, misreadings, readTexts, tally, type ReadResult } from './read-texts.test-util.js';

test('the read texts: no misread text says ok, at most one in ten read right is flagged, and most are read right', async () => {
  const expected = readTexts();
  assert.ok(expected.length >= 60, `${expected.length} read texts`);
  const results: ReadResult[] = [];
  for (const e of expected) results.push(await measureRead(e));
  const t = tally(results);
  // A misread text must be flagged for its reading: a verdict of check for the conversion's doubt alone names no misreading.
  const unflagged = results.filter((r) => r.misread.length > 0 && !r.readingFlagged).map((r) => `${r.file}: ${r.misread.join('; ')}`);
  assert.deepEqual(unflagged, [], 'misread and not flagged');
  // Of the texts read right, one in ten at most is flagged (6 of 67 when this was written).
  assert.ok(t.rightFlagged <= 0.1 * (t.right + t.rightFlagged), `right but flagged ${t.rightFlagged} of ${t.right + t.rightFlagged} read right`);
  // A floor, so that a change that misreads texts it read right shows here (60 of 75 when this was written).
  assert.ok(t.right >= 60, `right ${t.right} of ${expected.length}: ${results.filter((r) => r.misread.length > 0).map((r) => `${r.file}: ${r.misread[0]}`).join(' | ')}`);
});

test('the measure can fail: a reader who says otherwise than the text is told so, on each point', async () => {
  const [first] = readTexts().filter((e) => e.file === 'dev/chtxt_chunqiu-fanlu.txt');
  assert.ok(first, 'the read text of 春秋繁露');
  const edition = await loadEdition(path.join(CORPORA, first.file));
  const report = importReports(edition)[0];
  assert.deepEqual(misreadings(first, edition.tree, report), []);
  // Negative controls: each point the reader could say otherwise is measured.
  const wrong = misreadings({ ...first, title: '春秋', author: '董仲', volumes: 2, headings: 10, heads: ['某某第一'], main: ['不在此書之句'], share: [0.1, 0.5] }, edition.tree, report);
  assert.equal(wrong.length, 7, wrong.join('; '));
});
