import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { VFile } from 'vfile';
import { defaultEdition, parseEdition } from '../parse/index.js';
import { apparatusReport, type ApparatusRecord } from './report.js';
import { collate, parseWitness, sourceTexts, type Collation } from './index.js';
import { isVariantForm } from './variants.js';
import { canonical } from './variants.js';
import { krGaiji } from '../gaiji/kr-gaiji.js';

const CORPORA = path.resolve('../shared/corpora');
const WORKS = ['KR3a0010', 'KR2e0006'] as const;

const filesOf = (dir: string): VFile[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => new VFile({ path: f, value: readFileSync(path.join(dir, f)) }));

const config = defaultEdition('test', []);

function collateFiles(base: VFile[], witness: VFile[]): { collation: Collation; report: ReturnType<typeof apparatusReport>; tree: ReturnType<typeof parseEdition>['tree'] } {
  const { tree, sources } = parseEdition(config, base);
  const collation = collate(tree, [parseWitness(config, { siglum: '四庫本', files: witness })], { script: 'traditional', texts: sourceTexts(sources) });
  return { collation, report: apparatusReport(tree, collation), tree };
}

/**
 * A source file's characters as an independent reader takes them: header
 * lines, markup (<pb:…>, <md:…>), ¶ and punctuation set aside, an entity
 * one unit; each with its line and column. Not the importer: the check
 * below reads the files itself.
 */
function rawUnits(text: string): Array<{ value: string; line: number; column: number }> {
  const out: Array<{ value: string; line: number; column: number }> = [];
  text.split('\n').forEach((line, l) => {
    if (line.startsWith('#')) return;
    const re = /<[^>]*>|&KR\d+;|[\p{L}\p{N}□]/gu;
    for (let m = re.exec(line); m; m = re.exec(line)) {
      if (m[0].startsWith('<')) continue;
      // Columns count UTF-16 units, as the tree's positions do.
      out.push({ value: m[0], line: l + 1, column: m.index + 1 });
    }
  });
  return out;
}

const rawCache = new Map<string, ReturnType<typeof rawUnits>>();
function rawAt(dir: string, place: string): { units: ReturnType<typeof rawUnits>; at: number } {
  const [file, line, column] = place.split(':');
  const key = path.join(dir, path.basename(file));
  let units = rawCache.get(key);
  if (!units) rawCache.set(key, (units = rawUnits(readFileSync(key, 'utf8'))));
  const at = units.findIndex((u) => u.line === Number(line) && u.column === Number(column));
  return { units, at };
}

/**
 * Whether the file reads `text` from `place` on: its characters in order,
 * the first at the place; a note the collation set aside (the other side
 * has none) may stand between them.
 */
function readsAt(dir: string, place: string, text: string): boolean {
  const { units: raw, at } = rawAt(dir, place);
  assert.ok(at >= 0, `${place}: no character there`);
  const want = units(text);
  // An entity KR-Gaiji gives a Unicode character for is cited as that character.
  const same = (written: string, cited: string): boolean => written === cited || (/^&KR\d+;$/u.test(written) && krGaiji(written.slice(1, -1))?.u === cited);
  if (!same(raw[at].value, want[0])) return false;
  let k = 1;
  for (let i = at + 1; k < want.length && i < raw.length && i < at + 2 * want.length + 200; i++) if (same(raw[i].value, want[k])) k++;
  return k === want.length;
}

const units = (s: string): string[] => (s.match(/&KR\d+;|./gsu) ?? []);
/** A code's form as KR-Gaiji normalizes it, where the list is sure; anything else as it is. */
const normalized = (s: string): string => {
  const entry = /^&(KR\d+);$/u.exec(s) ? krGaiji(s.slice(1, -1)) : undefined;
  return entry?.n && !entry.unsure ? entry.n : s;
};

