/**
 * `diaoban check --corrections`: each applied correction with where it
 * stands after layout (no browser needed): corrections.yaml:3:3 卷一 葉三b
 * 第五行 (PDF p. 6) 改 前 → 先 據文淵閣本改.
 */
import type { EditionConfig } from '../tree/edition.js';
import type { Root } from '../tree/types.js';
import { planPages } from '../render/pdf/index.js';
import { collationRecords, editionLayout } from '../engine/build.js';

export async function listCorrections(tree: Root, config: EditionConfig): Promise<string[]> {
  // Located with collation on whatever the edition says: the list is for the editor.
  const layout = await editionLayout(tree, { ...config, collation: 'end-of-volume' });
  const records = collationRecords(layout, planPages(layout, config.book, { cover: config.pdf?.standard !== 'print' }), config.meta.title);
  if (records.length === 0) return [`${config.meta.id}: no corrections applied`];
  return records.map(
    (c) => `${c.entry} ${c.volumeLabel} ${c.locator} (PDF p. ${c.pdfPage}) ${c.kind} ${c.old || '∅'} → ${c.new || '∅'}${c.note ? `  ${c.note}` : ''}${c.witness ? `  [${c.witness}]` : ''}`,
  );
}
