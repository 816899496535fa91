import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CORPORA = path.resolve('../shared/corpora');
const run = (...args: string[]) => spawnSync(process.execPath, ['bin/diaoban.js', ...args], { encoding: 'utf8' });

test('diaoban collate prints the apparatus (text, or JSON records), and says what to do without a witness', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-collate-cli-'));
  try {
    writeFileSync(path.join(dir, 'KR3a0010_001.txt'), readFileSync(path.join(CORPORA, 'kanripo/KR3a0010/KR3a0010_001.txt')));
    writeFileSync(path.join(dir, 'edition.yaml'), 'title: 潛夫論\nauthor: 王符\nsources: [KR3a0010_001.txt]\n');
    const none = run('collate', dir);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no witness to collate with; name them in edition\.yaml/);
    writeFileSync(path.join(dir, 'edition.yaml'), `title: 潛夫論\nauthor: 王符\nsources: [KR3a0010_001.txt]\nwitnesses:\n  - { siglum: 四庫本, path: ${path.join(CORPORA, 'witnesses/KR3a0010-WYG')} }\n`);
    const json = run('collate', dir, '--json', '--allow-read', CORPORA);
    assert.equal(json.status, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { entries: Array<{ volume: number; place: string; base: string; readings: Array<{ witness: string; text: string }>; kind: string }> };
    const reading = report.entries.find((e) => e.base === '讀');
    assert.deepEqual(reading && [reading.kind, reading.readings[0].witness, reading.readings[0].text, reading.place.replace(/^.*\//, '')], ['reading', '四庫本', '擴', 'KR3a0010_001.txt:26:17']);
    const text = run('collate', dir, '--allow-read', CORPORA);
    assert.match(text.stdout, /\t「讀」，四庫本作「擴」\n/);
    assert.match(text.stdout, /四庫本: \d+ of \d+ characters aligned/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
