/**
 * Small hand-made trees for the layout tests, and checks of a layout's
 * invariants shared by the unit and property tests.
 */
import type {
  Block,
  Glyph,
  Heading,
  Inline,
  LayerId,
  Lacuna,
  Note,
  Paragraph,
  ParagraphRole,
  Root,
  Small,
  SourcePosition,
  Text,
  Volume,
} from '../tree/types.js';
import type { BookLayout, Indent, NoteChunk, NoteSegment, Page, PageSpec, PunctuationSpec, TextRun, VolumeLayout } from './types.js';
import { markOf } from '../punctuation/index.js';

export const pos: SourcePosition = {
  file: 't',
  start: { line: 1, column: 1, offset: 0 },
  end: { line: 1, column: 1, offset: 0 },
};

type InlineArg = Inline | string;

const inl = (children: InlineArg[]): Inline[] => children.map((c) => (typeof c === 'string' ? text(c) : c));

export const text = (value: string): Text => ({ type: 'text', value, position: pos });
export const lacuna = (value = '□'): Lacuna => ({ type: 'lacuna', value, position: pos });
export const glyph = (value: string, replacement?: string): Glyph => {
  const g: Glyph = { type: 'glyph', value, codePoint: value.codePointAt(0) ?? 0, position: pos };
  if (replacement !== undefined) g.replacement = replacement;
  return g;
};
export const small = (value: string): Small => ({ type: 'small', children: [text(value)], position: pos });
export const note = (layer: LayerId, ...children: InlineArg[]): Note => ({
  type: 'note',
  layer,
  children: inl(children),
  position: pos,
});
export const para = (role: ParagraphRole, ...children: InlineArg[]): Paragraph => ({
  type: 'paragraph',
  role,
  children: inl(children),
  position: pos,
});
export const p = (...children: InlineArg[]): Paragraph => para('text', ...children);
export const commentary = (layer: LayerId, ...children: InlineArg[]): Paragraph => ({
  ...para('commentary', ...children),
  layer,
});
export const heading = (depth: 1 | 2 | 3, ...children: InlineArg[]): Heading => ({
  type: 'heading',
  depth,
  children: inl(children),
  position: pos,
});
export const volume = (title: string, ...children: Block[]): Volume => ({
  type: 'volume',
  number: null,
  title,
  children,
  position: pos,
});
export const root = (...children: Volume[]): Root => ({
  type: 'root',
  edition: { id: 't', title: 't', author: 'a', language: 'zh-Hant', script: 'traditional', template: 'siku' },
  children,
});

const zero: Indent = { first: 0, rest: 0 };

/** A spec with every indent 0 unless given (and, unless given, no punctuation: the default, resolved from the text). */
export function testSpec(
  columns: number,
  cells: number,
  indents: Partial<Record<ParagraphRole, Indent>> = {},
  bylineFoot = 0,
  punctuation?: Partial<PunctuationSpec>,
): PageSpec {
  return {
    ...(punctuation ? { punctuation: { standard: 'auto', adjacent: 1.5, hanging: false, kinsoku: 'gb', grid: 'rigid', ...punctuation } } : {}),
    columns,
    cells,
    indents: {
      text: zero,
      ji: zero,
      label: zero,
      title: zero,
      byline: zero,
      commentary: zero,
      front: zero,
      ...indents,
    },
    bylineFoot,
  };
}

const WS = /\s/gu;

/** The characters of inline content as the tree has them: whitespace left out, glyphs as they are set. */
export function inlineChars(nodes: readonly Inline[]): string {
  let s = '';
  for (const node of nodes) {
    if (node.type === 'text') s += node.value.replace(WS, '');
    else if (node.type === 'lacuna') s += node.value.replace(WS, '') || '□';
    else if (node.type === 'glyph') s += (node.replacement ?? '').replace(WS, '') || '〓';
    else if ('children' in node) s += inlineChars(node.children);
  }
  return s;
}

