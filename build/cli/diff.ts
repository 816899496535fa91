/**
 * `diaoban diff <edition>`: which pages the last build changed, from the
 * manifests the builds leave (no rebuild, no rasterising): per volume the
 * first and last changed page and their count, as text, as JSON for scripts,
 * or as an HTML page with before/after images of only the changed pages
 * (pdftoppm on the two builds' PDFs) and the corrections that caused them.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { escapeHtml } from '../render/pdf/index.js';
import type { BuildCache } from '../engine/cache.js';
import { changedPages, describeChanges, type ChangedPage, type CollationRecord, type VolumeChange } from '../engine/changes.js';
import { manifestKey, type Manifest } from '../engine/build.js';
import { writeFileAtomic } from '../engine/write.js';

export interface DiffReport {
  edition: string;
  /** The corrections of the new build that the old one did not have (or had otherwise). */
  corrections: CollationRecord[];
  volumes: Array<{ volume: string; index: number; pages: ChangedPage[]; first?: string; last?: string; count: number; collation: ChangedPage[]; grew: number }>;
}

export async function readManifest(cache: BuildCache, dir: string, out: string): Promise<Manifest | undefined> {
  return cache.getJson<Manifest>('manifest', manifestKey(dir, out));
}

const sameCorrection = (a: CollationRecord, b: CollationRecord): boolean => a.kind === b.kind && a.old === b.old && a.new === b.new && a.note === b.note && a.locator === b.locator;

export function diffReport(manifest: Manifest): { report: DiffReport; changes: VolumeChange[] } {
  const changes = manifest.previous ? changedPages(manifest.previous.pages, manifest.pages) : [];
  const before = manifest.previous?.collation ?? [];
  const corrections = manifest.collation.filter((c) => !before.some((b) => sameCorrection(b, c)));
  return {
    changes,
    report: {
      edition: manifest.edition,
      corrections,
      volumes: changes.map((c) => ({
        volume: c.volumeLabel,
        index: c.volume,
        pages: c.pages,
        ...(c.pages.length ? { first: c.pages[0].leaf, last: c.pages[c.pages.length - 1].leaf } : {}),
        count: c.pages.length,
        collation: c.collation,
        grew: c.grew,
      })),
    },
  };
}

export function diffText(manifest: Manifest): string[] {
  if (!manifest.previous) return [`${manifest.edition}: built once; there is no earlier build to compare with`];
  const { changes, report } = diffReport(manifest);
  const lines = describeChanges(changes);
  for (const c of report.corrections) lines.push(`  ${c.entry}: ${c.volumeLabel} ${c.locator} (PDF p. ${c.pdfPage}) ${c.kind} ${c.old || '∅'} → ${c.new || '∅'}${c.note ? `  ${c.note}` : ''}`);
  return lines;
}

function pdftoppm(pdf: string, page: number, prefix: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile('pdftoppm', ['-r', '60', '-png', '-singlefile', '-f', String(page), '-l', String(page), pdf, prefix], (error) => {
      if (error) fail(new Error(`pdftoppm could not render page ${page} (apt-get install poppler-utils): ${error.message}`));
      else done(`${prefix}.png`);
    });
  });
}

/** dist/<edition>.diff.html: the changed pages before and after, and the corrections that changed them. */
export async function writeDiffHtml(manifest: Manifest, cache: BuildCache, target: string): Promise<string> {
  const { report } = diffReport(manifest);
  const before = manifest.previous?.pdf?.kept ? await cache.getFile('output', manifest.previous.pdf.kept) : undefined;
  const after = manifest.outputs.pdf?.kept ? await cache.getFile('output', manifest.outputs.pdf.kept) : undefined;
  const work = await mkdtemp(path.join(tmpdir(), 'diaoban-diff-'));
  try {
    const oldPdf = path.join(work, 'before.pdf');
    const newPdf = path.join(work, 'after.pdf');
    if (before) await writeFile(oldPdf, before);
    if (after) await writeFile(newPdf, after);
    const image = async (pdf: string, have: boolean, page: number, name: string): Promise<string> => {
      if (!have || page < 1) return '<p class="none">—</p>';
      const png = await readFile(await pdftoppm(pdf, page, path.join(work, name)));
      return `<img alt="${name}" src="data:image/png;base64,${png.toString('base64')}">`;
    };
    const oldIndex = new Map((manifest.previous?.pages ?? []).map((p) => [`${p.volume}:${p.leaf}`, p.pdfPage]));
    const sections: string[] = [];
    for (const v of report.volumes) {
      const rows: string[] = [];
      for (const p of [...v.pages, ...v.collation]) {
        const oldPage = oldIndex.get(`${v.index}:${p.leaf}`) ?? 0;
        const fixes = report.corrections.filter((c) => c.volume === v.index && c.pdfPage === p.pdfPage);
        rows.push(
          `<tr><th>${escapeHtml(v.volume)} ${escapeHtml(p.leaf)}<br><small>PDF p. ${p.pdfPage}</small></th>` +
            `<td>${await image(oldPdf, !!before, oldPage, `before-${p.pdfPage}`)}</td>` +
            `<td>${p.removed ? '<p class="none">(page gone)</p>' : await image(newPdf, !!after, p.pdfPage, `after-${p.pdfPage}`)}</td>` +
            `<td>${fixes.map((c) => `<p>${escapeHtml(`${c.locator}　${c.kind} ${c.old || '∅'} → ${c.new || '∅'}${c.note ? `　${c.note}` : ''}`)}<br><small>${escapeHtml(c.entry)}</small></p>`).join('')}</td></tr>`,
        );
      }
      sections.push(`<h2>${escapeHtml(v.volume)}: ${v.count} page${v.count === 1 ? '' : 's'}${v.first ? ` (${escapeHtml(v.first)}–${escapeHtml(v.last ?? '')})` : ''}${v.collation.length ? `, 校勘記 ${v.collation.length}` : ''}</h2><table><tr><th></th><th>before</th><th>after</th><th>corrections</th></tr>${rows.join('')}</table>`);
    }
    const corrections = report.corrections.map((c) => `<li>${escapeHtml(`${c.volumeLabel} ${c.locator} (PDF p. ${c.pdfPage}): ${c.kind} ${c.old || '∅'} → ${c.new || '∅'}${c.note ? `　${c.note}` : ''}`)} <small>${escapeHtml(c.entry)}</small></li>`);
    const html = [
      '<!doctype html>',
      `<html lang="zh-Hant"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
      `<title>${escapeHtml(manifest.edition)}: changed pages</title>`,
      '<style>body{font-family:serif;margin:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top}img{width:300px}.none{color:#999}</style></head><body>',
      `<h1>${escapeHtml(manifest.edition)}: ${report.volumes.reduce((n, v) => n + v.count, 0)} changed pages</h1>`,
      corrections.length ? `<h2>New corrections</h2><ul>${corrections.join('')}</ul>` : '',
      ...sections,
      '</body></html>',
    ].join('\n');
    await writeFileAtomic(target, html);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
