/**
 * The corpus table (`npm run corpus`): every text of ../shared/corpora (the
 * six single files, dev/, every juan file of kanripo/) read as `check --json`
 * and `tree` read it — loadEdition, then the import report — one line a text
 * in docs/corpus-table.tsv, in a stable order and with no timings, so that
 * `git diff docs/corpus-table.tsv` shows which texts a change moved.
 *   npm run corpus [-- --out FILE] [-- --corpora DIR]
 * The texts read against their sources (build/parse/read-texts.yaml) are
 * measured too, in docs/read-texts.tsv: right or misread (and why), and the
 * verdict. The verdict counts by corpus, and the read texts' tally, go to stdout.
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadEdition } from '../build/engine/load.js';
import { importReports } from '../build/cli/import-reports.js';
import type { ImportReport } from '../build/parse/import-report.js';
import { layerLabel } from '../build/tree/layers.js';
import { measureRead, readTexts, tally, type ReadResult } from '../build/parse/read-texts.test-util.js';

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
};
const CORPORA = arg('--corpora', '../shared/corpora');
const OUT = arg('--out', 'docs/corpus-table.tsv');
/** The read texts measured against what their reader says (build/parse/read-texts.yaml). */
const READ_OUT = arg('--read-out', 'docs/read-texts.tsv');

/** The texts, as paths relative to the corpora's folder: single files, dev/, kanripo/ work by work. */
export async function corpusTexts(root: string): Promise<string[]> {
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const single = (await readdir(root, { withFileTypes: true })).filter((e) => e.isFile() && /\.(txt|md)$/u.test(e.name) && e.name !== 'README.md').map((e) => e.name).sort(byName);
  const dev = (await readdir(path.join(root, 'dev'))).filter((n) => /\.(txt|md)$/u.test(n) && n !== 'SOURCES.md').sort(byName).map((n) => `dev/${n}`);
  const works = (await readdir(path.join(root, 'kanripo'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort(byName);
  const kanripo: string[] = [];
  for (const w of works) kanripo.push(...(await readdir(path.join(root, 'kanripo', w))).filter((n) => n.endsWith('.txt')).sort(byName).map((n) => `kanripo/${w}/${n}`));
  return [...single, ...dev, ...kanripo];
}

/** One cell: no tab or line break, so that a cell never breaks the table. */
const cell = (s: string): string => s.replace(/[\t\r\n]+/gu, ' ').trim() || '-';

const percent = (n: number, total: number): string => (total ? `${((100 * n) / total).toFixed(1)}%` : '0%');

function commentary(r: ImportReport): string {
  const total = r.figures.characters;
  const layers = Object.entries(r.figures.layers).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (layers.length === 0) return '0%';
  const all = layers.reduce((k, [, n]) => k + n, 0);
  return `${percent(all, total)} (${layers.map(([id, n]) => `${layerLabel(id)} ${percent(n, total)}`).join(' ')})`;
}

/** A reading in short: its rule and the reason's first clause. */
function readings(r: ImportReport): string {
  return r.readings.map((x) => `${x.rule}: ${x.reading.split(/[(;]/u)[0].trim()}`).join(' | ');
}

function row(text: string, r: ImportReport): string[] {
  const count = (kind: string) => String(r.anomalies.filter((a) => a.kind === kind).reduce((k, a) => k + a.count, 0));
  const author = r.title?.contributors.map((c) => `${c.dynasty ?? ''}${c.name}${c.role}`).join('、') ?? '';
  return [
    text,
    r.format,
    r.title ? `${r.title.text} (${r.title.from})` : '無題',
    author,
    String(r.figures.volumes),
    String(r.figures.headings),
    String(r.figures.notes),
    commentary(r),
    readings(r),
    count('markup-left'),
    count('notes-without-han'),
    r.verdict,
    r.anomalies.map((a) => `${a.kind} ${a.count}`).join(', '),
  ].map(cell);
}

const HEADER = ['text', 'format', 'title (from)', 'author', 'volumes', 'headings', 'notes', 'commentary share (by layer)', 'readings', 'markup left', 'notes without Han', 'verdict', 'reasons'];

async function main(): Promise<void> {
  const texts = await corpusTexts(CORPORA);
  const read = new Map(readTexts().map((t) => [t.file, t]));
  const measured: ReadResult[] = [];
  const lines = [HEADER.join('\t')];
  const verdicts = new Map<string, Record<string, number>>();
  for (const text of texts) {
    const loaded = await loadEdition(path.join(CORPORA, text));
    const reports = importReports(loaded);
    const r = reports[0];
    const expected = read.get(text);
    if (expected) measured.push(await measureRead(expected, loaded));
    const group = text.includes('/') ? text.slice(0, text.indexOf('/')) : 'single';
    const tally = verdicts.get(group) ?? { ok: 0, check: 0, wrong: 0, unread: 0 };
    if (!r) {
      tally.unread++;
      lines.push([text, ...HEADER.slice(1).map(() => '-')].join('\t'));
      verdicts.set(group, tally);
      continue;
    }
    tally[r.verdict]++;
    verdicts.set(group, tally);
    lines.push(row(text, r).join('\t'));
  }
  await writeFile(OUT, lines.join('\n') + '\n');
  const readLines = ['text\treader\tverdict\treasons\tmisreadings', ...measured.map((m) => [m.file, m.misread.length ? 'misread' : 'right', m.verdict, m.reasons || '-', m.misread.join('; ') || '-'].map(cell).join('\t'))];
  await writeFile(READ_OUT, readLines.join('\n') + '\n');
  const sum = { ok: 0, check: 0, wrong: 0, unread: 0 };
  for (const [group, t] of verdicts) {
    process.stdout.write(`${group}: ok ${t.ok}, check ${t.check}, wrong ${t.wrong}${t.unread ? `, unread ${t.unread}` : ''}\n`);
    for (const k of Object.keys(sum) as Array<keyof typeof sum>) sum[k] += t[k];
  }
  const t = tally(measured);
  process.stdout.write(`read ${measured.length}: right ${t.right} (${t.conversionFlagged} of them check for the conversion's doubt alone), right but flagged ${t.rightFlagged}, misread and flagged ${t.misreadFlagged}, misread and not flagged ${t.misreadUnflagged} → ${READ_OUT}\n`);
  process.stdout.write(`all ${texts.length}: ok ${sum.ok}, check ${sum.check}, wrong ${sum.wrong}${sum.unread ? `, unread ${sum.unread}` : ''} → ${OUT}\n`);
}

await main();
