import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { importDaizhige } from '../parse/importers/corpus.js';
import { defaultEdition } from '../parse/edition.js';
import { sourceOf } from '../parse/test-helpers.js';
import { applyCorrections, parseCorrections } from '../transform/corrections.js';
import type { Block, Glyph, Root } from '../tree/types.js';
import { visit } from 'unist-util-visit';
import { collationBlocks, layoutVolumeWithCollation, placedCharacters } from './collation.js';
import { layoutVolume } from './engine.js';
import { pageSpecFor } from './spec.js';
import type { CollationEntry, Page, VolumeLayout } from './types.js';

/** The k-th character of paragraph i: all distinct, so that every correction matches once. */
const ch = (i: number, k: number): string => String.fromCodePoint(0x4e00 + i * 60 + k);
const run = (i: number, from: number, to: number): string => Array.from({ length: to - from }, (_, k) => ch(i, from + k)).join('');

/** Twelve paragraphs of 40 characters (three pages of the 四庫 grid), the sixth with a note. */
function manuscript(): string {
  const lines: string[] = [];
  for (let i = 0; i < 12; i++) lines.push(i === 5 ? `${run(i, 0, 10)}【子丑寅卯辰巳午未申酉戌亥】${run(i, 10, 40)}` : run(i, 0, 40));
  return lines.join('\n\n');
}

function correctedTree(yaml: string): Root {
  const src = sourceOf(manuscript(), 'a.txt');
  const tree: Root = { type: 'root', edition: defaultEdition('t', ['a.txt']).meta, children: importDaizhige(src, 't').volumes };
  const file = new VFile({ path: 'corrections.yaml', value: yaml });
  applyCorrections(tree, parseCorrections(file));
  assert.deepEqual(file.messages.map(String), []);
  return tree;
}

const YAML = [
  `- find: ${run(10, 30, 33)}`,
  `  replace: ${run(10, 30, 32)}天`,
  '  note: 據某本改',
  '- find: 辰巳午',
  '  replace: 辰午',
  '- find: ""',
  `  after: ${run(11, 20, 23)}`,
  '  replace: 地',
].join('\n');

/** The character printed at a mark's place. */
function charAt(page: Page, column: number, cell: number, sub?: 'right' | 'left'): string | undefined {
  for (const run of page.columns.find((c) => c.index === column)?.runs ?? []) {
    if (run.type === 'text') {
      const chars = Array.from(run.text);
      if (!sub && cell >= run.start && cell < run.start + chars.length) return chars[cell - run.start];
    } else if (sub && cell >= run.start && cell < run.start + run.cells) {
      return Array.from((sub === 'right' ? run.right : run.left).map((s) => s.text).join(''))[cell - run.start];
    }
  }
  return undefined;
}

function pagesJson(layout: VolumeLayout, count: number): string {
  return JSON.stringify(layout.pages.slice(0, count).map((p) => ({ ...p, corrections: undefined, section: undefined })));
}

test('each correction is located where its character really is: main text, a note sub-column, the character after a deletion', () => {
  const tree = correctedTree(YAML);
  const spec = pageSpecFor('siku');
  const layout = layoutVolumeWithCollation(tree.children[0], 0, spec, { collation: true, numbered: false });
  const entries = layout.collation ?? [];
  assert.deepEqual(entries.map((e) => `${e.kind}${e.old}→${e.new}`), ['刪巳→', `改${ch(10, 32)}→天`, '補→地']);
  const got = entries.map((e) => charAt(layout.pages[e.page - 1], e.column, e.cell, e.sub));
  // The deletion's mark on 午 (the character after 巳, in the note); 天 and 地 in main text.
  assert.deepEqual(got, ['午', '天', '地']);
  assert.ok(entries[0].sub !== undefined, 'the note correction sits in a sub-column');
  assert.ok(entries[2].page >= 3, 'the last correction is on the third page');
  // Each mark is on its page, at the entry's place, and the locators read 葉Nx 第N行.
  for (const e of entries) {
    const page = layout.pages[e.page - 1];
    assert.ok(page.corrections?.some((m) => m.number === e.number && m.column === e.column && m.cell === e.cell));
    assert.equal(e.locator, `葉${'〇一二三四五六七八九'[page.leaf]}${page.side === 'recto' ? 'a' : 'b'} 第${'〇一二三四五六七八九'[e.column + 1]}行`);
  }
});

