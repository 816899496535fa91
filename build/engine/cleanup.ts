/**
 * What a build leaves behind if it dies: temp folders (Chromium's profile,
 * the PDF's work folder), temp outputs and cache entries, Chromium's process
 * group, the font converter kept running between builds.
 *
 * - On any exit this process sees (normal end, an error, SIGINT/SIGTERM/SIGHUP
 *   once installSignalCleanup ran) the groups are killed and the temps removed.
 * - SIGKILL runs nothing: Chromium, launched over a pipe, and the font
 *   converter, reading jobs from a pipe, exit by themselves when their parent
 *   is gone (its ends of the pipes close); what is left on disk carries its owner's tag
 *   (pid and start time) and the next build removes it (removeStale) once
 *   that owner is dead. A running build's files are never touched.
 */
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';

/** `<pid>_<start time in clock ticks>` of a process (Linux); the pid alone elsewhere. */
function tagOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name: state is field 3, starttime field 22.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return `${pid}_${start}`;
  } catch {
    return process.platform === 'linux' ? null : String(pid);
  }
}

/** This machine's name as a tag carries it: workers on several machines share output and cache folders. */
// Letters and digits only: a tag stands before `-` and `.` in file names (diaoban-<tag>-chromium-…), which a host name may hold.
export const HOST = hostname().replace(/[^A-Za-z0-9]/g, '') || 'host';

/** This process's tag, in the name of everything it leaves in a temp folder or an output folder: `<pid>_<start>@<host>`. */
export const OWNER = `${tagOf(process.pid) ?? String(process.pid)}@${HOST}`;

/** A tag in a file name (OWNER's form; the host is absent in what older builds left). */
export const OWNER_TAG = String.raw`\d+(?:_\d+)?(?:@[A-Za-z0-9]+)?`;

/**
 * Whether the process a tag names still runs (the same pid with another
 * start time is another process). A process of another machine is taken to
 * run: it cannot be seen from here, and its own machine's next build removes
 * what it left.
 */
export function ownerAlive(tag: string): boolean {
  const [local, host] = tag.split('@');
  if (host !== undefined && host !== HOST) return true;
  const [pid, start] = local.split('_');
  try {
    process.kill(Number(pid), 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return start === undefined || tagOf(Number(pid)) === local;
}

/** The profile's folder in a Chromium temp folder (browser.ts). */
export const CHROMIUM_PROFILE = 'profile';
/** The file in a Chromium temp folder that names Chromium's own temp folder (noteChromiumTemp). */
const CHROMIUM_TEMP_NOTE = 'chromium-temp';

/** Chromium's own temp folder for its profile's lock socket (org.chromium.Chromium.*), as the profile links to it. */
function chromiumTempOf(home: string): string | undefined {
  let folder: string;
  try {
    folder = readFileSync(path.join(home, CHROMIUM_TEMP_NOTE), 'utf8');
  } catch {
    try {
      folder = path.dirname(readlinkSync(path.join(home, CHROMIUM_PROFILE, 'SingletonSocket')));
    } catch {
      return undefined;
    }
  }
  return path.dirname(folder) === tmpdir() && /^\.?(org\.chromium|com\.google)\./.test(path.basename(folder)) ? folder : undefined;
}

/**
 * Notes, in our Chromium temp folder `home`, the temp folder Chromium made
 * for its profile's lock socket: a Chromium that is killed leaves it, and
 * the note is what lets the exit cleanup or the next build find it even when
 * the profile's link to it is gone. (Pointing Chromium's TMPDIR into our
 * folder instead would make the socket's path too long for a deep TMPDIR,
 * and Chromium would not start.)
 */
export function noteChromiumTemp(home: string): void {
  const folder = chromiumTempOf(home);
  if (folder) writeFileSync(path.join(home, CHROMIUM_TEMP_NOTE), folder);
}

/** A temp folder and what goes with it (Chromium's own temp folder). */
function withCompanions(file: string): string[] {
  const chromium = chromiumTempOf(file);
  return chromium ? [chromium, file] : [file];
}

const temps = new Set<string>();
const groups = new Set<number>();
const children = new Set<number>();
const ownedFolders = new Set<string>();
let hooked = false;

/**
 * Removes a temp file or folder while the process exits (synchronously).
 * Chromium's processes, killed a moment before, can still be writing into
 * its profile: a folder that is not empty yet is tried again for up to two
 * seconds; what is still left then is a dead build's, removed by the next
 * build (removeStale). An exit handler must not throw: the exit code would be lost.
 */
function removeOnExit(file: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      rmSync(file, { recursive: true, force: true });
      return;
    } catch {
      if (attempt >= 40) return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const pgid of groups) killProcessGroup(pgid);
    for (const pid of children) killProcess(pid);
    for (const temp of temps) for (const file of withCompanions(temp)) removeOnExit(file);
    for (const folder of ownedFolders) {
      let names: string[] = [];
      try {
        names = readdirSync(folder);
      } catch {
        // gone
      }
      for (const name of names) if (name.startsWith(`${OWNER}.`)) removeOnExit(path.join(folder, name));
    }
  });
}

