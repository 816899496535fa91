/**
 * Seal images made safe to draw (edition.yaml `seals:`): an SVG is
 * rasterised by resvg in a process of its own (seal-raster.mjs) under a time
 * limit — a 2 KB SVG of nested <use> is 10^10 shapes, which no renderer
 * finishes — and every PNG, given or made, has its header checked (magic,
 * IHDR, width × height within a limit) before it is decoded whole. The page
 * then draws a bitmap, never an SVG. resvg would read any file an SVG names,
 * while it parses: every reference outside the SVG is taken out of its text
 * before resvg sees it (withoutExternalReferences), the process's memory is
 * capped, and an edition's seals share one time budget (SEALS_RASTER_MS).
 * Reasons come back as text for a message at the seal's entry.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { trackChild, untrackChild } from './cleanup.js';

/** How long resvg may take for one seal (an ordinary seal takes ~50 ms). */
export const SEAL_RASTER_MS = 10_000;
/** How long resvg may take for all the seals of an edition (100 slow seals took 17 minutes one after another). */
export const SEALS_RASTER_MS = 20_000;
/** The seal process's address space at most (RLIMIT_AS): a seal of 2048 pixels is 16 MB; Node itself needs a few hundred MB of it. */
export const SEAL_PROCESS_BYTES = 1024 ** 3;
/** A seal's bitmap at most: this many pixels a side, this many in all. */
export const SEAL_MAX_SIDE = 8192;
export const SEAL_MAX_PIXELS = 4096 * 4096;
/** Rasterised seals are drawn at this resolution (print), within 64–2048 pixels wide. */
const SEAL_DPI = 600;

// Plain JavaScript, run from build/ whether this module is compiled (lib/engine/, as deep) or not.
const SCRIPT = fileURLToPath(new URL('../../build/engine/seal-raster.mjs', import.meta.url));
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths each PNG colour type allows (PNG spec §11.2.2). */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

export const isPng = (bytes: Uint8Array): boolean => PNG_MAGIC.every((b, i) => bytes[i] === b);

/**
 * Why `bytes` is not a PNG a page can draw, or undefined: the header first
 * (magic, an IHDR of 13 bytes, a width and height within SEAL_MAX_SIDE and
 * SEAL_MAX_PIXELS, a valid depth and colour type), then the whole image
 * decoded (pngjs: every chunk's CRC, the compressed data) — never a decode
 * of a header that claims 2^31 × 2^31.
 */
export function pngProblem(bytes: Uint8Array): string | undefined {
  if (!isPng(bytes)) return 'is not a PNG image';
  if (bytes.byteLength < 33) return 'is a PNG cut short (no image header)';
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (dv.getUint32(8) !== 13 || type !== 'IHDR') return 'is not a valid PNG (no image header after the PNG signature)';
  const width = dv.getUint32(16);
  const height = dv.getUint32(20);
  if (width === 0 || height === 0) return 'is an empty PNG (0 pixels wide or high)';
  if (width > SEAL_MAX_SIDE || height > SEAL_MAX_SIDE || width * height > SEAL_MAX_PIXELS) {
    return `is a PNG of ${width} × ${height} pixels; a seal must be at most ${SEAL_MAX_SIDE} pixels a side and ${SEAL_MAX_PIXELS / 1048576} million pixels`;
  }
  const depth = bytes[24];
  const colour = bytes[25];
  if (!DEPTHS[colour]?.includes(depth) || bytes[26] !== 0 || bytes[27] !== 0 || bytes[28] > 1) return 'is not a valid PNG (its image header is damaged)';
  try {
    PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    return `is a damaged PNG (${(error as Error).message})`;
  }
  return undefined;
}

/**
 * An SVG seal without what would make resvg read anything but its own bytes,
 * or why it cannot be made so. resvg reads the file an <image> or <feImage>
 * names (a FIFO, /dev/zero: 4 GB) while it parses the SVG, before anything
 * could leave it out, and has no resolver to stop it: so every `href` (any
 * prefix: xlink:href, svg:href) that is not a fragment of the SVG itself
 * (#id) is removed from the text first. What could bring one back through
 * the parser is refused: an entity whose text has markup or references
 * (plain ones, as Illustrator writes for namespaces, stay), an external or
 * parameter entity, a style sheet processing instruction, `@import` or
 * `url()` naming anything but a fragment.
 */