test('the 校勘記 comes after the text and moves none of it; it cites every correction in the grid', () => {
  const tree = correctedTree(YAML);
  const spec = pageSpecFor('siku');
  const plain = layoutVolume(tree.children[0], 0, spec);
  const collated = layoutVolumeWithCollation(tree.children[0], 0, spec, { collation: true, numbered: true });
  // Every page of the text is as without the section; the section starts a leaf of its own (a recto), leaves numbered on.
  assert.equal(pagesJson(collated, plain.pages.length), pagesJson(plain, plain.pages.length));
  const last = plain.pages[plain.pages.length - 1];
  const first = collated.pages.find((p) => p.collation)!;
  assert.equal(first.side, 'recto');
  assert.equal(first.leaf, last.leaf + 1);
  assert.equal(first.pageInVolume, last.pageInVolume + (last.side === 'recto' ? 2 : 1));
  assert.deepEqual(first.bookmarks, [{ level: 2, title: '校勘記' }]);
  // The section: its title, then an entry per correction with its number, locator and explanation.
  const after = placedCharacters(plain).length;
  const sectionText = collated.pages
    .flatMap((p) => p.columns.flatMap((c) => c.runs.map((r) => (r.type === 'text' ? r.text : [...r.right, ...r.left].map((s) => s.text).join('')))))
    .join('');
  assert.ok(sectionText.includes('校勘記'));
  for (const e of collated.collation ?? []) {
    const full = e.locator.replace(' ', '').replace(/[ab]/, (c) => (c === 'a' ? '上' : '下'));
    assert.ok(sectionText.includes(full), `the section cites ${full}`);
  }
  assert.ok(sectionText.includes('〔一〕') && sectionText.includes('據某本改'));
  assert.ok(placedCharacters(collated).length > after);
});

test('collation off: no marks and no section', () => {
  const tree = correctedTree(YAML);
  const spec = pageSpecFor('siku');
  const off = layoutVolumeWithCollation(tree.children[0], 0, spec, { collation: false, numbered: false });
  assert.equal(off.collation, undefined);
  assert.ok(off.pages.every((p) => p.corrections === undefined));
  assert.equal(JSON.stringify(off), JSON.stringify(layoutVolume(tree.children[0], 0, spec)));
});

test('the 校勘記 draws a glyph it cites (「&KR1284;」) as the text does; an entry of characters alone is text (control)', () => {
  const at = { file: 'a.txt', start: { line: 1, column: 1 }, end: { line: 1, column: 2 } };
  const entry = (text: string): CollationEntry => ({ number: 1, kind: '校', old: '', new: '', text, entry: at, source: at, page: 1, leaf: 1, side: 'recto', column: 0, cell: 0, locator: '' });
  const glyphsOf = (blocks: Block[]): Glyph[] => {
    const found: Glyph[] = [];
    visit({ type: 'root', children: blocks } as unknown as Root, 'glyph', (g: Glyph) => void found.push(g));
    return found;
  };
  const drawn = glyphsOf(collationBlocks([entry('「&KR1284;」，四庫本作「底」')], [], false));
  assert.equal(drawn.length, 1);
  assert.equal(drawn[0].entity, 'KR1284');
  assert.equal(drawn[0].drawing?.image, 'KR1284', 'drawn from KR-Gaiji’s image, as in the text');
  // A code with a Unicode character in the list is that character; the tally's lines too.
  const tallied = glyphsOf(collationBlocks([], [], false, ['異體：&KR0012;作孤'], at));
  assert.equal(tallied[0]?.replacement, '孤');
  assert.deepEqual(glyphsOf(collationBlocks([entry('「貴」，四庫本作「賤」')], [], false)), []);
});
