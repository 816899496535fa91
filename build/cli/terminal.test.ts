/** The terminal encoder: control characters shown escaped, everything else as it is. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forTerminal, jsonForTerminal } from './terminal.js';

test('forTerminal escapes C0, DEL, C1 and bidi controls and keeps text, tabs and CJK', () => {
  assert.equal(forTerminal('主人\t戒賓 《禮》'), '主人\t戒賓 《禮》');
  assert.equal(forTerminal('a\nb\rc\u001b[2Kd\u0007'), 'a\\nb\\rc\\e[2Kd\\x07');
  assert.equal(forTerminal('\u009b31m\u007f'), '\\x9B31m\\x7F');
  assert.equal(forTerminal('\u202egnp.exe\u2066x\u2069'), '\\u202Egnp.exe\\u2066x\\u2069');
});

test('jsonForTerminal keeps JSON valid and the same value, indented too', () => {
  const value = { t: 'a\u009b\u202eb\u001b\n', list: [1, 2] };
  assert.deepEqual(JSON.parse(jsonForTerminal(JSON.stringify(value, null, 1))), value);
  const shown = jsonForTerminal(JSON.stringify(value));
  assert.doesNotMatch(shown, /[\u0000-\u001f\u007f-\u009f\u202e]/u);
  assert.deepEqual(JSON.parse(shown), value);
});
