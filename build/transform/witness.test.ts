import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEdition } from '../engine/load.js';
import { rootText } from '../parse/test-helpers.js';
import { convertParts, scriptReport, type Decision } from './script.js';
import { prepareWitness, witnessAgreement } from './witness.js';

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const SIMPLIFIED = '于是王立于庭曰其余皆如初礼乃以为干豆';

test('a witness: where it agrees around a one-to-many character its character is taken; where it differs the model decides and the place says what the witness has', () => {
  // The witness writes 於是 and 立于 (as 儀禮's 經 does), has 餘 and 乾; it has 坐 where the text has 立 (a real variant), and no 礼乃.
  const witness = prepareWitness('於是王立于庭曰其餘皆如初乃以爲乾豆');
  const [agreement] = witnessAgreement([[{ value: SIMPLIFIED }]], witness);
  const decisions: Decision[] = [];
  const [out] = convertParts([SIMPLIFIED], 'simplified', 'traditional', undefined, (d) => decisions.push(d), 'text', { witnessAt: (i) => agreement.get(i) });
  assert.equal(out.slice(0, 6), '於是王立于庭');
  assert.match(out, /其餘/u);
  assert.equal(decisions.find((d) => d.index === 0)?.how, 'witness');
  assert.equal(decisions.find((d) => d.index === 4)?.how, 'witness');
  // Negative control: the same text without the witness leaves 于 to the model.
  const [alone] = convertParts([SIMPLIFIED], 'simplified', 'traditional');
  assert.notEqual(alone.slice(0, 6), '於是王立于庭');
  // Where the witness differs around the character (礼乃 missing before 以为干豆: 以 is matched, 乃 not), the model decides and the place is flagged.
  const differing = prepareWitness('於是王坐於庭曰其餘皆如初乃以爲乾豆');
  const [a2] = witnessAgreement([[{ value: SIMPLIFIED }]], differing);
  const d2: Decision[] = [];
  convertParts([SIMPLIFIED], 'simplified', 'traditional', undefined, (d) => d2.push(d), 'text', { witnessAt: (i) => a2.get(i) });
  const at4 = d2.find((d) => d.index === 4)!;
  assert.equal(at4.how, 'model', 'the witness has 坐 before it: no agreement around 于');
  assert.equal(at4.doubtful, true);
  assert.equal(at4.witness, '於');
});

test('conversion: { witness: FILE } in edition.yaml: read inside the edition folder, aligned per volume, its characters taken; check --script lists where it differs; a witness outside the folder is refused and not read', async () => {
  const outer = mkdtempSync(path.join(tmpdir(), 'diaoban-witness-'));
  made.push(outer);
  const ed = path.join(outer, 'ed');
  mkdirSync(ed);
  writeFileSync(path.join(ed, 'a.txt'), '于是王立于庭曰其余皆如初\n\n乃以为干豆奠于席\n');
  writeFileSync(path.join(ed, 'w.txt'), '於是王立于庭曰其餘皆如初\n\n乃以爲乾豆奠於席\n');
  writeFileSync(path.join(outer, 'w.txt'), '於是王立于庭曰其餘皆如初\n\n乃以爲乾豆奠於席\n');
  const yaml = (witness: string) => `title: 試\nauthor: 某\nscript: traditional\nsource-script: simplified\nsources:\n  - a.txt\nconversion:\n  witness: ${witness}\n`;
  writeFileSync(path.join(ed, 'edition.yaml'), yaml('w.txt'));
  const loaded = await loadEdition(ed);
  assert.deepEqual(loaded.messages.filter((m) => m.fatal), []);
  const text = rootText(loaded.tree);
  assert.match(text, /於是王立于庭/u);
  assert.match(text, /奠於席/u, 'the witness\'s 於, not the model\'s choice alone');
  const report = scriptReport(loaded.parsed, 'simplified', 'traditional', loaded.config?.conversion, 3, loaded.tree.layers, loaded.conversion);
  assert.ok(report.rows.find((r) => r.char === '于')?.readings.some((r) => r.how === 'witness'));
  // Outside the folder: refused where edition.yaml names it; the conversion goes on without it.
  writeFileSync(path.join(ed, 'edition.yaml'), yaml('../w.txt'));
  const refused = await loadEdition(ed);
  assert.ok(refused.messages.some((m) => m.ruleId === 'file-outside' && /the witness of the conversion/u.test(m.reason) && m.line === 8), refused.messages.map((m) => m.reason).join('\n'));
  assert.equal(refused.conversion, undefined);
});

test('witnesses: in edition.yaml — a traditional witness of the collation helps the conversion of a simplified source; a simplified one does not', async () => {
  const ed = mkdtempSync(path.join(tmpdir(), 'diaoban-witness-'));
  made.push(ed);
  writeFileSync(path.join(ed, 'a.txt'), '于是王立于庭曰其余皆如初\n\n乃以为干豆奠于席\n');
  writeFileSync(path.join(ed, 'w.txt'), '於是王立于庭曰其餘皆如初\n\n乃以爲乾豆奠於席\n');
  const yaml = (script: string) =>
    `title: 試\nauthor: 某\nscript: traditional\nsource-script: simplified\nsources:\n  - a.txt\nwitnesses:\n  - siglum: 甲本\n    path: w.txt\n    script: ${script}\n`;
  writeFileSync(path.join(ed, 'edition.yaml'), yaml('traditional'));
  const loaded = await loadEdition(ed);
  assert.deepEqual(loaded.messages.filter((m) => m.fatal), []);
  assert.match(rootText(loaded.tree), /奠於席/u, "the witness's 於");
  assert.ok(loaded.conversion?.witness, 'the conversion had the witness');
  // Negative control: the same witness declared simplified gives the conversion nothing.
  writeFileSync(path.join(ed, 'edition.yaml'), yaml('simplified'));
  const control = await loadEdition(ed);
  assert.equal(control.conversion, undefined);
  assert.doesNotMatch(rootText(control.tree), /奠於席/u, "without the witness the model keeps 奠于");
});
