/**
 * The witnesses edition.yaml names (`witnesses:`), read inside the
 * edition's sandbox like every file it names: a folder of the witness's
 * files, one file, or a branch of a git repository (a Kanripo repository
 * keeps each witness a branch) read from its objects with isomorphic-git,
 * nothing checked out, every read of the repository through the sandbox (a
 * `.git` file or an alternates list pointing outside reads nothing there).
 * Also: the branches of a Kanripo repository as witnesses, for `init`.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { VFile } from 'vfile';
import type { WitnessConfig } from '../tree/edition.js';
import { createSandbox, problemReason, readInSandbox, type Sandbox } from './sandbox.js';

/** The extensions of a witness folder's text files (others — images, README.org's kin — are not text of the work). */
const TEXT_FILE = /\.(txt|md|markdown)$/i;
/** Most files a witness may have, and most bytes in all. */
const MAX_FILES = 10_000;
const MAX_BYTES = 256 << 20;

export interface WitnessFiles {
  witness: WitnessConfig;
  /** Its files, by name within the witness (in order: by name). */
  files: VFile[];
}

/** A message on edition.yaml at the witness's entry. */
type Say = (reason: string, ruleId: string) => void;

function inside(file: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = path.relative(root, file);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}

/** The real path of `name` if it is in the sandbox (a folder itself may be the edition's own), else undefined. */
async function realInside(sandbox: Sandbox, name: string): Promise<string | undefined> {
  const real = await realpath(path.resolve(sandbox.dir, name)).catch(() => undefined);
  return real && inside(real, sandbox.roots) ? real : undefined;
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function folderFiles(sandbox: Sandbox, folder: string, shown: string, say: Say): Promise<VFile[]> {
  const names = (await readdir(path.resolve(sandbox.dir, folder))).filter((n) => TEXT_FILE.test(n) && !n.startsWith('.')).sort(byName);
  if (names.length > MAX_FILES) {
    say(`the witness folder "${folder}" has ${names.length} text files; a witness may have at most ${MAX_FILES}`, 'witness-too-large');
    return [];
  }
  const files: VFile[] = [];
  let total = 0;
  for (const name of names) {
    const read = await readInSandbox(sandbox, path.join(folder, name), [], MAX_BYTES - total);
    if (!read.ok) {
      if (read.problem !== 'folder') say(problemReason(read, 'the witness file', path.join(folder, name), sandbox), 'witness-file');
      continue;
    }
    total += read.bytes.byteLength;
    files.push(new VFile({ path: path.join(shown, name), value: new Uint8Array(read.bytes) }));
  }
  return files;
}

/** A read-only file system for isomorphic-git whose every read goes through the sandbox; what it refuses reads as missing. */
function sandboxedFs(sandbox: Sandbox, refused: string[]) {
  const missing = (p: string): NodeJS.ErrnoException => Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
  const denied = (): never => {
    throw Object.assign(new Error('read-only'), { code: 'EROFS' });
  };
  const checked = async (p: string): Promise<string> => {
    const real = await realpath(p).catch(() => undefined);
    if (real === undefined) throw missing(p);
    if (!inside(real, sandbox.roots)) {
      refused.push(p);
      throw missing(p);
    }
    return real;
  };
  return {
    async readFile(p: string, options?: { encoding?: string } | string) {
      const read = await readInSandbox(sandbox, p, [], MAX_BYTES);
      if (!read.ok) {
        if (read.problem === 'outside' || read.problem === 'link-outside') refused.push(p);
        throw missing(p);
      }
      const encoding = typeof options === 'string' ? options : options?.encoding;
      return encoding ? read.bytes.toString(encoding as BufferEncoding) : new Uint8Array(read.bytes);
    },
    async readdir(p: string) {
      return readdir(await checked(p));
    },
    async stat(p: string) {
      return stat(await checked(p));
    },
    async lstat(p: string) {
      return stat(await checked(p));
    },
    async readlink(p: string) {
      throw missing(p);
    },
    writeFile: denied,
    mkdir: denied,
    rmdir: denied,
    unlink: denied,
    symlink: denied,
  };
}

/** The repository's git folder: `repo/.git`, or the repository itself when bare. */
async function gitDir(real: string): Promise<string | undefined> {
  const dotGit = path.join(real, '.git');
  if ((await stat(dotGit).catch(() => undefined))?.isDirectory()) return dotGit;
  if ((await stat(path.join(real, 'HEAD')).catch(() => undefined))?.isFile() && (await stat(path.join(real, 'objects')).catch(() => undefined))?.isDirectory()) return real;
  return undefined;
}

/** The commit a branch names: local, else a remote's (a fresh clone keeps the others as origin/WYG). */
async function branchCommit(fs: ReturnType<typeof sandboxedFs>, gitdir: string, branch: string): Promise<string | undefined> {
  for (const ref of [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`, branch]) {
    try {
      return await git.resolveRef({ fs, gitdir, ref });
    } catch {
      // The next kind of ref.
    }
  }
  return undefined;
}

async function branchFiles(sandbox: Sandbox, repo: string, branch: string, shown: string, say: Say): Promise<VFile[]> {
  const real = await realInside(sandbox, repo);
  const gitdir = real && (await gitDir(real));
  if (!gitdir) {
    say(`the witness "${repo}" (branch ${branch}) is not a git repository: give a folder holding .git (a Kanripo repository cloned), or the witness's files as a folder`, 'witness-missing');
    return [];
  }
  const refused: string[] = [];
  const fs = sandboxedFs(sandbox, refused);
  const oid = await branchCommit(fs, gitdir, branch);
  if (!oid) {
    const branches = await kanripoBranchesIn(fs, gitdir);
    say(`the repository "${repo}" has no branch ${branch}${branches.length ? `; it has ${branches.join(', ')}` : ''}`, 'witness-missing');
    return [];
  }
  const names = (await git.listFiles({ fs, gitdir, ref: oid })).filter((n) => TEXT_FILE.test(n) && !n.includes('/') && !n.startsWith('.')).sort(byName);
  const files: VFile[] = [];
  let total = 0;
  for (const name of names.slice(0, MAX_FILES)) {
    const { blob } = await git.readBlob({ fs, gitdir, oid, filepath: name });
    total += blob.byteLength;
    if (total > MAX_BYTES) {
      say(`the branch ${branch} of "${repo}" holds more than ${MAX_BYTES >> 20} MiB of text; the rest is not read`, 'witness-too-large');
      break;
    }
    files.push(new VFile({ path: `${shown}@${branch}/${name}`, value: blob }));
  }
  if (refused.length > 0) say(`the repository "${repo}" points outside the edition folder (${refused[0]}); what is there is not read`, 'file-outside');
  return files;
}

/**
 * Reads each witness (folder, file or branch) inside the sandbox; a witness
 * that cannot be read is said at its entry in edition.yaml and left out.
 */
export async function readWitnesses(sandbox: Sandbox, witnesses: readonly WitnessConfig[], yamlFile: VFile, shownDir: (name: string) => string): Promise<WitnessFiles[]> {
  const out: WitnessFiles[] = [];
  for (const witness of witnesses) {
    const say: Say = (reason, ruleId) => {
      const m = yamlFile.message(`${witness.siglum}: ${reason}`, { place: witness.place, ruleId, source: 'diaoban' });
      m.fatal = true;
    };
    const shown = shownDir(witness.path);
    let files: VFile[] = [];
    try {
      if (witness.branch) files = await branchFiles(sandbox, witness.path, witness.branch, shown, say);
      else {
        const real = await realInside(sandbox, witness.path);
        const info = real ? await stat(real) : undefined;
        if (info?.isDirectory()) files = await folderFiles(sandbox, witness.path, shown, say);
        else {
          const read = await readInSandbox(sandbox, witness.path, [], MAX_BYTES);
          if (read.ok) files = [new VFile({ path: shown, value: new Uint8Array(read.bytes) })];
          else say(problemReason(read, 'the witness', witness.path, sandbox), read.problem === 'missing' ? 'witness-missing' : 'file-outside');
        }
      }
    } catch (error) {
      say(`could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'witness-unreadable');
    }
    if (files.length === 0) continue;
    out.push({ witness, files });
  }
  return out;
}

async function kanripoBranchesIn(fs: ReturnType<typeof sandboxedFs>, gitdir: string): Promise<string[]> {
  const local = await git.listBranches({ fs, gitdir }).catch(() => [] as string[]);
  const remote = await git.listBranches({ fs, gitdir, remote: 'origin' }).catch(() => [] as string[]);
  return [...new Set([...local, ...remote])].filter((b) => b !== 'HEAD').sort(byName);
}

/**
 * The sigla of Kanripo's witness branches: one row a witness (the names
 * Kanripo gives its branches, and what a 校勘記 calls the edition).
 */
export const KANRIPO_SIGLA: Readonly<Record<string, string>> = {
  SBCK: '四部叢刊本',
  WYG: '四庫本',
  SKQS: '四庫本',
  CK: '殆知閣本',
  'CK-KZ': '殆知閣本',
  KR: 'Kanripo本',
  tls: 'TLS本',
  CBETA: 'CBETA本',
  TKD: '大正藏本',
  T: '大正藏本',
  ZTDZ: '正統道藏本',
  DZJY: '道藏輯要本',
  YP: '永樂北藏本',
  GJ: '國家圖書館本',
};

/**
 * A Kanripo repository's branches other than the one its files are read
 * from, as witnesses for edition.yaml (`init FOLDER`): { siglum, path,
 * branch }. `base`: the branch the edition's sources are (BASEEDITION,
 * else the checked-out one). Inside `sandbox` (the folder init reads).
 */
export async function kanripoWitnesses(sandbox: Sandbox, repo: string, base?: string): Promise<WitnessConfig[]> {
  const real = await realInside(sandbox, repo);
  const gitdir = real && (await gitDir(real));
  if (!gitdir) return [];
  const fs = sandboxedFs(sandbox, []);
  const current = base ?? (await git.currentBranch({ fs, gitdir }).catch(() => undefined)) ?? 'master';
  const currentOid = await branchCommit(fs, gitdir, current);
  const out: WitnessConfig[] = [];
  const used = new Set<string>();
  // One witness a text: a branch that is the same commit as the base or as one listed (Kanripo's master is often its BASEEDITION's branch) is left out; master comes last.
  const seen = new Set(currentOid ? [currentOid] : []);
  const branches = (await kanripoBranchesIn(fs, gitdir)).sort((x, y) => Number(x === 'master') - Number(y === 'master'));
  for (const branch of branches) {
    if (branch === current) continue;
    const oid = await branchCommit(fs, gitdir, branch);
    if (!oid || seen.has(oid)) continue;
    seen.add(oid);
    let siglum = KANRIPO_SIGLA[branch] ?? `${branch}本`;
    if (used.has(siglum)) siglum = `${branch}本`;
    used.add(siglum);
    out.push({ siglum, path: repo, branch });
  }
  return out;
}

/**
 * The hook for `init FOLDER` (cli/init.ts): the `witnesses:` entries of the
 * edition.yaml written in `editionDir` for the Kanripo repository at
 * `repo` (relative to editionDir; '.' when the edition is the repository
 * itself) — its other branches, each { siglum, path, branch }; none when it
 * is no git repository. `base`: the branch its sources are (BASEEDITION).
 */
export async function initWitnesses(editionDir: string, repo = '.', base?: string): Promise<Array<{ siglum: string; path: string; branch: string }>> {
  const sandbox = await createSandbox(editionDir);
  return (await kanripoWitnesses(sandbox, repo, base)).map((w) => ({ siglum: w.siglum, path: w.path, branch: w.branch! }));
}
