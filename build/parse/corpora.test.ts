/**
 * Real texts from the open corpora (../shared/corpora/, never copied into the
 * project): each is detected as its format, its commentary lands in the
 * layers its markup says (character counts taken from the markup by other
 * means than the parser), no markup character is left in the text, and the
 * title comes from the text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { visit } from 'unist-util-visit';
import { loadEdition } from '../engine/load.js';
import type { Root } from '../tree/types.js';

const CORPORA = '../shared/corpora';

/** Characters that count: no white space, an entity or a composition one character. */
function chars(s: string): number {
  return Array.from(s.replace(/&[A-Za-z0-9]+;|\{[^{}]{2,8}\}|<[^<>]{2,8}>/gu, '字').replace(/[\s\u3000¶/]/gu, '')).length;
}

function add(counts: Record<string, number>, layer: string, n: number): void {
  if (n > 0) counts[layer] = (counts[layer] ?? 0) + n;
}

/** Kanripo: notes in (…), continued over `)¶\n(` lines; 音義( and 疏( name their layer. */
function kanripoCounts(raw: string): Record<string, number> {
  const text = raw.replace(/<(?:pb|md):[^>]*>/gu, '').replace(/\)¶?\s*\n\s*(?:¶\s*\n\s*)*\(/gu, '');
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/(音義|疏)?\(([^()]*)\)/gu)) add(counts, m[1] === '音義' ? 'yinyi' : m[1] === '疏' ? 'shu' : 'zhu', chars(m[2]));
  // 四庫 注疏: a bare 注 outside the notes, before full-size text, labels the 注 up to the next note (header lines, indented, and # lines aside).
  const body = text.split('\n').filter((l) => !/^[#\u3000]/u.test(l)).join('\n').replace(/(?:音義|疏)?\([^()]*\)/gu, '\u0001');
  const runs = [...body.matchAll(/注(?=\p{Script=Han})([^\u0001]*?)(?=\u0001|\n\s*\n|$)/gu)];
  if (runs.length >= 5) for (const m of runs) add(counts, 'zhu', chars(m[1]));
  return counts;
}

/** chtxt: (…) notes and paragraphs that start with a label, cut at 【label】. */
function chtxtCounts(raw: string): Record<string, number> {
  const ids: Record<string, string> = { 集解: 'jijie', 索隱: 'suoyin', 正義: 'zhengyi' };
  const counts: Record<string, number> = {};
  const parts = [...raw.matchAll(/\(([^()]*)\)/gu)].map((m) => m[1]);
  for (const line of raw.split('\n')) if (/^【(?:集解|索隱|正義)】/u.test(line)) parts.push(line);
  for (const part of parts) {
    const pieces = part.split(/【(集解|索隱|正義)】/u);
    add(counts, 'zhu', chars(pieces[0]));
    for (let i = 1; i < pieces.length; i += 2) add(counts, ids[pieces[i]], chars(pieces[i + 1]));
  }
  return counts;
}

/** 國學導航: （…） is 注; a [疏] line and the ○ lines after it are 疏. */
function guoxueCounts(raw: string): Record<string, number> {
  const counts: Record<string, number> = {};
  let inShu = false;
  for (const rawLine of raw.split('\n')) {
    const line = rawLine.trim().replace(/^\u3000+/u, '');
    if (line.startsWith('[疏]')) {
      inShu = true;
      add(counts, 'shu', chars(line.slice('[疏]'.length)));
      continue;
    }
    if (inShu && line.startsWith('○')) {
      add(counts, 'shu', chars(line));
      continue;
    }
    inShu = false;
    for (const m of line.matchAll(/（([^（）]*)）/gu)) add(counts, 'zhu', chars(m[1]));
  }
  return counts;
}

function layerCounts(tree: Root): Record<string, number> {
  const counts: Record<string, number> = {};
  const count = (nodes: readonly unknown[], layer: string) => {
    for (const n of nodes as Array<{ type: string; value?: string; layer?: string; children?: unknown[] }>) {
      if (n.type === 'note') count(n.children ?? [], n.layer ?? 'zhu');
      else if (n.type === 'text' || n.type === 'lacuna') add(counts, layer, chars(n.value ?? ''));
      else if (n.type === 'glyph') add(counts, layer, 1);
      else if (n.children) count(n.children, layer);
    }
  };
  for (const v of tree.children) {
    for (const b of v.children) {
      if (b.type === 'paragraph' && b.role === 'commentary') count(b.children, b.layer ?? 'zhu');
      else for (const c of b.children) if (c.type === 'note') count([c], 'zhu');
    }
  }
  return counts;
}

function leaks(tree: Root): string[] {
  const found: string[] = [];
  visit(tree, 'text', (node) => {
    const m = /[()/¶<>&;#*[\]{}A-Za-z【】]/u.exec(node.value);
    if (m) found.push(`${node.position.start.line}:${node.position.start.column} ${m[0]} in ${node.value.slice(0, 20)}`);
  });
  return found;
}

const CASES = [
  { file: 'kanripo-KR1d0026-SBCK-juan02.txt', format: 'kanripo', title: '儀禮', volume: 2, counts: kanripoCounts },
  { file: 'kanripo-KR1d0028-WYG-juan05.txt', format: 'kanripo', title: '儀禮注疏', volume: 5, counts: kanripoCounts },
  { file: 'kanripo-KR1d0052-tls-juan02.txt', format: 'kanripo', title: '禮記', volume: 2, counts: kanripoCounts },
  { file: 'chtxt-shiji-sanjiazhu-juan01.txt', format: 'chtxt', title: '無題', volume: 1, counts: chtxtCounts },
  { file: 'chtxt-songshu-juan14.txt', format: 'chtxt', title: '宋書', volume: 14, counts: chtxtCounts },
  { file: 'guoxue-yili-zhushu-juan02.txt', format: 'guoxue', title: '無題', volume: 2, counts: guoxueCounts },
] as const;

for (const c of CASES) {
  test(`${c.file}: ${c.format}, its layers as the markup says, no markup left, titled from its text`, async () => {
    const path = `${CORPORA}/${c.file}`;
    const raw = await readFile(path, 'utf8');
    const loaded = await loadEdition(path, { raw: true });
    assert.equal(loaded.sources[0].format, c.format);
    assert.deepEqual(layerCounts(loaded.parsed), c.counts(raw));
    assert.deepEqual(leaks(loaded.parsed), []);
    assert.equal(loaded.parsed.edition.title, c.title);
    assert.equal(loaded.parsed.children[0].number, c.volume);
    assert.equal(loaded.messages.filter((m) => m.fatal === true).length, 0, loaded.messages.filter((m) => m.fatal).map(String).join('\n'));
  });
}

test('Kanripo: every ¶ and <pb:…> of the source is an anchor, in order, with edition, juan and leaf', async () => {
  const path = `${CORPORA}/kanripo-KR1d0028-WYG-juan05.txt`;
  const raw = await readFile(path, 'utf8');
  const { parsed } = await loadEdition(path, { raw: true });
  const anchors: string[] = [];
  visit(parsed, 'anchor', (a) => {
    anchors.push(a.kind === 'page' ? `${a.edition}:${a.juan}:${a.leaf}` : '¶');
  });
  const expected = [...raw.matchAll(/<pb:KR1d0028_(WYG)_0*(\d+)-(\d+[ab])>|¶/gu)].map((m) => (m[0] === '¶' ? '¶' : `${m[1]}:${m[2]}:${m[3]}`));
  assert.deepEqual(anchors, expected);
});

test('Kanripo: a note continued over )¶ lines is one note with each line\'s split', async () => {
  const { parsed } = await loadEdition(`${CORPORA}/kanripo-KR1d0026-SBCK-juan02.txt`, { raw: true });
  let first: { split?: number; splits?: number[] } | undefined;
  visit(parsed, 'note', (n) => {
    first ??= n;
  });
  // 昬禮下達納采用鴈(逹通也將欲與彼合昬/姻必先使媒氏下通其)¶(言女氏…禮用鴈/爲摯者…如之何)¶(匪媒不得…交接/設紹介皆所以養廉恥)
  assert.deepEqual(first?.splits, [9, 17, 10]);
  assert.equal(first?.split, 9);
});
