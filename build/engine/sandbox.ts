/**
 * An edition folder is a sandbox: every file the edition names (sources,
 * charmap, corrections, fonts, and the images and seals to come) must lie
 * inside the folder once symbolic links are followed, as TeX's
 * `openin_any=p` keeps a document to its own tree. Fonts may also come from
 * the system's font folders and the tool's own stack; the person running
 * the build (never the edition) may allow more folders with --allow-read.
 *
 * What is read is what was checked: each file is opened once and the open
 * descriptor is checked (where it really is, what kind of file), then read
 * — a path checked and then opened again could have been swapped for a
 * link in between. One reader for every key: readEditionPath (and
 * resolveEditionPath for fonts, read later by readCheckedFile) puts the
 * message at the edition.yaml place that names the file.
 */
import { constants, type Stats } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { VFile } from 'vfile';
import type { EditionPath } from '../parse/edition.js';
import { KNOWN_FACES } from '../fonts/index.js';
import { own } from '../tree/append.js';

export interface Sandbox {
  /** The edition folder as given (messages name files relative to it). */
  dir: string;
  /** Folders whose files the edition may name: its own first, then those --allow-read gives; each as given and resolved. */
  roots: string[];
  /** What the folder is, for messages ('the edition folder', 'the collection folder'). */
  folder: string;
}

/** Where fontconfig looks on Debian (/etc/fonts/fonts.conf), and the folders of the tool's own stack. */
export function systemFontDirs(): string[] {
  const home = homedir();
  const data = process.env.XDG_DATA_HOME || path.join(home, '.local', 'share');
  return [
    '/usr/share/fonts',
    '/usr/local/share/fonts',
    path.join(data, 'fonts'),
    path.join(home, '.fonts'),
    ...KNOWN_FACES.map((f) => path.dirname(f.file)),
  ];
}

async function withReal(dir: string): Promise<string[]> {
  const given = path.resolve(dir);
  const real = await realpath(given).catch(() => given);
  return real === given ? [given] : [given, real];
}

/** The sandbox of an edition folder, widened by the folders of --allow-read. */
export async function createSandbox(dir: string, allowRead: readonly string[] = [], folder = 'the edition folder'): Promise<Sandbox> {
  const roots = (await Promise.all([dir, ...allowRead].map(withReal))).flat();
  return { dir, roots, folder };
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

export type Problem = { ok: false; problem: 'outside' | 'link-outside' | 'missing' | 'folder' | 'special' | 'too-large'; real?: string; size?: number; max?: number };
export type Resolved = { ok: true; path: string } | Problem;
export type Opened = { ok: true; path: string; handle: FileHandle } | Problem;
export type Read = { ok: true; path: string; bytes: Buffer } | Problem;

/**
 * A file opened without waiting (a FIFO or a device would block a plain
 * open) and without becoming the controlling terminal. O_NONBLOCK changes
 * nothing for a regular file.
 */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);

const PROBLEM_OF_CODE: Readonly<Record<string, Problem['problem']>> = { ENOENT: 'missing', ENOTDIR: 'missing', ELOOP: 'missing', ENXIO: 'special', EOPNOTSUPP: 'special' };

/**
 * Where the open descriptor's file really is: on Linux the kernel says
 * (/proc/self/fd); elsewhere the path's real path, if it is still the same
 * file (device and inode) as the one open — if not, it was swapped since
 * the open and nothing is known.
 */
async function descriptorPath(handle: FileHandle, given: string, info: Stats): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    try {
      const real = await realpath(given);
      const now = await stat(real);
      return now.dev === info.dev && now.ino === info.ino ? real : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * Opens a file for reading if it is a regular file: the kind is that of
 * the open descriptor (fstat), so what is read is what was checked.
 */
export async function openRegularFile(file: string): Promise<{ ok: true; handle: FileHandle; info: Stats } | Problem> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    const problem = PROBLEM_OF_CODE[(error as NodeJS.ErrnoException).code ?? ''];
    if (problem) return { ok: false, problem };
    throw error;
  }
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (info.isFile()) return { ok: true, handle, info };
  await handle.close();
  return { ok: false, problem: info.isDirectory() ? 'folder' : 'special' };
}

/**
 * Opens `name` (relative to the edition folder, or absolute) if the edition
 * may read it: a regular file inside one of the roots once symbolic links
 * are followed. The open descriptor is what is checked — the kernel's own
 * path for it and its kind — so a folder swapped for a link between the
 * check and the read cannot make it read a file outside: nothing is read
 * by path after the check. A name outside the roots, and a name whose link
 * leads outside when first looked at, are refused before anything is opened.
 * The caller closes the handle.
 */
export async function openInSandbox(sandbox: Sandbox, name: string, extraRoots: readonly string[] = []): Promise<Opened> {
  const roots = [...sandbox.roots, ...extraRoots];
  const given = path.resolve(sandbox.dir, name);
  if (roots.includes(given)) return { ok: false, problem: 'folder' };
  if (!roots.some((r) => inside(given, r))) return { ok: false, problem: 'outside' };
  // A first look, so that a link to a device or a file outside is not even opened (no race can pass this alone: the descriptor decides below).
  const first = await realpath(given).catch(() => undefined);
  if (first === undefined) return { ok: false, problem: 'missing' };
  if (!roots.some((r) => inside(first, r))) return { ok: false, problem: 'link-outside', real: first };
  const opened = await openRegularFile(given);
  if (!opened.ok) return opened;
  const real = await descriptorPath(opened.handle, given, opened.info);
  if (real === undefined || !roots.some((r) => inside(real, r))) {
    await opened.handle.close();
    return { ok: false, problem: 'link-outside', real: real ?? given };
  }
  return { ok: true, path: real, handle: opened.handle };
}

