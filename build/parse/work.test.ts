/**
 * A work's folder (parse/work.ts): which files are the work's and in what
 * order, on every Kanripo repository of ../shared/corpora/kanripo/ and on
 * folders of other works' files; the witness table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { naturalCompare, witnessName, workFiles } from './work.js';

const KANRIPO = path.resolve('../shared/corpora/kanripo');

test('a Kanripo repository: its juan files by number, _000 the front matter, its notes left out', () => {
  const names = ['Readme.org', 'KR1a0006_010.txt', 'KR1a0006_002.txt', 'KR1a0006_000.txt', 'KR1a0006_001.txt', '.git', 'edition.yaml'];
  assert.deepEqual(workFiles(names), { files: ['KR1a0006_000.txt', 'KR1a0006_001.txt', 'KR1a0006_002.txt', 'KR1a0006_010.txt'], kanripo: { id: 'KR1a0006', front: 'KR1a0006_000.txt' } });
  // A work that starts at juan 1 (CBETA) has no front matter; a stray file of another repository is not the work's.
  assert.deepEqual(workFiles(['KR6a0007_002.txt', 'KR6a0007_001.txt', 'KR1a0006_001.txt', 'notes.txt']), { files: ['KR6a0007_001.txt', 'KR6a0007_002.txt'], kanripo: { id: 'KR6a0007' } });
});

test('every repository of the corpus reads as its juan files in order', () => {
  const works = readdirSync(KANRIPO).filter((n) => /^KR/.test(n));
  assert.equal(works.length, 44);
  let files = 0;
  for (const w of works) {
    const names = readdirSync(path.join(KANRIPO, w));
    const work = workFiles(names);
    assert.ok(work?.kanripo, w);
    assert.equal(work.kanripo.id, w);
    assert.deepEqual(work.files, [...names].sort(), `${w}: numbered in order`);
    assert.equal(work.kanripo.front, names.includes(`${w}_000.txt`) ? `${w}_000.txt` : undefined, w);
    files += work.files.length;
  }
  assert.equal(files, 322);
});

test('any folder of a work: its text files in natural order (2 before 10, 卷二 before 卷十), no notes, null when none', () => {
  assert.deepEqual(workFiles(['juan10.txt', 'juan2.txt', 'juan1.txt', 'README.md', 'LICENSE', 'cover.png']), { files: ['juan1.txt', 'juan2.txt', 'juan10.txt'] });
  assert.deepEqual(workFiles(['卷十.txt', '卷二.txt', '卷一.md', '卷上.txt']), { files: ['卷一.md', '卷二.txt', '卷十.txt', '卷上.txt'] });
  // Negative controls: a folder of pictures or notes holds no work.
  assert.equal(workFiles(['cover.png', 'README.md', 'Readme.org', '.hidden.txt']), null);
  assert.equal(workFiles([]), null);
  assert.ok(naturalCompare('a9', 'a10') < 0 && naturalCompare('a10', 'a9') > 0 && naturalCompare('a', 'a') === 0);
});

test('the witnesses Kanripo names by code', () => {
  assert.equal(witnessName('WYG'), '文淵閣四庫全書本');
  assert.equal(witnessName('SBCK'), '四部叢刊本');
  assert.equal(witnessName('constructor'), undefined);
  assert.equal(witnessName('XYZ'), undefined);
});
