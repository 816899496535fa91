/**
 * The guard's reader of Redis replies (RespScanner): what ioredis would read
 * passes; what would leave ioredis's own reader broken, or take memory
 * without bound, is named at its first byte.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RespScanner } from './redis-link.js';

const scan = (...chunks: string[]): string | undefined => {
  const s = new RespScanner();
  for (const c of chunks) {
    const problem = s.feed(Buffer.from(c, 'latin1'));
    if (problem) return problem;
  }
  return undefined;
};

test('replies a Redis sends pass, split anywhere', () => {
  const replies = ['+PONG\r\n', '-ERR nope\r\n', ':42\r\n', '$5\r\nhello\r\n', '$-1\r\n', '*2\r\n$1\r\na\r\n:1\r\n', '>2\r\n$7\r\nmessage\r\n$1\r\nx\r\n', '%1\r\n+a\r\n:1\r\n'];
  for (const r of replies) {
    assert.equal(scan(r), undefined, r);
    assert.equal(scan(...Array.from(r)), undefined, `${r} a byte at a time`);
  }
});

test('a push inside a list is refused (ioredis reads it only as a reply of its own: "Unknown RESP type 62")', () => {
  assert.match(scan('*1\r\n>1\r\n:1\r\n') ?? '', /a push inside a list/);
  assert.match(scan('*2\r\n:1\r\n', '>0\r\n') ?? '', /a push inside a list/);
  // Negative control: a push on its own, then a list.
  assert.equal(scan('>1\r\n:1\r\n*1\r\n:1\r\n'), undefined);
});

test('garbage, huge lengths and deep nesting are named', () => {
  assert.match(scan('\u00d2xyz') ?? '', /a byte that begins no reply \(0xd2\)/);
  assert.match(scan('$2000000000\r\n') ?? '', /a reply of 2000000000 bytes/);
  assert.match(scan('*100000000\r\n') ?? '', /a list of 100000000 elements/);
  assert.match(scan('*1\r\n'.repeat(100) + ':1\r\n') ?? '', /nested more than \d+ deep/);
  assert.match(scan('+OK\n') ?? '', /does not end in CRLF/);
});
