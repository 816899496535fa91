/**
 * The EPUB as a reader sees it: epub.js (0.3, the engine of many Readium-era
 * web readers) renders it in Chromium; we read geometry from the rendered DOM
 * and keep screenshots of the first pages.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer';
import { launchBrowser, type OfflineBrowser } from '../../cli/browser.js';
import { loadSystemFonts } from '../../fonts/load.js';
import { renderEpub } from './index.js';
import { loadSample } from '../../layout/sample-trees.js';

const require = createRequire(import.meta.url);
/** Where the screenshots stay after the run, for a person to look at. */
export const SCREENSHOT_DIR = path.join(tmpdir(), 'diaoban-epub-reader');
const W = 600;
const H = 800;

let browser: OfflineBrowser;
let page: Page;
let work: string;

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'diaoban-reader-'));
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // 儀禮注疏: real text, 疏 as pop-ups.
  const { tree, config } = await loadSample('yili-zhushu');
  const epub = await renderEpub(tree, { fonts: await loadSystemFonts(), popupLayers: config.popupLayers });
  const jszip = pathToFileURL(require.resolve('jszip/dist/jszip.min.js')).href;
  const epubjs = pathToFileURL(require.resolve('epubjs/dist/epub.min.js')).href;
  await writeFile(
    path.join(work, 'reader.html'),
    `<!DOCTYPE html><html><head><meta charset="utf-8"><script src="${jszip}"></script><script src="${epubjs}"></script>` +
      `<style>html,body{margin:0;background:#fff}#viewer{width:${W}px;height:${H}px}</style></head><body><div id="viewer"></div></body></html>`,
  );
  browser = await launchBrowser();
  page = await browser.newPage();
  await page.setViewport({ width: W, height: H });
  await page.goto(pathToFileURL(path.join(work, 'reader.html')).href);
  await page.evaluate(
    async (b64: string, w: number, h: number) => {
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const g = window as unknown as Record<string, any>;
      g.book = g.ePub(bytes.buffer);
      g.rendition = g.book.renderTo('viewer', { width: w, height: h, flow: 'paginated', spread: 'none' });
      await g.rendition.display();
    },
    Buffer.from(epub).toString('base64'),
    W,
    H,
  );
});

