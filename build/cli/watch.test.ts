/**
 * `diaoban watch` in a real browser: the preview (pdf.js beside epub.js)
 * of a copy of 禮書綱目 卷九 in Debian's Chromium through Puppeteer. A save
 * of the source shows the new character on the page that has it, highlighted,
 * at the reader's place; a save that breaks edition.yaml shows the error and
 * keeps the last good pages; fixing it recovers. The server answers on
 * 127.0.0.1 only, for its own host name, with nothing outside its list.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer';
import { readPdfText } from '../render/pdf/readback.js';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../engine/browser.js';
import { BuildCache } from '../engine/cache.js';
import { watchEdition, type WatchSession } from './watch.js';

let root: string;
let dir: string;
let session: WatchSession;
let browser: Browser;
let page: Page;
const SOURCE = 'juan09.txt';
/** A run of the source that occurs once, and its replacement with a character the book does not have. */
const RUN = '主人一相出迎';
const NEW = '主人一龘出迎';

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-watch-'));
  dir = path.join(root, 'lishu-gangmu');
  await cp(path.resolve('manuscript/lishu-gangmu'), dir, { recursive: true });
  session = await watchEdition(dir, { port: 0, out: path.join(root, 'dist'), log: () => undefined, cache: new BuildCache(path.join(root, 'cache')), debounce: 100 });
  await session.nextBuild();
  const profile = path.join(root, 'profile');
  browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`] });
  page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
});

after(async () => {
  await browser?.close();
  await session?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The text of a PDF page as the preview's pdf.js text layer holds it (rendered once scrolled into view). */
async function pageText(n: number): Promise<string> {
  await page.evaluate((k) => document.getElementById(`page-${k}`)?.scrollIntoView({ block: 'start' }), n);
  await page.waitForFunction((k) => (document.querySelector(`#page-${k} .textLayer`)?.textContent ?? '').length > 0, { timeout: 20_000 }, n);
  return page.evaluate((k) => document.querySelector(`#page-${k} .textLayer`)!.textContent ?? '', n);
}

async function pdfPageOf(text: string): Promise<number> {
  const pdf = await readFile(path.join(root, 'dist', 'lishu-gangmu.pdf'));
  const pages = await readPdfText(pdf);
  const index = pages.findIndex((items) => items.map((i) => i.str).join('').includes(text));
  assert.ok(index >= 0, `${text} is in the PDF`);
  return index + 1;
}

test('a save shows the new character on the right page within seconds, highlighted, at the reader’s place', async () => {
  assert.match(session.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  await page.goto(session.url);
  await page.waitForFunction(() => document.body.dataset.generation === '1', { timeout: 30_000 });
  const target = await pdfPageOf('一相出迎');
  assert.ok((await pageText(target)).includes('一相出迎'));
  const place = await page.evaluate(() => document.getElementById('pdf')!.scrollTop);
  assert.ok(place > 0, 'scrolled to a page past the first');

  const t0 = performance.now();
  const source = path.join(dir, SOURCE);
  const text = await readFile(source, 'utf8');
  assert.equal(text.split(RUN).length, 2);
  await writeFile(source, text.replace(RUN, NEW));
  await page.waitForFunction(() => document.body.dataset.generation === '2', { timeout: 60_000 });
  await page.waitForFunction((k) => (document.querySelector(`#page-${k} .textLayer`)?.textContent ?? '').includes('龘'), { timeout: 20_000 }, target);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`save → new character in the preview: ${seconds.toFixed(1)} s`);
  assert.ok(seconds < 30, `shown after ${seconds.toFixed(1)} s`);
  assert.equal(await pdfPageOf('一龘出迎'), target, 'on the page the run was on');
  assert.ok(await page.evaluate((k) => document.getElementById(`page-${k}`)!.classList.contains('changed'), target), 'the changed page is highlighted');
  assert.equal(await page.evaluate(() => document.querySelectorAll('.page.changed').length), 1, 'one page changed');
  const after = await page.evaluate(() => document.getElementById('pdf')!.scrollTop);
  assert.ok(Math.abs(after - place) <= 1, `the reader's place is kept (${place} → ${after})`);
  assert.ok(await page.evaluate(() => document.querySelector('#viewer iframe') !== null), 'the EPUB is shown beside the pages');
  // With its own styles: epub.js hands the book's stylesheet to its frame as a blob: URL, which the page's CSP allows.
  await page.waitForFunction(() => {
    const doc = (document.querySelector('#viewer iframe') as HTMLIFrameElement | null)?.contentDocument;
    return !!doc && getComputedStyle(doc.documentElement).writingMode === 'vertical-rl';
  }, { timeout: 30_000 }).catch(() => undefined);
  assert.equal(await page.evaluate(() => getComputedStyle((document.querySelector('#viewer iframe') as HTMLIFrameElement).contentDocument!.documentElement).writingMode), 'vertical-rl', 'the EPUB pane has the book\'s styles');
});

test('a save that breaks edition.yaml shows the error with its place and keeps the last good pages; fixing it recovers', async () => {
  const yaml = path.join(dir, 'edition.yaml');
  const good = await readFile(yaml, 'utf8');
  const builds = await page.evaluate(() => Number(document.body.dataset.build));
  await writeFile(yaml, `${good}\nsources: [\n`);
  await page.waitForFunction((b) => Number(document.body.dataset.build) > b && !document.getElementById('error')!.hidden, { timeout: 60_000 }, builds);
  const error = await page.evaluate(() => document.getElementById('error')!.textContent ?? '');
  assert.match(error, /edition\.yaml:\d+:\d+ error .*not valid YAML/);
  assert.equal(await page.evaluate(() => document.body.dataset.generation), '2', 'the last good pages stay');
  assert.match(await page.evaluate(() => document.getElementById('status')!.textContent ?? ''), /error/);

  await writeFile(yaml, good);
  await page.waitForFunction(() => document.body.dataset.generation === '3' || (document.getElementById('status')!.className.includes('ok') && document.getElementById('error')!.hidden), { timeout: 60_000 });
  assert.equal(await page.evaluate(() => document.getElementById('error')!.hidden), true);
});

test('the server answers for 127.0.0.1 only and serves nothing outside its list', async () => {
  const port = Number(new URL(session.url).port);
  const get = (pathname: string, host = `127.0.0.1:${port}`): Promise<number> =>
    new Promise((done, fail) => {
      const req = request({ host: '127.0.0.1', port, path: pathname, headers: { host } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end();
    });
  assert.equal(await get('/book.pdf'), 200);
  assert.equal(await get('/book.pdf', `evil.example:${port}`), 403, 'another host name (DNS rebinding) is refused');
  for (const p of ['/../edition.yaml', '/juan09.txt', '/%2e%2e/edition.yaml', '/vendor/../../package.json', '/dist/lishu-gangmu.pdf']) assert.equal(await get(p), 404, p);
});
