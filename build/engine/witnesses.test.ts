import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { loadEdition } from './load.js';
import { createSandbox } from './sandbox.js';
import { initWitnesses, kanripoWitnesses } from './witnesses.js';
import { apparatusReport } from '../collate/report.js';

const CORPORA = path.resolve('../shared/corpora');
const SBCK = readFileSync(path.join(CORPORA, 'kanripo', 'KR3a0010', 'KR3a0010_001.txt'));
const WYG = readFileSync(path.join(CORPORA, 'witnesses', 'KR3a0010-WYG', 'KR3a0010_001.txt'));
const author = { name: 'test', email: 'test@example.org', timestamp: 0, timezoneOffset: 0 };

/** A Kanripo-like repository: master (四部叢刊) checked out, WYG a branch of its own, nothing of it in the working tree. */
async function kanripoRepo(dir: string): Promise<void> {
  await git.init({ fs, dir, defaultBranch: 'master' });
  writeFileSync(path.join(dir, 'KR3a0010_001.txt'), WYG);
  await git.add({ fs, dir, filepath: 'KR3a0010_001.txt' });
  await git.commit({ fs, dir, message: 'WYG', author });
  await git.branch({ fs, dir, ref: 'WYG' });
  writeFileSync(path.join(dir, 'KR3a0010_001.txt'), SBCK);
  await git.add({ fs, dir, filepath: 'KR3a0010_001.txt' });
  await git.commit({ fs, dir, message: 'SBCK', author });
}

const edition = (witness: string): string => `title: 潛夫論\nauthor: 王符\ndate: 2026-01-01\nsources:\n  - KR3a0010_001.txt\nwitnesses:\n  - ${witness}\n`;

test('a witness that is a branch of the edition\'s git repository is read from its objects, and collates as the same files in a folder do', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-witness-'));
  try {
    await kanripoRepo(dir);
    writeFileSync(path.join(dir, 'edition.yaml'), edition('{ siglum: 四庫本, path: ., branch: WYG }'));
    const fromBranch = await loadEdition(dir);
    assert.deepEqual(fromBranch.messages.filter((m) => m.fatal).map((m) => m.reason), []);
    assert.ok(fromBranch.collation, 'collated');
    // The working tree still holds the base's text: nothing was checked out.
    assert.deepEqual(readFileSync(path.join(dir, 'KR3a0010_001.txt')), SBCK);
    mkdirSync(path.join(dir, 'wyg'));
    writeFileSync(path.join(dir, 'wyg', 'KR3a0010_001.txt'), WYG);
    writeFileSync(path.join(dir, 'edition.yaml'), edition('{ siglum: 四庫本, path: wyg }'));
    const fromFolder = await loadEdition(dir);
    const texts = (l: typeof fromBranch) => apparatusReport(l.tree, l.collation!).entries.map((e) => `${e.place} ${e.text}`);
    assert.ok(texts(fromBranch).length > 50);
    assert.deepEqual(texts(fromBranch), texts(fromFolder));
    // An unknown branch is said at its entry, with the branches there are.
    writeFileSync(path.join(dir, 'edition.yaml'), edition('{ siglum: 四庫本, path: ., branch: CK }'));
    const unknown = await loadEdition(dir);
    const message = unknown.messages.find((m) => m.ruleId === 'witness-missing');
    assert.match(String(message?.reason), /no branch CK; it has WYG, master/);
    assert.equal(message?.line, 7);
    assert.equal(unknown.collation, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('kanripoWitnesses lists a repository\'s other branches with their sigla, not the one read', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-witness-'));
  try {
    await kanripoRepo(dir);
    await git.branch({ fs, dir, ref: 'SBCK' });
    const sandbox = await createSandbox(dir);
    // SBCK is the same commit as master, the branch read: not a witness.
    assert.deepEqual(await kanripoWitnesses(sandbox, '.'), [{ siglum: '四庫本', path: '.', branch: 'WYG' }]);
    assert.deepEqual(await kanripoWitnesses(sandbox, '.', 'WYG'), [{ siglum: '四部叢刊本', path: '.', branch: 'SBCK' }]);
    // init's hook: the entries for edition.yaml; a folder that is no repository has none.
    assert.deepEqual(await initWitnesses(dir), [{ siglum: '四庫本', path: '.', branch: 'WYG' }]);
    assert.deepEqual(await initWitnesses(path.join(CORPORA, 'witnesses')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a witness outside the edition folder is not read (the sandbox), and is read with --allow-read', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'diaoban-witness-'));
  try {
    writeFileSync(path.join(dir, 'KR3a0010_001.txt'), SBCK);
    const outside = path.join(CORPORA, 'witnesses', 'KR3a0010-WYG');
    writeFileSync(path.join(dir, 'edition.yaml'), edition(`{ siglum: 四庫本, path: ${outside} }`));
    const refused = await loadEdition(dir);
    assert.equal(refused.collation, undefined);
    assert.ok(refused.messages.some((m) => m.fatal && /四庫本: .*outside the edition folder/.test(m.reason)), refused.messages.map((m) => m.reason).join('\n'));
    const allowed = await loadEdition(dir, { allowRead: [CORPORA] });
    assert.ok(allowed.collation && allowed.collation.entries.length > 50);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
