import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInline } from './inline.js';
import { messagesOf, sourceOf, treeText } from './test-helpers.js';
import type { Inline } from '../tree/types.js';

const text = (nodes: Inline[]) => nodes.map(treeText).join('');
const shape = (nodes: Inline[]): unknown =>
  nodes.map((n) => (n.type === 'note' ? { note: n.layer, children: shape(n.children) } : n.type === 'small' ? { small: text(n.children) } : n.type === 'text' ? n.value : 'value' in n ? { [n.type]: n.value } : 'children' in n ? { [n.type]: shape(n.children) } : n.type));

test('【…】 makes a note with its position, main text around it', () => {
  const src = sourceOf('主人戒賓【主人州長也】賓禮辭');
  const nodes = parseInline(src, 0, src.text.length);
  assert.deepEqual(shape(nodes), ['主人戒賓', { note: 'zhu', children: ['主人州長也'] }, '賓禮辭']);
  const note = nodes[1];
  assert.equal(note.position.start.column, 5);
  assert.equal(note.position.end.column, 12);
  assert.equal(note.position.file, 'test.txt');
  assert.deepEqual(messagesOf(src), []);
});

test('a note inside a note nests', () => {
  const src = sourceOf('甲【乙〈丙〉丁】');
  assert.deepEqual(shape(parseInline(src, 0, src.text.length)), ['甲', { note: 'zhu', children: ['乙', { note: 'zhu', children: ['丙'] }, '丁'] }]);
});

test('〈臣〉 is small text, not commentary', () => {
  const src = sourceOf('總纂官〈臣〉紀昀');
  assert.deepEqual(shape(parseInline(src, 0, src.text.length)), ['總纂官', { small: '臣' }, '紀昀']);
});

test('an unclosed 【 is reported where it opens and runs to the end, losing nothing', () => {
  const src = sourceOf('聖王為治【樂由是作○正教之興');
  const nodes = parseInline(src, 0, src.text.length);
  assert.equal(text(nodes), '聖王為治樂由是作○正教之興');
  assert.equal(nodes[1].type, 'note');
  assert.deepEqual(messagesOf(src), ['1:5 bracket-unclosed']);
  assert.equal(src.file.messages[0].fatal, true);
});

test('an unmatched closing bracket is reported and dropped as a marker', () => {
  const src = sourceOf('甲乙〉丙');
  const nodes = parseInline(src, 0, src.text.length);
  assert.equal(text(nodes), '甲乙丙');
  assert.deepEqual(messagesOf(src), ['1:3 bracket-unmatched']);
});

test('□ makes a lacuna; Private Use Area characters make glyphs with their code point', () => {
  const src = sourceOf('從□□手\uE512禾');
  const nodes = parseInline(src, 0, src.text.length);
  assert.deepEqual(shape(nodes), ['從', { lacuna: '□□' }, '手', { glyph: '\uE512' }, '禾']);
  const glyph = nodes[3];
  assert.equal(glyph.type === 'glyph' && glyph.codePoint, 0xe512);
});

test('Extension B characters stay whole', () => {
  const src = sourceOf('主人𤣥冠【𤣥黑】');
  const nodes = parseInline(src, 0, src.text.length);
  assert.deepEqual(shape(nodes), ['主人𤣥冠', { note: 'zhu', children: ['𤣥黑'] }]);
});

test('【附注】 is a label: the rest of the paragraph is a note of the 附注 layer', () => {
  const src = sourceOf('因以為六藝之藝【附注】藝種也');
  const nodes = parseInline(src, 0, src.text.length);
  assert.deepEqual(shape(nodes), ['因以為六藝之藝', { note: 'fuzhu', children: ['藝種也'] }]);
  // The label the source prints is kept for the print and the EPUB (not as text).
  assert.equal(nodes[1].type === 'note' && nodes[1].label, '附注');
});

test('{tag} at the head of a note sets its layer; an unknown tag is warned about and kept', () => {
  const src = sourceOf('射【{音義}食亦反】【{疏}疏曰】【{xyz}乙】');
  const nodes = parseInline(src, 0, src.text.length);
  assert.deepEqual(shape(nodes), ['射', { note: 'yinyi', children: ['食亦反'] }, { note: 'shu', children: ['疏曰'] }, { note: 'xyz', children: ['乙'] }]);
  assert.deepEqual(messagesOf(src), ['1:19 layer-unknown']);
});

