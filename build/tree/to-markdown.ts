/**
 * The document tree → diaoban's Markdown manuscript convention
 * (manuscript/README.md), so that any importable source can be corrected by
 * hand and read back by the `markdown` importer with the same tree.
 */
import type { Block, Inline, Mark, Paragraph, Root } from './types.js';
import { DEFAULT_LAYER, layerLabel } from './layers.js';

/** 〖…〗 with the tag of its kind (none for 著重號 dots, the default). */
const MARK_TAG: Record<Mark['kind'], string> = { dot: '', circle: '{圈}', sesame: '{頓}', proper: '{專}', book: '{書}', box: '{亡}' };

const ROLE_TAG: Record<Paragraph['role'], string> = {
  text: '',
  ji: '{記}',
  label: '{右}',
  title: '{題}',
  byline: '{署}',
  front: '{前}',
  commentary: '',
};

function inline(nodes: readonly Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          // A line break inside a paragraph would end it in Markdown's eyes only when blank; keep text on one line.
          return node.value.replace(/\n+/g, ' ');
        case 'lacuna':
        case 'glyph':
          return node.value;
        case 'small':
          return `〈${inline(node.children)}〉`;
        case 'mark':
          return `〖${MARK_TAG[node.kind]}${inline(node.children)}〗`;
        case 'annotation':
        case 'correction':
          return inline(node.children);
        case 'anchor':
        case 'raise':
          return '';
        case 'note': {
          const tag = node.layer === DEFAULT_LAYER ? '' : `{${layerLabel(node.layer)}}`;
          return `【${tag}${inline(node.children)}】`;
        }
      }
    })
    .join('');
}

function block(node: Block): string {
  if (node.type === 'heading') return `${'#'.repeat(node.depth + 1)} ${inline(node.children)}`;
  if (node.role === 'commentary') {
    const tag = node.layer && node.layer !== DEFAULT_LAYER ? `{${layerLabel(node.layer)}}` : '';
    return `> ${tag}${inline(node.children)}`;
  }
  return `${ROLE_TAG[node.role]}${inline(node.children)}`;
}

export function toMarkdown(tree: Root): string {
  const parts: string[] = [];
  for (const volume of tree.children) {
    parts.push(`# ${volume.title}`);
    for (const child of volume.children) parts.push(block(child));
  }
  return parts.join('\n\n') + '\n';
}
