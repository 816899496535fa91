/**
 * `check --json` and the verdict line: the import report of each source of
 * a loaded edition (parse/import-report.ts), with the names the conversion
 * changed (transform/names.ts), its doubtful choices (transform/script.ts)
 * and the title as the edition takes it.
 */
import { visit } from 'unist-util-visit';
import { importReport, type GlyphFigures, type ImportReport } from '../parse/import-report.js';
import type { Glyph, Root } from '../tree/types.js';
import { workTitle, type WorkTitle } from '../parse/index.js';
import { convertedNames } from '../transform/names.js';
import { doubtfulByFile } from '../transform/script.js';
import type { LoadedEdition } from '../engine/load.js';

export function importReports(loaded: LoadedEdition): ImportReport[] {
  const given = loaded.fromText.includes('title') ? undefined : loaded.config?.meta.title;
  const title: WorkTitle | undefined = given ? { title: given, from: 'edition.yaml', contributors: [] } : workTitle(loaded.sources);
  const names = convertedNames(loaded.parsed, loaded.tree);
  const messages = loaded.files.flatMap((f) => f.messages);
  const config = loaded.config;
  const doubtful = config ? doubtfulByFile(loaded.parsed, config.meta.sourceScript ?? config.meta.script, config.meta.script, config.conversion, loaded.tree.layers, loaded.conversion) : new Map();
  const glyphs = glyphFigures(loaded.tree);
  return loaded.sources.map((source) => {
    const report = importReport({ source, title, messages, convertedNames: names.filter((n) => n.file === source.file.path), doubtfulChoices: doubtful.get(source.file.path ?? '') });
    const mine = glyphs.get(source.file.path ?? '');
    return mine ? { ...report, glyphs: mine } : report;
  });
}

/** Each source's glyphs by how they are printed (the converted tree: the charmap and the lists applied). */
export function glyphFigures(tree: Root): Map<string, GlyphFigures> {
  const out = new Map<string, GlyphFigures>();
  visit(tree, 'glyph', (g: Glyph) => {
    let f = out.get(g.position.file);
    if (!f) out.set(g.position.file, (f = { character: 0, image: 0, parts: 0, formula: 0, placeholder: 0 }));
    if (g.replacement !== undefined && g.replacement.trim() !== '') f.character++;
    else if (g.drawing?.image) f.image++;
    else if (g.drawing?.ids) f.parts++;
    else if (g.drawing?.formula !== undefined) f.formula++;
    else f.placeholder++;
  });
  return out;
}
