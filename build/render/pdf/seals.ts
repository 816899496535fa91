/**
 * Seals (印章, edition.yaml `seals:`): an image stamped over the text of a
 * page, as a red seal is pressed over the ink — the seal's colour
 * multiplies with the type beneath it, so the characters still show
 * through. The image comes in as the bytes of a checked PNG (the loader
 * read it inside the edition's sandbox, and rasterised an SVG with resvg:
 * engine/seal-raster.ts) and goes into the page as a data: URL, so the browser
 * reads no file for it (the page's Content-Security-Policy allows images
 * from data:). Same bytes, same page: reproducible.
 */
import type { SealConfig, SealPosition } from '../../tree/edition.js';
import type { BookLayout } from '../../layout/types.js';
import { lengthToMm, type PageGeometry, type Side } from './geometry.js';

/** A seal ready to draw: the book page it is on, where, how large, and the image as a data: URL. */
export interface PlacedSeal {
  page: number;
  position: SealPosition;
  /** Width in mm. */
  size: number;
  url: string;
}

const MIME = { png: 'image/png', svg: 'image/svg+xml' } as const;

/** The edition's seals with their pages resolved (`last` → the layout's last page); seals without an image (refused by the loader) are left out. */
export function placeSeals(seals: readonly SealConfig[] | undefined, layout: BookLayout): PlacedSeal[] {
  const pages = layout.volumes.flatMap((v) => v.pages);
  const last = pages[pages.length - 1]?.number ?? 1;
  return (seals ?? []).flatMap((s) =>
    s.data
      ? [{ page: s.page === 'last' ? last : s.page, position: s.position, size: lengthToMm(s.size), url: `data:${MIME[s.data.type]};base64,${Buffer.from(s.data.bytes).toString('base64')}` }]
      : [],
  );
}

const mm = (x: number): string => `${Math.round(x * 1000) / 1000}mm`;

/**
 * The seals of book page `page`: each at its corner of the text block (the
 * grid's columns, inside the frame), a little in from the corner.
 */
export function sealsHtml(page: number, g: PageGeometry, side: Side, seals: readonly PlacedSeal[]): string {
  const mine = seals.filter((s) => s.page === page);
  if (mine.length === 0) return '';
  const rights = g.columnRight[side];
  const right = g.area.width - rights[0];
  const left = g.area.width - rights[rights.length - 1] - g.colWidth;
  const top = g.gridTop;
  const bottom = g.gridTop + g.cells * g.cellHeight;
  return mine
    .map((s) => {
      const inset = Math.min(3, 0.05 * (right - left));
      const x = s.position.endsWith('left') ? left + inset : s.position.endsWith('right') ? right - inset - s.size : (left + right - s.size) / 2;
      const y = s.position.startsWith('upper') ? top + inset : s.position.startsWith('lower') ? bottom - inset - s.size : (top + bottom - s.size) / 2;
      return `<img class="seal" alt="" src="${s.url}" style="left:${mm(x)};top:${mm(y)};width:${mm(s.size)};height:${mm(s.size)}">`;
    })
    .join('');
}

/** What a print shop asks of a picture at its printed size. */
export const PRINT_PPI = 300;

/**
 * Seals whose PNG prints below PRINT_PPI at its size (an SVG has no
 * resolution): what a print shop's preflight flags, with the pixels it
 * would need.
 */
export function lowResolutionSeals(seals: readonly SealConfig[] | undefined): string[] {
  const out: string[] = [];
  for (const seal of seals ?? []) {
    if (seal.data?.type !== 'png' || seal.data.bytes.byteLength < 24) continue;
    const view = new DataView(seal.data.bytes.buffer, seal.data.bytes.byteOffset, seal.data.bytes.byteLength);
    // IHDR: width and height, big-endian, at bytes 16 and 20; the seal fits its size square.
    const pixels = Math.max(view.getUint32(16), view.getUint32(20));
    const inches = lengthToMm(seal.size) / 25.4;
    const ppi = Math.round(pixels / inches);
    if (ppi < PRINT_PPI) out.push(`seal ${seal.image} prints at ${ppi} ppi at ${seal.size}; a print shop asks for ${PRINT_PPI} (a PNG of ${Math.ceil(PRINT_PPI * inches)} pixels, or an SVG)`);
  }
  return out;
}
