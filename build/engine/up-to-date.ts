/**
 * Whether a build has anything to do: the key of every input it reads,
 * compared with the last build's manifest. A module of its own, light to
 * load (no layout, renderer or browser), so that `diaoban build` with
 * nothing changed answers in a new process before it loads the engine.
 */
import { createHash } from 'node:crypto';
import { readWitnesses } from './witnesses.js';
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import { VFileMessage } from 'vfile-message';
import { isFontPath, parseEditionYaml } from '../parse/edition.js';
import type { EditionConfig } from '../tree/edition.js';
import { pdfMeta, type PdfMeta } from '../render/pdf/meta.js';
import { editionFonts } from '../fonts/stack.js';
import { mainFaces, otherRoleFaces } from '../fonts/roles.js';
import { BuildCache, hashKey, toolVersion } from './cache.js';
import { fileStamp } from './fonts-memo.js';
import { applyShared } from './shared.js';
import { createSandbox, openRegularFile, readInSandbox, resolveInSandbox, systemFontDirs, type Read } from './sandbox.js';
import { phase } from './timing.js';
import { listWork } from './work-folder.js';
import type { BuildOptions, BuildResult, Manifest, OutputRecord, StoredMessage } from './build.js';

export function storeMessage(m: VFileMessage): StoredMessage {
  return {
    reason: m.reason,
    file: m.file || undefined,
    line: m.line ?? undefined,
    column: m.column ?? undefined,
    endLine: m.place && 'end' in m.place ? m.place.end.line : undefined,
    endColumn: m.place && 'end' in m.place ? m.place.end.column : undefined,
    ruleId: m.ruleId ?? undefined,
    fatal: m.fatal,
  };
}

export function restoreMessage(s: StoredMessage): VFileMessage {
  const start = s.line ? { line: s.line, column: s.column ?? 1 } : undefined;
  const place = start && s.endLine ? { start, end: { line: s.endLine, column: s.endColumn ?? 1 } } : start;
  const m = new VFileMessage(s.reason, { place, ruleId: s.ruleId, source: 'diaoban' });
  m.file = s.file ?? '';
  m.fatal = s.fatal ?? undefined;
  return m;
}

let defaultStore: BuildCache | undefined;
/** The checkout's build cache, opened once per process. */
export function defaultCache(): BuildCache {
  return (defaultStore ??= new BuildCache());
}

export function manifestKey(dir: string, out: string): string {
  return hashKey('manifest', path.resolve(dir), path.resolve(out));
}

/**
 * The key of everything a build reads: edition.yaml and the files it names,
 * each resolved in the edition's sandbox as loading resolves it (a file it
 * may not read is keyed by the problem, never read), the fonts (by path,
 * size and time), the options, SOURCE_DATE_EPOCH and the tool itself.
 */
export async function inputKey(dir: string, options: BuildOptions, onConfig?: (config: EditionConfig) => void): Promise<string> {
  return hashKey(await editionDigest(dir, options, onConfig), path.resolve(options.out));
}

/**
 * What the outputs are made from, wherever they are written: the input key
 * without the output folder. A collection's queue names each edition's job by it.
 */
