/**
 * The table of marks and the edition's setting: every mark of clreq's
 * appendix A has a row with a class, a width, its 禁則 and a way to be set
 * vertically; edition.yaml's `punctuation` is read with clear messages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { MARKS, defaultStandard, isPunctuated, markOf, noEndAt, noStartAt, readPunctuationSetting, reflowClasses } from './index.js';
import { parseEditionYaml } from '../parse/edition.js';

test('the table: clreq appendix A marks, each with a class, width, 禁則, adjustable space and a vertical placement per standard', () => {
  const appendixA = '。．，、：；！‼？⁇「」『』“”‘’（）—《》〈〉…～–·‧／【】〖〗〔〕［］｛｝';
  for (const ch of appendixA) assert.ok(markOf(ch), `${ch} in the table`);
  for (const row of MARKS) {
    for (const std of ['mainland', 'taiwan'] as const) {
      assert.ok(row.place[std] === 'font' || row.place[std] === 'line' || row.place[std] === 'corner' || typeof row.place[std] === 'object', `${row.char} ${std}`);
      assert.ok(['start', 'end', 'centre', 'fixed'].includes(row.ink[std]));
    }
    assert.ok(row.cells === 1 || row.cells === 2);
  }
  // Closing marks may not head a column, opening ones not end it; the 句讀 forms of the pauses.
  assert.ok(markOf('」')!.noStart && !markOf('」')!.noEnd && markOf('「')!.noEnd && !markOf('「')!.noStart);
  assert.deepEqual(Array.from('。？！；，、：').map((c) => markOf(c)!.judou), ['circle', 'circle', 'circle', 'circle', 'dot', 'dot', 'dot']);
  assert.deepEqual(Array.from('「《（——…').map((c) => markOf(c)!.judou), [null, null, null, null, null, null]);
  // Mainland points upper right, Taiwan's centred (the PDF anchors their ink there).
  const comma = markOf('，')!;
  assert.ok(typeof comma.place.mainland === 'object' && comma.place.mainland.x > 0.5 && comma.place.mainland.y < 0.5);
  assert.deepEqual(comma.place.taiwan, { x: 0.5, y: 0.5 });
  // Negative control: ideographs and ○ are not marks.
  for (const ch of '天○□〓a1') assert.equal(markOf(ch), undefined, ch);
});

test('禁則 levels: basic < gb < strict; none keeps nothing', () => {
  const row = (c: string) => markOf(c)!;
  assert.deepEqual((['none', 'basic', 'gb', 'strict'] as const).map((l) => noStartAt(row('。'), l)), [false, true, true, true]);
  assert.deepEqual((['none', 'basic', 'gb', 'strict'] as const).map((l) => noStartAt(row('·'), l)), [false, false, true, true]);
  assert.deepEqual((['none', 'basic', 'gb', 'strict'] as const).map((l) => noStartAt(row('…'), l)), [false, false, false, true]);
  assert.deepEqual((['none', 'basic'] as const).map((l) => noEndAt(row('「'), l)), [false, true]);
});

test('punctuated or bare, and the defaults per template and language', () => {
  assert.ok(isPunctuated('天地玄黃，宇宙洪荒。日月盈昃，辰宿列張。寒來暑往，秋收冬藏。'));
  assert.ok(!isPunctuated('天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲'));
  assert.equal(defaultStandard('half', 'zh-Hans', true), 'mainland');
  assert.equal(defaultStandard('half', 'zh-Hant', true), 'taiwan');
  assert.equal(defaultStandard('rigid', 'zh-Hant', true), 'judou');
  assert.equal(defaultStandard('rigid', 'zh-Hant', false), 'none');
  assert.equal(reflowClasses({ standard: 'judou' }, 'zh-Hant'), 'punct-taiwan');
  assert.equal(reflowClasses({ standard: 'mainland', hanging: true }, 'zh-Hant'), 'punct-mainland punct-hanging');
});

test('edition.yaml: punctuation as a standard or a mapping; wrong values get a message at their place', () => {
  assert.deepEqual(readPunctuationSetting('mainland'), { setting: { standard: 'mainland' }, problems: [] });
  assert.deepEqual(readPunctuationSetting({ standard: 'taiwan', adjacent: 1, hanging: true, kinsoku: 'strict' }).setting, { standard: 'taiwan', adjacent: 1, hanging: true, kinsoku: 'strict' });
  assert.equal(readPunctuationSetting('european').problems.length, 1);
  assert.equal(readPunctuationSetting({ adjacent: 2 }).problems.length, 1);
  const file = new VFile({ path: 'edition.yaml', value: 'title: 禮書\nauthor: 陳祥道\nsources:\n  - a.md\npunctuation:\n  standard: judo\n  hanging: true\nlayout:\n  tracking: 0.1\n  align:\n    title: center\n' });
  const { config } = parseEditionYaml(file, 'x');
  assert.deepEqual(config?.meta.punctuation, { hanging: true });
  assert.equal(config?.layout.tracking, 0.1);
  assert.deepEqual(config?.layout.align, { title: 'center' });
  assert.deepEqual(file.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['6:3 edition-field']);
  assert.match(String(file.messages[0].reason), /punctuation must be one of mainland, taiwan, judou, none/);
});
