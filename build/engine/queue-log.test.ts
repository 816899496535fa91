/**
 * What a worker says when BullMQ's loop fails: a connection to Redis that
 * broke or was refused is said as Redis lost (not ioredis's bare `write
 * EPIPE`); any other failure as it came.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loopErrorText } from './queue.js';

const URL = 'redis://127.0.0.1:6379';

test('a broken or refused connection is said as Redis lost, with ioredis\'s words kept; another failure as it came', () => {
  for (const raw of ['write EPIPE', 'read ECONNRESET', 'connect ECONNREFUSED 127.0.0.1:6379', 'Connection is closed.']) {
    const said = loopErrorText(raw, URL);
    assert.equal(said, `lost Redis at ${URL} (${raw}); it goes on when Redis answers`);
  }
  // The control: a failure that is no lost connection keeps its own words.
  assert.equal(loopErrorText('Missing lock for job 7. moveToFinished', URL), 'Missing lock for job 7. moveToFinished');
});
