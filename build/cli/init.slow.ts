/**
 * `diaoban init` → `diaoban build` on each real corpus text, in a clean
 * temporary folder, run for real (PDF with Chromium, EPUB): edition.yaml
 * carries what the text says (title, format, script), and both outputs are
 * written. Also: repeated warnings fold into one line with a count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bylineAuthor } from './init.js';
import { sourceScript } from '../engine/text-defaults.js';

const BIN = path.resolve('bin/diaoban.js');
const CORPORA = path.resolve('../shared/corpora');

function run(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
}

const TEXTS: Record<string, { title: string; format: string; script?: string }> = {
  'kanripo-KR1d0026-SBCK-juan02.txt': { title: '儀禮', format: 'kanripo' },
  'kanripo-KR1d0028-WYG-juan05.txt': { title: '儀禮注疏', format: 'kanripo' },
  'kanripo-KR1d0052-tls-juan02.txt': { title: '禮記', format: 'kanripo' },
  'chtxt-shiji-sanjiazhu-juan01.txt': { title: '無題', format: 'chtxt' },
  'chtxt-songshu-juan14.txt': { title: '宋書', format: 'chtxt' },
  'guoxue-yili-zhushu-juan02.txt': { title: '無題', format: 'guoxue', script: 'simplified' },
};

test('init → build on every corpus text in a clean folder', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'diaoban-init-'));
  try {
    const dirs: string[] = [];
    for (const [file, want] of Object.entries(TEXTS)) {
      const dir = path.join(work, file.replace(/\.txt$/, ''));
      const r = run(['init', path.join(CORPORA, file), dir], work);
      assert.equal(r.status, 0, r.stderr);
      const yaml = readFileSync(path.join(dir, 'edition.yaml'), 'utf8');
      assert.match(yaml, new RegExp(`^title: ${want.title}(?: +# .*)?$`, 'mu'), yaml);
      assert.match(yaml, new RegExp(`^format: ${want.format}$`, 'mu'));
      if (want.script) assert.match(yaml, /^source-script: simplified/mu);
      assert.ok(existsSync(path.join(dir, file)), 'the source is copied in');
      dirs.push(dir);
    }
    const again = run(['init', path.join(CORPORA, 'chtxt-songshu-juan14.txt'), dirs[4]], work);
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /exists already/);
    const out = path.join(work, 'dist');
    const b = run(['build', ...dirs, '--out', out, '-q'], work);
    assert.equal(b.status, 0, b.stderr);
    for (const dir of dirs) {
      for (const ext of ['pdf', 'epub']) {
        const f = path.join(out, `${path.basename(dir)}.${ext}`);
        assert.ok(existsSync(f) && statSync(f).size > 10000, `${f} written`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('build NAME takes an edition in manuscript/; repeated warnings fold into one line, --verbose lists them', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'diaoban-name-'));
  try {
    mkdirSync(path.join(work, 'manuscript', 'pua'), { recursive: true });
    writeFileSync(path.join(work, 'manuscript', 'pua', 'edition.yaml'), 'title: 試\nauthor: 某\nsources:\n  - a.txt\n');
    writeFileSync(path.join(work, 'manuscript', 'pua', 'a.txt'), '主人\uE512戒賓\uE512\n賓禮辭\uE512許\n');
    const folded = run(['check', '--no-fonts', 'pua'], work);
    const lines = folded.stderr.split('\n').filter((l) => l.includes('pua-unmapped'));
    assert.equal(lines.length, 1, folded.stderr);
    assert.match(lines[0], /a\.txt:1:3 warning .* \[×3: this is the first; --verbose lists all\] \(pua-unmapped\)$/u);
    const verbose = run(['check', '--no-fonts', '--verbose', 'pua'], work);
    assert.equal(verbose.stderr.split('\n').filter((l) => l.includes('pua-unmapped')).length, 3);
    const built = run(['build', 'pua', '--epub', '--out', 'dist', '-q'], work);
    assert.equal(built.status, 0, built.stderr);
    assert.ok(existsSync(path.join(work, 'dist', 'pua.epub')));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('init reads author and dynasty from a byline and the script from the text', () => {
  assert.deepEqual(bylineAuthor('漢鄭氏注　唐陸德明音義　賈公彦疏'), { author: '鄭氏', dynasty: '漢' });
  assert.deepEqual(bylineAuthor('宋 陳祥道 撰'), { author: '陳祥道', dynasty: '宋' });
  assert.equal(sourceScript('乡射之礼主人戒宾宾出迎再拜'), 'simplified');
  assert.equal(sourceScript('鄉射之禮主人戒賓賓出迎再拜'), 'traditional');
});
