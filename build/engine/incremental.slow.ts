/**
 * Rebuilding after corrections, for real (Chromium, pdf-lib, the EPUB
 * renderer) on a two-volume edition: a rebuild redoes only the volume that
 * changed and gives the very bytes of a clean build; nothing changed means
 * nothing done; the changed-pages report names the page a one-character fix
 * is on; a damaged cache entry is rebuilt, never used.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BuildCache } from './cache.js';
import { buildEdition, type BuildResult } from './build.js';
import { diffReport, writeDiffHtml } from '../cli/diff.js';
import { fixMiddle, twoVolumeEdition, uniqueRun, VOLUME_ONE, VOLUME_TWO } from './edition.test-util.js';
import { lazyBrowser } from './lazy-browser.js';

let root: string;
let dir: string;
const browser = lazyBrowser();

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-incremental-'));
  dir = await twoVolumeEdition(root);
});
after(async () => {
  await browser.close();
  if (root) await rm(root, { recursive: true, force: true });
});

interface Built {
  result: BuildResult;
  pdf: Buffer;
  epub: Buffer;
}

/** One cache instance a folder, as a watch session keeps it (with its memory). */
const caches = new Map<string, BuildCache>();

async function build(cache: string, out = 'dist'): Promise<Built> {
  const target = path.join(root, out);
  const store = caches.get(cache) ?? new BuildCache(path.join(root, cache));
  caches.set(cache, store);
  const result = await buildEdition(dir, { out: target, targets: { pdf: true, epub: true }, progress: false, cache: store, browser: browser.get });
  assert.ok(result.ok, result.lines.join('\n'));
  return { result, pdf: await readFile(path.join(target, 'heji.pdf')), epub: await readFile(path.join(target, 'heji.epub')) };
}

const reuse = (r: BuildResult): string => r.lines.find((l) => /\.pdf: /.test(l)) ?? '';
/** Browser runs printed by a build, from its line "N of M runs from the cache". */
const printedRuns = (r: BuildResult): number => {
  const m = /(\d+) of (\d+) runs from the cache/.exec(reuse(r));
  return m ? Number(m[2]) - Number(m[1]) : Infinity;
};
const textPages = (r: BuildResult): number => (r.changes ?? []).reduce((n, c) => n + c.pages.length, 0);

