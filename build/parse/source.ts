/**
 * A decoded source file: its text, its path, and the helpers every importer
 * needs to give nodes positions and to report problems as vfile messages.
 */
import type { VFile } from 'vfile';
import type { VFileMessage } from 'vfile-message';
import { location } from 'vfile-location';
import type { Point, SourcePosition } from '../tree/types.js';

export type Severity = 'error' | 'warning' | 'info';

export interface Source {
  /** Path relative to the edition folder; goes into every position. */
  path: string;
  text: string;
  file: VFile;
  point(offset: number): Point;
  position(start: number, end: number): SourcePosition;
  /** A message at text offsets; past MESSAGES_PER_RULE of one rule they are counted, not kept (see `finish`). */
  report(severity: Severity, reason: string, start: number, end: number, ruleId: string): VFileMessage | undefined;
  /** One message for each rule whose messages were counted and not kept. */
  finish(): void;
}

/** A broken file can have a million of one problem: past this many, one message gives the count. */
export const MESSAGES_PER_RULE = 200;

/** Wraps a VFile whose `value` is the decoded text. */
export function createSource(file: VFile, text: string): Source {
  const loc = location(text);
  const path = file.path ?? 'input';
  const point = (offset: number): Point => {
    const p = loc.toPoint(offset);
    if (p) return { line: p.line, column: p.column, offset };
    // Past the end (an empty file): the position of the end.
    const end = loc.toPoint(text.length) ?? { line: 1, column: 1 };
    return { line: end.line, column: end.column, offset: text.length };
  };
  const position = (start: number, end: number): SourcePosition => ({
    file: path,
    start: point(start),
    end: point(end),
  });
  const counts = new Map<string, { count: number; severity: Severity; first?: number }>();
  const report = (severity: Severity, reason: string, start: number, end: number, ruleId: string) => {
    const seen = counts.get(ruleId) ?? { count: 0, severity };
    seen.count++;
    counts.set(ruleId, seen);
    if (seen.count > MESSAGES_PER_RULE) {
      seen.first ??= start;
      return undefined;
    }
    const message = file.message(reason, {
      place: { start: point(start), end: point(end) },
      ruleId,
      source: 'diaoban',
    });
    message.fatal = severity === 'error' ? true : severity === 'warning' ? false : undefined;
    return message;
  };
  const finish = () => {
    for (const [ruleId, seen] of counts) {
      if (seen.first === undefined) continue;
      const more = seen.count - MESSAGES_PER_RULE;
      const message = file.message(`${more} more problems of this kind (${ruleId}) from here on are not listed one by one; fix the ones above first`, {
        place: point(seen.first),
        ruleId,
        source: 'diaoban',
      });
      message.fatal = seen.severity === 'error' ? true : seen.severity === 'warning' ? false : undefined;
      seen.first = undefined;
    }
  };
  return { path, text, file, point, position, report, finish };
}
