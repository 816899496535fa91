/**
 * `check --json` and the verdict line: the import report of each source of
 * a loaded edition (parse/import-report.ts), with the names the conversion
 * changed (transform/names.ts) and the title as the edition takes it.
 */
import { importReport, type ImportReport } from '../parse/import-report.js';
import { workTitle, type WorkTitle } from '../parse/index.js';
import { convertedNames } from '../transform/names.js';
import type { LoadedEdition } from '../engine/load.js';

export function importReports(loaded: LoadedEdition): ImportReport[] {
  const given = loaded.fromText.includes('title') ? undefined : loaded.config?.meta.title;
  const title: WorkTitle | undefined = given ? { title: given, from: 'edition.yaml', contributors: [] } : workTitle(loaded.sources);
  const names = convertedNames(loaded.parsed, loaded.tree);
  const messages = loaded.files.flatMap((f) => f.messages);
  return loaded.sources.map((source) =>
    importReport({ source, title, messages, convertedNames: names.filter((n) => n.file === source.file.path) }),
  );
}