/** Checks an entry against both texts: each reading is what the files have at the places given, and a real difference. */
function checkEntry(e: ApparatusRecord, work: string): void {
  const baseDir = path.join(CORPORA, 'kanripo', work);
  const witDir = path.join(CORPORA, 'witnesses', `${work}-WYG`);
  const base = units(e.base);
  if (base.length > 0) assert.ok(readsAt(baseDir, e.place, e.base), `${e.place}: the base does not read ${e.base.slice(0, 40)}`);
  for (const r of e.readings) {
    const reading = units(r.text);
    if (reading.length > 0) assert.ok(readsAt(witDir, r.place!, r.text), `${r.place}: the witness does not read ${r.text.slice(0, 40)}`);
    if (r.kind === 'reading' && reading.length === base.length) {
      // Every character of a same-length reading differs for real: neither the same nor a variant form.
      base.forEach((b, i) => {
        assert.notEqual(canonical(b), canonical(reading[i]), `${e.place}: ${e.text} cites an identical character`);
        assert.ok(!isVariantForm(b, reading[i]), `${e.place}: ${e.text} lists the variant forms ${b}/${reading[i]} as a reading`);
      });
    }
    if (r.kind === 'reading') assert.notEqual(e.base, r.text);
    if (r.kind === 'omission') assert.ok(base.length > 0);
    if (r.kind === 'addition') assert.ok(reading.length > 0 && base.length === 0);
  }
}

for (const work of WORKS) {
  test(`${work}: every entry of the apparatus is a real difference, found in both texts where it says; the same bytes when made again`, () => {
    const base = filesOf(path.join(CORPORA, 'kanripo', work));
    const witness = filesOf(path.join(CORPORA, 'witnesses', `${work}-WYG`));
    const { report } = collateFiles(base, witness);
    assert.ok(report.entries.length > 100, `${work}: ${report.entries.length} entries`);
    assert.ok(report.variants.length > 100, `${work}: ${report.variants.length} variant forms`);
    for (const e of report.entries) checkEntry(e, work);
    // Each variant form folded is a pair of the table, or a drawn glyph whose KR-Gaiji form is the other's (or a form of it); never the same character.
    for (const v of report.variants) {
      const [b, r] = [normalized(v.base), normalized(v.reading)];
      assert.ok(isVariantForm(v.base, v.reading) || ((b !== v.base || r !== v.reading) && (b === r || isVariantForm(b, r))), `${v.base}/${v.reading}`);
    }
    const again = collateFiles(filesOf(path.join(CORPORA, 'kanripo', work)), filesOf(path.join(CORPORA, 'witnesses', `${work}-WYG`))).report;
    assert.equal(JSON.stringify(again), JSON.stringify(report));
    const [stats] = report.witnesses;
    // 貞觀政要's 四庫 copy sets many notes elsewhere than the 四部叢刊's (see README): more of it is left unaligned.
    assert.ok(stats.aligned / stats.units > (work === 'KR3a0010' ? 0.98 : 0.8), `${work}: ${stats.aligned} of ${stats.units} aligned`);
  });
}

const QIANFU_BASE = () => [filesOf(path.join(CORPORA, 'kanripo', 'KR3a0010')).find((f) => f.path === 'KR3a0010_001.txt')!];
const WYG_001 = readFileSync(path.join(CORPORA, 'witnesses', 'KR3a0010-WYG', 'KR3a0010_001.txt'), 'utf8');
const witnessOf = (text: string): VFile[] => [new VFile({ path: 'KR3a0010_001.txt', value: text })];

test('a block present in one witness only (潛夫論 卷一\'s contents list) is one entry', () => {
  const { report } = collateFiles(QIANFU_BASE(), witnessOf(WYG_001));
  const block = report.entries.filter((e) => e.base.includes('遏利第三'));
  assert.equal(block.length, 1);
  assert.equal(block[0].kind, 'omission');
  assert.ok(block[0].base.startsWith('潜夫論卷第一') && block[0].base.includes('賢難第五'));
  assert.match(block[0].text, /^四庫本無「潜夫論卷」至「.*」二十七字$/u);
  // Nothing else cites the list.
  assert.equal(report.entries.filter((e) => e.index < 27).length, 1);
});