test('a rebuild redoes only the changed volume and gives the bytes of a clean build; nothing changed is nothing done', async () => {
  const first = await build('session');
  assert.match(reuse(first.result), /heji\.pdf: \d+ pages$/, 'the first build prints everything');

  // Nothing changed: the outputs are left as they are.
  const before = (await stat(path.join(root, 'dist', 'heji.pdf'))).mtimeMs;
  const none = await build('session');
  assert.equal(none.result.upToDate, true);
  assert.deepEqual(none.result.lines.slice(-1), ['no page changed']);
  assert.equal((await stat(path.join(root, 'dist', 'heji.pdf'))).mtimeMs, before);

  // One character changed to one the book has, in volume two: one volume printed, one page of text changed.
  const run = await uniqueRun(dir, VOLUME_TWO);
  await writeFile(path.join(dir, 'corrections.yaml'), fixMiddle(run, '之'));
  const one = await build('session');
  // Printed again: the run with the fixed page, volume two's new 校勘記, (the section starting a leaf) the last run of its text when it
  // gains a blank verso, and the 牌記, which counts the corrections.
  assert.ok(printedRuns(one.result) >= 3 && printedRuns(one.result) <= 4, reuse(one.result));
  assert.equal(textPages(one.result), 1, one.result.lines.join('\n'));
  const change = one.result.changes![0];
  assert.equal(change.volume, 1);
  assert.equal(change.collation.length > 0, true, 'the volume’s 校勘記 is new');
  assert.match(one.result.lines.join('\n'), /卷九: leaf \d+[ab] changed \(1 page\), reflow ends at \d+[ab]; 校勘記 leaf \d+[ab] \(1 page, 1 page more\)/);
  const clean = await build('clean-1', 'dist-clean-1');
  assert.ok(one.pdf.equals(clean.pdf), 'PDF after the rebuild = PDF of a clean build');
  assert.ok(one.epub.equals(clean.epub), 'EPUB after the rebuild = EPUB of a clean build');

  // diff --json: the changed page as a PDF page number and a leaf.
  const { report } = diffReport(one.result.manifest!);
  assert.equal(report.volumes[0].count, 1);
  assert.equal(report.volumes[0].pages[0].pdfPage, change.pages[0].pdfPage);
  assert.equal(report.corrections.length, 1);
  assert.equal(report.corrections[0].pdfPage, change.pages[0].pdfPage, 'the correction is on the changed page');
  // diff --html: before and after images of the changed pages only, and the correction that changed them.
  const html = await readFile(await writeDiffHtml(one.result.manifest!, new BuildCache(path.join(root, 'session')), path.join(root, 'heji.diff.html')), 'utf8');
  const changedCount = change.pages.length + change.collation.length;
  // The 校勘記's page is new: it has no before.
  assert.equal((html.match(/<img alt="before-/g) ?? []).length, change.pages.length);
  assert.equal((html.match(/<img alt="after-/g) ?? []).length, changedCount);
  assert.ok(html.includes(report.corrections[0].locator), 'the correction is named with its locator');
  assert.doesNotMatch(html, /<script/);

  // A second fix in the same volume: the report names its page only (not the first fix's again).
  const second = await uniqueRun(dir, VOLUME_TWO, 0.8);
  await writeFile(path.join(dir, 'corrections.yaml'), fixMiddle(run, '之') + fixMiddle(second, '也'));
  const two = await build('session');
  assert.equal(textPages(two.result), 1);
  assert.equal(printedRuns(two.result), 3, `the fixed page's run, the 校勘記's and the 牌記's: ${reuse(two.result)}`);
  assert.notDeepEqual(two.result.changes![0].pages, change.pages, 'the second fix is on another page');

  // A transposition (乙) near the first fix: its run keeps its characters, fonts and pagination, so it is printed on
  // the pages Paged.js made of it in the first fix's rebuild (kept then), not paginated again — and the bytes are a
  // clean build's all the same.
  const near = Array.from(await uniqueRun(dir, VOLUME_TWO, 0.52));
  const swapped = [near[0], near[2], near[1], ...near.slice(3)].join('');
  const transposition = `- find: ${near.join('')}\n  replace: ${swapped}\n`;
  await writeFile(path.join(dir, 'corrections.yaml'), fixMiddle(run, '之') + fixMiddle(second, '也') + transposition);
  const three = await build('session');
  // (The 牌記 too: its count of corrections changed, its pages did not.)
  assert.match(reuse(three.result), /, 2 printed on the pages Paged\.js made before$/);
  const clean1b = await build('clean-1b', 'dist-clean-1b');
  assert.ok(three.pdf.equals(clean1b.pdf), 'PDF printed on kept pages = PDF of a clean build');

  // A character new to the book, in volume one: only volume one is printed again (volume two's fonts did not change).
  const other = await uniqueRun(dir, VOLUME_ONE, 0.3);
  await writeFile(path.join(dir, 'corrections.yaml'), fixMiddle(run, '之') + fixMiddle(second, '也') + transposition + fixMiddle(other, '龘'));
  const fresh = await build('session');
  // Volume one's runs are printed again (its font subsets changed: every run of it) with its new 校勘記; volume two's are reused.
  const volumeOneRuns = fresh.result.manifest!.pages.filter((p) => p.volume === 0).length;
  assert.ok(printedRuns(fresh.result) >= 2 && printedRuns(fresh.result) <= Math.ceil(volumeOneRuns / 2), reuse(fresh.result));
  assert.match(reuse(fresh.result), /[1-9]\d* of \d+ runs from the cache/);
  assert.deepEqual(fresh.result.changes!.map((c) => c.volume), [0]);
  const clean2 = await build('clean-2', 'dist-clean-2');
  assert.ok(fresh.pdf.equals(clean2.pdf), 'PDF with a new character = PDF of a clean build');
  assert.ok(fresh.epub.equals(clean2.epub));

  // An output changed in place (its size kept, a byte changed): not up to date, written again whole.
  const last = await build('session');
  assert.equal(last.result.upToDate, true);
  const damaged = Buffer.from(last.pdf);
  damaged[damaged.length - 20] ^= 1;
  await writeFile(path.join(root, 'dist', 'heji.pdf'), damaged);
  const mended = await build('session');
  assert.notEqual(mended.result.upToDate, true);
  assert.ok(mended.pdf.equals(last.pdf), 'the PDF written again as it was');
});

test('a truncated or damaged cache entry is found out and rebuilt, never used', async () => {
  await build('damage', 'dist-damage');
  const cacheDir = path.join(root, 'damage');
  const entries = async (kind: string): Promise<string[]> => {
    const out: string[] = [];
    for (const shard of await readdir(path.join(cacheDir, kind))) for (const name of await readdir(path.join(cacheDir, kind, shard))) out.push(path.join(cacheDir, kind, shard, name));
    return out;
  };
  for (const file of await entries('pdf-run')) {
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
  }
  for (const file of await entries('layout')) {
    const bytes = await readFile(file);
    bytes[bytes.length - 10] ^= 0xff;
    await writeFile(file, bytes);
  }
  // Another edit, so that the build runs.
  const run = await uniqueRun(dir, VOLUME_TWO, 0.8);
  const corrections = await readFile(path.join(dir, 'corrections.yaml'), 'utf8');
  await writeFile(path.join(dir, 'corrections.yaml'), corrections + fixMiddle(run, '也'));
  const cache = new BuildCache(cacheDir);
  const target = path.join(root, 'dist-damage');
  const result = await buildEdition(dir, { out: target, targets: { pdf: true, epub: true }, progress: false, cache, browser: browser.get });
  assert.ok(result.ok);
  // Volume one's printed run and its layout are found damaged (volume two changed: new keys).
  assert.ok(cache.stats.corrupt >= 2, `damaged entries found: ${cache.stats.corrupt}`);
  const clean = await build('clean-3', 'dist-clean-3');
  assert.ok((await readFile(path.join(target, 'heji.pdf'))).equals(clean.pdf));
  assert.ok((await readFile(path.join(target, 'heji.epub'))).equals(clean.epub));
});

test('a new process rebuilding after a correction renders, templates and compresses the changed volume only (the EPUB parts kept on disk), and gives the bytes of a clean build', async () => {
  const home = await mkdtemp(path.join(tmpdir(), 'diaoban-cold-'));
  try {
    const edition = await twoVolumeEdition(home);
    /** `diaoban build` as a user runs it: a process of its own, the build cache in `cache`. */
    const cli = (cache: string, out: string): { epub: Buffer; pdf: Buffer } => {
      const r = spawnSync(process.execPath, [path.resolve('bin/diaoban.js'), 'build', '--quiet', '--out', path.join(home, out), edition], {
        encoding: 'utf8',
        env: { ...process.env, DIAOBAN_CACHE: path.join(home, cache) },
      });
      assert.equal(r.status, 0, r.stderr);
      return { epub: readFileSync(path.join(home, out, 'heji.epub')), pdf: readFileSync(path.join(home, out, 'heji.pdf')) };
    };
    /** The kind's entries in the cache, each with its inode: an entry written again is a new file (written to a temp, renamed into place). */
    const entries = async (kind: string): Promise<Map<string, number>> => {
      const out = new Map<string, number>();
      for (const shard of await readdir(path.join(home, 'cache', kind)).catch(() => [])) {
        for (const name of await readdir(path.join(home, 'cache', kind, shard))) out.set(name, (await stat(path.join(home, 'cache', kind, shard, name))).ino);
      }
      return out;
    };
    const rewritten = (before: Map<string, number>, after: Map<string, number>): number => [...before].filter(([name, ino]) => after.get(name) !== ino).length;
    cli('cache', 'dist');
    // Nothing changed: answered before the engine (and a browser) is needed — a Chromium that is not there is not asked for.
    const again = spawnSync(process.execPath, [path.resolve('bin/diaoban.js'), 'build', '--chromium', path.join(home, 'no-chromium'), '--out', path.join(home, 'dist'), edition], {
      encoding: 'utf8',
      env: { ...process.env, DIAOBAN_CACHE: path.join(home, 'cache') },
    });
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /no page changed/);
    const volumes = await entries('epub-volume');
    const chapters = await entries('epub-chapter');
    const parsed = await entries('parse');
    const converted = await entries('transform');
    assert.equal(converted.size, 2, 'each volume as converted is kept on disk');
    assert.equal(volumes.size, 2, 'each volume document is kept on disk');
    await writeFile(path.join(edition, 'corrections.yaml'), fixMiddle(await uniqueRun(edition, VOLUME_TWO), '之'));
    const rebuilt = cli('cache', 'dist');
    const volumesAfter = await entries('epub-volume');
    const chaptersAfter = await entries('epub-chapter');
    assert.equal(volumesAfter.size, 3, 'one volume rendered again: the corrected one');
    assert.equal(rewritten(volumes, volumesAfter), 0, 'the other volume document was read, not rendered and written again');
    assert.equal(rewritten(chapters, chaptersAfter), 0, 'no chapter document made again but the new ones');
    const parsedAfter = await entries('parse');
    const convertedAfter = await entries('transform');
    assert.deepEqual([...parsedAfter], [...parsed], 'no source parsed again (a correction changes no source)');
    assert.equal(convertedAfter.size, 3, 'one volume converted again: the corrected one');
    assert.equal(rewritten(converted, convertedAfter), 0, 'the other volume was read as converted, not converted again');
    // The corrected volume's document and its new 校勘記's, the legend (it shows the book's first correction) and its
    // notes document (that correction's pop-up sample).
    assert.ok(chaptersAfter.size - chapters.size <= 4, `${chaptersAfter.size - chapters.size} chapter documents made again`);
    const clean = cli('clean', 'dist-clean');
    assert.ok(rebuilt.epub.equals(clean.epub), 'EPUB rebuilt in a new process = EPUB of a clean build');
    assert.ok(rebuilt.pdf.equals(clean.pdf), 'PDF rebuilt in a new process = PDF of a clean build');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
