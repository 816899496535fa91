/**
 * The PDF's standard (edition.yaml `pdf:`, `--pdf-standard`): the screen
 * file as assembled, or made into PDF/X (print) or PDF/A-2u (archive) by
 * render/pdf/standards.ts. This is the I/O half: the ICC profiles Debian
 * installs, and Ghostscript's pdfwrite for the colours that are neither
 * black, grey nor white (a seal, a coloured label, an image), run
 * sandboxed with a time limit.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { PRODUCER, type OutlineEntry } from '../render/pdf/postprocess.js';
import {
  StandardError,
  colourSheet,
  markArchive,
  readColourSheet,
  toCmyk,
  markPrint,
  removeTransparency,
  toBlackPlate,
  toSpotColours,
  type OutputProfile,
  type StandardInfo,
} from '../render/pdf/standards.js';
import type { PdfSettings } from '../tree/edition.js';
import { makeTempDir, removeTemp, trackChild, untrackChild } from './cleanup.js';

/**
 * The CMYK profile of print files: Ghostscript's own (Debian libgs-common,
 * installed with ghostscript), the one its pdfwrite converts RGB to CMYK
 * with — so the output intent is the profile the colours were made for.
 */
export const PRINT_PROFILE = {
  file: '/usr/share/color/icc/ghostscript/default_cmyk.icc',
  components: 4,
  condition: 'CGATS TR 001',
  info: 'Artifex CMYK SWOP Profile (Ghostscript default_cmyk.icc): U.S. web coated (SWOP)',
} as const;

/** The sRGB profile of archive files (Debian colord-data). */
export const ARCHIVE_PROFILE = {
  file: '/usr/share/color/icc/colord/sRGB.icc',
  components: 3,
  condition: 'sRGB IEC61966-2.1',
  info: 'sRGB IEC61966-2.1 (colord sRGB.icc)',
} as const;

const profiles = new Map<string, Promise<OutputProfile>>();

async function loadProfile(p: typeof PRINT_PROFILE | typeof ARCHIVE_PROFILE): Promise<OutputProfile> {
  let loaded = profiles.get(p.file);
  if (!loaded) {
    loaded = readFile(p.file).then(
      (bytes) => ({ bytes: new Uint8Array(bytes), components: p.components, condition: p.condition, info: p.info }),
      () => {
        throw new StandardError(`the colour profile ${p.file} is missing (Debian ${p === PRINT_PROFILE ? 'libgs-common, with ghostscript' : 'colord-data'}; npm run setup installs it)`);
      },
    );
    profiles.set(p.file, loaded);
    loaded.catch(() => profiles.delete(p.file));
  }
  return loaded;
}

/** How long Ghostscript may take: generous, a hang must not hold the build forever. */
function ghostscriptLimit(pages: number): number {
  return 120_000 + pages * 1_000;
}

/**
 * Ghostscript's pdfwrite over the document, converting every colour to
 * DeviceCMYK (DeviceGray stays grey: black-plate type stays on the black
 * plate). -dSAFER: it reads only its input and its own resources and writes
 * only its output; it opens no connection; killed at its time limit. Pages
 * not rotated, images not resampled, no dates or /ID of its own (the same
 * input gives the same bytes).
 */
