/**
 * The document tree → diaoban's Markdown manuscript convention
 * (manuscript/README.md), so that any importable source can be corrected by
 * hand and read back by the `markdown` importer with the same tree.
 */
import type { Block, Inline, LayerId, Mark, Paragraph, Root } from './types.js';
import { DEFAULT_LAYER, layerFromTag, layerLabel } from './layers.js';

/** 〖…〗 with the tag of its kind (none for 著重號 dots, the default). */
const MARK_TAG: Record<Mark['kind'], string> = { dot: '', circle: '{圈}', double: '{雙圈}', sesame: '{頓}', heavy: '{重}', proper: '{專}', book: '{書}', box: '{亡}', ruby: '' };

function markTag(node: Mark): string {
  if (node.kind === 'ruby' && node.ruby) return `{${node.ruby.by === 'char' ? '音' : '譯'}:${node.ruby.text}}`;
  return MARK_TAG[node.kind];
}

const RAISE_TAG = ['{平抬}', '{單抬}', '{雙抬}'] as const;

/**
 * The source's own characters that the convention would read as markup,
 * escaped with a backslash (manuscript/README.md): its brackets and tags,
 * the backslash itself, and what opens inline HTML (<) or a footnote ([).
 */
const MARKUP = /[【】〈〉〖〗{}\\<[]/gu;

function escapeText(text: string): string {
  return text.replace(MARKUP, '\\$&');
}

/**
 * What Markdown reads at the head of a line (a quote >, a heading #, a list
 * - + * or 1., a code fence, a thematic break, a table, HTML) is escaped there;
 * a heading's trailing # too (Markdown drops it as a closing sequence).
 */
function escapeLineStart(line: string): string {
  const numbered = /^(\d{1,9})([.)])/u.exec(line);
  if (numbered) return `${numbered[1]}\\${line.slice(numbered[1].length)}`;
  return /^[!-/:-@[-`{-~]/u.test(line) && !line.startsWith('\\') ? `\\${line}` : line;
}

/** A note's or commentary paragraph's tag: its layer, and the label the source prints (`{【附注】}`, `{注【鄭注】}`). */
function layerTag(layer: LayerId | undefined, label: string | undefined): string {
  if (label) return layerFromTag(label) === (layer ?? DEFAULT_LAYER) ? `{【${label}】}` : `{${layerLabel(layer ?? DEFAULT_LAYER)}【${label}】}`;
  return layer && layer !== DEFAULT_LAYER ? `{${layerLabel(layer)}}` : '';
}

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
          return escapeText(node.value.replace(/\n+/g, ' '));
        case 'lacuna':
          return node.value;
        case 'glyph':
          // A composition ({艹虑}) or an entity is the source's notation: text in the Markdown, never a tag.
          return escapeText(node.value);
        case 'small':
          return `〈${inline(node.children)}〉`;
        case 'mark':
          return `〖${markTag(node)}${inline(node.children)}〗`;
        case 'annotation':
          return `【{${node.kind === 'meipi' ? '眉批' : '側批'}}${inline(node.children)}】`;
        case 'correction':
        case 'app':
          return inline(node.children);
        case 'raise':
          return RAISE_TAG[node.level];
        case 'anchor':
          return '';
        case 'note':
          return `【${layerTag(node.layer, node.label)}${inline(node.children)}】`;
      }
    })
    .join('');
}

function block(node: Block): string {
  if (node.type === 'heading') return `${'#'.repeat(node.depth + 1)} ${escapeLineStart(inline(node.children)).replace(/#$/u, '\\#')}`;
  const tag = node.role === 'commentary' ? layerTag(node.layer, node.label) : ROLE_TAG[node.role];
  const text = tag ? inline(node.children) : escapeLineStart(inline(node.children));
  return node.role === 'commentary' ? `> ${tag}${text}` : `${tag}${text}`;
}

export function toMarkdown(tree: Root): string {
  const parts: string[] = [];
  for (const volume of tree.children) {
    parts.push(`# ${volume.title}`);
    for (const child of volume.children) parts.push(block(child));
  }
  return parts.join('\n\n') + '\n';
}
