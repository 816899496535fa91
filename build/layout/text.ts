/**
 * Plain-text drawings of pages, for people to look at in a terminal: the
 * page's columns right to left across the screen, its cells top to bottom.
 * Every cell is two full-width characters wide: a main-text character and a
 * full-width space, or — in a jiazhu chunk — the right sub-column's character
 * then the left one's (read the pair in that order). Blank cells are two
 * full-width spaces; columns are separated by `|`. Characters that share a
 * cell (a compressed mark, a mark set beside its character, a 縱中橫 run)
 * are drawn together in it; a hanging mark is not drawn.
 */
import type { BookLayout, NoteSegment, Page, PageSpec, TextRun } from './types.js';
import { layoutToJson } from './json.js';
import { markOf } from '../punctuation/index.js';

const BLANK = '　';

/** Each character of a run or of a sub-column's segments with the cell it starts in. */
function cellsOf(start: number, parts: ReadonlyArray<TextRun | NoteSegment>): Array<{ ch: string; cell: number }> {
  const out: Array<{ ch: string; cell: number }> = [];
  let at = start;
  for (const part of parts) {
    Array.from(part.text).forEach((ch, i) => {
      const advance = part.advances?.[i] ?? 1;
      // A mark that takes no place is drawn with the character it stays with (before it; an opening one after it).
      const before = advance === 0 && !markOf(ch)?.noEnd;
      out.push({ ch, cell: Math.max(0, Math.floor(before ? at - 1e-6 : at + 1e-6)) });
      at += advance;
    });
  }
  return out;
}

function cellsOfColumn(column: Page['columns'][number], cells: number): string[] {
  const main: string[] = new Array(cells).fill('');
  const right: string[] = new Array(cells).fill('');
  const left: string[] = new Array(cells).fill('');
  const put = (into: string[], xs: Array<{ ch: string; cell: number }>): void => {
    for (const x of xs) if (x.cell < cells) into[x.cell] += x.ch;
  };
  for (const run of column.runs) {
    if (run.type === 'text') put(main, cellsOf(run.start, [run]));
    else {
      put(right, cellsOf(run.start, run.right));
      put(left, cellsOf(run.start, run.left));
    }
  }
  return main.map((m, i) => {
    if (m !== '') return Array.from(m).length >= 2 ? m : m + BLANK;
    if (right[i] === '' && left[i] === '') return BLANK + BLANK;
    return (right[i] || BLANK) + (left[i] || BLANK);
  });
}

function pageHeading(page: Page): string {
  const parts = [
    `page ${page.number}`,
    `${page.volumeTitle} p.${page.pageInVolume} leaf ${page.leaf} ${page.side}`,
  ];
  if (page.section) parts.push(`section ${page.section}`);
  if (page.bookmarks.length > 0) {
    parts.push('bookmarks ' + page.bookmarks.map((b) => `${b.level}:${b.title}`).join(' '));
  }
  if (page.sourcePage) parts.push(`source page ${page.sourcePage.leaf}`);
  const raised = page.columns.filter((c) => c.raise).map((c) => `${c.index}+${c.raise}`);
  if (raised.length > 0) parts.push(`raised ${raised.join(' ')}`);
  return parts.join(' · ');
}

/** The page's 眉批 and 側批, a line each: where they are set (a 眉批's lanes, a 側批's column and cell) and their text. */
function annotationLines(page: Page): string[] {
  return (page.annotations ?? []).map((a) => {
    const where = a.pieces.map((x) => (a.kind === 'meipi' ? `lane ${x.lane}` : `column ${x.column} @${x.start}`)).join(', ');
    return `${a.kind === 'meipi' ? '眉批' : '側批'} ${where}${a.moved ? ' (moved)' : ''}: ${a.pieces.map((x) => x.text).join('')}`;
  });
}

/** A page drawn as a grid of characters (see the module comment). */
export function renderPageText(page: Page, spec: PageSpec): string {
  const grids: string[][] = [];
  for (let c = 0; c < spec.columns; c++) {
    const column = page.columns.find((col) => col.index === c);
    grids.push(column ? cellsOfColumn(column, spec.cells) : new Array(spec.cells).fill(BLANK + BLANK));
  }
  const rows: string[] = [];
  for (let r = 0; r < spec.cells; r++) {
    const row: string[] = [];
    for (let c = spec.columns - 1; c >= 0; c--) row.push(grids[c][r]);
    rows.push('|' + row.join('|') + '|');
  }
  return [pageHeading(page), ...rows, ...annotationLines(page)].join('\n') + '\n';
}

/** `1-4,7` → [1, 2, 3, 4, 7]. Throws a plain Error on anything else. */
export function parsePageList(text: string): number[] {
  const pages: number[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new Error(`pages: expected a list like 1-4,7, got "${text}"`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to < from) throw new Error(`pages: bad range "${part.trim()}"`);
    for (let p = from; p <= to; p++) pages.push(p);
  }
  return pages;
}

/** The layout with only the pages whose book numbers are in `pages`. */
function selectPages(layout: BookLayout, pages: readonly number[] | undefined): BookLayout {
  if (!pages) return layout;
  const wanted = new Set(pages);
  return {
    spec: layout.spec,
    volumes: layout.volumes
      .map((v) => ({ ...v, pages: v.pages.filter((p) => wanted.has(p.number)) }))
      .filter((v) => v.pages.length > 0),
  };
}

/**
 * What `diaoban layout` prints: stable JSON (indented) with `json`, otherwise
 * the pages drawn as text; `pages` selects book page numbers (all when absent).
 */
export function formatLayout(layout: BookLayout, opts: { json?: boolean; pages?: number[] } = {}): string {
  const selected = selectPages(layout, opts.pages);
  if (opts.json) return layoutToJson(selected, 2) + '\n';
  return selected.volumes
    .flatMap((v) => v.pages)
    .map((page) => renderPageText(page, layout.spec))
    .join('\n');
}
