/**
 * An edition folder is a sandbox: every file the edition names (sources,
 * charmap, corrections, fonts, and the images and seals to come) must lie
 * inside the folder once symbolic links are followed, as TeX's
 * `openin_any=p` keeps a document to its own tree. Fonts may also come from
 * the system's font folders and the tool's own stack; the person running
 * the build (never the edition) may allow more folders with --allow-read.
 *
 * One resolver for every key: resolveEditionPath checks a name and, when it
 * may not be read, puts the message at the edition.yaml place that names it.
 */
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import type { VFile } from 'vfile';
import type { EditionPath } from '../parse/edition.js';
import { FONT_STACK } from '../fonts/index.js';
import { own } from '../tree/append.js';

export interface Sandbox {
  /** The edition folder as given (messages name files relative to it). */
  dir: string;
  /** Folders whose files the edition may name: its own first, then those --allow-read gives; each as given and resolved. */
  roots: string[];
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
    ...FONT_STACK.map((f) => path.dirname(f.file)),
  ];
}

async function withReal(dir: string): Promise<string[]> {
  const given = path.resolve(dir);
  const real = await realpath(given).catch(() => given);
  return real === given ? [given] : [given, real];
}

/** The sandbox of an edition folder, widened by the folders of --allow-read. */
export async function createSandbox(dir: string, allowRead: readonly string[] = []): Promise<Sandbox> {
  const roots = (await Promise.all([dir, ...allowRead].map(withReal))).flat();
  return { dir, roots };
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

export type Resolved =
  | { ok: true; path: string }
  | { ok: false; problem: 'outside' | 'link-outside' | 'missing' | 'folder' | 'special'; real?: string };

/**
 * Where `name` (relative to the edition folder, or absolute) really is, if
 * the edition may read it: inside one of the roots after symbolic links are
 * followed, and a regular file. A name outside the roots is refused before
 * anything of it is looked at.
 */
export async function resolveInSandbox(sandbox: Sandbox, name: string, extraRoots: readonly string[] = []): Promise<Resolved> {
  const roots = [...sandbox.roots, ...extraRoots];
  const given = path.resolve(sandbox.dir, name);
  if (roots.includes(given)) return { ok: false, problem: 'folder' };
  if (!roots.some((r) => inside(given, r))) return { ok: false, problem: 'outside' };
  let real: string;
  let info;
  try {
    real = await realpath(given);
    if (!roots.some((r) => inside(real, r))) return { ok: false, problem: 'link-outside', real };
    info = await stat(real);
  } catch {
    return { ok: false, problem: 'missing' };
  }
  if (info.isDirectory()) return { ok: false, problem: 'folder' };
  if (!info.isFile()) return { ok: false, problem: 'special' };
  return { ok: true, path: real };
}

/** What to tell the user about a file the edition may not read: what is wrong and what to do. */
export function problemReason(resolved: Exclude<Resolved, { ok: true }>, what: string, name: string, sandbox: Sandbox, fonts = false): string {
  const folder = `the edition folder ${sandbox.dir}${fonts ? " and the system's font folders" : ''}`;
  const widen = 'copy it into the edition folder, or let the build read its folder with --allow-read DIR';
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
  }
}

/** The rule id of a message about a file the edition may not read. */
export function problemRule(problem: Exclude<Resolved, { ok: true }>['problem']): string {
  return problem === 'outside' || problem === 'link-outside' ? 'file-outside' : problem === 'missing' ? 'file-missing' : 'file-kind';
}

const WHAT: Record<string, string> = {
  sources: 'the source',
  charmap: 'the charmap',
  corrections: 'the corrections file',
  'fonts.main': 'the font',
  seals: 'the seal image',
};

/**
 * Resolves a file named in edition.yaml; when it may not be read, reports
 * an error at the place that names it (on `yaml`) and returns null.
 */
export async function resolveEditionPath(sandbox: Sandbox, ref: EditionPath, yaml: VFile, extraRoots: readonly string[] = []): Promise<string | null> {
  const resolved = await resolveInSandbox(sandbox, ref.name, extraRoots);
  if (resolved.ok) return resolved.path;
  const message = yaml.message(problemReason(resolved, own(WHAT, ref.key) ?? `the file (${ref.key})`, ref.name, sandbox, extraRoots.length > 0), {
    place: ref.place,
    ruleId: problemRule(resolved.problem),
    source: 'diaoban',
  });
  message.fatal = true;
  return null;
}
