/**
 * The EPUB's fonts: every face gets its own, stable file name (two fonts
 * named 楷 and 宋 used to be both `fonts/.ttf`, one of them lost), and the
 * stylesheet names each file it embeds; epubcheck finds no error.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HANAMIN_A, HANAMIN_B } from '../../fonts/index.js';
import type { LoadedFont, SubsetFont } from '../../fonts/types.js';
import { cmapRanges } from '../../fonts/sfnt.js';
import { fontFileNames, renderEpub } from './index.js';
import { sampleTree } from './fixtures.test-util.js';
import { unzip } from './read-epub.test-util.js';
import { epubcheck } from './epubcheck.test-util.js';

const work = mkdtempSync(path.join(tmpdir(), 'diaoban-epub-fonts-'));
after(() => rmSync(work, { recursive: true, force: true }));

const subset = (family: string, format: 'ttf' | 'otf' = 'ttf'): SubsetFont => ({ family, format, mediaType: `font/${format}`, bytes: new Uint8Array(), text: '' });

test('font file names: ASCII families keep theirs; families without ASCII letters, or that would clash, get a hash of the family', () => {
  const names = fontFileNames([subset('Noto Serif CJK TC', 'otf'), subset('楷'), subset('宋'), subset('Hana-MinA'), subset('HanaMinA'), subset('楷')]);
  assert.equal(names[0], 'NotoSerifCJKTC.otf');
  assert.match(names[1], /^font-[0-9a-f]{8}\.ttf$/);
  assert.match(names[2], /^font-[0-9a-f]{8}\.ttf$/);
  assert.equal(names[3], 'HanaMinA.ttf');
  assert.match(names[4], /^HanaMinA-[0-9a-f]{8}\.ttf$/);
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length, 'every name its own');
  assert.deepEqual(fontFileNames([subset('楷'), subset('宋')]), names.slice(1, 3), 'stable: the same family, the same name');
});

test('two fonts named 楷.ttf and 宋.ttf are both embedded, each under its own name, each used by the stylesheet; epubcheck clean', async () => {
  const fonts: LoadedFont[] = [
    { family: '宋', file: '/fonts/宋.ttf', bytes: new Uint8Array(readFileSync(HANAMIN_B.file)) },
    { family: '楷', file: '/fonts/楷.ttf', bytes: new Uint8Array(readFileSync(HANAMIN_A.file)) },
  ];
  const bytes = await renderEpub(sampleTree(), { fonts });
  const { names, text, zip } = await unzip(bytes);
  const files = names.filter((n) => n.startsWith('OEBPS/fonts/') && !n.endsWith('/'));
  assert.equal(files.length, 2, `two font files: ${files.join(', ')}`);
  const css = [...text].filter(([n]) => n.endsWith('.css')).map(([, t]) => t).join('\n');
  const opf = text.get('OEBPS/content.opf')!;
  for (const file of files) {
    const name = path.basename(file);
    assert.ok(css.includes(`fonts/${name}`), `the stylesheet loads ${name}`);
    assert.ok(opf.includes(`fonts/${name}`), `the package lists ${name}`);
  }
  // Each file is the face of its family: 宋 (HanaMinB, first) draws the book's Extension B character (𠀀), 楷 (HanaMinA) the ideographs 宋 lacks.
  const maps = await Promise.all(files.map(async (f) => cmapRanges(new Uint8Array(await zip.file(f)!.async('uint8array')))));
  const covers = (ranges: Array<[number, number]>, cp: number): boolean => ranges.some(([a, b]) => a <= cp && cp <= b);
  assert.ok(maps.some((m) => covers(m, '鄉'.codePointAt(0)!) && !covers(m, 0x20000)) && maps.some((m) => covers(m, 0x20000) && !covers(m, '鄉'.codePointAt(0)!)), 'both faces present');
  const file = path.join(work, 'kai-song.epub');
  writeFileSync(file, bytes);
  const check = epubcheck(file);
  assert.equal(check.errors, 0, check.output);
});
