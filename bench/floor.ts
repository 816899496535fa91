/**
 * The floor of the PDF benchmark: the same text laid out naively on the
 * same grid (8 × 21 for 四庫: main characters one cell each, notes as two
 * half-size sub-columns, a new column for each block), each column one
 * `writing-mode: vertical-rl` block of plain spans, the pages printed by
 * Chromium's own page.pdf (no Paged.js, no frames, no 版心, no
 * post-processing), on two tabs like the real build, with the same fonts.
 * What a PDF of this text cannot cost less than, measured in the same run as
 * the real build.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OfflineBrowser } from '../build/engine/browser.js';
import type { FontSource } from '../build/render/pdf/index.js';
import { flattenBlock } from '../build/layout/flatten.js';
import type { Root } from '../build/tree/types.js';

const esc = (s: string): string => s.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The book as pages of naive columns (HTML of each page). */
export function naivePages(tree: Root, columns: number, cells: number): string[] {
  const pages: string[] = [];
  let cols: string[] = [];
  let col = '';
  let used = 0;
  let note: string[] = [];
  let main = '';
  const endPage = (): void => {
    if (cols.length) pages.push(`<div class="p">${cols.join('')}</div>`);
    cols = [];
  };
  const endColumn = (): void => {
    cols.push(`<div class="c">${col}</div>`);
    col = '';
    used = 0;
    if (cols.length === columns) endPage();
  };
  const flushMain = (): void => {
    if (main) col += `<span>${esc(main)}</span>`;
    main = '';
  };
  const flushNote = (): void => {
    while (note.length) {
      if (used >= cells) endColumn();
      const take = note.splice(0, 2 * (cells - used));
      const right = Math.ceil(take.length / 2);
      col += `<span class="n">${esc(take.slice(0, right).join(''))}<br>${esc(take.slice(right).join(''))}</span>`;
      used += right;
      if (note.length) endColumn();
    }
  };
  for (const volume of tree.children) {
    for (const block of volume.children) {
      for (const item of flattenBlock(block)) {
        if (item.kind === 'note') {
          flushMain();
          note.push(item.ch);
          continue;
        }
        if (note.length) flushNote();
        if (used >= cells) {
          flushMain();
          endColumn();
        }
        main += item.ch;
        used++;
      }
      flushMain();
      flushNote();
      if (col) endColumn();
    }
    endPage();
  }
  return pages;
}

function fontCss(fonts: readonly FontSource[]): { css: string; families: string } {
  const rules = fonts
    .filter((f) => f.file)
    .map((f, i) => `@font-face{font-family:"floor-${i}";src:url(${JSON.stringify(pathToFileURL(f.file!).href)})}`);
  return { css: rules.join('\n'), families: rules.map((_, i) => `"floor-${i}"`).join(',') };
}

/** Prints the naive pages on `tabs` tabs; returns the page count and the milliseconds from HTML to PDF bytes. */
export async function printFloor(browser: OfflineBrowser, pages: readonly string[], fonts: readonly FontSource[], tabs = 2): Promise<{ pages: number; bytes: number }> {
  const { css: faces, families } = fontCss(fonts);
  const css = `${faces}
@page{size:148mm 210mm;margin:17mm 12mm}
body{margin:0;font-family:${families || 'serif'}}
.p{width:124mm;height:175mm;break-after:page;display:flex;flex-direction:row-reverse;overflow:hidden}
.c{writing-mode:vertical-rl;width:15.5mm;height:175mm;font-size:7.6mm;line-height:15.5mm;letter-spacing:0.73mm}
.n{display:inline-block;font-size:3.8mm;line-height:7.75mm;letter-spacing:0.36mm;vertical-align:top}`;
  const work = await mkdtemp(join(tmpdir(), 'diaoban-floor-'));
  try {
    const per = Math.ceil(pages.length / tabs);
    let bytes = 0;
    await Promise.all(
      Array.from({ length: tabs }, async (_, k) => {
        const file = join(work, `floor-${k}.html`);
        await writeFile(file, `<!doctype html><html lang="zh-Hant"><head><meta charset="utf-8"><style>${css}</style></head><body>${pages.slice(k * per, (k + 1) * per).join('\n')}</body></html>`);
        const tab = await browser.newPage();
        try {
          await tab.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 0 });
          await tab.evaluate('document.fonts.ready.then(() => true)');
          const pdf = await tab.pdf({ preferCSSPageSize: true, timeout: 0, tagged: false, outline: false });
          bytes += pdf.byteLength;
        } finally {
          await tab.close();
        }
      }),
    );
    return { pages: pages.length, bytes };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
