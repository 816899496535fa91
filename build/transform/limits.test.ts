/**
 * Limits that are messages, not crashes or hours (issue 20): corrections by
 * the thousand go through an index and each still lands where a plain search
 * puts it; a charmap entry of 10,000 characters, or entries amplified by
 * their uses, are errors with a place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VFile } from 'vfile';
import { defaultEdition, parseCharmap } from '../parse/edition.js';
import { parseEdition } from '../parse/index.js';
import { applyCorrections, parseCorrections } from './corrections.js';
import { applyCharmap, MAX_CHARMAP_EXPANSION } from './charmap.js';
import { reporterFor } from './report.js';
import { treeText } from '../parse/test-helpers.js';
import type { Root } from '../tree/types.js';

const ALPHABET = Array.from('天地玄黃宇宙洪荒日月盈昃辰宿列張寒來暑往秋收冬藏閏餘成歲律呂調陽雲騰致雨露結為霜金生麗水玉出崑岡劍號巨闕珠稱夜光果珍李柰菜重芥薑海鹹河淡鱗潛羽翔');

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function treeOf(text: string, script: 'traditional' | 'simplified' = 'traditional'): { tree: Root; file: VFile } {
  const file = new VFile({ path: 'a.txt', value: new TextEncoder().encode(text) });
  const config = defaultEdition('x', ['a.txt']);
  config.meta.script = script;
  return { tree: parseEdition(config, [file]).tree, file };
}

/** `lines` lines of 200 characters drawn from `alphabet`, one paragraph each. */
function volume(lines: number, alphabet: readonly string[], rnd: () => number): string {
  return Array.from({ length: lines }, () => Array.from({ length: 200 }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('')).join('\n\n') + '\n';
}

/** Far above what the index takes on a loaded machine (about a second), far below what the walks took on an idle one (83.6 s, 53 s). */
const CORRECTIONS_MS = 20_000;

/** The text as printed: corrections' new text in, their old text out. */
function printed(tree: Root): string {
  return tree.children.map((v) => treeText(v)).join('');
}

test('1,000 corrections on a 50,000-character volume: each lands exactly where a plain search of the text puts it', () => {
  const rnd = seeded(7);
  const lines: string[] = [];
  for (let l = 0; l < 250; l++) lines.push(Array.from({ length: 200 }, () => ALPHABET[Math.floor(rnd() * ALPHABET.length)]).join(''));
  let expected = lines.join('\n\n');
  const { tree } = treeOf(expected + '\n');
  const entries: string[] = [];
  while (entries.length < 1000) {
    const line = Math.floor(rnd() * lines.length);
    const at = Math.floor(rnd() * 194);
    const run = lines[line].slice(at, at + 6);
    const to = `${run.slice(0, 2)}〇${run.slice(3)}`;
    // The reference: the entry applies when its text stands exactly once in what the entries before left.
    const first = expected.indexOf(run);
    if (first < 0 || expected.indexOf(run, first + 1) >= 0) continue;
    expected = expected.slice(0, first) + to + expected.slice(first + run.length);
    entries.push(`- find: ${run}\n  replace: ${to}\n`);
  }
  const file = new VFile({ path: 'corrections.yaml', value: entries.join('') });
  applyCorrections(tree, parseCorrections(file));
  assert.deepEqual(file.messages.map((m) => m.reason), []);
  assert.equal(printed(tree).replace(/\n/g, ''), expected.replace(/\n/g, ''));
});

test('8,000 corrections on a 200,000-character volume, and 2,000 that match nothing in a simplified text, take seconds, not minutes', () => {
  const rnd = seeded(20);
  const text = volume(1000, ALPHABET, rnd);
  const seen = new Set<string>();
  const entries: string[] = [];
  while (entries.length < 8000) {
    const at = Math.floor(rnd() * (text.length - 6));
    const run = text.slice(at, at + 6);
    if (/\s/u.test(run) || seen.has(run) || text.indexOf(run) !== text.lastIndexOf(run)) continue;
    seen.add(run);
    entries.push(`- find: ${run}\n  replace: ${run.slice(0, 3)}〇${run.slice(4)}\n`);
  }
  const timed = (tree: Root, yaml: string, scripts?: { from: 'simplified'; to: 'traditional' }) => {
    const file = new VFile({ path: 'corrections.yaml', value: yaml });
    const parsed = parseCorrections(file);
    const t0 = performance.now();
    applyCorrections(tree, parsed, scripts);
    return { ms: performance.now() - t0, unmatched: file.messages.filter((m) => m.ruleId === 'correction-unmatched') };
  };
  const many = timed(treeOf(text).tree, entries.join(''));
  assert.ok(many.ms < CORRECTIONS_MS, `8,000 entries took ${many.ms.toFixed(0)} ms`);
  // An entry an earlier one overlapped matches nothing now: each said, the rest applied.
  assert.ok(many.unmatched.length < 1000, `${many.unmatched.length} unmatched`);

  const simplified = volume(1000, Array.from('天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕调阳云腾致雨露结为霜'), rnd);
  const nothing = Array.from({ length: 2000 }, (_, i) => `- find: 無此${String.fromCodePoint(0x4e00 + i)}文\n  replace: 無彼${String.fromCodePoint(0x4e00 + i)}文\n`).join('');
  const none = timed(treeOf(simplified, 'simplified').tree, nothing, { from: 'simplified', to: 'traditional' });
  assert.ok(none.ms < CORRECTIONS_MS, `2,000 unmatched entries took ${none.ms.toFixed(0)} ms`);
  assert.equal(none.unmatched.length, 2000, 'each is an error');
  assert.deepEqual(none.unmatched.slice(0, 2).map((m) => `${m.line}:${m.column}`), ['1:3', '3:3'], 'at its own entry');
  process.stderr.write(`# corrections: 8,000 entries ${many.ms.toFixed(0)} ms, 2,000 unmatched (simplified) ${none.ms.toFixed(0)} ms\n`);
});

test('a charmap entry of 10,000 characters is an error at its value, left out', () => {
  const file = new VFile({ path: 'charmap.yaml', value: `U+E000: 埶\nU+E001: ${'長'.repeat(10_000)}\n` });
  const map = parseCharmap(file);
  assert.deepEqual(Object.keys(map), ['\uE000']);
  assert.deepEqual(file.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`), ['2:9 charmap-entry']);
  assert.match(file.messages[0].reason, /replaced by 10000 characters; a replacement may have at most 32/);
});

test('charmap entries amplified by their uses stop at the expansion limit, with one error at the first glyph past it', () => {
  const uses = Math.ceil(MAX_CHARMAP_EXPANSION / 31) + 10;
  const { tree, file } = treeOf(`${'\uE000'.repeat(uses)}\n`);
  applyCharmap(tree, { '\uE000': '長'.repeat(32) }, reporterFor([file]));
  const errors = file.messages.filter((m) => m.ruleId === 'charmap-expansion');
  assert.equal(errors.length, 1);
  assert.match(errors[0].reason, new RegExp(`add more than ${MAX_CHARMAP_EXPANSION} characters`));
  // Each use adds 31 characters: the glyph that would pass the limit is the one the error stands at.
  assert.equal(`${errors[0].line}:${errors[0].column}`, `1:${Math.floor(MAX_CHARMAP_EXPANSION / 31) + 1}`);
  let replaced = 0;
  const walk = (n: { type: string; replacement?: string; children?: unknown[] }): void => {
    if (n.type === 'glyph' && n.replacement) replaced++;
    for (const c of n.children ?? []) walk(c as never);
  };
  walk(tree as never);
  assert.ok(replaced > 0 && replaced < uses, `${replaced} of ${uses} replaced`);
});