test('control characters are reported and left out', () => {
  const src = sourceOf('甲\u0000乙');
  assert.equal(text(parseInline(src, 0, src.text.length)), '甲乙');
  assert.deepEqual(messagesOf(src), ['1:2 control-character']);
});

test('nesting deeper than the limit is reported once and flattened; every character kept', () => {
  const src = sourceOf('【'.repeat(40) + '甲' + '】'.repeat(40) + '乙');
  const nodes = parseInline(src, 0, src.text.length);
  assert.equal(text(nodes), '甲乙');
  assert.deepEqual(messagesOf(src), ['1:17 nesting-too-deep']);
  let depth = 0;
  for (let n: Inline | undefined = nodes[0]; n && n.type === 'note'; n = n.children[0]) depth++;
  assert.equal(depth, 16);
});

test('a line break inside a paragraph joins its lines: no space between CJK, one between Latin words; CRLF and CR too', () => {
  const src = sourceOf('主人戒賓\r\n　賓禮辭\rword\nnext');
  const nodes = parseInline(src, 0, src.text.length);
  assert.equal(text(nodes), '主人戒賓賓禮辭word next');
  assert.deepEqual(messagesOf(src), []);
  assert.equal(nodes[1].position.start.line, 2);
});

test('Kanripo inline: ¶ and <pb:> anchors, a note split by /, entities left for the transform (charmap, then KR-Gaiji)', () => {
  const options = { notes: [{ open: '(', close: ')' }], smallWords: new Set<string>(), split: '/', lineAnchor: '¶', pageAnchor: /<(?:pb|md):([^>\s]+)>/y, entity: /&(KR\d+);/y };
  const src = sourceOf('甲(乙丙/丁)¶<pb:KR1d0026_SBCK_002-1b>&KR0002;&KR0433;');
  const nodes = parseInline(src, 0, src.text.length, options);
  assert.deepEqual(shape(nodes), ['甲', { note: 'zhu', children: ['乙丙', '丁'] }, { anchor: '¶' }, { anchor: '<pb:KR1d0026_SBCK_002-1b>' }, { glyph: '&KR0002;' }, { glyph: '&KR0433;' }]);
  const note = nodes[1];
  assert.equal(note.type === 'note' && note.split, 2);
  const page = nodes[3];
  assert.deepEqual(page.type === 'anchor' && [page.edition, page.juan, page.leaf], ['SBCK', 2, '1b']);
  assert.deepEqual(nodes.slice(4).map((g) => g.type === 'glyph' && [g.entity, g.replacement]), [['KR0002', undefined], ['KR0433', undefined]]);
});

test("CBETA's 組字式 in brackets is a composition; bracketed words, citations and Latin stay text", () => {
  const options = { notes: [{ open: '(', close: ')' }], smallWords: new Set<string>(), formulas: ['[', ']'] as const };
  const src = sourceOf('甲[女*省]乙[臊-品+巳][(ㄇ@人)/ㄙ/月]丙[提要][cf. Nos. 1565-1567][卷上]丁[a*b]');
  const nodes = parseInline(src, 0, src.text.length, options);
  assert.deepEqual(
    nodes.map((n) => (n.type === 'glyph' ? { glyph: n.description } : n.type === 'text' ? n.value : n.type)),
    ['甲', { glyph: '女*省' }, '乙', { glyph: '臊-品+巳' }, { glyph: '(ㄇ@人)/ㄙ/月' }, '丙[提要][cf. Nos. 1565-1567][卷上]丁[a*b]'],
  );
  // Without the option (every other format) brackets are text.
  const plain = parseInline(src, 0, src.text.length, { ...options, formulas: undefined });
  assert.equal(plain.filter((n) => n.type === 'glyph').length, 0);
  assert.match(plain[0].type === 'text' ? plain[0].value : '', /^甲\[女\*省\]乙/u);
});
