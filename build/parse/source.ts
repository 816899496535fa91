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
  report(severity: Severity, reason: string, start: number, end: number, ruleId: string): VFileMessage;
}

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
  const report = (severity: Severity, reason: string, start: number, end: number, ruleId: string) => {
    const message = file.message(reason, {
      place: { start: point(start), end: point(end) },
      ruleId,
      source: 'diaoban',
    });
    message.fatal = severity === 'error' ? true : severity === 'warning' ? false : undefined;
    return message;
  };
  return { path, text, file, point, position, report };
}
