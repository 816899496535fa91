/**
 * charmap.yaml is read in time linear in its size (issue 29). Reproduction:
 * a generated charmap of 100,000 entries took 101 s, 200,000 took 698 s
 * (the 32 MiB limit allows ~2.5 million): the YAML library compared each
 * key with every one before it. Keys are now checked in one pass; a key
 * given twice is an error at its place, the first kept; a code point past
 * U+10FFFF is an error at its place, not a RangeError.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { parseCharmap } from './edition.js';

const charmap = (lines: readonly string[]): VFile => new VFile({ path: 'charmap.yaml', value: lines.join('\n') + '\n' });

test('60,000 entries are read in one pass', () => {
  const lines = Array.from({ length: 60_000 }, (_, i) => `U+${(0x20000 + i).toString(16).toUpperCase()}: 字`);
  // A bound, not a speed figure (the parse is synchronous): ~3 s on a loaded machine now, ~100 s before.
  const started = performance.now();
  const map = parseCharmap(charmap(lines));
  assert.ok(performance.now() - started < 30_000, `read in ${(performance.now() - started).toFixed(0)} ms`);
  assert.equal(Object.keys(map).length, 60_000);
  assert.equal(map['\u{20000}'], '字');
});

test('a key given twice is an error at the second, the first kept; past U+10FFFF an error, not a crash', () => {
  const file = charmap(['U+E000: 甲', 'U+E001: 乙', 'U+E000: 丙', 'U+110000: 丁']);
  const map = parseCharmap(file);
  assert.equal(map['\uE000'], '甲');
  assert.equal(map['\uE001'], '乙');
  const where = file.messages.map((m) => `${m.line}:${m.column} ${m.reason}`);
  assert.ok(where.includes('3:1 charmap entry "U+E000" is given twice (first on line 1); the first is kept'), where.join('\n'));
  assert.ok(where.includes('4:1 charmap entry "U+110000" is past U+10FFFF, the last code point'), where.join('\n'));
  assert.ok(file.messages.every((m) => m.fatal), 'errors');
});