test('negative controls: a reading inserted in a copy of the witness is one entry at its place; a variant form inserted is none; a block moved is one', () => {
  const before = collateFiles(QIANFU_BASE(), witnessOf(WYG_001)).report;
  const key = (e: ApparatusRecord): string => `${e.index}:${e.text}`;
  const added = (after: typeof before): ApparatusRecord[] => after.entries.filter((e) => !before.entries.some((b) => key(b) === key(e)));
  const removed = (after: typeof before): ApparatusRecord[] => before.entries.filter((b) => !after.entries.some((e) => key(b) === key(e)));

  // 天地之所貴者人也 → 賤: a reading.
  assert.equal(WYG_001.split('天地之所貴者').length, 2);
  const reading = collateFiles(QIANFU_BASE(), witnessOf(WYG_001.replace('天地之所貴者', '天地之所賤者'))).report;
  assert.deepEqual(added(reading).map((e) => e.text), ['「貴」，四庫本作「賤」']);
  assert.equal(added(reading)[0].place, 'KR3a0010_001.txt:17:5');
  assert.deepEqual(removed(reading), []);

  // 徳義 (both texts) → 德義 in the witness: a variant form, no entry, one more tallied.
  const variant = collateFiles(QIANFU_BASE(), witnessOf(WYG_001.replace('徳義', '德義'))).report;
  assert.deepEqual(added(variant), []);
  assert.deepEqual(removed(variant), []);
  assert.equal(variant.variants.length, before.variants.length + 1);
  // Control: the same place changed to a character that is no variant form is an entry.
  assert.equal(added(collateFiles(QIANFU_BASE(), witnessOf(WYG_001.replace('徳義', '得義'))).report).length, 1);

  // 天地 → &KR0247; (a drawn glyph whose KR-Gaiji form is 衒) is a reading; 衒 written as that glyph is a variant form.
  assert.equal(added(collateFiles(QIANFU_BASE(), witnessOf(WYG_001.replace('天地之所貴者', '天地之所&KR0247;者'))).report).length, 1);
  const drawn = WYG_001.split('\n').findIndex((l) => l.includes('&KR0247;'));
  assert.ok(drawn >= 0, 'the witness writes &KR0247; (衒)');
  const asChar = collateFiles(QIANFU_BASE(), witnessOf(WYG_001.replace('&KR0247;', '衒'))).report;
  assert.equal(asChar.variants.length, before.variants.length - 1, 'the glyph and its form were a variant form; the character and itself are none');
  assert.deepEqual(added(asChar), []);
  assert.deepEqual(removed(asChar), []);
  // A witness that writes 孤 as &KR0012; (KR-Gaiji's code for that very character) reads as the base does: no entry, nothing tallied.
  assert.equal(WYG_001.split('孤').length, 2);
  const coded = collateFiles(QIANFU_BASE(), witnessOf(WYG_001.replace('孤', '&KR0012;'))).report;
  assert.deepEqual(added(coded), []);
  assert.equal(coded.variants.length, before.variants.length);
  // Control: a glyph the list gives no form for (&KR1284;) in the same place is a reading.
  assert.equal(added(collateFiles(QIANFU_BASE(), witnessOf(WYG_001.replace('&KR0247;', '&KR1284;'))).report).length, 1);

  // Six lines (some 120 characters) moved thirty lines on: one entry, a move.
  const lines = WYG_001.split('\n');
  const from = lines.findIndex((l) => l.startsWith('天地之所貴者')) + 20;
  const block = lines.slice(from, from + 6);
  const moved = [...lines.slice(0, from), ...lines.slice(from + 6, from + 36), ...block, ...lines.slice(from + 36)].join('\n');
  const after = collateFiles(QIANFU_BASE(), witnessOf(moved)).report;
  const moves = added(after);
  assert.equal(moves.length, 1, moves.map((e) => e.text).join(' / '));
  assert.equal(moves[0].kind, 'move');
  assert.match(moves[0].text, /字，四庫本在「.+」下$/u);
  // What was said inside the block before is now in the move's one entry; nothing else changed.
  for (const e of removed(after)) assert.ok(e.index >= moves[0].index && e.index < moves[0].index + units(moves[0].base).length, e.text);
});
