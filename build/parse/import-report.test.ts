/**
 * The import report's verdict on a test set whose anomalies are known by
 * construction: each convention text of conventions.test.ts read right (no
 * anomaly: `ok`) and read by a convention that is not its own (markup left,
 * numbering taken for notes, a header printed: flagged), plus the six corpus
 * texts, whose only anomaly is the missing title of the two excerpts that do
 * not name their work. The report must flag every text that has an anomaly
 * and none that has none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { VFile } from 'vfile';
import type { ConventionOverrides, SourceFormat } from '../tree/edition.js';
import { parseSource, workTitle } from './index.js';
import { importReport, verdictLine, type AnomalyKind } from './import-report.js';
import { CHTXT_ZISHU, NUMBERED, NUMBERING, PANDOC, REVERSED, parsed, reportOf } from './conventions.test-util.js';

interface Case {
  name: string;
  text: string;
  format?: SourceFormat;
  conventions?: ConventionOverrides;
  /** The anomalies the text has, by construction. */
  has: AnomalyKind[];
}

const CASES: Case[] = [
  { name: 'numbered commentary, read as chtxt', text: NUMBERED, format: 'chtxt', has: [] },
  { name: 'numbered commentary, read as 殆知閣 text (its # headings printed too)', text: NUMBERED, format: 'daizhige', has: ['header-lines', 'markup-left'] },
  { name: 'chtxt 字書 with its header', text: CHTXT_ZISHU, has: [] },
  { name: 'chtxt 字書 read as pandoc-like text', text: CHTXT_ZISHU, format: 'pandoc-txt', has: ['header-lines', 'markup-left'] },
  { name: 'numbering in parentheses, chtxt', text: NUMBERING, format: 'chtxt', has: [] },
  { name: 'numbering in parentheses, brackets as notes (and its # heading printed)', text: NUMBERING, format: 'bracketed', conventions: { notes: [['(', ')']] }, has: ['notes-without-han', 'header-lines', 'markup-left'] },
  { name: 'pandoc-like marks', text: PANDOC, has: [] },
  { name: 'pandoc-like marks read as 殆知閣 text (its # heading printed too)', text: PANDOC, format: 'daizhige', has: ['header-lines', 'markup-left'] },
  { name: 'sub-columns reversed', text: REVERSED, has: ['reversed-subcolumns'] },
  { name: 'sub-columns reversed, swapped by the edition', text: REVERSED, conventions: { subcolumns: 'left-first' }, has: [] },
  // A whole chapter in one paragraph (its entries not parted): most of the main text in one block.
  { name: 'a chapter in one paragraph', text: `## 某書·卷一\n\n${'某某某某某某，某某某某某某。'.repeat(130)}\n\n末句。\n`, format: 'chtxt', has: ['one-paragraph'] },
  // Negative control: one 經 sentence with long notes is one paragraph by right (the share counts main text only).
  { name: 'one sentence with long notes', text: `## 某書·卷一\n\n經文一句(${'注文某某某某某某某某，'.repeat(200)})經文又一句。\n\n末句。\n`, format: 'chtxt', has: [] },
  { name: 'a text that names no work', text: '某某者，某某也。\n\n某某曰：某某。\n', format: 'chtxt', has: ['no-title'] },
];

test('check --json flags every text of the test set that has an anomaly, and none that has none', () => {
  for (const c of CASES) {
    const r = reportOf(parsed(c.text, { format: c.format, conventions: c.conventions }));
    assert.deepEqual(r.anomalies.map((a) => a.kind).sort(), [...c.has].sort(), `${c.name}: ${JSON.stringify(r.anomalies)}`);
    assert.equal(r.verdict === 'ok', c.has.length === 0, c.name);
    assert.match(verdictLine(r), new RegExp(`^own\\.txt (info|warning) verdict ${r.verdict}\\b.* \\(import-verdict\\)$`));
  }
});

const CORPORA = '../shared/corpora';
const CORPUS: Record<string, { verdict: string; title: string | null; has: AnomalyKind[] }> = {
  'kanripo-KR1d0026-SBCK-juan02.txt': { verdict: 'ok', title: '儀禮', has: [] },
  'kanripo-KR1d0028-WYG-juan05.txt': { verdict: 'ok', title: '儀禮注疏', has: [] },
  'kanripo-KR1d0052-tls-juan02.txt': { verdict: 'ok', title: '禮記', has: [] },
  // Excerpts that start at a chapter: they do not name their work.
  'chtxt-shiji-sanjiazhu-juan01.txt': { verdict: 'check', title: null, has: ['no-title'] },
  'chtxt-songshu-juan14.txt': { verdict: 'ok', title: '宋書', has: [] },
  'guoxue-yili-zhushu-juan02.txt': { verdict: 'check', title: null, has: ['no-title'] },
};

test('the corpus texts: format, figures, title and where it came from, and the verdict', async () => {
  for (const [file, want] of Object.entries(CORPUS)) {
    const bytes = new Uint8Array(await readFile(`${CORPORA}/${file}`));
    const source = parseSource(new VFile({ path: file, value: bytes }), '');
    const r = importReport({ source, title: workTitle([source]), messages: source.file.messages });
    assert.deepEqual(r.anomalies.map((a) => a.kind), want.has, `${file}: ${JSON.stringify(r.anomalies)}`);
    assert.equal(r.verdict, want.verdict, file);
    assert.equal(r.title?.text ?? null, want.title, file);
    assert.ok(r.figures.notes === source.stats.notes && r.figures.characters > 1000, file);
    assert.ok(r.detection.confidence > 0.25 && !r.detection.forced, file);
    // Round-trips as JSON: what --json prints.
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  }
});
