/**
 * The book's own front and back in the PDF (edition.yaml `book:`): a cover
 * (書衣 with its title slip, 書簽, at the upper left as thread-bound books
 * paste it), a title page (書名頁: the author with his dynasty on the
 * right, the title large in the middle, the edition on the left) and a
 * colophon (牌記: the title, the author, the source, the edition, the
 * corrections applied and the date, in a double frame). Each is a page of
 * its own, drawn from the template's cover.html, title.html and
 * colophon.html with fields made here from the edition's data (no date of
 * the build: the edition's own), between pages that keep rectos odd.
 */
import type { BookParts } from '../../tree/edition.js';
import type { BookLayout } from '../../layout/types.js';
import { chineseNumeral } from './numerals.js';
import { fillFields } from './template.js';
import type { PageGeometry, Side } from './geometry.js';

export type BookPart = 'cover' | 'title' | 'colophon';

/** What the parts print, besides the template: worked out from the edition (engine/pdf.ts bookInfo). */
export interface BookInfo {
  parts: BookParts;
  title: string;
  /** 清　蔡德晉 */
  credit: string;
  /** The volumes (卷) of the book. */
  volumes: number;
  /** Corrections applied (the 校勘記's entries). */
  corrections: number;
  /** The edition's date (YYYY-MM-DD), as edition.yaml gives it. */
  date?: string;
  /** The source files, when `parts.source` does not say where the text comes from. */
  sources: readonly string[];
}

/** The parts before the text, in order (the cover left out when it is printed apart: a print file's). */
export function frontParts(parts: BookParts | undefined, withCover = true): BookPart[] {
  if (!parts) return [];
  return [...(parts.cover && withCover ? (['cover'] as const) : []), ...(parts.titlePage ? (['title'] as const) : [])];
}

/** A date as books print it: 2026-01-01 → 二〇二六年一月一日. */
export function chineseDate(iso: string | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  if (!m) return '';
  const year = Array.from(m[1], (d) => '〇一二三四五六七八九'[Number(d)]).join('');
  return `${year}年${chineseNumeral(Number(m[2]))}月${chineseNumeral(Number(m[3]))}日`;
}

/** The fields cover.html, title.html and colophon.html may use (fillFields escapes them). */
export function bookPartFields(info: BookInfo): Record<string, string> {
  const volumes = info.volumes > 1 ? `${chineseNumeral(info.volumes)}卷` : '';
  const source = info.parts.source ?? info.sources.join('、');
  return {
    book: info.title,
    credit: info.credit,
    volumes,
    // The title slip names how many 卷 the book holds, as 全十七卷.
    slipNote: volumes ? `全${volumes}` : '',
    edition: info.parts.edition ?? '',
    source: source ? `底本　${source}` : '',
    corrections: info.corrections > 0 ? `校改　凡${chineseNumeral(info.corrections)}處　見各卷校勘記` : '校改　無',
    date: info.date ? `${chineseDate(info.date)}排印` : '',
  };
}

/** Outline titles of the parts that get one. */
export const PART_BOOKMARKS: Readonly<Partial<Record<BookPart, string>>> = { title: '書名頁', colophon: '牌記' };

/**
 * A part's page: the template's HTML with its fields; the cover's paper
 * reaches over the margins and the bleed to the sheet's edges.
 */
export function bookPartHtml(part: BookPart, html: string, info: BookInfo, g: PageGeometry, side: Side, bleedMm: number): string {
  const filled = fillFields(html, bookPartFields(info));
  if (part !== 'cover') return filled;
  const m = g.margins[side];
  const mm = (x: number): string => `${Math.round(x * 1000) / 1000}mm`;
  const paper = `top:${mm(-m.top - bleedMm)};left:${mm(-m.left - bleedMm)};width:${mm(g.width + 2 * bleedMm)};height:${mm(g.height + 2 * bleedMm)}`;
  return filled.replace('class="cover-paper"', `class="cover-paper" style="${paper}"`);
}

/** The volumes and corrections of a laid-out book, for BookInfo. */
export function bookCounts(layout: BookLayout): { volumes: number; corrections: number } {
  return { volumes: layout.volumes.length, corrections: layout.volumes.reduce((n, v) => n + (v.collation?.length ?? 0), 0) };
}
