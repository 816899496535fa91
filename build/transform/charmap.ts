/**
 * Glyphs (Private Use Area characters, corpus entities, compositions):
 * mapped through the edition's charmap first; else through the lists the
 * project ships (gaiji/resolve.ts: KR-Gaiji's characters and images,
 * compositions drawn from their parts, GB 18030's later-encoded Private Use
 * Area characters); each one left is reported (it is printed as 〓), and the
 * counts are given once.
 */
import iconv from 'iconv-lite';
import { visit } from 'unist-util-visit';
import type { Glyph, Root } from '../tree/types.js';
import type { Report } from './report.js';
import { own } from '../tree/append.js';
import { resolveGlyph, type GlyphHow } from '../gaiji/resolve.js';

export const PLACEHOLDER = '〓';

export function hex(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The most characters the charmap may add to an edition in all (each use of
 * an entry adds its replacement's length less the one it replaces): a whole
 * 注疏 of Private Use Area characters mapped to descriptions stays far below;
 * an entry amplified by its uses (10,000 characters × 10,000 uses) does not.
 */
export const MAX_CHARMAP_EXPANSION = 2_000_000;

export function applyCharmap(tree: Root, charmap: Readonly<Record<string, string>>, report: Report): Root {
  const unmapped = new Map<number, number>();
  let first: Glyph | undefined;
  const unknown = new Map<string, number>();
  let firstUnknown: Glyph | undefined;
  let added = 0;
  let overflow: Glyph | undefined;
  const drawn = new Map<GlyphHow, number>();
  let firstDrawn: Glyph | undefined;
  visit(tree, 'glyph', (node: Glyph) => {
    const replacement = own(charmap, node.value);
    if (replacement !== undefined) {
      added += Math.max(0, replacement.length - node.value.length);
      if (added <= MAX_CHARMAP_EXPANSION) {
        // The edition's own entry wins over every list.
        node.replacement = replacement;
        delete node.drawing;
        return;
      }
      overflow ??= node;
      return;
    }
    if (node.replacement !== undefined || node.drawing) return;
    const resolved = resolveGlyph(node);
    if (resolved) {
      if (resolved.replacement !== undefined) node.replacement = resolved.replacement;
      if (resolved.drawing) node.drawing = resolved.drawing;
      drawn.set(resolved.how, (drawn.get(resolved.how) ?? 0) + 1);
      firstDrawn ??= node;
      return;
    }
    if (node.entity || node.description) {
      unknown.set(node.value, (unknown.get(node.value) ?? 0) + 1);
      firstUnknown ??= node;
      const list = node.entity && /^KR\d+$/u.test(node.entity) ? "Kanripo's character list (KR-Gaiji)" : 'our lists';
      report('warning', `${node.value} is not in ${list} nor in the edition's charmap: printed as ${PLACEHOLDER}; add "${node.value}: 字" to the edition's charmap`, node.position, node.entity ? 'entity-unmapped' : 'composition-unmapped');
      return;
    }
    if (node.codePoint === undefined || node.codePoint === 0xfffd) return;
    first ??= node;
    unmapped.set(node.codePoint, (unmapped.get(node.codePoint) ?? 0) + 1);
    report('warning', `Private Use Area character ${hex(node.codePoint)} has no charmap entry: printed as ${PLACEHOLDER}; add "${hex(node.codePoint)}: 字" to the edition's charmap`, node.position, 'pua-unmapped');
  });
  if (overflow) {
    report('error', `the charmap's replacements add more than ${MAX_CHARMAP_EXPANSION} characters to the edition: from here on its entries are not applied (printed as ${PLACEHOLDER}); shorten the long replacements in the charmap`, overflow.position, 'charmap-expansion');
  }
  if (first) {
    const total = [...unmapped.values()].reduce((a, b) => a + b, 0);
    report('info', `${total} Private Use Area characters (${unmapped.size} distinct) have no charmap entry: ${[...unmapped.keys()].map((cp) => hex(cp) + gbkArea(cp)).join(' ')}`, first.position, 'pua-summary');
  }
  if (firstDrawn) {
    const total = [...drawn.values()].reduce((a, b) => a + b, 0);
    report('info', `${total} glyphs printed or drawn from the lists we ship: ${[...drawn].map(([how, n]) => `${n} ${HOW[how]}`).join(', ')}`, firstDrawn.position, 'glyph-summary');
  }
  if (firstUnknown) {
    const total = [...unknown.values()].reduce((a, b) => a + b, 0);
    report('info', `${total} entities and composed characters (${unknown.size} distinct) are printed as ${PLACEHOLDER}: ${[...unknown].map(([v, n]) => `${v}×${n}`).join(' ')}`, firstUnknown.position, 'entity-summary');
  }
  return tree;
}

const HOW: Readonly<Record<GlyphHow, string>> = {
  'kr-unicode': "as KR-Gaiji's Unicode character",
  'kr-reading': "as KR-Gaiji's reading (no image)",
  'kr-image': "as KR-Gaiji's image",
  'composition-list': 'compositions as the KR-Gaiji glyph they describe',
  'composition-parts': 'compositions drawn from their parts',
  'composition-formula': 'compositions as their formula in one cell',
  'pua-gb18030': "Private Use Area characters as the character GB 18030-2022 gives",
};

/** U+E000–U+E765 is where GB18030 puts the GBK user-defined area: name the bytes the source had. */
function gbkArea(cp: number): string {
  if (cp < 0xe000 || cp > 0xe765) return '';
  const bytes = iconv.encode(String.fromCodePoint(cp), 'gb18030');
  return bytes.length === 2 ? ` (GBK user-defined ${bytes[0].toString(16).toUpperCase()}${bytes[1].toString(16).toUpperCase()})` : '';
}
