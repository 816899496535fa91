/**
 * The picture of a drawn glyph, black ink on transparent, for both
 * renderers (the PDF masks it in the text's colour, the EPUB shows it as an
 * image): a KR-Gaiji image as the list has it, or a composition made from
 * the outlines of its parts in the edition's fonts (HarfBuzz) — beside and
 * above each part fills its share of the cell (⿰女省), a formula no IDS
 * says is written small in the cell (`臊-品+巳`), in its share where it is
 * a part beside or above another. Pure over font bytes and
 * the list's data; no text in the picture (the renderers put the drawing's
 * text in the text layer and the alt text, once).
 */
import { createHash } from 'node:crypto';
import * as hb from 'harfbuzzjs';
import { cmapRanges } from '../fonts/index.js';
import type { GlyphDrawing } from '../tree/types.js';
import { formulaText, isBeside, parseFormula, parseIds, type Formula, type IdsNode } from './composition.js';
import { krGaijiImage } from './kr-gaiji.js';

export interface GlyphArt {
  /** A name for the picture, the same for the same picture (`KR0433`, `c-1a2b3c4d5e`): an EPUB file name, a cache key. */
  name: string;
  type: 'png' | 'svg';
  mime: 'image/png' | 'image/svg+xml';
  bytes: Uint8Array;
}

/** The picture's box: 1000 units a side, the cell's em square. */
const EM = 1000;
/** What a part's ink may fill of its share of the cell (the rest a margin, as a font's glyphs have). */
const INK = 0.86;

interface Outline {
  path: string;
  /** The ink's box in font units, y up. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  upem: number;
  advance: number;
}

/** Outlines of characters, from the first face that has each. */
class Outlines {
  private readonly fonts: { ranges: ReadonlyArray<readonly [number, number]>; font?: hb.Font; bytes: Uint8Array; upem?: number }[];
  private readonly memo = new Map<string, Outline | null>();

  constructor(faces: readonly Uint8Array[]) {
    this.fonts = faces.map((bytes) => ({ ranges: cmapRanges(bytes), bytes }));
  }

  of(ch: string): Outline | undefined {
    if (!this.memo.has(ch)) this.memo.set(ch, this.find(ch) ?? null);
    return this.memo.get(ch) ?? undefined;
  }

  private find(ch: string): Outline | undefined {
    const cp = ch.codePointAt(0)!;
    for (const f of this.fonts) {
      if (!f.ranges.some(([a, b]) => cp >= a && cp <= b)) continue;
      if (!f.font) {
        const face = new hb.Face(new hb.Blob(f.bytes));
        f.upem = face.upem;
        f.font = new hb.Font(face);
      }
      const glyph = f.font.glyph(cp);
      if (glyph === undefined || glyph === 0) continue;
      const e = f.font.glyphExtents(glyph);
      const path = f.font.glyphToPath(glyph);
      if (!e || !path) continue;
      // glyphExtents: yBearing is the ink's top, height negative (down).
      return { path, x0: e.xBearing, x1: e.xBearing + e.width, y1: e.yBearing, y0: e.yBearing + e.height, upem: f.upem!, advance: f.font.glyphHAdvance(glyph) };
    }
    return undefined;
  }
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const round = (x: number): number => Math.round(x * 100) / 100;

/** A part's ink fitted to a box (its share of the cell), each direction by itself: how IDS-built glyphs squeeze their parts. */
function fitted(o: Outline, box: Box): string {
  const inkW = Math.max(o.x1 - o.x0, o.upem * 0.05);
  const inkH = Math.max(o.y1 - o.y0, o.upem * 0.05);
  const w = box.w * INK;
  const h = box.h * INK;
  const sx = w / inkW;
  const sy = h / inkH;
  const tx = box.x + (box.w - w) / 2 - o.x0 * sx;
  const ty = box.y + (box.h - h) / 2 + o.y1 * sy;
  return `<path transform="matrix(${round(sx)} 0 0 ${round(-sy)} ${round(tx)} ${round(ty)})" d="${o.path}"/>`;
}

/** A character set whole in a box (a formula's character): its em square scaled, its ink where the font puts it. */
function whole(o: Outline, box: Box): string {
  const s = Math.min(box.w, box.h) / o.upem;
  const tx = box.x + (box.w - o.advance * s) / 2;
  // The em box's top at the box's top: the ink's vertical place as in running text (ascent about 0.88 em).
  const ty = box.y + (box.h - o.upem * s) / 2 + o.upem * 0.88 * s;
  return `<path transform="matrix(${round(s)} 0 0 ${round(-s)} ${round(tx)} ${round(ty)})" d="${o.path}"/>`;
}

function partsSvg(node: IdsNode, box: Box, outlines: Outlines): string | undefined {
  if ('char' in node) {
    const o = outlines.of(node.char);
    return o && fitted(o, box);
  }
  const n = node.parts.length;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const share: Box = isBeside(node.idc) ? { x: box.x + (box.w * i) / n, y: box.y, w: box.w / n, h: box.h } : { x: box.x, y: box.y + (box.h * i) / n, w: box.w, h: box.h / n };
    const svg = partsSvg(node.parts[i], share, outlines);
    if (svg === undefined) return undefined;
    out.push(svg);
  }
  return out.join('');
}

/** A formula's text written small in a box, in rows of about as many characters as there are rows. */
function writtenSvg(text: string, box: Box, outlines: Outlines): string | undefined {
  const chars = Array.from(text);
  const cols = Math.ceil(Math.sqrt(chars.length));
  const rows = Math.ceil(chars.length / cols);
  const size = Math.min(box.w / cols, box.h / rows);
  const top = box.y + (box.h - rows * size) / 2;
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const o = outlines.of(chars[i]);
    if (!o) return undefined;
    const row = Math.floor(i / cols);
    const inRow = Math.min(cols, chars.length - row * cols);
    const left = box.x + (box.w - inRow * size) / 2;
    out.push(whole(o, { x: left + (i % cols) * size, y: top + row * size, w: size, h: size }));
  }
  return out.join('');
}