export async function ghostscriptCmyk(bytes: Uint8Array, pages: number, o: { gs?: string } = {}): Promise<Uint8Array> {
  const gs = o.gs ?? process.env.DIAOBAN_GHOSTSCRIPT ?? 'gs';
  const dir = await makeTempDir('gs');
  try {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    await writeFile(input, bytes);
    const args = [
      '-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-dNOPROMPT',
      '-sDEVICE=pdfwrite', '-dCompatibilityLevel=1.6',
      '-sColorConversionStrategy=CMYK', '-dProcessColorModel=/DeviceCMYK',
      '-dAutoRotatePages=/None',
      '-dDownsampleColorImages=false', '-dDownsampleGrayImages=false', '-dDownsampleMonoImages=false',
      '-dAutoFilterColorImages=false', '-dColorImageFilter=/FlateEncode', '-dMaxInlineImageSize=0',
      '-dEmbedAllFonts=true',
      '-dOmitInfoDate', '-dOmitID', '-dOmitXMP',
      `-sOutputFile=${output}`, input,
    ];
    const limit = ghostscriptLimit(pages);
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn(gs, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: dir } });
      if (child.pid) trackChild(child.pid);
      // Ghostscript says what went wrong on either stream (on stdout with -q).
      let err = '';
      const collect = (d: Buffer): void => {
        if (err.length < 4000) err += d.toString();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new StandardError(`Ghostscript took longer than ${Math.round(limit / 1000)} s converting the colours to CMYK; stopped (no PDF written)`));
      }, limit);
      child.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new StandardError(error.code === 'ENOENT' ? `Ghostscript (${gs}) is not installed: it converts the colours of a print PDF to CMYK (Debian ghostscript; npm run setup installs it)` : `Ghostscript could not start: ${error.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (child.pid) untrackChild(child.pid);
        if (code === 0) resolve(err);
        else reject(new StandardError(`Ghostscript failed converting the colours to CMYK (${signal ?? `exit ${code}`}): ${err.trim().split('\n').slice(0, 4).join(' / ') || 'no message'} (no PDF written)`));
      });
    });
    if (/\*{4} Error|^\s*Error|Unrecoverable/im.test(stderr)) throw new StandardError(`Ghostscript reported a problem converting the colours to CMYK: ${stderr.trim().split('\n').slice(0, 4).join(' / ')} (no PDF written)`);
    return new Uint8Array(await readFile(output));
  } finally {
    await removeTemp(dir);
  }
}

/** The standard as a print shop or archive names it: PDF/X-4, PDF/X-1a, PDF/A-2u. */
export function standardName(settings: PdfSettings): string {
  if (settings.standard === 'print') return settings.pdfx === 'x-1a' ? 'PDF/X-1a' : 'PDF/X-4';
  return settings.standard === 'archive' ? 'PDF/A-2u' : 'screen';
}

export interface StandardResult {
  bytes: Uint8Array;
  /** Neutral colours set on the black plate. */
  neutral: number;
  /** What colour was left for Ghostscript (none: it did not run). */
  converted: string[];
  /** The colours printed as spot colours (SPOT_COLOURS), as `r g b`. */
  spots?: string[];
}

/**
 * The book's PDF in the edition's standard: screen → as it is; print →
 * neutral colours on the black plate (our rewrite), any other colour through
 * Ghostscript to CMYK, X-1a's transparency taken out, boxes, marks, intent,
 * metadata; archive → PDF/A-2u.
 */
export async function applyStandard(
  bytes: Uint8Array,
  settings: PdfSettings | undefined,
  o: { info: StandardInfo; outline: readonly OutlineEntry[]; bleed: number },
): Promise<StandardResult> {
  const standard = settings?.standard ?? 'screen';
  if (standard === 'screen') return { bytes, neutral: 0, converted: [] };
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  if (standard === 'archive') {
    return { bytes: await markArchive(doc, { info: o.info, outline: o.outline, profile: await loadProfile(ARCHIVE_PROFILE), producer: PRODUCER }), neutral: 0, converted: [] };
  }
  const version = settings?.pdfx ?? 'x-4';
  const found = toBlackPlate(doc);
  if (found.other.length > 0) throw new StandardError(`the book has ${found.other.join(' and ')}, which a print file cannot have converted to CMYK yet`);
  // A spot colour (朱絲欄's vermilion) stays an ink of its own; the other colours go to CMYK.
  const spots = toSpotColours(doc, found.rgb);
  found.rgb = found.rgb.filter((c) => !spots.includes(c));
  if (found.rgb.length > 0 || found.images.length > 0) {
    // Ghostscript computes the CMYK of each colour and image through the output profile; the book's own
    // content streams and fonts stay ours (a pass of the whole book through pdfwrite lost ToUnicode entries).
    const sheet = await colourSheet(doc, found.rgb, found.images);
    const converted = await ghostscriptCmyk(sheet, 1 + found.images.length);
    toCmyk(doc, await readColourSheet(doc, converted, found.rgb, found.images));
  }
  if (version === 'x-1a') removeTransparency(doc);
  const out = await markPrint(doc, { version, info: o.info, outline: o.outline, bleed: o.bleed, profile: await loadProfile(PRINT_PROFILE), producer: PRODUCER });
  return { bytes: out, neutral: found.neutral, converted: [...found.rgb, ...found.images.map(() => 'image')], spots };
}