after(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface Where {
  href: string;
  page: number;
}

async function where(): Promise<Where> {
  return page.evaluate(() => {
    const l = (window as unknown as Record<string, any>).rendition.currentLocation();
    return { href: l.start.href as string, page: l.start.displayed.page as number };
  });
}

async function settle(): Promise<void> {
  // Fonts and layout in the epub.js iframe.
  await page.evaluate(async () => {
    const frame = document.querySelector('iframe');
    await frame?.contentDocument?.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/** Geometry of the displayed volume page, in top-page coordinates. */
async function measure(): Promise<Measured> {
  // A string, not a function: tsx's name helpers (__name) do not exist in the page.
  return (await page.evaluate(MEASURE_JS)) as Measured;
}

interface Measured {
  writingMode: string;
  chars: Array<{ x: number; y: number; w: number; h: number }>;
  mainSize: number;
  noteSize: number;
  noteCharWidth: number;
  fontsLoaded: string[];
  firstX: number;
}

const MEASURE_JS = `(() => {
    const frame = document.querySelector('iframe');
    const doc = frame.contentDocument;
    const fr = frame.getBoundingClientRect();
    const p = doc.querySelector('p.text');
    const textNode = [...p.childNodes].find((n) => n.nodeType === 3 && (n.textContent || '').length >= 3);
    function rectOf(node, i) {
      const r = doc.createRange();
      r.setStart(node, i);
      r.setEnd(node, i + 1);
      const b = r.getBoundingClientRect();
      return { x: fr.left + b.left, y: fr.top + b.top, w: b.width, h: b.height };
    }
    const chars = [0, 1, 2].map((i) => rectOf(textNode, i));
    const note = doc.querySelector('small.note');
    const noteText = [...note.childNodes].find((n) => n.nodeType === 3);
    return {
      writingMode: getComputedStyle(doc.documentElement).writingMode,
      chars,
      mainSize: parseFloat(getComputedStyle(p).fontSize),
      noteSize: parseFloat(getComputedStyle(note).fontSize),
      noteCharWidth: rectOf(noteText, 0).w,
      fontsLoaded: [...doc.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')),
      firstX: chars[0].x,
    };
  })()`;

/**
 * Reading order across the page break: the last character of the page that is
 * on screen and the first one after it (kept in the page as window.__nextChar).
 */
const FLOW_JS = `(() => {
  const frame = document.querySelector('iframe');
  const doc = frame.contentDocument;
  const fr = frame.getBoundingClientRect();
  const W = innerWidth, H = innerHeight;
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  let last = null, next = null;
  for (let n = walker.nextNode(); n && !next; n = walker.nextNode()) {
    for (let i = 0; i < n.data.length; i++) {
      if (/\\s/.test(n.data[i])) continue;
      const r = doc.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      const b = r.getBoundingClientRect();
      const x = fr.left + b.left, y = fr.top + b.top;
      const visible = x >= 0 && x + b.width <= W && y >= 0 && y + b.height <= H;
      if (visible) last = { x, y, ch: n.data[i] };
      else if (last) { next = { x, y, ch: n.data[i] }; window.__nextChar = r; break; }
    }
  }
  return { last, next };
})()`;

const NEXT_CHAR_JS = `(() => {
  const frame = document.querySelector('iframe');
  const fr = frame.getBoundingClientRect();
  const b = window.__nextChar.getBoundingClientRect();
  return { x: fr.left + b.left, y: fr.top + b.top, ch: window.__nextChar.toString() };
})()`;

interface At {
  x: number;
  y: number;
  ch: string;
}

test('epub.js in Chromium: front matter first, then the volume; text vertical, right to left, notes small, pages turn to the left', async (t) => {
  const shots: string[] = [];
  const shoot = async (name: string): Promise<void> => {
    await settle();
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    await page.screenshot({ path: file });
    shots.push(file);
  };
  const order: string[] = [];
  for (;;) {
    const at = await where();
    order.push(at.href);
    await shoot(`${String(order.length).padStart(2, '0')}-${at.href.replace(/\.xhtml$/, '')}`);
    if (at.href.startsWith('vol')) break;
    await page.evaluate(() => (window as unknown as Record<string, any>).rendition.next());
    assert.ok(order.length < 8, 'reaches the first volume');
  }
  assert.deepEqual(order, ['cover.xhtml', 'titlepage.xhtml', 'legend.xhtml', 'toc.xhtml', 'vol01.xhtml']);

  const m1 = await measure();
  assert.equal(m1.writingMode, 'vertical-rl');
  const [c0, c1, c2] = m1.chars;
  // Vertical: consecutive characters share a column and go down.
  assert.ok(Math.abs(c0.x - c1.x) < 1 && Math.abs(c1.x - c2.x) < 1, `one column: ${JSON.stringify(m1.chars)}`);
  assert.ok(c1.y >= c0.y + c0.h * 0.8 && c2.y >= c1.y + c1.h * 0.8, 'top to bottom');
  // Right to left: the text starts in the right half of the page.
  assert.ok(c0.x > W / 2 && c0.x < W, `first column on the right (x=${c0.x})`);
  // Notes are small print.
  assert.ok(m1.noteSize <= m1.mainSize * 0.7, `note ${m1.noteSize}px vs main ${m1.mainSize}px`);
  assert.ok(m1.noteCharWidth < c0.w * 0.75, `note column narrower (${m1.noteCharWidth} vs ${c0.w})`);
  // The embedded subsets are what the reader draws with.
  assert.ok(m1.fontsLoaded.includes('Noto Serif CJK TC'), `embedded font loaded: ${m1.fontsLoaded.join(', ')}`);

  // Pages turn right to left: reading runs to the left edge of page 1 and goes on at the right edge of page 2.
  assert.equal(await page.evaluate(() => (window as unknown as Record<string, any>).book.package.metadata.direction), 'rtl');
  const flow = (await page.evaluate(FLOW_JS)) as { last: At | null; next: At | null };
  assert.ok(flow.last && flow.next, 'page 1 is full and the text goes on');
  assert.ok(flow.last.x < W / 2, `page 1 ends at the left (x=${flow.last.x})`);
  await page.evaluate(() => (window as unknown as Record<string, any>).rendition.next());
  const at2 = await where();
  await shoot(`06-${at2.href.replace(/\.xhtml$/, '')}-p${at2.page}`);
  assert.deepEqual(at2, { href: 'vol01.xhtml', page: 2 });
  const next = (await page.evaluate(NEXT_CHAR_JS)) as At;
  assert.equal(next.ch, flow.next.ch);
  assert.ok(next.x > W / 2 && next.x < W && next.y >= 0 && next.y < H / 2, `page 2 starts at the top right with ${next.ch} (${next.x}, ${next.y})`);
  t.diagnostic(`screenshots: ${shots.join(' ')}`);
});
