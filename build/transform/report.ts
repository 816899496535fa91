/**
 * Transforms report problems at a node's position, on the VFile the node came
 * from (positions carry the file's path).
 */
import type { VFile } from 'vfile';
import type { SourcePosition } from '../tree/types.js';

export type Report = (severity: 'error' | 'warning' | 'info', reason: string, position: SourcePosition | undefined, ruleId: string) => void;

export function reporterFor(files: readonly VFile[]): Report {
  return (severity, reason, position, ruleId) => {
    const file = files.find((f) => f.path === position?.file) ?? files[0];
    if (!file) return;
    const message = file.message(reason, { place: position ? { start: position.start, end: position.end } : undefined, ruleId, source: 'diaoban' });
    message.fatal = severity === 'error' ? true : severity === 'warning' ? false : undefined;
  };
}
