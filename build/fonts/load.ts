/**
 * I/O EDGE: the only file reading of the fonts module. The CLI calls this and
 * hands the bytes to the pure renderers.
 */
import { readFile } from 'node:fs/promises';
import { selectFace } from './sfnt.js';
import { FONT_STACK, type FontSpec } from './stack.js';
import type { LoadedFont } from './types.js';

/** Reads the stack's font files (with `read`: the CLI checks an edition's own files) and splits collections to the wanted face. */
export async function loadSystemFonts(stack: readonly FontSpec[] = FONT_STACK, read: (spec: FontSpec) => Promise<Uint8Array> = (spec) => readFile(spec.file)): Promise<LoadedFont[]> {
  return Promise.all(
    stack.map(async (spec) => {
      const file = new Uint8Array(await read(spec));
      return { family: spec.family, file: spec.file, bytes: selectFace(file, spec.face) };
    }),
  );
}
