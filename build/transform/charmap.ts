/**
 * Private Use Area glyphs: mapped through the edition's charmap; each one left
 * unmapped is reported (it is printed as 〓) and the count is given once.
 */
import { visit } from 'unist-util-visit';
import type { Glyph, Root } from '../tree/types.js';
import type { Report } from './report.js';

export const PLACEHOLDER = '〓';

export function hex(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

export function applyCharmap(tree: Root, charmap: Readonly<Record<string, string>>, report: Report): Root {
  const unmapped = new Map<number, number>();
  let first: Glyph | undefined;
  visit(tree, 'glyph', (node: Glyph) => {
    const replacement = charmap[node.value];
    if (replacement !== undefined) {
      node.replacement = replacement;
      return;
    }
    // Entities and compositions are the importers' to map (issue: corpora); only code points are the charmap's.
    if (node.codePoint === undefined || node.codePoint === 0xfffd) return;
    first ??= node;
    unmapped.set(node.codePoint, (unmapped.get(node.codePoint) ?? 0) + 1);
    report('warning', `Private Use Area character ${hex(node.codePoint)} has no charmap entry: printed as ${PLACEHOLDER}; add "${hex(node.codePoint)}: 字" to the edition's charmap`, node.position, 'pua-unmapped');
  });
  if (first) {
    const total = [...unmapped.values()].reduce((a, b) => a + b, 0);
    report('info', `${total} Private Use Area characters (${unmapped.size} distinct) have no charmap entry: ${[...unmapped.keys()].map(hex).join(' ')}`, first.position, 'pua-summary');
  }
  return tree;
}
