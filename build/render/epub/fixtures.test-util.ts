/** Hand-made trees for the EPUB tests. */
import type { Block, EditionMeta, Inline, LayerId, Note, Paragraph, Root, SourcePosition, Volume } from '../../tree/types.js';

export const pos: SourcePosition = { file: 'test.txt', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

export const t = (value: string): Inline => ({ type: 'text', value, position: pos });
export const note = (layer: LayerId, ...children: Array<Inline | string>): Note => ({
  type: 'note',
  layer,
  children: children.map((c) => (typeof c === 'string' ? t(c) : c)),
  position: pos,
});
export const p = (role: Paragraph['role'], ...children: Array<Inline | string>): Paragraph => ({
  type: 'paragraph',
  role,
  children: children.map((c) => (typeof c === 'string' ? t(c) : c)),
  position: pos,
});
export const commentary = (layer: LayerId, ...children: Array<Inline | string>): Paragraph => ({ ...p('commentary', ...children), layer });
export const h = (depth: 1 | 2 | 3, text: string): Block => ({ type: 'heading', depth, children: [t(text)], position: pos });
export const vol = (title: string, number: number | null, ...children: Block[]): Volume => ({ type: 'volume', number, title, children, position: pos });

export const META: EditionMeta = {
  id: 'test-book',
  title: '儀禮注疏',
  author: '鄭玄 注 賈公彦 疏',
  dynasty: '漢',
  language: 'zh-Hant',
  script: 'traditional',
  template: 'modern',
  date: '2026-01-01',
  description: '測試用書。',
};

/**
 * Two volumes; every layer; nested notes; an Extension B character (𠀀); a
 * PUA glyph with a replacement, one without, a PUA character in plain text;
 * a lacuna; a small.
 */
export function sampleTree(meta: EditionMeta = META): Root {
  return {
    type: 'root',
    edition: meta,
    children: [
      vol(
        '儀禮注疏卷一',
        1,
        p('title', '儀禮注疏卷一'),
        h(1, '鄉射禮'),
        p(
          'text',
          '鄉射之禮主人戒賓',
          note('zhu', '主人州長也', note('yinyi', '長丁丈反')),
          '賓出迎再拜',
          note('shu', '疏曰此一經論戒賓之事'),
          '主人答再拜',
        ),
        commentary('fuzhu', '附注：戒，告也。', note('chuchu', '地官')),
        h(2, '戒賓'),
        p('text', '乃請', note('an', '案此下有脫文'), '賓禮辭許𠀀', { type: 'lacuna', value: '□', position: pos }),
        h(3, '鹿中'),
        p('ji', '記', { type: 'small', children: [{ type: 'text', value: '臣', position: pos }], position: pos }, '士鹿中', {
          type: 'glyph',
          value: '\ue000',
          codePoint: 0xe000,
          replacement: '䡾',
          position: pos,
        }),
        p('label', '右戒賓', { type: 'glyph', value: '\uf530', codePoint: 0xf530, position: pos }, '方田\ue0c5米'),
      ),
      vol('儀禮注疏卷二', 2, h(1, '燕禮'), p('text', '燕禮小臣戒與者', note('mystery', '未知之層'), '膳宰具官饌于寢東')),
    ],
  };
}

/** What the EPUB shows for a character of the source: Private Use Area characters (which mean nothing outside their font) as 〓. */
const shown = (s: string): string => s.replace(/[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/gu, '〓');

/** The text of an inline as the EPUB must show it: a glyph's mapping, or 〓. */
function inl(n: Inline): string {
  if (n.type === 'text' || n.type === 'lacuna') return shown(n.value);
  if (n.type === 'glyph') return shown(n.replacement ?? '〓');
  return 'children' in n ? n.children.map(inl).join('') : '';
}

/** The reading text of a tree, in order: what the EPUB must hold exactly once. */
export function treeText(tree: Root): string[] {
  return tree.children.map((v) => v.children.map((b) => b.children.map(inl).join('')).join(''));
}

/** Every note and commentary paragraph in document order, as [layer, text]. */
export function treeNotes(tree: Root): Array<[LayerId, string]> {
  const out: Array<[LayerId, string]> = [];
  const walk = (n: Inline): void => {
    if (n.type === 'note') out.push([n.layer, inl(n)]);
    if (n.type === 'note' || n.type === 'small') n.children.forEach(walk);
  };
  for (const v of tree.children)
    for (const b of v.children) {
      if (b.type === 'paragraph' && b.role === 'commentary' && b.layer) out.push([b.layer, b.children.map(inl).join('')]);
      b.children.forEach(walk);
    }
  return out;
}
