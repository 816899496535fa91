/**
 * 眉批 and 側批 on the laid-out pages: each is set where its anchor landed
 * and, when another annotation (or a 抬頭 column, for a 眉批) is there
 * first, moved to the next free place.
 *
 * - 眉批 (top-margin notes) go in lanes of the top margin, two a column
 *   (its right half, then its left), each holding `meipiCells` small
 *   characters from the top. One starts in the right lane over its anchor's
 *   column (the character it stands before) and takes as many lanes
 *   leftwards as its text needs. They keep the reading order: a 眉批 starts
 *   left of every 眉批 set before it on its page, and it is moved only
 *   leftwards, onwards in the reading, past lanes taken or over a raised
 *   (抬頭) column. One that finds no free lanes on its page goes to the
 *   first free lanes of the next page with room (a page of its own after
 *   the volume's last, if need be) and is reported at its place in the
 *   source: a 眉批 is never printed over another.
 * - 側批 (notes between columns) go in the gutter left of a column's text,
 *   a character every half cell, from beside their anchor's character
 *   downwards. When that stretch is taken, the nearest free stretch further
 *   down the gutter comes first, then higher up, then the next columns'
 *   gutters from their top. A 側批 longer than the gutter below its anchor
 *   runs on at the top of the next column's gutter.
 *
 * Pure: pages in, `page.annotations` set, what was moved off its page said.
 */
import type { AnnotationRef } from './flatten.js';
import { markOf } from '../punctuation/index.js';
import type { AnnotationPiece, Column, LayoutDiagnostic, Page, PageSpec, PlacedAnnotation } from './types.js';

/** An annotation's anchor as the engine placed it: the column (object) and the cell. */
export interface AnchorAt {
  ref: AnnotationRef;
  column: Column;
  cell: number;
}

interface Located {
  ref: AnnotationRef;
  page: number;
  column: number;
  cell: number;
}

/** Per page: the 眉批 lanes taken, and each column's 側批 gutter in half-cell slots (from the column's top, 抬頭 included). */
interface Occupancy {
  lanes: boolean[];
  /** Lanes holding a 眉批 (not only closed to one, as over a raised column). */
  held: boolean[];
  gutters: boolean[][];
  /** Half slots above the grid's top in each column's gutter (a raised column's). */
  above: number[];
}

function occupancy(page: Page, spec: PageSpec): Occupancy {
  const lanes = new Array<boolean>(2 * spec.columns).fill(false);
  const above = page.columns.map((c) => 2 * (c.raise ?? 0));
  for (const c of page.columns) if (c.raise) lanes[2 * c.index] = lanes[2 * c.index + 1] = true;
  const gutters = Array.from({ length: spec.columns }, (_, i) => new Array<boolean>((above[i] ?? 0) + 2 * spec.cells).fill(false));
  return { lanes, held: new Array<boolean>(2 * spec.columns).fill(false), gutters, above: Array.from({ length: spec.columns }, (_, i) => above[i] ?? 0) };
}

/**
 * A 眉批's characters cut into lanes of `size`; a lane that would begin
 * with a mark that may not head a column (，。) takes the character before
 * it along (禁則, as in the text).
 */
function lanesOf(chars: readonly string[], size: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < chars.length) {
    let end = Math.min(chars.length, i + size);
    while (end < chars.length && end - i > 1 && markOf(chars[end])?.noStart) end--;
    out.push(chars.slice(i, end).join(''));
    i = end;
  }
  return out;
}

/**
 * The first free run of `n` lanes at or after `from` (leftwards, onwards in
 * the reading); one moved there (`apart`) keeps a blank lane after the 眉批
 * before it (`held`) where there is room, so that the two read apart; -1 if none.
 */
