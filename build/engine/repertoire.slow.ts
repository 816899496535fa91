/**
 * Any repertoire: a book of 10,000 distinct ideographs (a whole 注疏 uses
 * 6,000–9,000) builds both outputs, though HarfBuzz cannot subset Noto Serif
 * CJK to more than about 5,000 characters at once (fonts/subset.ts
 * SUBSET_PART_CHARS): the EPUB embeds the face in parts whose cmaps hold
 * every character, and the PDF's runs (32 pages, each over 5,000 distinct
 * characters) print every character from our fonts — read back with
 * poppler: each character there, no 〓, every font embedded, none Type 3
 * (Chromium's own fallback to the system's CFF Noto would be).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { cmapRanges, loadSystemFonts, NOTO_SERIF_CJK_TC, SUBSET_PART_CHARS } from '../fonts/index.js';
import { isRadical } from '../render/pdf/radicals.js';
import { epubcheck } from '../render/epub/epubcheck.test-util.js';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-repertoire-'));
after(() => rmSync(work, { recursive: true, force: true }));

const COUNT = 10_000;

test('a book of 10,000 distinct characters builds its PDF and EPUB, every character drawn from our fonts', async () => {
  const [noto] = await loadSystemFonts([NOTO_SERIF_CJK_TC]);
  const chars: string[] = [];
  for (const [a, b] of cmapRanges(noto.bytes)) {
    for (let cp = Math.max(a, 0x4e00); cp <= Math.min(b, 0x9fff) && chars.length < COUNT; cp++) if (!isRadical(cp)) chars.push(String.fromCodePoint(cp));
  }
  assert.equal(chars.length, COUNT);
  assert.ok(COUNT > 2 * SUBSET_PART_CHARS, 'more than two parts of the face');
  const dir = path.join(work, 'zidian');
  mkdirSync(dir);
  const lines: string[] = ['# 字表', ''];
  for (let i = 0; i < chars.length; i += 100) lines.push(chars.slice(i, i + 100).join(''), '');
  writeFileSync(path.join(dir, 'zibiao.md'), lines.join('\n'));
  writeFileSync(path.join(dir, 'edition.yaml'), ['title: 字表', 'author: 無名', 'language: zh-Hant', 'script: traditional', 'template: siku', 'date: 2026-01-01', 'sources:', '  - zibiao.md'].join('\n') + '\n');
  const out = path.join(work, 'out');
  const build = spawnSync(process.execPath, [BIN, 'build', '--out', out, dir], {
    encoding: 'utf8',
    env: { ...process.env, DIAOBAN_FONT_CACHE: path.join(work, 'font-cache') },
    timeout: 1_800_000,
  });
  assert.equal(build.status, 0, build.stdout + build.stderr);

  // The PDF: every character, none as 〓, from embedded TrueType subsets of our fonts.
  const pdf = path.join(out, 'zidian.pdf');
  const text = execFileSync('pdftotext', [pdf, '-'], { maxBuffer: 1 << 26 }).toString('utf8');
  const found = new Set(Array.from(text));
  assert.deepEqual(chars.filter((c) => !found.has(c)), [], 'every character in the PDF');
  assert.ok(!found.has('〓'), 'no character left undrawn');
  const fonts = execFileSync('pdffonts', [pdf]).toString('utf8').split('\n').slice(2).filter((l) => l.trim());
  assert.ok(fonts.length >= 4, `the runs' faces in parts: ${fonts.join('\n')}`);
  for (const row of fonts) {
    assert.doesNotMatch(row, /Type 3/, `no Chromium fallback (Type 3): ${row}`);
    const cols = row.trim().split(/\s+/);
    assert.equal(cols[cols.length - 5], 'yes', `embedded: ${row}`);
  }

  // The EPUB: the face in parts whose cmaps hold every character; the stylesheet names each part; epubcheck clean.
  const epub = path.join(out, 'zidian.epub');
  const zip = await JSZip.loadAsync(readFileSync(epub));
  const fontFiles = Object.keys(zip.files).filter((n) => /^OEBPS\/fonts\/.+\.(ttf|otf)$/.test(n));
  assert.ok(fontFiles.length >= Math.ceil(COUNT / SUBSET_PART_CHARS), `the face in parts: ${fontFiles.join(', ')}`);
  const covered = new Set<number>();
  for (const f of fontFiles) for (const [a, b] of cmapRanges(new Uint8Array(await zip.file(f)!.async('uint8array')))) for (let cp = a; cp <= b; cp++) covered.add(cp);
  assert.deepEqual(chars.filter((c) => !covered.has(c.codePointAt(0)!)), [], 'every character in an embedded face');
  const css = (await Promise.all(Object.keys(zip.files).filter((n) => n.endsWith('.css')).map((n) => zip.file(n)!.async('string')))).join('\n');
  for (const f of fontFiles) assert.ok(css.includes(`fonts/${path.basename(f)}`), `the stylesheet loads ${f}`);
  // The template's first face (TW-Kai in the 四庫 template), named with each of its parts in order.
  assert.match(css, /font-family: "([^"]+)", "\1 part 2", "\1 part 3"/);
  const check = epubcheck(epub);
  assert.equal(check.errors, 0, check.output);
});
