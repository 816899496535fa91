/**
 * Characters that no font of the edition's stack draws: reported with their
 * positions (the PDF prints them as 〓). Pure: the caller passes the
 * coverage test, built from the loaded fonts (build/fonts/).
 */
import { visit } from 'unist-util-visit';
import { needsNoGlyph } from '../fonts/coverage.js';
import type { Root, Text } from '../tree/types.js';
import { hex, PLACEHOLDER } from './charmap.js';
import { slicePosition } from './layers.js';
import type { Report } from './report.js';

export function reportUncovered(tree: Root, covered: (codePoint: number) => boolean, report: Report): number {
  let count = 0;
  visit(tree, 'text', (node: Text) => {
    let index = 0;
    for (const ch of node.value) {
      const cp = ch.codePointAt(0) as number;
      if (!needsNoGlyph(cp) && !covered(cp)) {
        count++;
        report('warning', `no font of the edition draws ${ch} (${hex(cp)}): printed as ${PLACEHOLDER}; add a font that has it (fonts: main: in edition.yaml)`, slicePosition(node.position, node.value, index, index + ch.length), 'font-missing-glyph');
      }
      index += ch.length;
    }
  });
  return count;
}
