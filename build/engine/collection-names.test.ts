/**
 * A collection loses nothing (issue 29): two editions of one folder name in
 * different places write two books, named by their paths; names a file
 * system may fold into one are refused, naming both; collection.yaml's
 * `fonts:` are checked as an edition's are (inside the collection folder,
 * regular files, fonts), each problem a message at its place.
 * Reproductions: `shiji/zhonghua` and `hanshu/zhonghua` wrote one
 * zhonghua.pdf, the catalogue listing one, exit 0; `fonts: [../outside.ttf]`
 * read a file outside; a non-font was an internal error (exit 2); a FIFO
 * failed with no place.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildCollection } from './collection-build.js';
import { readCollection } from './collection.js';
import { lazyBrowser } from './lazy-browser.js';
import { HANAMIN_A } from '../fonts/index.js';

let root: string;

async function edition(dir: string, text: string, yaml = ''): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'text.txt'), `${text}\n`);
  await writeFile(path.join(dir, 'edition.yaml'), `title: ${text.slice(0, 4)}\nauthor: 某\nsources:\n  - text.txt\n${yaml}`);
}

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-collection-names-'));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('two editions of one folder name in different places: two books, named by their paths, both in the catalogue', { timeout: 300_000 }, async () => {
  const coll = path.join(root, 'same-name');
  await edition(path.join(coll, 'shiji', 'zhonghua'), '史記中華書局本太史公曰');
  await edition(path.join(coll, 'hanshu', 'zhonghua'), '漢書中華書局本班固曰');
  await writeFile(path.join(coll, 'collection.yaml'), 'editions: ["*/*"]\n');
  const collection = await readCollection(coll);
  assert.deepEqual(collection.editions.map((e) => e.name), ['hanshu/zhonghua', 'shiji/zhonghua']);
  const out = path.join(root, 'out');
  const outcomes = await buildCollection(collection.editions, { out, targets: { pdf: false, epub: true }, cacheDir: path.join(root, 'cache') }, 1, () => undefined, () => lazyBrowser());
  assert.ok(outcomes.every((o) => o.ok), JSON.stringify(outcomes.map((o) => o.lines)));
  const shiji = await readFile(path.join(out, 'shiji', 'zhonghua.epub'));
  const hanshu = await readFile(path.join(out, 'hanshu', 'zhonghua.epub'));
  assert.notDeepEqual(shiji, hanshu, 'two books');
  const catalogue = JSON.parse(await readFile(path.join(out, 'catalogue.json'), 'utf8')) as { editions: Array<{ name: string; epub?: { file: string } }> };
  assert.deepEqual(catalogue.editions.map((e) => [e.name, e.epub?.file]), [['hanshu/zhonghua', 'hanshu/zhonghua.epub'], ['shiji/zhonghua', 'shiji/zhonghua.epub']]);
  const index = await readFile(path.join(out, 'index.html'), 'utf8');
  assert.match(index, /href="\.\/shiji\/zhonghua\.epub"/);
  assert.match(index, /href="\.\/hanshu\/zhonghua\.epub"/);
});

test('names a file system may take as one are refused, naming both places', async () => {
  const coll = path.join(root, 'case');
  await edition(path.join(coll, 'Zhonghua'), '史記');
  await edition(path.join(coll, 'zhonghua'), '漢書');
  const c = await readCollection(coll);
  assert.deepEqual(c.editions, [], 'nothing is built');
  const error = c.file?.messages.find((m) => m.ruleId === 'collection-collision');
  assert.ok(error?.fatal, 'an error');
  assert.match(error!.reason, /the editions Zhonghua and zhonghua would write outputs of one name/);
  // In collection.yaml: at the place of the entry.
  await writeFile(path.join(coll, 'collection.yaml'), 'template: siku\neditions:\n  - Zhonghua\n  - zhonghua\n');
  const d = await readCollection(coll);
  const m = d.file!.messages.find((x) => x.ruleId === 'collection-collision');
  assert.ok(m?.fatal);
  assert.equal(m!.line, 4, 'at the second entry, naming the first');
  // Control: names that differ otherwise are two editions.
  await writeFile(path.join(coll, 'collection.yaml'), 'editions:\n  - Zhonghua\n');
  assert.deepEqual((await readCollection(coll)).editions.map((e) => e.name), ['Zhonghua']);
});

test("collection.yaml fonts: inside the collection folder, regular files, fonts; each problem a message at its place", async () => {
  const coll = path.join(root, 'fonts');
  await edition(path.join(coll, 'e'), '論語');
  await writeFile(path.join(root, 'outside.ttf'), 'not read');
  await writeFile(path.join(coll, 'notafont.ttf'), 'plain text, not a font');
  execFileSync('mkfifo', [path.join(coll, 'fifo.ttf')]);
  await copyFile(HANAMIN_A.file, path.join(coll, 'good.ttf'));
  const yaml = ['editions: [e]', 'fonts:', '  main:', '    - ../outside.ttf', '    - notafont.ttf', '    - fifo.ttf', '    - good.ttf', ''].join('\n');
  await writeFile(path.join(coll, 'collection.yaml'), yaml);
  const started = Date.now();
  const c = await readCollection(coll);
  assert.ok(Date.now() - started < 30_000, 'a FIFO does not block');
  const at = (line: number) => c.file!.messages.filter((m) => m.line === line && m.fatal).map((m) => `${m.ruleId}: ${m.reason}`).join('\n');
  assert.match(at(4), /file-outside: the font "\.\.\/outside\.ttf" is outside the collection folder/);
  assert.match(at(5), /font-file: font "notafont\.ttf" is not a TrueType or OpenType font/);
  assert.match(at(6), /file-kind: the font "fifo\.ttf" is not a regular file/);
  assert.equal(at(7), '', 'the real font has no message');
  assert.deepEqual(c.shared?.fonts?.main, [path.join(await realpath(coll), 'good.ttf')], 'only the checked font is kept, by its real path');
});
