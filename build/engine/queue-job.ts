/**
 * A queue job is input: whoever can write to the Redis can write a job. Its
 * data names an edition and a version, nothing more — a collection by its
 * path inside the worker's `--root`, an edition by its path inside the
 * collection, the digest and version `queue add` gave it, and which outputs
 * to make. What the build may read, its caches, template and fonts are the
 * worker's own (its flags, and the collection.yaml under its root), never a
 * job's. `parseEditionJob` checks every field (no other key, each of its
 * type, length and form) before anything runs, and says what is wrong.
 */
import { createHash } from 'node:crypto';

/** What a job carries (the JSON BullMQ keeps in Redis). */
export interface EditionJob {
  /** The collection's path inside the worker's --root, '/' separated; '.' when the root is the collection. */
  collection: string;
  /** The edition's path inside the collection, '/' separated: its outputs' name (shiji/zhonghua.pdf). */
  edition: string;
  /** The edition's input digest when it was enqueued (editionDigest, hex). */
  digest: string;
  /** Given at each enqueue, larger for a later one (Redis's clock, µs): the fencing token of every write. */
  version: number;
  targets: { pdf: boolean; epub: boolean };
}

const KEYS = ['collection', 'edition', 'digest', 'version', 'targets'] as const;
/** Longest path a job may name, and its parts (a file name's limit on Linux). */
const MAX_PATH = 1024;
const MAX_SEGMENT_BYTES = 255;

/** Why `value` is not a relative path of plain folder names ('/' separated), or undefined. */
export function relativePathProblem(value: unknown, allowDot: boolean): string | undefined {
  if (typeof value !== 'string') return `is ${describe(value)}, not a path`;
  if (value === '.' && allowDot) return undefined;
  if (value.length === 0 || value.length > MAX_PATH) return `must be a path of 1 to ${MAX_PATH} characters`;
  if (/[\u0000-\u001f\u007f]/u.test(value)) return 'has a control character';
  if (value.startsWith('/')) return 'is an absolute path; it must be relative';
  for (const part of value.split('/')) {
    if (part === '' || part === '.' || part === '..') return `has "${part}" as a part ("a/b", never "..", "." or "//")`;
    if (Buffer.byteLength(part) > MAX_SEGMENT_BYTES) return `has a part longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : `${typeof value} ${String(value).slice(0, 40)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** The job, or every problem with it (one line each). */
export function parseEditionJob(data: unknown): { job: EditionJob } | { problems: string[] } {
  if (!isPlainObject(data)) return { problems: [`the job's data is ${describe(data)}, not a mapping`] };
  const problems: string[] = [];
  const unknown = Object.keys(data).filter((k) => !(KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    const old = unknown.includes('options') || (isPlainObject(data.edition) && 'dir' in data.edition);
    problems.push(`unknown field${unknown.length === 1 ? '' : 's'} ${unknown.slice(0, 5).map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}${old ? ' (a job of an older diaoban, which named folders and options)' : ''}; a job has only ${KEYS.join(', ')}`);
  }
  for (const key of KEYS) if (!Object.hasOwn(data, key)) problems.push(`no ${key}`);
  const collection = relativePathProblem(data.collection, true);
  if (Object.hasOwn(data, 'collection') && collection) problems.push(`collection ${collection}`);
  const edition = relativePathProblem(data.edition, false);
  if (Object.hasOwn(data, 'edition') && edition) problems.push(`edition ${edition}`);
  if (Object.hasOwn(data, 'digest') && (typeof data.digest !== 'string' || !/^[0-9a-f]{64}$/.test(data.digest))) problems.push(`digest is ${describe(data.digest)}, not 64 hexadecimal digits`);
  if (Object.hasOwn(data, 'version') && !(typeof data.version === 'number' && Number.isSafeInteger(data.version) && data.version > 0)) problems.push(`version is ${describe(data.version)}, not a whole number above 0`);
  if (Object.hasOwn(data, 'targets')) {
    const t = data.targets;
    if (!isPlainObject(t) || Object.keys(t).length !== 2 || typeof t.pdf !== 'boolean' || typeof t.epub !== 'boolean') problems.push(`targets is ${describe(t)}, not { pdf: true|false, epub: true|false }`);
    else if (!t.pdf && !t.epub) problems.push('targets asks for neither a PDF nor an EPUB');
  }
  if (problems.length > 0) return { problems };
  const d = data as unknown as EditionJob;
  return { job: { collection: d.collection, edition: d.edition, digest: d.digest, version: d.version, targets: { pdf: d.targets.pdf, epub: d.targets.epub } } };
}

/**
 * A job's id: its collection, edition and digest (BullMQ keeps one job per
 * id, so the same version enqueued twice is one job, and two editions or two
 * collections with the same files are two).
 */
export function editionJobId(collection: string, edition: string, digest: string): string {
  return `ed-${createHash('sha256').update(JSON.stringify([collection, edition, digest])).digest('hex')}`;
}

/** The field of an edition in the queue's hashes (latest version, write lock): its collection and path, unambiguous. */
export function editionField(collection: string, edition: string): string {
  return JSON.stringify([collection, edition]);
}
