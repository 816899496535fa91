/**
 * Marks beside the text, once a volume is set: each run or note segment
 * under a mark node gets its SideMark — whether it begins and ends the
 * marked stretch (a line is shortened there), a ruby's readings, or its
 * text shared out between the pieces of its span by their characters.
 */
import type { MarkRef } from './flatten.js';
import type { NoteSegment, SideMark, TextRun } from './types.js';

export interface Marked {
  target: TextRun | NoteSegment;
  mark: MarkRef;
  /** A ruby's reading of each of the target's characters ('' for none). */
  readings?: string[];
}

/** Sets `target.mark` for every entry, in reading order (the order of `marked`). */
export function resolveSideMarks(marked: readonly Marked[]): void {
  marked.forEach(({ target, mark, readings }, i) => {
    const prev = marked[i - 1]?.mark;
    const next = marked[i + 1]?.mark;
    const side: SideMark = { kind: mark.kind, first: prev !== mark, last: next !== mark };
    if (readings && readings.some((r) => r !== '')) side.readings = readings;
    target.mark = side;
  });
  const spans = new Map<MarkRef, Array<TextRun | NoteSegment>>();
  for (const { target, mark } of marked) if (mark.ruby !== undefined) spans.set(mark, [...(spans.get(mark) ?? []), target]);
  for (const [mark, targets] of spans) {
    const text = Array.from(mark.ruby ?? '');
    const sizes = targets.map((t) => Array.from(t.text).length);
    const total = sizes.reduce((a, b) => a + b, 0) || 1;
    let from = 0;
    let upTo = 0;
    targets.forEach((t, k) => {
      upTo += sizes[k];
      const to = k === targets.length - 1 ? text.length : Math.round((text.length * upTo) / total);
      if (t.mark) t.mark.ruby = text.slice(from, to).join('');
      from = to;
    });
  }
}
