/**
 * The NCX's navigation for EPUB 2 reading systems: the table of contents and
 * the page list in one reading order. Every navPoint and pageTarget has a
 * playOrder, counted along the book (document, then place in it), and two
 * entries that point at the same place share one (NCX 2005-1).
 */
import type { TocEntry } from './types.js';

export interface NcxPoint {
  label: string;
  href: string;
  playOrder: number;
  children: NcxPoint[];
}

export interface NcxPage {
  label: string;
  href: string;
  playOrder: number;
}

/** A page target as the renderer lists it, with its place: the units of its document before it. */
export interface PlacedPage {
  label: string;
  href: string;
  at: number;
}

/**
 * Play orders for the TOC and the page list. `files`: the documents in spine
 * order. At one place, a page's marker stands before a heading (the renderer
 * writes the page break first).
 */
export function ncxNavigation(toc: readonly TocEntry[], pages: readonly PlacedPage[], files: readonly string[]): { points: NcxPoint[]; pages: NcxPage[] } {
  const file = (href: string): number => {
    const i = files.indexOf(href.split('#')[0]);
    return i < 0 ? files.length : i;
  };
  type Item = { href: string; file: number; at: number; rank: number; seq: number };
  const items: Item[] = [];
  const flat = (entries: readonly TocEntry[]): void =>
    entries.forEach((e) => {
      items.push({ href: e.href, file: file(e.href), at: e.at ?? (e.href.includes('#') ? 0 : -1), rank: 1, seq: items.length });
      flat(e.children);
    });
  flat(toc);
  pages.forEach((p) => items.push({ href: p.href, file: file(p.href), at: p.at, rank: 0, seq: items.length }));
  const sorted = [...items].sort((a, b) => a.file - b.file || a.at - b.at || a.rank - b.rank || a.seq - b.seq);
  const order = new Map<string, number>();
  let n = 0;
  for (const it of sorted) if (!order.has(it.href)) order.set(it.href, ++n);
  const points = (entries: readonly TocEntry[]): NcxPoint[] =>
    entries.map((e) => ({ label: e.label, href: e.href, playOrder: order.get(e.href)!, children: points(e.children) }));
  return { points: points(toc), pages: pages.map((p) => ({ label: p.label, href: p.href, playOrder: order.get(p.href)! })) };
}
