/**
 * A folder read as a whole work when it has no edition.yaml: its listing
 * (files and links, no subfolders) handed to parse/work.ts, which picks the
 * work's files and their order. One listing for the loader, the build's
 * up-to-date key and `init`.
 */
import { readdir } from 'node:fs/promises';
import { workFiles, type WorkFiles } from '../parse/work.js';

/** The work a folder holds, or null when it holds no text file (or cannot be listed). */
export async function listWork(dir: string): Promise<WorkFiles | null> {
  try {
    return workFiles((await readdir(dir, { withFileTypes: true })).filter((e) => !e.isDirectory()).map((e) => e.name));
  } catch {
    return null;
  }
}
