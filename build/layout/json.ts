/**
 * Layout → JSON with a fixed key order, whatever order the objects were
 * built in, so that the same layout always gives the same bytes.
 */
import type { BookLayout, Column, NoteSegment, Page, PageSpec, Run, VolumeLayout } from './types.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Copies `keys` of `obj` in that order, leaving out undefined values. */
function pick(obj: object, keys: readonly string[], map: (key: string, value: unknown) => Json = (_k, v) => v as Json): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  const record = obj as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined) out[key] = map(key, value);
  }
  return out;
}

const ROLES = ['text', 'ji', 'label', 'title', 'byline', 'commentary', 'front'] as const;

function specJson(spec: PageSpec): Json {
  const indents: { [key: string]: Json } = {};
  for (const role of ROLES) {
    const indent = spec.indents[role];
    if (indent) indents[role] = { first: indent.first, rest: indent.rest };
  }
  const out: { [key: string]: Json } = { columns: spec.columns, cells: spec.cells, indents, bylineFoot: spec.bylineFoot };
  if (spec.punctuation) out.punctuation = pick(spec.punctuation, ['standard', 'adjacent', 'hanging', 'kinsoku', 'grid']);
  if (spec.align) out.align = pick(spec.align, ROLES);
  if (spec.tracking !== undefined) out.tracking = spec.tracking;
  return out;
}

const markJson = (key: string, value: unknown): Json =>
  key === 'mark' ? pick(value as object, ['kind', 'first', 'last', 'readings', 'ruby']) : (value as Json);

function segmentJson(s: NoteSegment): Json {
  return pick(s, ['layer', 'depth', 'text', 'advances', 'style', 'mark'], markJson);
}

function runJson(run: Run): Json {
  if (run.type === 'text') return pick(run, ['type', 'start', 'text', 'advances', 'style', 'mark', 'offset'], markJson);
  return {
    type: run.type,
    start: run.start,
    cells: run.cells,
    right: run.right.map(segmentJson),
    left: run.left.map(segmentJson),
  };
}

function columnJson(column: Column): Json {
  return pick(column, ['index', 'role', 'raise', 'sourceLine', 'runs'], (key, value) =>
    key === 'runs' ? (value as Run[]).map(runJson) : (value as Json),
  );
}

export function pageJson(page: Page): Json {
  return pick(
    page,
    ['number', 'pageInVolume', 'leaf', 'side', 'volume', 'volumeTitle', 'section', 'sourcePage', 'bookmarks', 'columns', 'annotations'],
    (key, value) => {
      if (key === 'bookmarks') return page.bookmarks.map((b) => ({ level: b.level, title: b.title }));
      if (key === 'columns') return page.columns.map(columnJson);
      if (key === 'sourcePage') return pick(value as object, ['edition', 'juan', 'leaf']);
      if (key === 'annotations')
        return (page.annotations ?? []).map((a) => ({
          ...pick(a, ['kind', 'moved']),
          anchor: { column: a.anchor.column, cell: a.anchor.cell },
          pieces: a.pieces.map((x) => pick(x, ['column', 'lane', 'start', 'text'])),
        }));
      return value as Json;
    },
  );
}

function volumeJson(volume: VolumeLayout): Json {
  return { index: volume.index, title: volume.title, pages: volume.pages.map(pageJson) };
}

function isBook(layout: BookLayout | VolumeLayout): layout is BookLayout {
  return 'spec' in layout;
}

/**
 * A stable JSON string of a book or volume layout (keys in a fixed order,
 * undefined fields left out). `indent` as in JSON.stringify; compact by default.
 */
export function layoutToJson(layout: BookLayout | VolumeLayout, indent?: number): string {
  const value: Json = isBook(layout)
    ? { spec: specJson(layout.spec), volumes: layout.volumes.map(volumeJson) }
    : volumeJson(layout);
  return JSON.stringify(value, null, indent);
}