/** Reads `name` if the edition may (openInSandbox): the bytes come from the descriptor that was checked. */
export async function readInSandbox(sandbox: Sandbox, name: string, extraRoots: readonly string[] = [], maxBytes = Infinity): Promise<Read> {
  const opened = await openInSandbox(sandbox, name, extraRoots);
  if (!opened.ok) return opened;
  try {
    // The size of what is open, not of what the name leads to now.
    const { size } = await opened.handle.stat();
    if (size > maxBytes) return { ok: false, problem: 'too-large', size, max: maxBytes };
    return { ok: true, path: opened.path, bytes: await opened.handle.readFile() };
  } finally {
    await opened.handle.close();
  }
}

/**
 * Where `name` really is, if the edition may read it (checked on an open
 * descriptor, then closed): for files read later by another stage, which
 * reads it with readCheckedFile.
 */
export async function resolveInSandbox(sandbox: Sandbox, name: string, extraRoots: readonly string[] = []): Promise<Resolved> {
  const opened = await openInSandbox(sandbox, name, extraRoots);
  if (!opened.ok) return opened;
  await opened.handle.close();
  return { ok: true, path: opened.path };
}

/**
 * Reads a file resolveInSandbox let through, by its real path: the read
 * descriptor must still be that very path (a component swapped for a link
 * since would lead elsewhere) and a regular file. Throws otherwise.
 */
export async function readCheckedFile(real: string): Promise<Buffer> {
  const opened = await openRegularFile(real);
  if (!opened.ok) throw Object.assign(new Error(`${real} is no longer a regular file (${opened.problem})`), { code: 'ECHANGED' });
  try {
    const now = await descriptorPath(opened.handle, real, opened.info);
    if (now !== path.resolve(real)) throw Object.assign(new Error(`${real} was replaced by a link (to ${now ?? 'somewhere else'}) since it was checked`), { code: 'ECHANGED' });
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}

/** What to tell the user about a file the edition may not read: what is wrong and what to do. */
export function problemReason(resolved: Problem, what: string, name: string, sandbox: Sandbox, fonts = false): string {
  const folder = `${sandbox.folder} ${sandbox.dir}${fonts ? " and the system's font folders" : ''}`;
  const widen = `copy it into ${sandbox.folder}, or let the build read its folder with --allow-read DIR`;
  switch (resolved.problem) {
    case 'outside':
      return `${what} "${name}" is outside ${folder}, so it is not read; ${widen}`;
    case 'link-outside':
      return `${what} "${name}" is a symbolic link that leads outside ${folder} (to ${resolved.real}), so it is not read; ${widen}`;
    case 'missing':
      return `${what} "${name}" does not exist in ${sandbox.dir}; check the name in edition.yaml, or add the file`;
    case 'folder':
      return `${what} "${name}" is a folder, not a file; list the files in it one by one (- ${name.replace(/\/+$/, '')}/…)`;
    case 'special':
      return `${what} "${name}" is not a regular file (a device, a pipe or a socket); name a text file`;
    case 'too-large':
      return `"${name}" is ${((resolved.size ?? 0) / 1048576).toFixed(0)} MiB; ${what} may have at most ${(resolved.max ?? 0) / 1048576} MiB, so it is not read`;
  }
}

/** The rule id of a message about a file the edition may not read. */
export function problemRule(problem: Problem['problem']): string {
  return problem === 'outside' || problem === 'link-outside' ? 'file-outside' : problem === 'missing' ? 'file-missing' : problem === 'too-large' ? 'file-too-large' : 'file-kind';
}

const WHAT: Record<string, string> = {
  sources: 'the source',
  charmap: 'the charmap',
  corrections: 'the corrections file',
  'fonts.main': 'the font',
  seals: 'the seal image',
  witnesses: 'the witness',
  'conversion.witness': 'the witness of the conversion',
};

function reportProblem(sandbox: Sandbox, ref: EditionPath, yaml: VFile, problem: Problem, fonts: boolean): null {
  const message = yaml.message(problemReason(problem, own(WHAT, ref.key.startsWith('fonts.') ? 'fonts.main' : ref.key) ?? `the file (${ref.key})`, ref.name, sandbox, fonts), {
    place: ref.place,
    ruleId: problemRule(problem.problem),
    source: 'diaoban',
  });
  message.fatal = true;
  return null;
}

/**
 * Resolves a file named in edition.yaml that another stage reads later
 * (readCheckedFile: fonts); when it may not be read, reports an error at
 * the place that names it (on `yaml`) and returns null.
 */
export async function resolveEditionPath(sandbox: Sandbox, ref: EditionPath, yaml: VFile, extraRoots: readonly string[] = []): Promise<string | null> {
  const resolved = await resolveInSandbox(sandbox, ref.name, extraRoots);
  return resolved.ok ? resolved.path : reportProblem(sandbox, ref, yaml, resolved, extraRoots.length > 0);
}

/** Reads a file named in edition.yaml from the descriptor that was checked; when it may not be read, reports as resolveEditionPath does. */
export async function readEditionPath(sandbox: Sandbox, ref: EditionPath, yaml: VFile, extraRoots: readonly string[] = [], maxBytes = Infinity): Promise<{ path: string; bytes: Buffer } | null> {
  const read = await readInSandbox(sandbox, ref.name, extraRoots, maxBytes);
  return read.ok ? read : reportProblem(sandbox, ref, yaml, read, extraRoots.length > 0);
}
