/** An edition's patterns on RE2: linear time, JavaScript's meaning where the two differ (\s), refusals said plainly. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePattern, execWithIndices, MAX_PATTERN_LENGTH } from './pattern.js';

const compiled = (source: string) => {
  const c = compilePattern(source);
  if ('problem' in c) throw new Error(c.problem);
  return c.pattern;
};

test('patterns mean what they mean in JavaScript: \\s and \\S take U+3000, \\p{Script=Han}, groups and their offsets', () => {
  for (const [source, text, want] of [
    ['^(卷\\S+)\\s+(\\S.*)$', '卷一　鄉射禮', true],
    ['^卷\\S+$', '卷一　鄉射禮', false],
    ['[\\s\\d]+', '　', true],
    ['^[^\\s]+$', '主人　', false],
    ['^[\\S]+$', '主人戒賓', true],
    ['^[\\S]+$', '主人　戒賓', false],
    ['^\\p{Script=Han}+$', '主人𠀀', true],
    ['^\\p{Script=Han}+$', '主人a', false],
  ] as const) {
    assert.equal(compiled(source).test(text), want, `${source} on ${text}`);
    assert.equal(new RegExp(source, 'u').test(text), want, `JavaScript agrees: ${source} on ${text}`);
  }
  const m = execWithIndices(compiled('^(𠀀主+)(戒)?(賓)?'), '𠀀主主戒x');
  assert.deepEqual([...m!], ['𠀀主主戒', '𠀀主主', '戒', undefined]);
  assert.deepEqual((m as RegExpExecArray & { indices: unknown[] }).indices, [[0, 5], [0, 4], [4, 5], undefined]);
});

test('a pattern that backtracks runs in linear time; lookaround, backreferences and length are refused', () => {
  assert.equal(compiled('^(主+)+$').test(`${'主'.repeat(10_000)}戒`), false);
  assert.match((compilePattern('(?<=愚)謂') as { problem: string }).problem, /cannot run in linear time/);
  assert.match((compilePattern('(a)\\1') as { problem: string }).problem, /cannot run in linear time/);
  assert.match((compilePattern('(') as { problem: string }).problem, /is not a valid regular expression/);
  assert.match((compilePattern('a'.repeat(MAX_PATTERN_LENGTH + 1)) as { problem: string }).problem, /at most 1000/);
});