export function withoutExternalReferences(svg: string): { svg: string; removed: number } | string {
  for (const m of svg.matchAll(/<!ENTITY\s+(%\s*)?[^\s>]+\s+(SYSTEM|PUBLIC)?\s*("[^"]*"|'[^']*')?/gi)) {
    if (m[1] || m[2] || m[3] === undefined) return 'is an SVG with an external or parameter entity (<!ENTITY … SYSTEM …>), which would read a file';
    if (/[<&%]/.test(m[3].slice(1, -1))) return 'is an SVG with an entity that holds markup or references; a seal needs none';
  }
  if (/<\?xml-stylesheet/i.test(svg)) return 'is an SVG that names a style sheet (<?xml-stylesheet?>), which would read a file';
  if (/@import/i.test(svg)) return 'is an SVG whose style imports another (@import), which would read a file';
  if (/url\(\s*(?:['"]\s*)?(?!#)/i.test(svg)) return 'is an SVG with a url() that names something outside it (only url(#id) may be used in a seal)';
  let removed = 0;
  const cleaned = svg.replace(/(\s)(?:[\w.-]+:)?href\s*=\s*("[^"]*"|'[^']*')/gi, (all, space: string, value: string) => {
    if (/^#[\w.:-]*$/.test(value.slice(1, -1).trim())) return all;
    removed++;
    return space;
  });
  return { svg: cleaned, removed };
}

/** The width a seal of `sizeMm` is rasterised at. */
export function sealPixels(sizeMm: number): number {
  return Math.min(2048, Math.max(64, Math.ceil((sizeMm / 25.4) * SEAL_DPI)));
}

/** Rasterised seals by their SVG and width: a watch session draws each once. */
const rasterised = new Map<string, Promise<Rasterised | string>>();

export interface Rasterised {
  png: Uint8Array;
  /** The SVG drew images (any file on disk, for resvg): they were left out. */
  imagesLeftOut: boolean;
}

/** The time the seals of one edition may take together: each seal takes from it, and none more than SEAL_RASTER_MS. */
export interface SealBudget {
  /** Milliseconds left. */
  left: number;
}

export function sealBudget(): SealBudget {
  return { left: SEALS_RASTER_MS };
}

/** The seal SVG as a PNG `width` pixels wide, or why it cannot be drawn; `budget`: the edition's seals' time, shared. */
export async function rasteriseSeal(svg: Uint8Array, width: number, budget: SealBudget = sealBudget()): Promise<Rasterised | string> {
  const key = `${createHash('sha256').update(svg).digest('hex')}:${width}`;
  let made = rasterised.get(key);
  if (made) return made;
  if (budget.left <= 0) return `was not drawn: the seals of this edition have had their ${SEALS_RASTER_MS / 1000} s (a seal takes ~50 ms; slow seals before it used the time)`;
  const started = Date.now();
  const limit = Math.min(SEAL_RASTER_MS, budget.left);
  made = runResvg(svg, width, limit);
  const result = await made;
  budget.left -= Date.now() - started;
  // A seal cut short by what others left of the budget may draw another time: only what it does on its own is remembered.
  if (typeof result !== 'string' || limit === SEAL_RASTER_MS) {
    if (rasterised.size > 64) rasterised.clear();
    rasterised.set(key, made);
  }
  return result;
}

function runResvg(bytes: Uint8Array, width: number, limitMs: number): Promise<Rasterised | string> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const safe = withoutExternalReferences(text);
  if (typeof safe === 'string') return Promise.resolve(safe);
  const hasText = /<text[\s>]/.test(safe.svg);
  return new Promise((resolve) => {
    // Its memory capped (RLIMIT_AS, through the shell's ulimit): resvg is native code, which no V8 limit bounds.
    const command = `ulimit -v ${Math.floor(SEAL_PROCESS_BYTES / 1024)} && exec "$0" "$@"`;
    const child = spawn('/bin/sh', ['-c', command, process.execPath, SCRIPT, String(width), hasText ? 'text' : ''], { stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid !== undefined) trackChild(child.pid);
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 4 * SEAL_MAX_PIXELS) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8').slice(0, 2000)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(safe.svg);
    const done = (reason: string | undefined): void => {
      clearTimeout(timer);
      if (child.pid !== undefined) untrackChild(child.pid);
      resolve(reason ?? { png: new Uint8Array(Buffer.concat(out)), imagesLeftOut: safe.removed > 0 || err.includes('images-left-out') });
    };
    child.on('error', (error) => done(`could not be drawn (${error.message})`));
    child.on('close', (code) => {
      if (late) done(limitMs < SEAL_RASTER_MS ? `could not be drawn in the ${(limitMs / 1000).toFixed(1)} s the seals before it left of their ${SEALS_RASTER_MS / 1000} s` : `could not be drawn within ${SEAL_RASTER_MS / 1000} s (an SVG seal should be a few shapes: nested <use> and filters multiply the work)`);
      else if (code === 3) done(`is an SVG that cannot be drawn: ${err.trim() || 'resvg could not read it'}`);
      else if (code !== 0) done(`could not be drawn (the renderer stopped${err ? `: ${err.trim()}` : ''})`);
      else done(undefined);
    });
  });
}
