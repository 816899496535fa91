import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSystemFonts } from '../../fonts/load.js';
import { subsetFonts } from '../../fonts/subset.js';
import { COVER_SIZE, coverPng, coverSvg } from './cover.js';

test('cover SVG: title and author drawn as outlines, one column each, top to bottom', async () => {
  const fonts = await subsetFonts(await loadSystemFonts(), '儀禮注疏漢　鄭玄𠀀');
  const svg = coverSvg('儀禮注疏', '漢　鄭玄𠀀', fonts);
  const at = (fill: string): number[][] =>
    [...svg.matchAll(new RegExp(`<g fill="${fill}" transform="translate\\(([\\d.]+),([\\d.]+)\\)`, 'g'))].map((m) => [Number(m[1]), Number(m[2])]);
  const title = at('#111111');
  const author = at('#f4ecd8');
  assert.equal(title.length, 4);
  assert.equal(author.length, 4, 'the ideographic space takes a cell but draws nothing; 𠀀 comes from HanaMin');
  for (const col of [title, author]) {
    assert.ok(col.every(([x]) => x === col[0][0]), 'one column');
    assert.ok(col.every(([, y], i) => i === 0 || y > col[i - 1][1]), 'top to bottom');
  }
  assert.ok(author[0][0] > title[0][0], 'the author column stands right of the title slip');
  assert.ok(!svg.includes('<text'), 'no text elements: nothing depends on fonts on the device');
});

test('cover PNG: the declared size, deterministic, with ink where the title is', async () => {
  const fonts = await subsetFonts(await loadSystemFonts(), '禮經本義清　蔡德晉');
  const a = coverPng('禮經本義', '清　蔡德晉', fonts);
  const b = coverPng('禮經本義', '清　蔡德晉', fonts);
  assert.ok(Buffer.from(a).equals(Buffer.from(b)));
  const dv = new DataView(a.buffer, a.byteOffset);
  assert.equal(dv.getUint32(0), 0x89504e47, 'PNG signature');
  assert.equal(dv.getUint32(16), COVER_SIZE.width);
  assert.equal(dv.getUint32(20), COVER_SIZE.height);
  const blank = coverPng('', '', fonts);
  assert.ok(a.byteLength > blank.byteLength + 5000, 'lettering adds detail');
});
