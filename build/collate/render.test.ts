import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { VFile } from 'vfile';
import { defaultEdition, parseEdition } from '../parse/index.js';
import { layoutEdition } from '../layout/collation.js';
import { pageSpecFor } from '../layout/spec.js';
import { renderVolume } from '../render/epub/xhtml.js';
import { collateEdition } from './index.js';
import type { Root } from '../tree/types.js';

const CORPORA = path.resolve('../shared/corpora');
const file = (dir: string): VFile => new VFile({ path: 'KR3a0010_001.txt', value: readFileSync(path.join(CORPORA, dir, 'KR3a0010_001.txt')) });

function collated(variants: 'list' | 'count' | 'omit' = 'count') {
  const config = { ...defaultEdition('qianfu', ['KR3a0010_001.txt']), variants };
  const { tree, sources } = parseEdition(config, [file('kanripo/KR3a0010')]);
  const result = collateEdition(tree, config, [{ siglum: '四庫本', files: [file('witnesses/KR3a0010-WYG')] }], sources)!;
  return { tree: result.tree, entries: result.collation.entries.filter((e) => e.volume === 0), variants: result.collation.variants.length, before: tree };
}

const text = (tree: Root): string => JSON.stringify(tree.children.map((v) => v.children), (k, v) => (k === 'position' || k === 'apparatus' ? undefined : v));

test('the collation marks the base text without changing it: every entry located by leaf and line, in the 校勘記 after the volume, with the tally of variant forms', () => {
  const { tree, entries, variants, before } = collated();
  // Not a character of the base text changed (app nodes wrap it).
  assert.equal(JSON.stringify(JSON.parse(text(tree))).replace(/[^\p{Script=Han}]/gu, ''), JSON.stringify(JSON.parse(text(before))).replace(/[^\p{Script=Han}]/gu, ''));
  const layout = layoutEdition(tree, pageSpecFor('siku'), { collation: true, numbered: false });
  const volume = layout.volumes[0];
  const located = (volume.collation ?? []).filter((e) => e.kind === '校');
  assert.equal(located.length, entries.length);
  for (const e of located) {
    assert.match(e.locator, /^(?:提要)?葉[一二三四五六七八九十〇百]+[ab] 第[一二三四五六七八九十]+行$/u);
    assert.ok(e.text && e.text.includes('四庫本'));
  }
  // The marks on the text's pages, one an entry; the section's pages after them end with the tally.
  const marks = volume.pages.flatMap((p) => p.corrections ?? []);
  assert.equal(marks.length, located.length);
  const sectionText = volume.pages.filter((p) => p.collation).flatMap((p) => p.columns.flatMap((c) => c.runs.map((r) => (r.type === 'text' ? r.text : [...r.right, ...r.left].map((s) => s.text).join(''))))).join('');
  assert.ok(sectionText.includes(`四庫本異體字凡`), 'the tally closes the section');
  assert.ok(variants > 50);
  // collation: off — no marks, no section.
  const off = layoutEdition(tree, pageSpecFor('siku'), { collation: false, numbered: false }).volumes[0];
  assert.equal(off.collation, undefined);
  assert.equal(off.pages.flatMap((p) => p.corrections ?? []).length, 0);
});

test('the EPUB marks each place and lists the entries in the volume\'s 校勘記 document; variants: list names the pairs, omit says nothing', () => {
  const { tree, entries } = collated('list');
  const doc = renderVolume(tree.children[0], 0, 1, { popup: new Set(), collation: true });
  const body = doc.collation?.body ?? '';
  assert.equal((body.match(/class="jiao-entry"/g) ?? []).length, entries.length);
  assert.ok(body.includes('「讀」，四庫本作「擴」'));
  assert.equal((doc.body.match(/class="noteref noteref-jiao"/g) ?? []).length, entries.length);
  assert.match(body, /<p class="jiao-tally">四庫本異體字凡[^<]*：[^<]*作[^<]*、/u);
  const omit = collated('omit');
  assert.ok(!(renderVolume(omit.tree.children[0], 0, 1, { popup: new Set(), collation: true }).collation?.body ?? '').includes('jiao-tally'));
});

test('a correction that follows a witness is one entry that says 據四庫本改; the witness\'s entry there is not made again', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { loadEdition } = await import('../engine/load.js');
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-collate-'));
  try {
    writeFileSync(path.join(dir, 'KR3a0010_001.txt'), readFileSync(path.join(CORPORA, 'kanripo/KR3a0010/KR3a0010_001.txt')));
    writeFileSync(path.join(dir, 'corrections.yaml'), '- find: 必先讀其\n  replace: 必先擴其\n  source: 四庫本\n- find: 多志前言\n  replace: 多知前言\n  source: 四庫本\n');
    writeFileSync(path.join(dir, 'edition.yaml'), `title: 潛夫論\nauthor: 王符\nsources: [KR3a0010_001.txt]\ncorrections: corrections.yaml\nwitnesses:\n  - { siglum: 四庫本, path: ${path.join(CORPORA, 'witnesses/KR3a0010-WYG')} }\n`);
    const loaded = await loadEdition(dir, { allowRead: [CORPORA] });
    const layout = layoutEdition(loaded.tree, pageSpecFor('modern'), { collation: true, numbered: true });
    const entries = layout.volumes[0].collation ?? [];
    const fixed = entries.filter((e) => e.kind !== '校');
    assert.equal(fixed.length, 2);
    // 讀 → 擴: the 四庫本 reads 擴; 志 → 知: it reads 識, so the correction is not 據 it, and what it reads is said.
    assert.match(fixed[0].text ?? '', /^$/);
    assert.ok(fixed[0].agrees?.includes('四庫本'));
    const { entryExplanation } = await import('../layout/collation.js');
    assert.equal(entryExplanation(fixed[0]), '讀→擴　據四庫本改');
    assert.equal(entryExplanation(fixed[1]), '志→知　從四庫本　「知」，四庫本作「識」');
    // No 校 entry cites 讀 or 志 any more.
    assert.ok(!entries.some((e) => e.kind === '校' && /「(讀|志)」/.test(e.text ?? '')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
