/**
 * Corrections: an editor's list of fixes, applied to the tree's text so that
 * the sources stay as they came. corrections.yaml is a list of
 *   - find: 會民          (text to find; required)
 *     replace: 會衆       (required)
 *     at: juan09.txt:12   (optional: file[:line] the fix applies to)
 *     note: why           (optional)
 * Every fix must match exactly once where it applies; otherwise it is reported.
 */
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { Root, Text } from '../tree/types.js';
import type { Report } from './report.js';

export interface Correction {
  find: string;
  replace: string;
  file?: string;
  line?: number;
  note?: string;
}

export function parseCorrections(file: VFile): Correction[] {
  const doc = parseDocument(String(file.value ?? ''), { prettyErrors: false });
  const fail = (reason: string, line?: number) => {
    const m = file.message(reason, { place: line ? { line, column: 1 } : undefined, ruleId: 'corrections', source: 'diaoban' });
    m.fatal = true;
  };
  for (const e of doc.errors) fail(`corrections file is not valid YAML: ${e.message.split('\n')[0]}`, e.linePos?.[0].line);
  if (doc.errors.length > 0 || doc.contents === null) return [];
  if (!isSeq(doc.contents)) {
    fail('the corrections file must be a list of fixes (- find: …, replace: …)');
    return [];
  }
  const out: Correction[] = [];
  for (const item of doc.contents.items) {
    if (!isMap(item)) continue;
    const find = item.get('find');
    const replace = item.get('replace');
    if (typeof find !== 'string' || find === '' || typeof replace !== 'string') {
      fail('each correction needs find and replace');
      continue;
    }
    const at = item.get('at');
    const where = typeof at === 'string' ? /^(.+?)(?::(\d+))?$/.exec(at) : null;
    const note = item.get('note');
    out.push({ find, replace, ...(where ? { file: where[1], ...(where[2] ? { line: Number(where[2]) } : {}) } : {}), ...(typeof note === 'string' ? { note } : {}) });
  }
  return out;
}

export function applyCorrections(tree: Root, corrections: readonly Correction[], report: Report): Root {
  for (const fix of corrections) {
    const hits: Text[] = [];
    visit(tree, 'text', (node: Text) => {
      const p = node.position;
      if (fix.file && !p.file.endsWith(fix.file)) return;
      if (fix.line && (fix.line < p.start.line || fix.line > p.end.line)) return;
      if (node.value.includes(fix.find)) hits.push(node);
    });
    if (hits.length !== 1 || hits[0].value.split(fix.find).length !== 2) {
      report('warning', `correction "${fix.find}" → "${fix.replace}" ${hits.length === 0 ? 'matches nothing' : 'matches more than once'}${fix.file ? ` in ${fix.file}${fix.line ? `:${fix.line}` : ''}` : ''}; it was not applied — narrow it with at: file:line`, hits[0]?.position, 'correction-unmatched');
      continue;
    }
    hits[0].value = hits[0].value.replace(fix.find, fix.replace);
  }
  return tree;
}