function freeLanes(lanes: readonly boolean[], held: readonly boolean[], from: number, n: number, apart = false): number {
  const fits = (s: number): boolean => s + n <= lanes.length && lanes.slice(s, s + n).every((x) => !x);
  if (apart) for (let s = Math.max(0, from); s + n <= lanes.length; s++) if (fits(s) && !held[s - 1]) return s;
  for (let s = Math.max(0, from); s + n <= lanes.length; s++) if (fits(s)) return s;
  return -1;
}

/** A free stretch of `n` slots in a gutter: at or below `from` first, then above it; -1 if none. */
function freeSlots(gutter: readonly boolean[], from: number, n: number): number {
  const fits = (s: number): boolean => s >= 0 && s + n <= gutter.length && gutter.slice(s, s + n).every((x) => !x);
  for (let s = Math.max(0, from); s + n <= gutter.length; s++) if (fits(s)) return s;
  for (let s = Math.min(from - 1, gutter.length - n); s >= 0; s--) if (fits(s)) return s;
  return -1;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/**
 * Sets the volume's annotations on its pages; `extend` adds a page after
 * the last (for 眉批 no page has room for). Returns what was moved off
 * its anchor's page, as warnings at the annotations' places.
 */
export function placeAnnotations(pages: Page[], anchored: readonly AnchorAt[], spec: PageSpec, extend?: () => Page): LayoutDiagnostic[] {
  if (anchored.length === 0) return [];
  const where = new Map<Column, { page: number; column: number }>();
  pages.forEach((page, p) => page.columns.forEach((column, c) => where.set(column, { page: p, column: c })));
  const located: Located[] = anchored.map((a) => ({ ref: a.ref, cell: a.cell, ...(where.get(a.column) ?? { page: pages.length - 1, column: 0 }) }));
  located.sort((a, b) => a.page - b.page || a.column - b.column || a.cell - b.cell || a.ref.id - b.ref.id);
  const taken = new Map<number, Occupancy>();
  const occ = (p: number): Occupancy => {
    let o = taken.get(p);
    if (!o) taken.set(p, (o = occupancy(pages[p], spec)));
    return o;
  };
  /** Per page, the lane after the last 眉批 set there: the next one starts at or after it (reading order). */
  const nextLane = new Map<number, number>();
  const diagnostics: LayoutDiagnostic[] = [];
  const lanesPerPage = 2 * spec.columns;
  const meipiCells = Math.max(1, spec.meipiCells ?? 4);
  for (const a of located) {
    const chars = Array.from(a.ref.text);
    if (chars.length === 0) continue;
    const placed: PlacedAnnotation = { kind: a.ref.kind, anchor: { column: a.column, cell: a.cell }, pieces: [] };
    let page = a.page;
    if (a.ref.kind === 'meipi') {
      const lines = lanesOf(chars, meipiCells);
      const want = 2 * a.column;
      // A 眉批 longer than a page's lanes runs on over the next pages, a page's lanes at a time.
      const parts: string[][] = [];
      for (let k = 0; k < lines.length; k += lanesPerPage) parts.push(lines.slice(k, k + lanesPerPage));
      parts.forEach((part, k) => {
        let from = k === 0 ? Math.max(want, nextLane.get(page) ?? 0) : (nextLane.get(page) ?? 0);
        let lane = freeLanes(occ(page).lanes, occ(page).held, from, part.length, k === 0 && want < (nextLane.get(page) ?? 0));
        while (lane < 0) {
          if (page + 1 >= pages.length) {
            if (!extend) break;
            extend();
          }
          page++;
          from = nextLane.get(page) ?? 0;
          lane = freeLanes(occ(page).lanes, occ(page).held, from, part.length);
        }
        // No page to go to (no way to add one): at the first lane after those taken, over a raised column if it must.
        if (lane < 0) lane = Math.min(from, Math.max(0, lanesPerPage - part.length));
        const { lanes, held } = occ(page);
        part.forEach((text, j) => {
          const l = Math.min(lane + j, lanesPerPage - 1);
          lanes[l] = held[l] = true;
          (placed.pieces as Array<AnnotationPiece & { page?: number }>).push({ column: Math.floor(l / 2), lane: l, start: 0, text, ...(page !== a.page ? { page } : {}) });
        });
        nextLane.set(page, lane + part.length);
      });
      const first = placed.pieces[0] as AnnotationPiece & { page?: number };
      if ((first.page ?? a.page) !== a.page || first.lane !== want) placed.moved = true;
      if ((first.page ?? a.page) !== a.page) {
        const text = chars.length > 8 ? `${chars.slice(0, 8).join('')}…` : chars.join('');
        diagnostics.push({
          severity: 'warning',
          reason: `眉批 「${text}」 finds no free lane over its words on its page (the top margin holds ${lanesPerPage} lanes of ${meipiCells}); it is set on the next page with room`,
          ruleId: 'meipi-overflow',
          position: a.ref.position,
        });
      }
    } else {
      placed.pieces = placeCepi(chars, a, page, occ, pages.length, spec);
      const first = placed.pieces[0];
      if (!first || first.column !== a.column || Math.abs(first.start - a.cell) > 1e-6) placed.moved = true;
    }
    // A piece on a later page is put on that page (pieces carry no page: they are split per page here).
    const byPage = new Map<number, AnnotationPiece[]>();
    for (const piece of placed.pieces as Array<AnnotationPiece & { page?: number }>) {
      const p = piece.page ?? a.page;
      delete piece.page;
      byPage.set(p, [...(byPage.get(p) ?? []), piece]);
    }
    for (const [p, pieces] of byPage) (pages[p].annotations ??= []).push({ ...placed, pieces });
  }
  return diagnostics;
}

/**
 * A 側批's pieces: the whole text in one free stretch of a gutter near its
 * anchor if it fits in one column, else from the anchor down and on at the
 * top of the following gutters (across pages). A piece set on another page
 * than the anchor's carries `page`.
 */
function placeCepi(
  chars: readonly string[],
  a: Located,
  page: number,
  occ: (p: number) => Occupancy,
  pageCount: number,
  spec: PageSpec,
): Array<AnnotationPiece & { page?: number }> {
  const n = chars.length;
  const o = occ(page);
  const from = o.above[a.column] + Math.round(2 * a.cell);
  const gutter = o.gutters[a.column];
  const toCell = (p: number, column: number, slot: number): number => round((slot - occ(p).above[column]) / 2);
  const take = (p: number, column: number, start: number, count: number, text: string): AnnotationPiece & { page?: number } => {
    occ(p).gutters[column].fill(true, start, start + count);
    return { column, start: toCell(p, column, start), text, ...(p !== page ? { page: p } : {}) };
  };
  if (n <= gutter.length) {
    // Near the anchor in its gutter, else the next gutters (this page's, then the next pages') from their top.
    const s = freeSlots(gutter, from, n);
    if (s >= 0) return [take(page, a.column, s, n, chars.join(''))];
    for (let p = page; p < pageCount; p++) {
      for (let c = p === page ? a.column + 1 : 0; c < spec.columns; c++) {
        const t = freeSlots(occ(p).gutters[c], 0, n);
        if (t >= 0) return [take(p, c, t, n, chars.join(''))];
      }
    }
  }
  // Too long for one gutter, or no room anywhere: from the anchor down, running on (over what is there when all is full).
  const pieces: Array<AnnotationPiece & { page?: number }> = [];
  let left = [...chars];
  let p = page;
  let c = a.column;
  let start = Math.min(Math.max(0, from), Math.max(0, gutter.length - 1));
  while (left.length > 0) {
    const g = occ(p).gutters[c];
    const count = Math.max(1, Math.min(left.length, g.length - start));
    pieces.push(take(p, c, start, count, left.slice(0, count).join('')));
    left = left.slice(count);
    start = 0;
    if (++c >= spec.columns) {
      c = 0;
      if (p + 1 < pageCount) p++;
    }
  }
  return pieces;
}
