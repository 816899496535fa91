/**
 * The glyphs of the Kanripo works (or any texts) as the PDF sets them,
 * counted from the converted tree (no PDF built): printed as a character
 * (a font of the default stack has it), drawn (an image, a composition),
 * or 〓. One row a work, then the totals.
 *   node --import tsx scripts/gaiji-count.ts [--root CHECKOUT] [DIR...]
 * CHECKOUT: another checkout (an earlier commit, node_modules linked in)
 * whose loadEdition reads the same texts: the counts before a change.
 * DIR: works (folders of juan files) or files; default every work in
 * ../shared/corpora/kanripo.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface GlyphLike {
  type: string;
  value?: string;
  replacement?: string;
  drawing?: { image?: string; ids?: string; formula?: string };
  entity?: string;
  description?: string;
  codePoint?: number;
  children?: GlyphLike[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? path.resolve(args.splice(at, 2)[1]) : path.resolve(import.meta.dirname, '..');
  const corpus = path.resolve(import.meta.dirname, '..', '..', 'shared', 'corpora', 'kanripo');
  const targets = args.length ? args : readdirSync(corpus).filter((d) => statSync(path.join(corpus, d)).isDirectory()).sort().map((d) => path.join(corpus, d));
  const { loadEdition } = (await import(pathToFileURL(path.join(root, 'build', 'engine', 'load.ts')).href)) as { loadEdition: (t: string, o: object) => Promise<{ tree: GlyphLike }> };
  const { coverage, editionFonts, loadFontTables } = (await import(pathToFileURL(path.join(root, 'build', 'fonts', 'index.ts')).href)) as {
    coverage: (fonts: unknown) => (cp: number) => boolean;
    editionFonts: (main: undefined) => { specs: unknown };
    loadFontTables: (specs: unknown, tables: string[]) => Promise<unknown>;
  };
  const covers = coverage(await loadFontTables(editionFonts(undefined).specs, ['cmap']));
  const printable = (s: string): boolean => [...s].every((c) => covers(c.codePointAt(0)!));
  const total = { entities: 0, compositions: 0, pua: 0, character: 0, image: 0, composed: 0, placeholder: 0 };
  console.log(['work', 'entities', 'compositions', 'PUA', 'character', 'image', 'composed', '〓'].join('\t'));
  for (const target of targets) {
    const files = statSync(target).isDirectory() ? readdirSync(target).filter((f) => f.endsWith('.txt')).sort().map((f) => path.join(target, f)) : [target];
    const row = { entities: 0, compositions: 0, pua: 0, character: 0, image: 0, composed: 0, placeholder: 0 };
    for (const file of files) {
      const loaded = await loadEdition(file, { format: 'kanripo' });
      const walk = (n: GlyphLike): void => {
        if (n.type === 'glyph') {
          if (n.entity) row.entities++;
          else if (n.description) row.compositions++;
          else row.pua++;
          const r = n.replacement;
          if (r !== undefined && r.trim() && printable(r)) row.character++;
          else if (n.drawing?.image) row.image++;
          else if (n.drawing) row.composed++;
          else row.placeholder++;
        }
        for (const c of n.children ?? []) walk(c);
      };
      walk(loaded.tree);
    }
    console.log([path.basename(target), row.entities, row.compositions, row.pua, row.character, row.image, row.composed, row.placeholder].join('\t'));
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += row[k];
  }
  console.log(['all', total.entities, total.compositions, total.pua, total.character, total.image, total.composed, total.placeholder].join('\t'));
}

await main();
