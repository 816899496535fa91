/**
 * Test support: DAISY Ace (@daisy/ace-cli, axe-core in Debian's Chromium)
 * over an EPUB file. Ace runs as its own process, as a user runs it; its
 * report (report.json) is read back and its temporary files removed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_PATH } from '../../engine/browser.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ACE = path.join(path.dirname(require.resolve('@daisy/ace-cli')), '..', 'bin', 'ace.js');

export interface AceResult {
  outcome: string;
  /** Every violation: rule, impact, document. */
  violations: Array<{ rule: string; impact: string; file: string }>;
  conformsTo: string | undefined;
  hasPageBreaks: boolean;
}

interface AceReport {
  'earl:result': { 'earl:outcome': string };
  'earl:testSubject': { metadata?: Record<string, unknown> };
  properties: { hasPageBreaks?: boolean };
  assertions: Array<{
    'earl:testSubject': { url: string };
    assertions: Array<{ 'earl:test': { 'dct:title': string; 'earl:impact': string } }>;
  }>;
}

export async function ace(epubFile: string): Promise<AceResult> {
  const work = await mkdtemp(path.join(tmpdir(), 'diaoban-ace-'));
  try {
    // Ace's Puppeteer takes its browser from the environment: Debian's Chromium, no download.
    await run(process.execPath, [ACE, '--force', '--silent', '--outdir', path.join(work, 'out'), '--tempdir', path.join(work, 'tmp'), epubFile], {
      env: { ...process.env, PUPPETEER_EXECUTABLE_PATH: CHROMIUM_PATH, PUPPETEER_SKIP_DOWNLOAD: 'true' },
      maxBuffer: 1 << 24,
      timeout: 600_000,
    });
    const report = JSON.parse(await readFile(path.join(work, 'out', 'report.json'), 'utf8')) as AceReport;
    const conforms = report['earl:testSubject'].metadata?.['dcterms:conformsTo'];
    return {
      outcome: report['earl:result']['earl:outcome'],
      violations: report.assertions.flatMap((a) =>
        a.assertions.map((b) => ({ rule: b['earl:test']['dct:title'], impact: b['earl:test']['earl:impact'], file: a['earl:testSubject'].url })),
      ),
      conformsTo: Array.isArray(conforms) ? String(conforms[0]) : conforms === undefined ? undefined : String(conforms),
      hasPageBreaks: report.properties.hasPageBreaks === true,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Writes the EPUB to `dir` and asserts what issue 14 asks of Ace: 0 violations, the conformance claim, page breaks. */
export async function assertAceClean(name: string, bytes: Uint8Array, dir: string): Promise<void> {
  const file = path.join(dir, `${name}.epub`);
  await writeFile(file, bytes);
  const r = await ace(file);
  assert.deepEqual(r.violations, [], `${name}: Ace violations`);
  assert.equal(r.outcome, 'pass', name);
  assert.equal(r.conformsTo, 'EPUB Accessibility 1.1 - WCAG 2.1 Level AA', `${name}: conformance claim`);
  assert.ok(r.hasPageBreaks, `${name}: page breaks`);
}