export async function editionDigest(dir: string, options: Omit<BuildOptions, 'out'>, onConfig?: (config: EditionConfig) => void): Promise<string> {
  const parts: Array<string | Uint8Array> = [
    toolVersion(),
    JSON.stringify({ targets: options.targets, notes: options.notes ?? null, pages: options.pages ?? 'print', pdf: options.pdfStandard ?? null, allowRead: (options.allowRead ?? []).map((d) => path.resolve(d)), shared: options.shared ?? null }),
    process.env.SOURCE_DATE_EPOCH ?? '',
  ];
  // A collection's font files, like the edition's own, by their stamps.
  for (const entry of Object.values(options.shared?.fonts ?? {}).flat()) if (entry && path.isAbsolute(entry.split('#')[0])) parts.push(fileStamp(entry.split('#')[0]));
  const unreadable = (error: NodeJS.ErrnoException): string => `unreadable: ${error.code ?? ''}`;
  if (!(await stat(dir)).isDirectory()) {
    const lone = await openRegularFile(dir);
    if (!lone.ok) return hashKey(...parts, lone.problem);
    return hashKey(...parts, await lone.handle.readFile().catch(unreadable).finally(() => lone.handle.close()));
  }
  const sandbox = await createSandbox(dir, options.allowRead);
  // Each file as loading reads it: from the descriptor its check was made on.
  const read = (name: string): Promise<Read | string> => readInSandbox(sandbox, name).catch(unreadable);
  const yaml = await read('edition.yaml');
  if (typeof yaml === 'string') return hashKey(...parts, 'edition.yaml', yaml);
  let config: EditionConfig | null = null;
  let paths: ReadonlyArray<{ key: string; name: string }>;
  if (yaml.ok) {
    parts.push('edition.yaml', yaml.bytes);
    const yamlText = yaml.bytes.toString('utf8');
    ({ config, paths } = parseEditionYaml(new VFile({ path: 'edition.yaml', value: yamlText }), path.basename(path.resolve(dir))));
    if (config) {
      applyShared(config, yamlText, options.shared);
      onConfig?.(config);
    }
  } else {
    // A folder with no edition.yaml is read as the work its files make (work-folder.ts): they are its inputs.
    const work = yaml.problem === 'missing' ? await listWork(dir) : null;
    if (!work) return hashKey(...parts, `edition.yaml: ${yaml.problem}`);
    parts.push('work folder');
    paths = work.files.map((name) => ({ key: 'sources', name }));
  }
  const fontRoots = systemFontDirs();
  for (const ref of paths) {
    parts.push(ref.key, ref.name);
    if (ref.key === 'witnesses') continue;
    if (isFontPath(ref)) {
      // A font is known by its stamp (no reading of 20 MB); the edition's own files by their bytes.
      const resolved = await resolveInSandbox(sandbox, ref.name, fontRoots).catch(unreadable);
      parts.push(typeof resolved === 'string' ? resolved : resolved.ok ? fileStamp(resolved.path) : resolved.problem);
    } else {
      const file = await read(ref.name);
      parts.push(typeof file === 'string' ? file : file.ok ? file.bytes : file.problem);
    }
  }
  // The witnesses' texts (a folder's files, a branch's blobs), as loading reads them.
  if (config?.witnesses?.length) {
    for (const w of await readWitnesses(sandbox, config.witnesses, new VFile({ path: 'edition.yaml' }), (name) => name).catch(() => [])) {
      parts.push(w.witness.siglum, w.witness.branch ?? '');
      for (const f of w.files) parts.push(f.path ?? '', f.value as Uint8Array);
    }
  }
  try {
    // The stack's own faces (named, not given as files).
    const stacks = config ? [mainFaces(config), ...otherRoleFaces(config).map((r) => r.faces)] : [[]];
    for (const faces of stacks) for (const spec of editionFonts(faces).specs) parts.push(fileStamp(spec.file));
  } catch {
    parts.push('fonts: unreadable');
  }
  return hashKey(...parts);
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An output as its build wrote it: the same size and time (not read again), else the same bytes. */
function outputIntact(record: OutputRecord | undefined): boolean {
  if (!record) return true;
  if (record.stamp && fileStamp(record.path) === record.stamp) return true;
  try {
    return sha256(readFileSync(record.path)) === record.sha256;
  } catch {
    return false;
  }
}

/** The last build's manifest and this build's input key; with a result when nothing changed. */
export interface UpToDate {
  previous: Manifest | undefined;
  inputs: string;
  mKey: string;
  result?: BuildResult;
  /** The PDF's metadata as edition.yaml gives it (read for the key): the browser's tabs can load their page before the edition is. */
  meta?: PdfMeta;
}

/**
 * The last build's manifest and this build's input key; with a result when
 * nothing changed (the outputs are there as that build wrote them).
 */
export async function checkUpToDate(dir: string, options: BuildOptions, cache: BuildCache | undefined): Promise<UpToDate> {
  const mKey = manifestKey(dir, options.out);
  const previous = await cache?.getJson<Manifest>('manifest', mKey);
  let meta: UpToDate['meta'];
  const inputs = await phase('inputs', () => inputKey(dir, options, (c) => (meta = pdfMeta(c.meta))));
  if (previous && previous.inputs === inputs && outputIntact(previous.outputs.pdf) && outputIntact(previous.outputs.epub)) {
    const lines = previous.lines.map((l) => l.replace(/: \d+ pages?.*$|: [\d.]+ KiB.*$/, (m) => `${m} (up to date)`));
    return { previous, inputs, mKey, result: { ok: previous.ok, internal: false, messages: previous.messages.map(restoreMessage), lines: [...lines.filter((l) => !/changed \(|no page changed/.test(l)), 'no page changed'], upToDate: true, changes: [], manifest: previous } };
  }
  return { previous, inputs, mKey, ...(meta ? { meta } : {}) };
}
