/**
 * The before/after table of issue 21: for each corpus text and each text of
 * our own in a convention, the notes, the commentary paragraphs, the described characters, the markup left in the text (the import
 * report's measure: markup characters and header-like paragraphs) and the
 * title, as this checkout reads them and as another checkout did.
 *   node --import tsx scripts/import-table.ts [--before DIR] [FILE...]
 * DIR: a checkout of an earlier commit (git archive ea5367b | tar -x -C DIR,
 * with node_modules linked in); its parseSource reads the same texts.
 * FILE: more texts to read (a user's files, texts of a test set), each a row.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { VFile } from 'vfile';
import { parseSource, titleFromSources, workTitle, type ParsedSource } from '../build/parse/index.js';
import { headerLikeBlocks, importReport, markupLeft } from '../build/parse/import-report.js';
import { CHTXT_ZISHU, DESCRIBED, NUMBERED, NUMBERING, PANDOC, REVERSED, WYG_ZHU } from '../build/parse/conventions.test-util.js';

const CORPORA = '../shared/corpora';
const FILES = ['kanripo-KR1d0026-SBCK-juan02.txt', 'kanripo-KR1d0028-WYG-juan05.txt', 'kanripo-KR1d0052-tls-juan02.txt', 'chtxt-shiji-sanjiazhu-juan01.txt', 'chtxt-songshu-juan14.txt', 'guoxue-yili-zhushu-juan02.txt'];
const OWN: Record<string, string> = { 'own: numbered 〔N〕 commentary': NUMBERED, 'own: chtxt 字書 (header, 【案】)': CHTXT_ZISHU, 'own: numbering (1)': NUMBERING, 'own: pandoc-like ~…~ *…*': PANDOC, 'own: 〈艹嚣〉 described': DESCRIBED, 'own: 四庫 bare 注': WYG_ZHU, 'own: reversed sub-columns': REVERSED };

type Parse = (file: VFile, fallbackTitle: string, options: object) => ParsedSource;
type Title = (sources: readonly ParsedSource[]) => string | undefined;

function row(s: ParsedSource, title: string): { notes: number; commentary: number; glyphs: number; markup: number; title: string } {
  return { notes: s.stats.notes, commentary: s.stats.commentaryParagraphs, glyphs: s.stats.compositions ?? 0, markup: markupLeft(s.volumes).length + headerLikeBlocks(s.volumes).length, title };
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--before');
  let before: { parse: Parse; title: Title } | undefined;
  if (at > 0) {
    const mod = (await import(path.resolve(process.argv[at + 1], 'build/parse/index.ts'))) as { parseSource: Parse; titleFromSources: Title };
    before = { parse: mod.parseSource, title: mod.titleFromSources };
  }
  const texts: Array<[string, Uint8Array]> = [];
  for (const f of FILES) texts.push([f, new Uint8Array(await readFile(path.join(CORPORA, f)))]);
  for (const [name, text] of Object.entries(OWN)) texts.push([name, new TextEncoder().encode(text)]);
  const files = process.argv.slice(2).filter((a, i, all) => a !== '--before' && all[i - 1] !== '--before');
  for (const f of files) texts.push([path.basename(f), new Uint8Array(await readFile(f))]);
  const out = ['| text | notes | commentary paragraphs | described characters | markup left | title | verdict now |', '|---|---|---|---|---|---|---|'];
  for (const [name, bytes] of texts) {
    const after = parseSource(new VFile({ path: 'own.txt', value: bytes }), '');
    const a = row(after, workTitle([after])?.title ?? '無題');
    const b = before ? (() => {
      const s = before.parse(new VFile({ path: 'own.txt', value: bytes }), '', {});
      return row(s, before.title([s]) ?? '無題');
    })() : undefined;
    const pair = (x: string | number, y: string | number | undefined) => (y === undefined || x === y ? String(x) : `${y} → ${x}`);
    const report = importReport({ source: after, title: workTitle([after]), messages: after.file.messages });
    const verdict = `${report.verdict}${report.anomalies.length ? ` (${report.anomalies.map((x) => x.kind).join(', ')})` : ''}`;
    out.push(`| ${name} | ${pair(a.notes, b?.notes)} | ${pair(a.commentary, b?.commentary)} | ${pair(a.glyphs, b?.glyphs)} | ${pair(a.markup, b?.markup)} | ${pair(a.title, b?.title)} | ${verdict} |`);
  }
  process.stdout.write(out.join('\n') + '\n');
}

await main();
