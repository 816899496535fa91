import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutBook } from './book.js';
import { layoutToJson } from './json.js';
import { formatLayout, parsePageList, renderPageText } from './text.js';
import { lacuna, note, p, root, testSpec, volume } from './test-helpers.js';

const spec = testSpec(3, 4);
const book = layoutBook(root(volume('卷一', p('經文', note('zhu', '注一二')), p('甲乙丙丁戊'), p('己', note('zhu', '注', lacuna())))), spec);

test('renderPageText draws columns right to left, a note cell as right then left character', () => {
  const lines = renderPageText(book.volumes[0].pages[0], spec).split('\n');
  assert.match(lines[0], /page 1 · 卷一 p\.1 leaf 1 recto/);
  const rows = lines.slice(1, 1 + spec.cells);
  // three columns: leftmost is column 2 (戊), rightmost column 0 (經文…)
  assert.equal(rows[0], '|戊　|甲　|經　|');
  assert.equal(rows[1], '|　　|乙　|文　|');
  assert.equal(rows[2], '|　　|丙　|注二|');
  assert.equal(rows[3], '|　　|丁　|一　|');
});

test('layoutToJson is stable: fixed key order whatever the object order', () => {
  const json = layoutToJson(book);
  const shuffled = JSON.parse(json, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
  );
  assert.equal(layoutToJson(shuffled), json);
  assert.ok(json.startsWith('{"spec":{"columns":3,"cells":4,'));
  assert.ok(json.includes('"right":[{"layer":"zhu","depth":1,"text":"注"}],"left":[{"layer":"zhu","depth":1,"text":"□","style":"lacuna"}]'), json);
});

test('formatLayout selects pages and prints text or JSON', () => {
  const two = layoutBook(root(volume('一', p('一')), volume('二', p('二'))), spec);
  const text = formatLayout(two, { pages: [3] });
  assert.match(text, /^page 3 · 二 p\.1/);
  assert.doesNotMatch(text, /page 1 /);
  const json = JSON.parse(formatLayout(two, { json: true, pages: [1, 2] }));
  assert.deepEqual(json.volumes.map((v: { pages: { number: number }[] }) => v.pages.map((pg) => pg.number)), [[1, 2]]);
});

test('parsePageList', () => {
  assert.deepEqual(parsePageList('1-4,7'), [1, 2, 3, 4, 7]);
  assert.throws(() => parsePageList('x'), /pages/);
  assert.throws(() => parsePageList('4-2'), /bad range/);
});