export function volumeChars(v: Volume): string {
  return v.children.map((b) => inlineChars(b.children)).join('');
}

/** The characters of pages in reading order: columns right to left, cells top down, a chunk's right sub-column first (whitespace left out: rotated Latin keeps its spaces). */
export function pagesChars(pages: readonly Page[]): string {
  return pagesCharsWithSpaces(pages).replace(WS, '');
}

function pagesCharsWithSpaces(pages: readonly Page[]): string {
  let s = '';
  for (const page of pages) {
    for (const column of page.columns) {
      for (const run of column.runs) {
        if (run.type === 'text') s += run.text;
        // A label the source prints is not text of the tree (Note.label): left out here, counted by the label tests.
        else s += [...run.right, ...run.left].filter((x) => x.style !== 'label').map((x) => x.text).join('');
      }
    }
  }
  return s;
}

export function chunks(pages: readonly Page[]): NoteChunk[] {
  return pages.flatMap((pg) => pg.columns.flatMap((c) => c.runs.filter((r): r is NoteChunk => r.type === 'note')));
}

/** Main cells the characters of a run or segment take. */
export function textCells(run: TextRun | NoteSegment): number {
  return run.advances ? run.advances.reduce((a, b) => a + b, 0) : Array.from(run.text).length;
}

/** Main cells a run takes. */
export function runCells(run: Page['columns'][number]['runs'][number]): number {
  return run.type === 'text' ? textCells(run) : run.cells;
}

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-3;

/** Every broken invariant of a volume layout, as readable strings (empty when all hold). */
export function layoutProblems(layout: VolumeLayout, spec: PageSpec): string[] {
  const problems: string[] = [];
  layout.pages.forEach((page, i) => {
    const where = `page ${page.pageInVolume}`;
    if (page.pageInVolume !== i + 1) problems.push(`${where}: pageInVolume out of sequence`);
    if (page.columns.length > spec.columns) problems.push(`${where}: ${page.columns.length} columns > ${spec.columns}`);
    page.columns.forEach((column, ci) => {
      if (column.index !== ci) problems.push(`${where} col ${ci}: index ${column.index}`);
      // A raised column (抬頭) starts above the grid.
      let next = -(column.raise ?? 0);
      for (const run of column.runs) {
        const cells = runCells(run);
        // Marks that take no place after a note stand by the main text before it (its end: where the note starts).
        const before = column.runs[column.runs.indexOf(run) - 1];
        if (cells === 0 && run.type === 'text' && before?.type === 'note' && near(run.start, before.start) && Array.from(run.text).every((ch) => markOf(ch) !== undefined)) continue;
        if (run.start < next - 1e-3) problems.push(`${where} col ${ci}: run at ${run.start} overlaps (next free ${next})`);
        if (run.type === 'text' ? run.text === '' : [...run.right, ...run.left].every((g) => g.text === '')) problems.push(`${where} col ${ci}: empty run at ${run.start}`);
        // A hanging point sits below the grid, at cell `cells`.
        const hanging = run.type === 'text' && near(run.start, spec.cells) && Array.from(run.text).length === 1 && markOf(run.text)?.hang === true;
        if (run.start + cells > spec.cells + 1e-3 && !hanging) problems.push(`${where} col ${ci}: run at ${run.start}+${cells} > ${spec.cells} cells`);
        next = run.start + cells;
        if (run.type === 'note') {
          const r = run.right.reduce((s, g) => s + textCells(g), 0);
          const l = run.left.reduce((s, g) => s + textCells(g), 0);
          if (Math.abs(r - l) > 3) problems.push(`${where} col ${ci}: chunk unbalanced ${r}/${l}`);
          if (!near(run.cells, Math.max(r, l))) problems.push(`${where} col ${ci}: chunk cells ${run.cells} ≠ longer sub-column ${Math.max(r, l)}`);
        }
      }
    });
  });
  return problems;
}

export function bookPages(book: BookLayout): Page[] {
  return book.volumes.flatMap((v) => v.pages);
}