/**
 * A fresh folder in the temp folder, removed on exit if not before: `diaoban-<owner>-<kind>-XXXXXX`.
 * Made synchronously: an exit (Ctrl-C) between an asynchronous mkdtemp's making the folder and its being tracked
 * would leave it behind.
 */
export async function makeTempDir(kind: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), `diaoban-${OWNER}-${kind}-`));
  trackTemp(dir);
  return dir;
}

/**
 * A folder whose entries named `<owner>.…` are this process's temp files
 * (the build cache's tmp/, where the EPUB's worker thread writes too):
 * removed on exit.
 */
export function trackOwnedFolder(folder: string): void {
  hookExit();
  ownedFolders.add(folder);
}

/** Removes `file` (or folder) on exit unless untrackTemp is called first. */
export function trackTemp(file: string): void {
  hookExit();
  temps.add(file);
}

export function untrackTemp(file: string): void {
  temps.delete(file);
}

/** Removes a temp folder or file now (retrying while a dying process still writes into it). */
export async function removeTemp(file: string): Promise<void> {
  for (const f of withCompanions(file)) await rm(f, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  temps.delete(file);
}

/** Kills `pgid`'s process group on exit unless endProcessGroup ended it first. */
export function trackProcessGroup(pgid: number): void {
  hookExit();
  groups.add(pgid);
}

/** Kills a child process (the font converter) on exit unless untrackChild is called first (it ended). */
export function trackChild(pid: number): void {
  hookExit();
  children.add(pid);
}

export function untrackChild(pid: number): void {
  children.delete(pid);
}

function killProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

function killProcessGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** The processes of a group that still run (zombies waiting for their parent do not count). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return members;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = fields.slice(fields.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') members.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return members;
}

/** Kills a process group and waits (at most `ms`) until none of it runs. */
export async function endProcessGroup(pgid: number, ms = 3000): Promise<void> {
  killProcessGroup(pgid);
  const until = Date.now() + ms;
  while (groupMembers(pgid).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  groups.delete(pgid);
}

/** SIGINT, SIGTERM and SIGHUP end the process through 'exit', so that the cleanup above runs (the CLI only). */
export function installSignalCleanup(): void {
  hookExit();
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    process.once(signal, () => process.exit(code));
  }
}

const STALE_TEMP = new RegExp(`^diaoban-(${OWNER_TAG})-`);
/** `.<name>.<owner>.tmp`: a temp output (tempName), in the output folder or the font cache. */
const STALE_OUTPUT = new RegExp(`^\\..+\\.(${OWNER_TAG})\\.tmp$`);

/** The temp file an output is written to before it is renamed over `target`. */
export function tempName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${OWNER}.tmp`);
}

/**
 * Removes what dead builds left: their temp folders in the temp folder, and
 * their temp outputs in `folders` (output folder, font cache). Returns what it removed.
 */
export async function removeStale(folders: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  const sweep = async (dir: string, pattern: RegExp): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const owner = pattern.exec(name)?.[1];
      if (owner === undefined || owner === OWNER || ownerAlive(owner)) continue;
      for (const file of withCompanions(path.join(dir, name))) {
        await rm(file, { recursive: true, force: true, maxRetries: 3 });
        removed.push(file);
      }
    }
  };
  await sweep(tmpdir(), STALE_TEMP);
  for (const folder of folders) await sweep(folder, STALE_OUTPUT);
  return removed;
}
