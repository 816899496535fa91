/**
 * Job records corrupted in Redis itself (a `data` or `opts` field that is no
 * JSON, or options that are no mapping). BullMQ cannot read such a record:
 * the worker that takes it throws before our processor sees it, the job's
 * lock runs out, the stalled-job check puts it back, and the next worker
 * takes it again — for ever, with the job counted active, so a draining
 * worker never ends. A record found so among the active jobs is mended in
 * place: its data is replaced by what was wrong (so the processor fails the
 * job with that message), options BullMQ cannot read by the defaults (one
 * attempt), and BullMQ does the rest —
 * no state of the queue is moved by hand.
 */
import type { Redis } from 'ioredis';

/**
 * Sets the readable fields only if the record is still the one seen (a job
 * added again under the id meanwhile is left alone), and gives the job a
 * fresh count of stalls, so it reaches the processor and its message rather
 * than BullMQ's "stalled more than allowable limit".
 */
const MEND = `
local d = redis.call('HGET', KEYS[1], 'data') or ''
local o = redis.call('HGET', KEYS[1], 'opts') or ''
if d ~= ARGV[1] or o ~= ARGV[2] then return 0 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'data', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'opts', ARGV[4]) end
redis.call('HDEL', KEYS[1], 'defa')
redis.call('HSET', KEYS[1], 'stc', '0')
return 1`;

/** The one field of a mended job's data: what was wrong with its record. */
const CORRUPTED = 'diaoban: record corrupted in Redis';

/** What was wrong with a mended job's record, when `data` is a mended job's data. */
export function corruptionOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const keys = Object.keys(data);
  const what = (data as Record<string, unknown>)[CORRUPTED];
  return keys.length === 1 && typeof what === 'string' ? what : undefined;
}

/** What is wrong with a job record's fields, or undefined when BullMQ can read them. */
export function recordProblem(data: string | null, opts: string | null): { data?: string; opts?: string } | undefined {
  const parse = (raw: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(raw) as unknown };
    } catch {
      return { ok: false };
    }
  };
  const problem: { data?: string; opts?: string } = {};
  if (data !== null && !parse(data).ok) problem.data = `its data is not JSON (${JSON.stringify(data.slice(0, 40))})`;
  if (opts !== null) {
    const o = parse(opts);
    if (!o.ok || typeof o.value !== 'object' || o.value === null || Array.isArray(o.value)) problem.opts = `its options are not a JSON mapping (${JSON.stringify(opts.slice(0, 40))})`;
  }
  return problem.data || problem.opts ? problem : undefined;
}

/**
 * Mends the unreadable records among the queue's active jobs; `prefix` is
 * the queue's key prefix (`queue.toKey('')`). Returns what was mended, one
 * line a job, for the worker to say.
 */
export async function mendActiveRecords(client: Redis, prefix: string): Promise<string[]> {
  const listed: unknown = await client.lrange(`${prefix}active`, 0, 999);
  // The worker's check of Redis itself: a reply of another shape is no Redis of a queue.
  if (!Array.isArray(listed) || !listed.every((id) => typeof id === 'string')) throw new TypeError(`answered LRANGE with ${JSON.stringify(listed)?.slice(0, 40)}, not a list: it is not a Redis of a queue`);
  const ids = listed.filter((id: string) => !id.startsWith('0:'));
  if (ids.length === 0) return [];
  const pipeline = client.pipeline();
  for (const id of ids) pipeline.hmget(`${prefix}${id}`, 'data', 'opts');
  const replies = (await pipeline.exec()) ?? [];
  const mended: string[] = [];
  for (const [i, id] of ids.entries()) {
    const [error, fields] = replies[i] ?? [];
    if (error || !Array.isArray(fields)) continue;
    const [data, opts] = fields as Array<string | null>;
    const problem = recordProblem(data, opts);
    if (!problem) continue;
    const what = [problem.data, problem.opts].filter(Boolean).join('; ');
    const done = await client.eval(MEND, 1, `${prefix}${id}`, data ?? '', opts ?? '', JSON.stringify({ [CORRUPTED]: what }), problem.opts ? '{}' : '');
    if (done === 1) mended.push(`job ${id.slice(0, 80)}: ${what}`);
  }
  return mended;
}
