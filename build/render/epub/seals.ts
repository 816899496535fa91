/**
 * Seals (印章) in the EPUB: the edition's seals as images, each placed after
 * the text of its print page. A module of its own so that the engine reads
 * the edition's seals without loading the renderer.
 */
import type { SealConfig } from '../../tree/edition.js';
import type { PageList } from './pages.js';
import type { EpubSeal } from './types.js';
import type { VolumeSeal } from './xhtml.js';

/** An image the book ships (a seal), as the package writes it: OEBPS/<href>. */
export interface BookImage {
  href: string;
  mediaType: string;
  bytes: Uint8Array;
}

/** The edition's seals the loader could read (edition.yaml `seals:` with their images), as renderEpub takes them. */
export function epubSeals(seals: readonly SealConfig[] | undefined): EpubSeal[] {
  return (seals ?? []).flatMap((s) => (s.data ? [{ page: s.page, ...(s.name ? { name: s.name } : {}), data: s.data }] : []));
}

const IMAGE_TYPES = { png: 'image/png', svg: 'image/svg+xml' } as const;

/**
 * Each seal after the text of its print page: page P is the P-th page of
 * the page list, ending where the next page of its volume starts (or at
 * the volume's end); `last`, a page past the list, or a book without a
 * page list puts it after the text of the last volume (page 1 without a
 * page list: the first).
 */
export function placeSeals(seals: readonly EpubSeal[], pageList: PageList | undefined, volumes: number): { perVolume: VolumeSeal[][]; images: BookImage[] } {
  const perVolume: VolumeSeal[][] = Array.from({ length: volumes }, () => []);
  const images: BookImage[] = [];
  if (volumes === 0) return { perVolume, images };
  const flat = (pageList?.volumes ?? []).flatMap((pages, v) => pages.map((p, k) => ({ v, end: pages[k + 1]?.index ?? Number.MAX_SAFE_INTEGER })));
  seals.forEach((seal, i) => {
    const href = `images/seal${i + 1}.${seal.data.type}`;
    images.push({ href, mediaType: IMAGE_TYPES[seal.data.type], bytes: seal.data.bytes });
    const at = seal.page === 'last' ? undefined : pageList ? flat[seal.page - 1] : seal.page === 1 ? { v: 0, end: Number.MAX_SAFE_INTEGER } : undefined;
    const place = at ?? { v: volumes - 1, end: Number.MAX_SAFE_INTEGER };
    perVolume[place.v].push({ at: place.end, href, ...(seal.name ? { name: seal.name } : {}) });
  });
  return { perVolume, images };
}

