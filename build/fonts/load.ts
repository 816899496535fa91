/**
 * I/O EDGE: the only file reading of the fonts module. The CLI calls this and
 * hands the bytes to the pure renderers.
 */
import { open, readFile } from 'node:fs/promises';
import { extractFace, faceIndex, faceOffsets, isCollection, readDirectory, selectFace } from './sfnt.js';
import { FONT_STACK, type FontSpec } from './stack.js';
import type { LoadedFont } from './types.js';

/** Reads the stack's font files (with `read`: the CLI checks an edition's own files) and splits collections to the wanted face. */
export async function loadSystemFonts(stack: readonly FontSpec[] = FONT_STACK, read: (spec: FontSpec) => Promise<Uint8Array> = (spec) => readFile(spec.file)): Promise<LoadedFont[]> {
  return Promise.all(
    stack.map(async (spec) => {
      // The bytes as read (no copy of 20–30 MB): a collection's face is cut out of them, a lone face is them.
      return { family: spec.family, file: spec.file, bytes: selectFace(await read(spec), spec.face) };
    }),
  );
}

/**
 * The stack's fonts with only the tables `tags` names (the cmap, for a
 * coverage check): each file is read where its headers, name tables and those
 * tables lie, a few hundred KB of a 20–30 MB font, into a buffer the file's
 * size (the rest stays zero and untouched), and the face is cut from it as
 * loadSystemFonts cuts it from the whole file.
 */
export async function loadFontTables(stack: readonly FontSpec[], tags: readonly string[]): Promise<LoadedFont[]> {
  return Promise.all(
    stack.map(async (spec) => {
      const handle = await open(spec.file);
      try {
        const file = new Uint8Array((await handle.stat()).size);
        const read = async (offset: number, length: number): Promise<void> => {
          const end = Math.min(offset + length, file.byteLength);
          if (end > offset) await handle.read(file, offset, end - offset, offset);
        };
        await read(0, 12);
        if (isCollection(file)) await read(12, 4 * new DataView(file.buffer).getUint32(8));
        const directories = await Promise.all(
          faceOffsets(file).map(async (at) => {
            await read(at, 12);
            await read(at + 12, 16 * new DataView(file.buffer).getUint16(at + 4));
            return readDirectory(file, at);
          }),
        );
        const readTables = (dirs: typeof directories, wanted: readonly string[]) =>
          Promise.all(dirs.flatMap((d) => d.tables.filter((t) => wanted.includes(t.tag)).map((t) => read(t.offset, t.length))));
        if (spec.face) await readTables(directories, ['name']);
        const index = faceIndex(file, spec.face);
        await readTables([directories[index]], tags);
        return { family: spec.family, file: spec.file, bytes: extractFace(file, index, tags) };
      } finally {
        await handle.close();
      }
    }),
  );
}
