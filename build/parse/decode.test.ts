import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { decodeSource } from './decode.js';

const SAMPLE = '鄉射之禮主人戒賓賓出迎再拜主人答再拜乃請【主人州長也鄉大夫若在焉則稱鄉大夫也戒猶警也語也】賓禮辭許';
const SIMPLIFIED = '乡射之礼主人戒宾宾出迎再拜主人答再拜乃请【主人州长也乡大夫若在焉则称乡大夫也戒犹警也语也】宾礼辞许';

test('UTF-8 is read as it is, a BOM dropped', () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(SAMPLE)]);
  const d = decodeSource(bytes);
  assert.equal(d.text, SAMPLE);
  assert.equal(d.encoding, 'UTF-8');
  assert.deepEqual(d.problems, []);
});

test('GB18030 is detected, decoded and reported with the command that converts it', () => {
  const d = decodeSource(iconv.encode(SIMPLIFIED.repeat(3), 'gb18030'));
  assert.equal(d.text, SIMPLIFIED.repeat(3));
  assert.equal(d.encoding, 'GB18030');
  assert.match(d.problems[0].reason, /iconv -f GB18030 -t UTF-8/);
  assert.equal(d.problems[0].severity, 'warning');
});

test('Big5 is detected and decoded', () => {
  const d = decodeSource(iconv.encode(SAMPLE.repeat(3), 'big5'));
  assert.equal(d.text, SAMPLE.repeat(3));
  assert.equal(d.encoding, 'Big5');
});

test('UTF-16 with a BOM, and little-endian without one', () => {
  assert.equal(decodeSource(iconv.encode(SAMPLE, 'utf-16le', { addBOM: true })).text, SAMPLE);
  assert.equal(decodeSource(iconv.encode(SAMPLE, 'utf-16be', { addBOM: true })).text, SAMPLE);
  const ascii = 'juan 1: ' + SAMPLE;
  assert.equal(decodeSource(iconv.encode(ascii, 'utf-16le')).text, ascii);
});

test('binary data is refused with an error, not decoded into garbage', () => {
  const bytes = new Uint8Array(4096);
  let seed = 7;
  for (let i = 0; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) & 0xff);
  const d = decodeSource(bytes);
  assert.equal(d.text, '');
  assert.equal(d.problems[0].ruleId, 'encoding-binary');
  assert.equal(d.problems[0].severity, 'error');
});

test('UTF-8 but for a few bytes stays UTF-8: each bad byte an error where it stands, the rest intact', () => {
  const good = new TextEncoder().encode('主人戒賓賓出迎再拜主人答再拜乃請');
  const bytes = new Uint8Array(good);
  bytes[6] = 0xff; // the third character's first byte
  const d = decodeSource(bytes);
  assert.equal(d.encoding, 'UTF-8');
  assert.ok(d.text.startsWith('主人'));
  assert.ok(d.text.endsWith('再拜乃請'));
  const invalid = d.problems.find((p) => p.ruleId === 'encoding-invalid');
  assert.equal(invalid?.severity, 'error');
  assert.deepEqual(invalid?.at, [2, 3, 4]);
});

test('a short GB18030 file is GB18030 and a short Big5 file Big5, named so in the warning', () => {
  const gb = decodeSource(iconv.encode('乡射之礼主人戒宾', 'gb18030'));
  assert.equal(gb.text, '乡射之礼主人戒宾');
  assert.match(gb.problems[0].reason, /GB18030/);
  const big5 = decodeSource(iconv.encode('鄉射之禮主人戒賓', 'big5'));
  assert.equal(big5.text, '鄉射之禮主人戒賓');
  assert.match(big5.problems[0].reason, /Big5/);
});

test('the encoding edition.yaml declares wins', () => {
  const bytes = iconv.encode('鄉射之禮', 'big5');
  assert.equal(decodeSource(bytes, 'Big5').text, '鄉射之禮');
  assert.match(decodeSource(bytes, 'Big5').problems[0].reason, /as edition.yaml says/);
});
