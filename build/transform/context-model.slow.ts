/**
 * The shipped context model is what scripts/context-model.ts makes of the
 * corpora, byte for byte (the table is generated data: a change of the
 * corpora, of the counting or of the pruning shows here until the table is
 * rebuilt). Slow: it reads and counts every traditional text (~1 min).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TABLE, tableText } from '../../scripts/context-model.js';
import { traditionalTexts } from '../../scripts/conversion-corpus.js';

test('context-model.tsv is the rebuild of the corpora, byte for byte', () => {
  const rebuilt = tableText(traditionalTexts());
  const shipped = readFileSync(TABLE, 'utf8');
  assert.ok(rebuilt.length > 100_000, 'the corpora were read');
  assert.equal(rebuilt === shipped, true, 'build/transform/context-model.tsv differs from a rebuild: run npx tsx scripts/context-model.ts');
});
