/**
 * The generated cover: title and author set vertically on a title slip, the
 * glyphs drawn as outlines (shaped by HarfBuzz in top-to-bottom direction, so
 * vert/vrt2 apply) into an SVG, rasterised to PNG by resvg (readers' library
 * views want a raster cover). No system fonts are read: without fonts given,
 * the cover has no lettering.
 */
import { Resvg } from '@resvg/resvg-js';
import * as hb from 'harfbuzzjs';
import { cmapRanges } from '../../fonts/sfnt.js';
import { escapeXml } from './xhtml.js';

export interface CoverFont {
  bytes: Uint8Array;
}

const W = 600;
const H = 900;

interface Outline {
  path: string;
  upem: number;
}

/** Per character: the outline from the first font that has it (undefined when none). */
function outlines(text: string, fonts: readonly CoverFont[]): Array<Outline | undefined> {
  const chars = [...text];
  const out: Array<Outline | undefined> = chars.map(() => undefined);
  const left = new Set(chars.keys());
  for (const f of fonts) {
    if (left.size === 0) break;
    const ranges = cmapRanges(f.bytes);
    const has = (cp: number): boolean => ranges.some(([a, b]) => cp >= a && cp <= b);
    const mine = [...left].filter((i) => has(chars[i].codePointAt(0)!));
    if (mine.length === 0) continue;
    // harfbuzzjs frees its wasm objects through a FinalizationRegistry.
    const blob = new hb.Blob(f.bytes);
    const face = new hb.Face(blob);
    const font = new hb.Font(face);
    for (const i of mine) {
      const buf = new hb.Buffer();
      buf.addText(chars[i]);
      buf.setDirection(hb.Direction.TTB);
      buf.guessSegmentProperties();
      hb.shape(font, buf);
      const [info] = buf.getGlyphInfos();
      const [pos] = buf.getGlyphPositions();
      // Place the glyph relative to the pen at the top centre of its cell (HarfBuzz's vertical origin offsets).
      const path = font.glyphToPath(info.codepoint);
      const upem = face.upem;
      out[i] = { path: `<g transform="translate(${pos.xOffset ?? 0},${pos.yOffset ?? 0})">${path ? `<path d="${path}"/>` : ''}</g>`, upem };
      left.delete(i);
    }
  }
  return out;
}

/** A column of characters, top to bottom, centred on x, each `size` px high (spaces half that). */
function column(text: string, x: number, top: number, size: number, fonts: readonly CoverFont[], fill: string): string {
  const glyphs = outlines(text, fonts);
  let y = top;
  return [...text]
    .map((ch, i) => {
      const g = glyphs[i];
      const at = y;
      y += /\s/.test(ch) && ch !== '\u3000' ? size / 2 : size;
      if (/\s/.test(ch)) return '';
      if (!g) {
        return `<text x="${x}" y="${at + size * 0.88}" font-size="${size}" text-anchor="middle" fill="${fill}">${escapeXml(ch)}</text>`;
      }
      const s = size / g.upem;
      // Glyph coordinates are y-up from the vertical origin (top centre of the cell).
      return `<g fill="${fill}" transform="translate(${x},${at}) scale(${s.toFixed(5)},${(-s).toFixed(5)})">${g.path}</g>`;
    })
    .join('');
}

/** The cover image (SVG markup): a title slip (題簽) at the upper left, as on a thread-bound book. */
export function coverSvg(title: string, author: string, fonts: readonly CoverFont[]): string {
  const titleChars = [...title].length;
  const slipTop = 70;
  const size = Math.min(88, Math.floor(500 / Math.max(titleChars, 1)));
  const slipHeight = Math.max(360, titleChars * size + 70);
  const slipX = 70;
  const slipW = size + 50;
  const authorChars = [...author].length;
  const authorSize = Math.min(40, Math.floor(520 / Math.max(authorChars, 1)));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
    `<title>${escapeXml(`${title}　${author}`)}</title>`,
    `<rect width="${W}" height="${H}" fill="#3b4a5a"/>`,
    `<rect x="${slipX}" y="${slipTop}" width="${slipW}" height="${slipHeight}" fill="#f4ecd8" stroke="#1d2530" stroke-width="3"/>`,
    `<rect x="${slipX + 8}" y="${slipTop + 8}" width="${slipW - 16}" height="${slipHeight - 16}" fill="none" stroke="#1d2530" stroke-width="1"/>`,
    column(title, slipX + slipW / 2, slipTop + 30, size, fonts, '#111111'),
    column(author, slipX + slipW + 50, slipTop + 30, authorSize, fonts, '#f4ecd8'),
    `</svg>`,
  ].join('\n');
}

/** Cover width × height in pixels (2:3, the shape of a thread-bound book). */
export const COVER_SIZE = { width: 1400, height: 2100 } as const;

/** The cover as PNG bytes (deterministic: same input, same bytes). */
export function coverPng(title: string, author: string, fonts: readonly CoverFont[]): Uint8Array<ArrayBuffer> {
  const svg = coverSvg(title, author, fonts);
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: COVER_SIZE.width }, font: { loadSystemFonts: false } }).render().asPng();
  return new Uint8Array(png);
}
