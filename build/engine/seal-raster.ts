/**
 * Seal images made safe to draw (edition.yaml `seals:`): an SVG is
 * rasterised by resvg in a process of its own (seal-raster.mjs) under a time
 * limit — a 2 KB SVG of nested <use> is 10^10 shapes, which no renderer
 * finishes — and every PNG, given or made, has its header checked (magic,
 * IHDR, width × height within a limit) before it is decoded whole. The page
 * then draws a bitmap, never an SVG; images an SVG seal names are left out
 * (resvg would read any file). Reasons come back as text for a message at
 * the seal's entry.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { trackChild, untrackChild } from './cleanup.js';

/** How long resvg may take for one seal (an ordinary seal takes ~50 ms). */
export const SEAL_RASTER_MS = 10_000;
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

/** The seal SVG as a PNG `width` pixels wide, or why it cannot be drawn. */
export function rasteriseSeal(svg: Uint8Array, width: number): Promise<Rasterised | string> {
  const key = `${createHash('sha256').update(svg).digest('hex')}:${width}`;
  let made = rasterised.get(key);
  if (!made) {
    made = runResvg(svg, width);
    if (rasterised.size > 64) rasterised.clear();
    rasterised.set(key, made);
  }
  return made;
}

function runResvg(svg: Uint8Array, width: number): Promise<Rasterised | string> {
  const hasText = /<text[\s>]/.test(Buffer.from(svg).toString('utf8'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, String(width), hasText ? 'text' : ''], { stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid !== undefined) trackChild(child.pid);
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      child.kill('SIGKILL');
    }, SEAL_RASTER_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 4 * SEAL_MAX_PIXELS) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8').slice(0, 2000)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.from(svg.buffer, svg.byteOffset, svg.byteLength));
    const done = (reason: string | undefined): void => {
      clearTimeout(timer);
      if (child.pid !== undefined) untrackChild(child.pid);
      resolve(reason ?? { png: new Uint8Array(Buffer.concat(out)), imagesLeftOut: err.includes('images-left-out') });
    };
    child.on('error', (error) => done(`could not be drawn (${error.message})`));
    child.on('close', (code) => {
      if (late) done(`could not be drawn within ${SEAL_RASTER_MS / 1000} s (an SVG seal should be a few shapes: nested <use> multiply them)`);
      else if (code === 3) done(`is an SVG that cannot be drawn: ${err.trim() || 'resvg could not read it'}`);
      else if (code !== 0) done(`could not be drawn (the renderer stopped${err ? `: ${err.trim()}` : ''})`);
      else done(undefined);
    });
  });
}
