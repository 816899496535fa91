/**
 * The command line on bad input, run for real: clear file:line:col messages,
 * the rest still parsed, no stack traces, the right exit codes.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import JSZip from 'jszip';

const BIN = path.resolve('bin/diaoban.js');
const LINE = /^\S+:\d+:\d+ (error|warning|info) .+ \([a-z-]+\)$|^\S+ (error|warning|info) .+ \([a-z-]+\)$/;

function run(args: string[], cwd = process.cwd()) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
}

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function edition(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-cli-'));
  made.push(dir);
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), data);
  }
  return dir;
}

const YAML = 'title: 試\nauthor: 某\nsources:\n  - a.txt\n';

test('check prints one line a message in the promised form and exits 1 on errors', () => {
  const dir = edition({ 'edition.yaml': YAML, 'a.txt': '主人戒賓【主人州長也\n\n賓禮辭許〉\n' });
  const r = run(['check', dir]);
  assert.equal(r.status, 1);
  const lines = r.stderr.trim().split('\n');
  for (const line of lines) assert.match(line, LINE);
  assert.match(r.stderr, /a\.txt:1:5 error unclosed 【/);
  assert.match(r.stderr, /a\.txt:3:5 error unmatched closing 〉/);
});

test('the tree keeps all the text around a broken bracket', () => {
  const dir = edition({ 'edition.yaml': YAML, 'a.txt': '主人戒賓【主人州長也\n\n賓禮辭許〉\n' });
  const r = run(['tree', dir]);
  assert.equal(r.status, 0);
  const tree = JSON.parse(r.stdout);
  const text = JSON.stringify(tree).match(/"value":"[^"]*"/g)!.join('');
  for (const ch of '主人戒賓主人州長也賓禮辭許') assert.ok(text.includes(ch));
});

test('GB18030 and Big5 sources are decoded, with a warning naming the conversion', () => {
  for (const [encoding, text] of [['gb18030', '乡射之礼主人戒宾宾出迎再拜主人答再拜乃请'], ['big5', '鄉射之禮主人戒賓賓出迎再拜主人答再拜乃請']] as const) {
    const dir = edition({ 'edition.yaml': YAML, 'a.txt': iconv.encode(text.repeat(4), encoding) });
    const r = run(['check', dir]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /warning the file is (GB18030|Big5), not UTF-8.*iconv -f/);
    const tree = run(['tree', '--raw', dir]);
    assert.ok(tree.stdout.includes(text.slice(0, 6)));
  }
});

test('an empty source is a warning; binary garbage and NUL bytes are errors with positions', () => {
  const empty = run(['check', edition({ 'edition.yaml': YAML, 'a.txt': '' })]);
  assert.equal(empty.status, 0);
  assert.match(empty.stderr, /a\.txt:1:1 warning the file is empty/);
  const garbage = new Uint8Array(2048).map((_, i) => (i * 7919) % 256);
  const binary = run(['check', edition({ 'edition.yaml': YAML, 'a.txt': garbage })]);
  assert.equal(binary.status, 1);
  assert.match(binary.stderr, /error this is not a text file/);
  const nul = run(['check', edition({ 'edition.yaml': YAML, 'a.txt': '主人\u0000戒賓' })]);
  assert.equal(nul.status, 1);
  assert.match(nul.stderr, /a\.txt:1:3 error control character U\+0000/);
});

test('a missing or malformed edition.yaml, and a missing source, say what to do', () => {
  // A folder with text files and no edition.yaml is a whole work (work.test.ts); one without is nothing to read.
  const missing = run(['check', edition({ 'notes.org': '主人' })]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /edition\.yaml error \S+ has no edition\.yaml and no source files \(\.txt, \.md\) to read as a whole work; an edition folder needs one/);
  const malformed = run(['check', edition({ 'edition.yaml': 'title: [unclosed\nauthor: x\n', 'a.txt': '主人' })]);
  assert.equal(malformed.status, 1);
  assert.match(malformed.stderr, /edition\.yaml:\d+:\d+ error edition\.yaml is not valid YAML/);
  const noSources = run(['check', edition({ 'edition.yaml': 'title: 試\nauthor: 某\n' })]);
  assert.match(noSources.stderr, /lists no sources/);
  const badField = run(['check', edition({ 'edition.yaml': YAML + 'template: fancy\nlayout:\n  columns: -3\n', 'a.txt': '主人' })]);
  assert.match(badField.stderr, /edition\.yaml:5:\d+ error template is not one of the choices: "fancy"; write one of siku, modern/);
  assert.match(badField.stderr, /edition\.yaml:7:\d+ error layout\.columns is out of range: -3; write a whole number from 1 to 40/);
  const badFont = run(['check', edition({ 'edition.yaml': YAML + 'fonts:\n  main:\n    - /opt/Kai.woff2\n', 'a.txt': '主人' })]);
  assert.equal(badFont.status, 1);
  assert.match(badFont.stderr, /edition\.yaml:7:\d+ error font "\/opt\/Kai\.woff2": give a \.ttf, \.otf or \.ttc#Family file/);
  const lost = run(['check', edition({ 'edition.yaml': YAML.replace('- a.txt', '- a.txt\n  - b.txt'), 'a.txt': '主人' })]);
  assert.match(lost.stderr, /edition\.yaml:5:5 error the source "b\.txt" does not exist in \S+; check the name in edition\.yaml, or add the file \(file-missing\)/);
});

test('a path that does not exist is one line, exit 1 (the user\'s to fix)', () => {
  const r = run(['check', '/nonexistent/edition']);
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim(), 'diaoban: /nonexistent/edition: no such file or folder; give an edition folder (with edition.yaml) or a source file');
});

test('import writes the Markdown convention, which reads back to the same text', () => {
  const dir = edition({ 'a.txt': '禮書綱目卷九\n\n鄉射之禮【禮也 地官】\n\n右戒賓 記大夫與\n\n禮書綱目卷九\n' });
  const out = path.join(dir, 'a.md');
  const r = run(['import', path.join(dir, 'a.txt'), '-o', out]);
  assert.equal(r.status, 0, r.stderr);
  const back = run(['tree', out]);
  assert.match(back.stdout, /"role": "label"/);
  assert.match(back.stdout, /"layer": "chuchu"/);
});

test('import writes the classical marks back (抬頭, 眉批, 側批, 圈點, ruby, printed labels): the 評點本 sample and its import read to the same tree', () => {
  const dir = edition({});
  const out = path.join(dir, 'yueyanglou.md');
  const source = 'manuscript/pingdian/yueyanglou.md';
  const r = run(['import', source, '-o', out]);
  assert.equal(r.status, 0, r.stderr);
  const tree = (file: string): unknown => JSON.parse(run(['tree', '--raw', file]).stdout, (key, value) => (key === 'position' || key === 'file' ? undefined : value)).children;
  const written = readFileSync(out, 'utf8');
  for (const mark of ['{雙抬}', '{單抬}', '【{眉批}', '【{側批}', '〖{圈}', '〖{雙圈}', '〖{頓}', '〖{重}', '〖{音:ㄕㄤ ㄕㄤ}', '〖{譯:Yueyang Tower}', '{【音義】}', '> {【案】}']) assert.ok(written.includes(mark), mark);
  assert.deepEqual(tree(out), tree(source));
});

test('check on a layout: source edition says how many source lines and pages it found, and where a line is too long', () => {
  const corpora = path.resolve('..', 'shared', 'corpora');
  const wyg = path.join(corpora, 'kanripo-KR1d0028-WYG-juan05.txt');
  const dir = edition({ 'edition.yaml': `title: 儀禮注疏\nauthor: 鄭玄\nlayout: source\nsources:\n  - ${wyg}\n` });
  const r = run(['check', '--no-fonts', '--allow-read', corpora, dir]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /kanripo-KR1d0028-WYG-juan05\.txt:\d+:\d+ info layout: source: 524 source lines on 66 source pages \(66 pages set\) \(source-layout\)/);
  // A line longer than the column: a warning at its ¶.
  const long = edition({ 'edition.yaml': 'title: 試\nauthor: 某\nlayout: source\nsources:\n  - a.txt\n', 'a.txt': '<pb:X_001-1a>¶\n經文甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥¶\n短行¶\n' });
  const w = run(['check', '--no-fonts', long]);
  assert.match(w.stderr, /a\.txt:2:25 warning source line 1 of page 1a takes 24 cells .*more than the column's 21: wrapped onto a further column \(source-line-long\)/);
  // Negative control: without layout: source, check lays nothing out.
  const grid = edition({ 'edition.yaml': `title: 儀禮注疏\nauthor: 鄭玄\nsources:\n  - ${wyg}\n` });
  assert.doesNotMatch(run(['check', '--no-fonts', '--allow-read', corpora, grid]).stderr, /source-layout/);
});

test('layout prints a page as a grid of characters', () => {
  const r = run(['layout', 'manuscript/lishu', '--pages', '1']);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.includes('禮'));
  assert.ok(r.stdout.split('\n').length >= 21);
});

test('a character no font of the stack draws is reported where it stands', () => {
  const r = run(['check', edition({ 'edition.yaml': YAML, 'a.txt': '主人\u{2EBF0}戒賓' })]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /a\.txt:1:3 warning no font of the edition draws \u{2EBF0} \(U\+2EBF0\): printed as 〓/u);
});

test('build --epub writes the page list of the PDF (print) or of the source (source); a bad --pages value is one line, exit 1', async () => {
  const dir = edition({ 'edition.yaml': YAML.replace('title: 試', 'title: 試\ntemplate: modern'), 'a.txt': '主人戒賓主人州長也賓禮辭許\n' });
  const out = mkdtempSync(path.join(tmpdir(), 'diaoban-cli-out-'));
  for (const pages of ['print', 'source']) {
    const r = run(['build', dir, '--epub', '--pages', pages, '--out', out, '-q']);
    assert.equal(r.status, 0, r.stderr);
    // A source without page anchors falls back to the PDF's pages: the modern folio 一.
    const zip = await JSZip.loadAsync(readFileSync(path.join(out, `${path.basename(dir)}.epub`)));
    const nav = await zip.file('OEBPS/toc.xhtml')!.async('string');
    assert.match(nav, /<nav id="page-list"[\s\S]*<a href="vol01.xhtml#page-1">一<\/a>/);
  }
  const bad = run(['build', dir, '--epub', '--pages', 'leaves', '--out', out]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--pages.*give print or source/);
  rmSync(out, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

test('check --json: the import report of every source on stdout, the verdict in one line of check\'s form on stderr', () => {
  const chapter = ['## 卷一 某紀第一', '', '　　某者，某郡人也。〔一〕少有大志。', '', '　　〔一〕　某書曰：某郡在河南。', ''].join('\n');
  const dir = edition({ 'edition.yaml': 'title: 某志\nauthor: 某\nsources:\n  - a.txt\n  - b.txt\nformat: chtxt\n', 'a.txt': chapter, 'b.txt': chapter.replace(/〔一〕　/u, '') });
  const r = run(['check', '--json', '--no-fonts', dir]);
  assert.equal(r.status, 0, r.stderr);
  const reports = JSON.parse(r.stdout) as Array<{ file: string; verdict: string; title: { text: string; from: string }; figures: { notes: number }; anomalies: Array<{ kind: string }> }>;
  assert.deepEqual(reports.map((x) => [path.basename(x.file), x.verdict, x.figures.notes]), [['a.txt', 'ok', 1], ['b.txt', 'check', 0]]);
  assert.deepEqual(reports[1].anomalies.map((a) => a.kind), ['markup-left']);
  assert.deepEqual(reports[0].title, { text: '某志', from: 'edition.yaml', contributors: [] });
  const verdicts = r.stderr.split('\n').filter((l) => l.includes('(import-verdict)'));
  assert.equal(verdicts.length, 2);
  for (const line of verdicts) assert.match(line, LINE);
  assert.match(verdicts[1], /b\.txt warning verdict check \(markup-left 1\)/u);
  // -q leaves out the texts that are ok, never the flagged ones.
  const quiet = run(['check', '-q', '--no-fonts', dir]);
  assert.deepEqual(quiet.stderr.split('\n').filter((l) => l.includes('(import-verdict)')).map((l) => path.basename(l.split(' ')[0])), ['b.txt']);
});

test('collections and the queue on bad input: --jobs on one edition, a bad --shard, an empty folder, a Redis not running: one line each, exit 1', () => {
  const one = edition({ 'edition.yaml': YAML, 'a.txt': '學而時習之\n' });
  const jobs = run(['build', one, '--jobs', '2']);
  assert.equal(jobs.status, 1, jobs.stderr);
  assert.match(jobs.stderr, /--jobs and --shard build a collection/);
  const shard = run(['build', path.dirname(one), '--shard', '4/3']);
  assert.equal(shard.status, 1, shard.stderr);
  assert.match(shard.stderr, /--shard/);
  const empty = edition({});
  const none = run(['queue', 'add', empty, '--redis', 'redis://127.0.0.1:9']);
  assert.equal(none.status, 1, none.stderr);
  assert.match(none.stderr, /no edition folders here/);
  const coll = edition({ 'e/edition.yaml': YAML, 'e/a.txt': '學而時習之\n' });
  // A worker is left out: it waits for its Redis to come up (queue.slow.ts).
  for (const args of [['queue', 'add', coll], ['queue', 'status']]) {
    // Port 9 (discard): nothing listens there on loopback.
    const r = run([...args, '--redis', 'redis://127.0.0.1:9']);
    assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /cannot reach Redis at redis:\/\/127\.0\.0\.1:9 .*start it \(redis-server\)/, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
  }
});