/**
 * A formula no IDS says: what stands beside or above is drawn so (each part
 * in its share), what is surrounded, taken away or added (`@ - +`) is written
 * small in its share: `(厂@…)*頁` is the 厂 formula small on the left, 頁 on
 * the right. A description with no operators (`艹虑`) is written small whole.
 */
function formulaSvg(formula: string, box: Box, outlines: Outlines): string | undefined {
  // (`@`: the first part drawn over the share, the second in its middle.)
  const parsed = parseFormula(formula);
  if (!parsed) return writtenSvg(formula, box, outlines);
  const draw = (f: Formula, b: Box): string | undefined => {
    if (f.kind === 'part') {
      const o = outlines.of(f.char);
      return o && fitted(o, b);
    }
    if (f.kind === 'op' && (f.op === '*' || f.op === '/')) {
      const n = f.parts.length;
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const share: Box = f.op === '*' ? { x: b.x + (b.w * i) / n, y: b.y, w: b.w / n, h: b.h } : { x: b.x, y: b.y + (b.h * i) / n, w: b.w, h: b.h / n };
        const svg = draw(f.parts[i], share);
        if (svg === undefined) return undefined;
        out.push(svg);
      }
      return out.join('');
    }
    if (f.kind === 'op' && f.op === '@') {
      // The first part around the second: the outer part over the whole share, the inner one in its middle.
      const outer = draw(f.parts[0], b);
      const inner = draw(f.parts[1], { x: b.x + 0.22 * b.w, y: b.y + 0.3 * b.h, w: 0.56 * b.w, h: 0.56 * b.h });
      return outer === undefined || inner === undefined ? undefined : outer + inner;
    }
    return writtenSvg(formulaText(f), b, outlines);
  };
  return draw(parsed, box);
}

const svgDocument = (body: string): string => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${EM} ${EM}" width="${EM}" height="${EM}">${body}</svg>\n`;

/**
 * Makes the picture of a drawing: `faces` are the edition's fonts (sfnt
 * bytes, stack order) whose outlines compose a composition. Undefined where
 * nothing draws it (a part no font has, an image the list lacks): 〓.
 */
export function glyphArtMaker(faces: readonly Uint8Array[]): (d: GlyphDrawing) => GlyphArt | undefined {
  let outlines: Outlines | undefined;
  const memo = new Map<string, GlyphArt | null>();
  const make = (d: GlyphDrawing): GlyphArt | undefined => {
    if (d.image) {
      const bytes = krGaijiImage(d.image);
      return bytes && { name: d.image, type: 'png', mime: 'image/png', bytes };
    }
    outlines ??= new Outlines(faces);
    const tree = d.ids === undefined ? undefined : parseIds(d.ids);
    const cell = { x: 0, y: 0, w: EM, h: EM };
    const body = tree ? partsSvg(tree, cell, outlines) : d.formula !== undefined ? formulaSvg(d.formula, cell, outlines) : undefined;
    if (body === undefined) return undefined;
    const bytes = new TextEncoder().encode(svgDocument(body));
    const name = `c-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}`;
    return { name, type: 'svg', mime: 'image/svg+xml', bytes };
  };
  return (d) => {
    const key = JSON.stringify([d.image, d.ids, d.formula]);
    if (!memo.has(key)) memo.set(key, make(d) ?? null);
    return memo.get(key) ?? undefined;
  };
}
