/**
 * A collection's catalogue in its output folder: one record per edition
 * (catalogue/<id>.json, beside its diagnostics catalogue/<id>.txt), written
 * by whoever built it (a local build or any queue worker), and
 * catalogue.json and index.html made from all the records there. Every
 * file is written atomically; the HTML escapes every value (an edition's
 * title is the edition's to choose).
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { VFileMessage } from 'vfile-message';
import { escapeHtml } from '../render/escape.js';
import type { BuildResult } from './build.js';
import { PUBLISHED_SUFFIX } from './published.js';
import { countBySeverity, formatMessage, sortMessages } from './report.js';
import { ungated, writeFileAtomic, type OutputGate } from './write.js';

export const CATALOGUE_DIR = 'catalogue';

export type EditionStatus = 'built' | 'built with errors' | 'failed';

export interface CatalogueEntry {
  /** The edition's path in its collection. */
  name: string;
  /** Its outputs' name in the output folder: its path in the collection (dist/shiji/zhonghua.pdf). */
  id: string;
  title: string;
  author: string;
  dynasty?: string;
  status: EditionStatus;
  pages: number;
  /** Output files relative to the output folder, with their sizes in bytes. */
  pdf?: { file: string; bytes: number };
  epub?: { file: string; bytes: number };
  errors: number;
  warnings: number;
  /** The diagnostics file, relative to the output folder. */
  diagnostics: string;
  /** The edition's input digest (the queue's job id). */
  digest?: string;
}

export function statusOf(result: Pick<BuildResult, 'ok' | 'messages'>): EditionStatus {
  if (!result.ok) return 'failed';
  return countBySeverity(result.messages).error > 0 ? 'built with errors' : 'built';
}

