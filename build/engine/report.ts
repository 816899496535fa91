/**
 * Diagnostics for people: one line a message,
 *   file:line:col severity message (rule)
 * the form editors and their tools (quickfix lists, CI annotations) read.
 * vfile-reporter groups messages under file headers instead, which is not
 * what `check` promises; vfile-sort orders them.
 */
import type { VFileMessage } from 'vfile-message';
import type { VFile } from 'vfile';
import type { BookLayout } from '../layout/types.js';
import { reporterFor } from '../transform/report.js';

export type SeverityName = 'error' | 'warning' | 'info';

export function severityOf(message: VFileMessage): SeverityName {
  return message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'info';
}

export function formatMessage(message: VFileMessage, remark = ''): string {
  const place = message.line ? `:${message.line}:${message.column ?? 1}` : '';
  const rule = message.ruleId ? ` (${message.ruleId})` : '';
  return `${message.file ?? ''}${place} ${severityOf(message)} ${message.reason}${remark}${rule}`;
}

export function sortMessages(messages: readonly VFileMessage[]): VFileMessage[] {
  return [...messages].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

export function countBySeverity(messages: readonly VFileMessage[]): Record<SeverityName, number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const m of messages) counts[severityOf(m)]++;
  return counts;
}

/**
 * Repeated messages (the same reason and rule in one file, e.g. one Private
 * Use Area code point 20 times) as one line: the first, with the count and
 * where the first stands. `--verbose` prints them all instead.
 */
export function foldMessages(messages: readonly VFileMessage[]): Array<{ message: VFileMessage; count: number }> {
  const groups = new Map<string, { message: VFileMessage; count: number }>();
  for (const m of sortMessages(messages)) {
    const key = `${m.file ?? ''}\u0000${m.ruleId ?? ''}\u0000${m.reason}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { message: m, count: 1 });
  }
  return [...groups.values()];
}

export function formatFolded({ message, count }: { message: VFileMessage; count: number }): string {
  return count > 1 ? formatMessage(message, ` [×${count}: this is the first; --verbose lists all]`) : formatMessage(message);
}

/** What a layout has to say (layout: source: lines found, lines wrapped) as messages on the files the positions name. */
export function reportLayout(layout: BookLayout, files: readonly VFile[]): void {
  const report = reporterFor(files);
  for (const volume of layout.volumes) for (const d of volume.diagnostics ?? []) report(d.severity, d.reason, d.position, d.ruleId);
}
