/**
 * Collections without building: which editions a folder or a
 * collection.yaml names, its shared settings and their messages at their
 * places, shards, the default --jobs, and the catalogue's escaping.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VFile } from 'vfile';
import { catalogueHtml, type CatalogueEntry } from './catalogue.js';
import { defaultJobs, inShard, isCollection, parseShard, readCollection, BUILD_PEAK_BYTES } from './collection.js';
import { applyShared, loadEdition } from './load.js';
import { parseEditionYaml } from '../parse/index.js';

let root: string;

async function edition(dir: string, yaml = ''): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'text.txt'), '學而時習之【馬曰子者男子之通稱】不亦說乎\n');
  await writeFile(path.join(dir, 'edition.yaml'), `title: 論語\nauthor: 孔子\nsources:\n  - text.txt\n${yaml}`);
}

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-collection-'));
  for (const name of ['b', 'a', 'c']) await edition(path.join(root, 'plain', name));
  await mkdir(path.join(root, 'plain', 'not-an-edition'), { recursive: true });
  await edition(path.join(root, 'named', 'kanripo', 'KR1', 'x'));
  await edition(path.join(root, 'named', 'kanripo', 'KR2', 'y'), 'template: siku\n');
  await edition(path.join(root, 'named', 'extra'));
  await edition(path.join(root, 'outside'));
  await symlink(path.join(root, 'outside'), path.join(root, 'named', 'link'));
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

test('a folder of edition folders is a collection, sorted by name; an edition folder is not', async () => {
  assert.equal(await isCollection(path.join(root, 'plain')), true);
  assert.equal(await isCollection(path.join(root, 'plain', 'a')), false);
  assert.equal(await isCollection(path.join(root, 'plain', 'not-an-edition')), false);
  const c = await readCollection(path.join(root, 'plain'));
  assert.deepEqual(c.editions.map((e) => e.name), ['a', 'b', 'c']);
  assert.equal(c.shared, undefined);
});

test('a folder of works\' folders (Kanripo repositories, no edition.yaml) is a collection of them; a work\'s folder is not, with a subfolder', async () => {
  const works = path.join(root, 'works');
  for (const id of ['KR2a0001', 'KR1a0001']) {
    await mkdir(path.join(works, id), { recursive: true });
    await writeFile(path.join(works, id, `${id}_001.txt`), '#+TITLE: 某書\n學而時習之¶\n');
  }
  await edition(path.join(works, 'edited'));
  await mkdir(path.join(works, 'images'), { recursive: true });
  await writeFile(path.join(works, 'SOURCES.md'), '# sources\n');
  assert.equal(await isCollection(works), true);
  assert.deepEqual((await readCollection(works)).editions.map((e) => e.name), ['KR1a0001', 'KR2a0001', 'edited']);
  // Negative controls: a work's folder with a folder of its own inside (notes, images) is one work, not a collection of it.
  await mkdir(path.join(works, 'KR1a0001', 'notes'), { recursive: true });
  await writeFile(path.join(works, 'KR1a0001', 'notes', 'a.txt'), '注\n');
  assert.equal(await isCollection(path.join(works, 'KR1a0001')), false);
  assert.equal(await isCollection(path.join(works, 'images')), false);
});

test('collection.yaml: editions by path and glob, inside the collection only; shared settings; the edition’s own word wins', async () => {
  const dir = path.join(root, 'named');
  await writeFile(
    path.join(dir, 'collection.yaml'),
    ['editions:', '  - kanripo/*/*', '  - extra', '  - ../outside', '  - link', '  - nothing/*', 'template: modern', 'conversion:', '  keep: [于]', 'fonts:', '  main: [HanaMinA]', 'colour: red', ''].join('\n'),
  );
  const c = await readCollection(dir);
  assert.deepEqual(c.editions.map((e) => e.name), ['extra', 'kanripo/KR1/x', 'kanripo/KR2/y'], 'no climbing out, no symlinked folder');
  // As JSON: the edition's own tables have no prototype (names are names).
  assert.deepEqual(JSON.parse(JSON.stringify(c.shared)), { template: 'modern', conversion: { keep: ['于'], prefer: {}, phrases: {} }, fonts: { main: ['HanaMinA'] } });
  const where = c.file!.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}`);
  assert.ok(where.includes('6:5 collection-empty'), where.join('; '));
  assert.ok(where.includes('12:1 collection-unknown-key'), where.join('; '));
  // Shared settings fill what edition.yaml leaves out, and nothing it sets.
  const plain = await loadEdition(path.join(dir, 'kanripo', 'KR1', 'x'), { shared: c.shared });
  assert.equal(plain.config?.meta.template, 'modern');
  assert.deepEqual(plain.config?.conversion?.keep, ['于']);
  const own = await loadEdition(path.join(dir, 'kanripo', 'KR2', 'y'), { shared: c.shared });
  assert.equal(own.config?.meta.template, 'siku', 'the edition sets its template');
  const without = await loadEdition(path.join(dir, 'kanripo', 'KR1', 'x'));
  assert.equal(without.config?.meta.template, 'siku', 'control: without the collection, the default');
});

test('collection.yaml errors keep their places in collection.yaml', async () => {
  const dir = path.join(root, 'bad');
  await edition(path.join(dir, 'e'));
  await writeFile(path.join(dir, 'collection.yaml'), 'editions: [e]\ntemplate: nosuch\n');
  const c = await readCollection(dir);
  const error = c.file!.messages.find((m) => m.fatal === true);
  assert.ok(error, 'an error');
  assert.match(error!.reason, /template is not one of the choices: "nosuch"/);
  assert.equal(`${error!.line}:${error!.column}`, '2:11');
  await writeFile(path.join(dir, 'collection.yaml'), 'editions: e\n');
  const d = await readCollection(dir);
  assert.equal(d.file!.messages.filter((m) => m.fatal === true && m.ruleId === 'collection-yaml').length, 1);
});

test('applyShared: keys edition.yaml sets are left alone', () => {
  const yaml = 'title: t\nauthor: a\nsources: [x.txt]\nfonts:\n  main: [HanaMinB]\n';
  const { config } = parseEditionYaml(new VFile({ path: 'edition.yaml', value: yaml }), 'x');
  applyShared(config!, yaml, { fonts: { main: ['HanaMinA'] }, template: 'modern' });
  assert.deepEqual(config!.fonts.main, ['HanaMinB']);
  assert.equal(config!.meta.template, 'modern');
});

test('shards: each edition in exactly one; an added edition moves no other', () => {
  const names = Array.from({ length: 200 }, (_, i) => `corpus/KR${i}`);
  const of = (list: string[], n: number) => list.map((name) => [1, 2, 3, 4, 5].slice(0, n).filter((k) => inShard(name, { k, n })));
  for (const ks of of(names, 4)) assert.equal(ks.length, 1);
  const sizes = [1, 2, 3, 4].map((k) => names.filter((name) => inShard(name, { k, n: 4 })).length);
  assert.ok(sizes.every((s) => s > 25), `balanced enough: ${sizes.join(', ')}`);
  const before = of(names, 4).map((ks) => ks[0]);
  const after = of(['corpus/new', ...names], 4).slice(1).map((ks) => ks[0]);
  assert.deepEqual(after, before);
  assert.deepEqual(parseShard('2/4'), { k: 2, n: 4 });
  for (const bad of ['0/4', '5/4', '2', 'a/b', '1/0']) assert.equal(parseShard(bad), undefined, bad);
});

test('default jobs: the cores, no more than memory holds, at least one', () => {
  assert.equal(defaultJobs(2, 24 * 1024 ** 3), 2);
  assert.equal(defaultJobs(8, 3 * BUILD_PEAK_BYTES + 1), 3);
  assert.equal(defaultJobs(4, 100 * 1024 ** 2), 1);
});

test('the catalogue escapes every value an edition gives', () => {
  const hostile = '<script>alert(1)</script>"&\'';
  const entry: CatalogueEntry = { name: `x/${hostile}`, id: 'x', title: hostile, author: hostile, dynasty: hostile, status: 'built', pages: 3, pdf: { file: `${hostile}.pdf`, bytes: 2048 }, errors: 0, warnings: 1, diagnostics: 'catalogue/x.txt' };
  const html = catalogueHtml([entry]);
  assert.doesNotMatch(html, /<script>/);
  assert.match(html, /<td>&#60;script&#62;alert\(1\)&#60;\/script&#62;&#34;&#38;&#39;<\/td>/, 'the title as text');
  assert.match(html, /href="\.\/catalogue\/x.txt"/);
  assert.match(html, /2 KiB/);
  // Control: the value unescaped would be there as markup.
  assert.match(`<td>${hostile}</td>`, /<script>/);
});

test('catalogue links are relative paths, never a scheme: an edition folder named javascript:… is a file beside index.html', () => {
  // Reproduction (issue 29): a folder named `javascript:alert(1)` became <a href="javascript:alert(1).pdf"> (only the CSP stopped it).
  const name = 'javascript:alert(document.domain)';
  const entry: CatalogueEntry = { name, id: name, title: 't', author: 'a', status: 'built', pages: 1, pdf: { file: `${name}.pdf`, bytes: 1 }, epub: { file: `sub/${name}.epub`, bytes: 1 }, errors: 0, warnings: 0, diagnostics: `catalogue/${name}.txt` };
  const hrefs = [...catalogueHtml([entry]).matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&#58;/g, ':'));
  assert.equal(hrefs.length, 3);
  for (const href of hrefs) {
    // As a browser reads it: resolved against the catalogue's own address, it stays a file of the output folder.
    const url = new URL(href, 'https://example.org/dist/index.html');
    assert.equal(url.protocol, 'https:', href);
    assert.ok(url.pathname.startsWith('/dist/'), href);
  }
  // Control: the old link (encodeURI of the file) is a javascript: URL.
  assert.equal(new URL(encodeURI(`${name}.pdf`), 'https://example.org/dist/index.html').protocol, 'javascript:');
});