/** The diagnostics of a build as people read them: file:line:col severity message (rule), then what was written. */
export function diagnosticsText(messages: readonly VFileMessage[], lines: readonly string[]): string {
  return [...sortMessages(messages).map((m) => formatMessage(m)), ...lines].join('\n') + '\n';
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

/** The record of one build, and its diagnostics, written into the output folder (unless the gate refuses: `recorded` false). */
export async function recordBuild(out: string, name: string, result: BuildResult, digest?: string, gate: OutputGate = ungated): Promise<{ entry: CatalogueEntry; recorded: boolean }> {
  const manifest = result.manifest;
  const id = name;
  const counts = countBySeverity(result.messages);
  const diagnostics = `${CATALOGUE_DIR}/${id}.txt`;
  const output = async (kind: 'pdf' | 'epub') => {
    const record = manifest?.outputs[kind];
    const bytes = record ? await sizeOf(record.path) : undefined;
    return record && bytes !== undefined ? { file: path.relative(out, record.path).split(path.sep).join('/'), bytes } : undefined;
  };
  const [pdf, epub] = [await output('pdf'), await output('epub')];
  const entry: CatalogueEntry = {
    name,
    id,
    title: manifest?.meta?.title ?? '',
    author: manifest?.meta?.author ?? '',
    ...(manifest?.meta?.dynasty ? { dynasty: manifest.meta.dynasty } : {}),
    status: statusOf(result),
    pages: pdf ? (manifest?.pages.length ?? 0) : 0,
    ...(pdf ? { pdf } : {}),
    ...(epub ? { epub } : {}),
    errors: counts.error,
    warnings: counts.warning,
    diagnostics,
    ...(digest ? { digest } : {}),
  };
  // Each file through the gate (the queue's checks each rename): the record last, so that it never lists what was refused.
  const recorded =
    (await writeFileAtomic(path.join(out, diagnostics), diagnosticsText(result.messages, result.lines), undefined, gate)) &&
    (await writeFileAtomic(path.join(out, CATALOGUE_DIR, `${id}.json`), JSON.stringify(entry, null, 1) + '\n', undefined, gate));
  return { entry, recorded };
}

/** The record of an edition whose build never ended (its process died): failed, with why, so that the catalogue still lists it. */
export async function recordFailure(out: string, name: string, why: string): Promise<CatalogueEntry> {
  const id = name;
  const entry: CatalogueEntry = { name, id, title: '', author: '', status: 'failed', pages: 0, errors: 0, warnings: 0, diagnostics: `${CATALOGUE_DIR}/${id}.txt` };
  await writeFileAtomic(path.join(out, entry.diagnostics), `${why}\n`);
  await writeFileAtomic(path.join(out, CATALOGUE_DIR, `${id}.json`), JSON.stringify(entry, null, 1) + '\n');
  return entry;
}

/** Every record in the output folder (catalogue/<edition path>.json, in folders as deep as the paths), by name. */
export async function readRecords(out: string): Promise<CatalogueEntry[]> {
  const entries: CatalogueEntry[] = [];
  const walk = async (dir: string): Promise<void> => {
    let found: Dirent[];
    try {
      found = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of found.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      // Temp files (.name.owner.tmp) and the published versions (name.published/) are no records.
      if (e.name.startsWith('.') || e.name.endsWith(PUBLISHED_SUFFIX)) continue;
      const file = path.join(dir, e.name);
      if (e.isDirectory()) await walk(file);
      else if (e.isFile() && e.name.endsWith('.json')) {
        try {
          entries.push(JSON.parse(await readFile(file, 'utf8')) as CatalogueEntry);
        } catch {
          // Renamed into place whole; one unreadable (removed meanwhile) is left out of this catalogue.
        }
      }
    }
  };
  await walk(path.join(out, CATALOGUE_DIR));
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A file of the output folder as a link from index.html beside it: a relative path, each part escaped, so that no name (javascript:…) reads as a scheme. */
export function relativeHref(file: string): string {
  return './' + file.split('/').map(encodeURIComponent).join('/');
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function kib(bytes: number | undefined): string {
  return bytes === undefined ? '' : `${(bytes / 1024).toFixed(0)} KiB`;
}

/** index.html: a table of the editions, every value escaped, links relative to the output folder. */
export function catalogueHtml(entries: readonly CatalogueEntry[]): string {
  const link = (file: string | undefined, text: string) => (file ? `<a href="${escapeHtml(relativeHref(file))}">${escapeHtml(text)}</a>` : '');
  const rows = entries.map((e) =>
    [
      '<tr>',
      `<td>${escapeHtml(e.title)}</td>`,
      `<td>${escapeHtml(e.author)}</td>`,
      `<td>${escapeHtml(e.dynasty ?? '')}</td>`,
      `<td class="n">${e.pages}</td>`,
      `<td>${link(e.pdf?.file, `PDF ${kib(e.pdf?.bytes)}`)}</td>`,
      `<td>${link(e.epub?.file, `EPUB ${kib(e.epub?.bytes)}`)}</td>`,
      `<td class="${escapeHtml(e.status.replace(/ /g, '-'))}">${escapeHtml(e.status)}</td>`,
      `<td class="n">${link(e.diagnostics, `${count(e.errors, 'error')}, ${count(e.warnings, 'warning')}`)}</td>`,
      `<td><code>${escapeHtml(e.name)}</code></td>`,
      '</tr>',
    ].join(''),
  );
  const totals = entries.reduce((t, e) => ({ pages: t.pages + e.pages, failed: t.failed + (e.status === 'failed' ? 1 : 0) }), { pages: 0, failed: 0 });
  return `<!DOCTYPE html>
<html lang="zh-Hant">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Catalogue</title>
<style>
body { font-family: "Noto Serif CJK TC", serif; margin: 2em; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #ccc; padding: .3em .6em; text-align: left; vertical-align: top; }
td.n { text-align: right; }
td.failed { color: #b00; font-weight: bold; }
td.built-with-errors { color: #a60; }
</style>
</head>
<body>
<h1>Catalogue</h1>
<p>${entries.length} editions, ${totals.pages} pages, ${totals.failed} failed.</p>
<table>
<thead><tr><th>Title</th><th>Author</th><th>Dynasty</th><th>Pages</th><th>PDF</th><th>EPUB</th><th>Status</th><th>Diagnostics</th><th>Edition</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</body>
</html>
`;
}

/** catalogue.json and index.html, from every record in the output folder. */
export async function writeCatalogue(out: string): Promise<CatalogueEntry[]> {
  const entries = await readRecords(out);
  await writeFileAtomic(path.join(out, 'catalogue.json'), JSON.stringify({ editions: entries }, null, 1) + '\n');
  await writeFileAtomic(path.join(out, 'index.html'), catalogueHtml(entries));
  return entries;
}
