/**
 * Test and benchmark support (not used by the stage itself): punctuated
 * texts as trees, and the 禁則 check of a layout.
 *
 * The chtxt corpus texts (../shared/corpora/chtxt-*.txt) write notes in
 * ASCII (…); until a chtxt importer exists they are read here through the
 * Markdown convention with (…) turned into 【…】 notes (their 【集解】-style
 * labels become small notes inside the note: the characters are all there).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VFile } from 'vfile';
import type { PunctuationSetting } from '../punctuation/index.js';
import { isMark, markOf } from '../punctuation/index.js';
import { parseSource } from '../parse/index.js';
import type { EditionMeta, Inline, Root } from '../tree/types.js';
import type { BookLayout, NoteChunk, NoteSegment, Page, PageSpec, PunctuationSpec, TextRun } from './types.js';
import { layoutBook } from './book.js';

/** ../shared/corpora from the checkout (this file is build/layout/punctuated.ts). */
export const CORPORA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'corpora');
export const CHTXT = ['chtxt-songshu-juan14.txt', 'chtxt-shiji-sanjiazhu-juan01.txt'] as const;

/** A Markdown manuscript text → a tree (no transform: the text as it stands). */
export function treeOfMarkdown(text: string, meta: Partial<EditionMeta> = {}, punctuation?: PunctuationSetting): Root {
  const file = new VFile({ path: 'text.md', value: new TextEncoder().encode(text) });
  const { volumes } = parseSource(file, meta.title ?? '試', 'markdown');
  const edition: EditionMeta = { id: 't', title: '試', author: '', language: 'zh-Hant', script: 'traditional', template: 'siku', ...meta };
  if (punctuation) edition.punctuation = punctuation;
  return { type: 'root', edition, children: volumes };
}

/** A chtxt corpus file as Markdown: its (…) notes as 【…】. */
export function chtxtMarkdown(file: string): string {
  const text = readFileSync(path.join(CORPORA, file), 'utf8');
  const title = /^##\s*(.+)$/m.exec(text)?.[1] ?? file;
  return `# ${title}\n\n` + text.replace(/\(/g, '【').replace(/\)/g, '】');
}

/** The same text with every punctuation mark taken out (the bare text a 四庫 copy would have). */
export function bareText(text: string): string {
  return Array.from(text).filter((ch) => !isMark(ch) || ch === '【' || ch === '】').join('');
}

interface Placed {
  ch: string;
  /** A character that takes a place (not a mark set beside or left unprinted). */
  shown: boolean;
}

function runChars(run: TextRun | NoteSegment): Placed[] {
  return Array.from(run.text).map((ch, i) => ({ ch, shown: (run.advances?.[i] ?? 1) > 0 }));
}

const shownOf = (xs: readonly Placed[]): Placed[] => xs.filter((x) => x.shown);
const subColumn = (segments: readonly NoteSegment[]): Placed[] => shownOf(segments.flatMap(runChars));

/**
 * Every 禁則 break of a layout (clreq 6.1.1): a column or sub-column headed
 * by a mark that must not head one, or ended by one that must not end one.
 * A column is headed by its first main character or, when it starts with a
 * note chunk, by that chunk's right sub-column; a hanging point (below the
 * grid) ends its column.
 */
export function kinsokuBreaks(pages: readonly Page[]): string[] {
  const out: string[] = [];
  const noStart = (ch: string | undefined): boolean => markOf(ch)?.noStart === true;
  const noEnd = (ch: string | undefined): boolean => markOf(ch)?.noEnd === true;
  for (const page of pages) {
    for (const column of page.columns) {
      const where = `page ${page.number} column ${column.index}`;
      const runs = column.runs;
      const first = runs.find((r) => (r.type === 'text' ? shownOf(runChars(r)).length > 0 : true));
      if (first) {
        const head = first.type === 'text' ? shownOf(runChars(first))[0]?.ch : subColumn(first.right)[0]?.ch;
        if (noStart(head)) out.push(`${where}: headed by ${head}`);
      }
      const last = [...runs].reverse().find((r) => (r.type === 'text' ? shownOf(runChars(r)).length > 0 : true));
      if (last) {
        const foot = last.type === 'text' ? shownOf(runChars(last)).at(-1)?.ch : (subColumn(last.left).at(-1) ?? subColumn(last.right).at(-1))?.ch;
        if (noEnd(foot)) out.push(`${where}: ended by ${foot}`);
      }
      for (const chunk of runs.filter((r): r is NoteChunk => r.type === 'note')) {
        const right = subColumn(chunk.right);
        const left = subColumn(chunk.left);
        if (noStart(left[0]?.ch)) out.push(`${where}: sub-column at ${chunk.start} headed by ${left[0].ch}`);
        if (left.length > 0 && noEnd(right.at(-1)?.ch)) out.push(`${where}: sub-column at ${chunk.start} ended by ${right.at(-1)?.ch}`);
      }
    }
  }
  return out;
}

/**
 * The negative control of the 禁則 tests: the text set as if its marks were
 * ideographs (a placeholder each, so every mark takes a cell and nothing
 * keeps it off a column's head or foot), the marks put back.
 */
export function withoutKinsoku(tree: Root, spec: PageSpec): BookLayout {
  const marks: string[] = [];
  const hide = (nodes: Inline[]): Inline[] =>
    nodes.map((n) => {
      if (n.type === 'text') return { ...n, value: Array.from(n.value, (ch) => (isMark(ch) ? (marks.push(ch), '〇') : ch)).join('') };
      if ('children' in n) return { ...n, children: hide(n.children as Inline[]) } as Inline;
      return n;
    });
  const hidden: Root = { ...tree, children: tree.children.map((v) => ({ ...v, children: v.children.map((b) => ({ ...b, children: hide(b.children) })) })) };
  const book = layoutBook(hidden, { ...spec, punctuation: { ...(spec.punctuation as PunctuationSpec), standard: 'none' } });
  let i = 0;
  const back = (t: string): string => Array.from(t, (ch) => (ch === '〇' ? marks[i++] : ch)).join('');
  for (const page of book.volumes.flatMap((v) => v.pages)) {
    for (const c of page.columns) {
      for (const r of c.runs) {
        if (r.type === 'text') r.text = back(r.text);
        else for (const seg of [...r.right, ...r.left]) seg.text = back(seg.text);
      }
    }
  }
  return book;
}
