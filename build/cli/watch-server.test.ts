/**
 * `diaoban watch` is a server for one user that no client can stop: a real
 * watch process (on a copy of manuscript/lishu) gets malformed requests
 * (`//[`, which killed it), a fixed sample of generated ones
 * (watch-fuzz.test-util.ts; the full fuzz is watch-fuzz.slow.ts), more event
 * streams and connections than its caps (503), and 1,000 idle event
 * streams; it answers each, says nothing of an internal error, and still
 * rebuilds on a save. Ctrl-C during a rebuild stops it and everything it
 * started, and leaves no temp file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { until as waitUntil } from '../engine/until.test-util.js';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requestPath, WATCH_LIMITS, watchTree } from './watch.js';
import { fuzzRequests, get, idleStreams, previewState, processesOf, rawRequest, startWatch, stopWatch, untilBuilt, type WatchProcess } from './watch-fuzz.test-util.js';

let w: WatchProcess;
before(async () => {
  w = await startWatch('manuscript/lishu');
});
after(() => {
  if (w) stopWatch(w);
});

test('a request target is read as a path on this host, or refused', () => {
  assert.equal(requestPath('/state'), '/state');
  assert.equal(requestPath('/book.pdf?g=3'), '/book.pdf');
  assert.equal(requestPath('//['), '//[', 'not a host: a path (404)');
  assert.equal(requestPath('//evil.example/book.pdf'), '//evil.example/book.pdf');
  assert.equal(requestPath('/%2e%2e/edition.yaml'), '/edition.yaml', 'dot segments resolved, within this host (then 404)');
  for (const bad of [undefined, '', '*', 'http://127.0.0.1/state', 'evil.example:80', '?q']) assert.equal(requestPath(bad), undefined, String(bad));
});

const until = (what: string, condition: () => boolean): Promise<void> => waitUntil(what, condition, { ms: 30_000, every: 20 });

test('a file watcher that fails (EMFILE) is said, started again a second later, and sees the next save', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-watchtree-'));
  const lines: string[] = [];
  const changes: string[] = [];
  let restarts = 0;
  const tree = watchTree(dir, (_event, name) => changes.push(String(name)), (line) => lines.push(line), () => restarts++);
  try {
    const first = tree.current();
    assert.ok(first);
    // What Node's recursive watcher emits when a new file cannot be watched for want of descriptors.
    first.emit('error', Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }));
    assert.equal(tree.current(), undefined, 'the failed watcher is closed');
    assert.match(lines.join('\n'), /watching .* failed \(EMFILE\); watching again in a second/);
    await until('the restart', () => restarts === 1);
    assert.ok(tree.current() && tree.current() !== first, 'a new watcher runs');
    writeFileSync(path.join(dir, 'juan1.txt'), '主人戒賓\n');
    await until('the save to be seen', () => changes.includes('juan1.txt'));
  } finally {
    tree.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('malformed requests get a 400 (or 404, 405) and the server goes on', async () => {
  assert.equal((await get(w.port, '//[')).status, 404, '//[ no longer kills the server');
  const raw = async (text: string): Promise<string> => (await rawRequest(w.port, text, 10_000, 'half-close')).text.slice(0, 12);
  const host = `Host: 127.0.0.1:${w.port}`;
  assert.equal(await raw(`GET * HTTP/1.1\r\n${host}\r\n\r\n`), 'HTTP/1.1 400');
  assert.equal(await raw(`GET http://[/ HTTP/1.1\r\n${host}\r\n\r\n`), 'HTTP/1.1 400');
  assert.equal(await raw(`GE T / HTTP/1.1\r\n${host}\r\n\r\n`), 'HTTP/1.1 400');
  assert.equal(await raw(`GET / HTTP/1.1\r\n${host}\r\nX-Big: ${'b'.repeat(40_000)}\r\n\r\n`), 'HTTP/1.1 431', 'headers too large');
  assert.equal(await raw(`GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n`), 'HTTP/1.1 403', 'the Host check stays');
  assert.equal(await raw(`POST / HTTP/1.1\r\n${host}\r\nContent-Length: 0\r\n\r\n`), 'HTTP/1.1 405');
  assert.equal((await get(w.port, '/../edition.yaml')).status, 404, 'the path check stays');
  assert.equal((await get(w.port, '/state')).status, 200);
  assert.equal(w.child.exitCode, null);
});

test('a fixed sample of 300 generated requests: 0 internal errors, 0 dead servers', async () => {
  const f = await fuzzRequests(w, 20261125, 300);
  console.log(`watch fuzz (sample): seed ${f.seed}, ${f.requests} requests in ${(f.ms / 1000).toFixed(1)} s; statuses ${JSON.stringify(f.statuses)}; internal errors ${f.internalErrors}; dead servers ${f.dead}`);
  assert.equal(f.dead, 0, w.stderr());
  assert.equal(f.internalErrors, 0, w.stderr());
  assert.ok(Object.keys(f.statuses).some((s) => s === '400'), 'malformed requests were made and refused');
  assert.equal((await get(w.port, '/state')).status, 200);
});

test(`event streams and connections are capped (${WATCH_LIMITS.streams} streams, ${WATCH_LIMITS.connections} connections): a 503 past the cap`, async () => {
  const some = await idleStreams(w.port, WATCH_LIMITS.streams + 4);
  assert.equal(some.streams, WATCH_LIMITS.streams);
  assert.equal(some.refused, 4);
  some.held.forEach((s) => s.destroy());
  // Connections that send nothing: those past the cap are answered 503 (or, far past it, dropped) at once.
  const silent = await Promise.all(Array.from({ length: WATCH_LIMITS.connections + 40 }, () => rawRequest(w.port, '', 1000, 'stall')));
  const answered503 = silent.filter((r) => r.text.startsWith('HTTP/1.1 503')).length;
  assert.ok(answered503 >= 30, `${answered503} connections past the cap got a 503`);
  // Our side has closed them; the server counts a connection gone when its close event comes, a moment later on a busy machine.
  let status = 0;
  for (const end = Date.now() + 5000; status !== 200 && Date.now() < end; await new Promise((r) => setTimeout(r, 50))) status = (await get(w.port, '/state')).status;
  assert.equal(status, 200, 'the server answers once they are gone');
});

test('1,000 idle event streams, then a save: the server answers and rebuilds', async () => {
  const before = await previewState(w.port);
  const idle = await idleStreams(w.port, 1000);
  console.log(`idle streams: 1000 asked, ${idle.streams} given, ${idle.refused} refused (503), ${idle.dropped} dropped`);
  assert.equal(idle.streams, WATCH_LIMITS.streams);
  appendFileSync(path.join(w.dir, 'juan110.txt'), '\n主人戒賓\n');
  const after = await untilBuilt(w, before.build + 1);
  assert.equal(after.generation, before.generation + 1, 'a good rebuild');
  idle.held.forEach((s) => s.destroy());
  assert.equal((await get(w.port, '/book.pdf')).status, 200);
  assert.doesNotMatch(w.stderr(), /internal error|EMFILE|\n\s+at /);
});

test('Ctrl-C during a rebuild stops watch and everything it started, and leaves no temp file', async () => {
  const before = await previewState(w.port);
  appendFileSync(path.join(w.dir, 'juan110.txt'), '\n賓主相見\n');
  for (let s = before; s.build === before.build && s.status !== 'building'; s = await previewState(w.port)) await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  w.child.kill('SIGINT');
  const code = await w.exited;
  const exitMs = performance.now() - t0;
  let left = processesOf(w.token);
  for (const end = Date.now() + 10_000; left.length > 0 && Date.now() < end; left = processesOf(w.token)) await new Promise((r) => setTimeout(r, 25));
  const goneMs = performance.now() - t0;
  const temps = [
    ...readdirSync(w.temp).filter((n) => !n.startsWith('tsx-')),
    ...(existsSync(w.out) ? readdirSync(w.out).filter((n) => n.endsWith('.tmp')) : []),
    ...(existsSync(path.join(w.cache, 'tmp')) ? readdirSync(path.join(w.cache, 'tmp')) : []),
  ];
  console.log(`Ctrl-C during a rebuild: exit ${code} after ${exitMs.toFixed(0)} ms, no process left after ${goneMs.toFixed(0)} ms, ${temps.length} temp entries`);
  assert.equal(code, 130);
  assert.deepEqual(left, []);
  assert.deepEqual(temps, []);
});
