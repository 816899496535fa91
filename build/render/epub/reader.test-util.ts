/**
 * The reading engines' test harness, shared by reader.test.ts and
 * reader-themes.slow.ts: epub.js 0.3 and foliate-js (with its
 * FootnoteHandler, as Foliate uses it) in Chromium, each behind one small
 * interface (window.R) in a page of its own that fills the viewport, so
 * that a test sets the window size with page.setViewport; in-page helpers
 * (window.H) for geometry; settling, clicking, screenshots.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';
import type { Page } from 'puppeteer';

const require = createRequire(import.meta.url);

export type Engine = 'epubjs' | 'foliate';
export const ENGINES: readonly Engine[] = ['epubjs', 'foliate'];

/** Writes the two engines' pages into `work` (epubjs.html, foliate.html). */
export async function writeReaderPages(work: string): Promise<void> {
  const jszip = pathToFileURL(require.resolve('jszip/dist/jszip.min.js')).href;
  const epubjs = pathToFileURL(require.resolve('epubjs/dist/epub.min.js')).href;
  const foliate = pathToFileURL(require.resolve('foliate-js/view.js')).href;
  const footnotes = pathToFileURL(require.resolve('foliate-js/footnotes.js')).href;
  const style = `<style>html,body{margin:0;background:#fff}#viewer,foliate-view{display:block;width:100vw;height:100vh}#popup{position:fixed;left:10%;top:25%;width:80%;height:45%;background:#fff;border:2px solid #444;box-shadow:0 4px 16px #0006}#popup foliate-view{width:100%;height:100%}</style>`;
  await mkdir(work, { recursive: true });
  await writeFile(
    path.join(work, 'epubjs.html'),
    `<!DOCTYPE html><html><head><meta charset="utf-8"><script src="${jszip}"></script><script src="${epubjs}"></script>${style}</head><body><div id="viewer"></div><script>${EPUBJS_ADAPTER}</script></body></html>`,
  );
  await writeFile(
    path.join(work, 'foliate.html'),
    `<!DOCTYPE html><html><head><meta charset="utf-8">${style}</head><body><script type="module">import '${foliate}'; import { FootnoteHandler } from '${footnotes}'; window.FootnoteHandler = FootnoteHandler; ${FOLIATE_ADAPTER}</script></body></html>`,
  );
}

/**
 * Each engine behind one small interface, window.R, run in the page:
 * open(b64), doc() (the displayed content document), next(), goTo(href),
 * pageHrefs(), where() (the href shown), clickAt(el) for links.
 */
export const EPUBJS_ADAPTER = `
window.R = {
  async open(b64) {
    const bin = atob(b64); const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    this.book = ePub(bytes.buffer);
    this.rendition = this.book.renderTo('viewer', { width: innerWidth, height: innerHeight, flow: 'paginated', spread: 'none' });
    await this.rendition.display();
    await this.book.loaded.navigation;
  },
  doc() { const c = this.rendition.getContents()[0]; return c && c.document; },
  async next() { await this.rendition.next(); },
  async goTo(href) { await this.rendition.display(href); },
  pageHrefs() { return this.book.pageList.pageList.map((p) => p.href); },
  where() { return this.rendition.currentLocation().start.href; },
  direction() { return this.book.package.metadata.direction; },
  popupDoc() { return null; },
};
window.ready = true;
`;

export const FOLIATE_ADAPTER = `
window.R = {
  async open(b64) {
    const bin = atob(b64); const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const view = document.createElement('foliate-view');
    document.body.append(view);
    this.view = view;
    const notes = new FootnoteHandler();
    // A reader's pop-up (as Foliate makes it): the handler opens the book in a view of its own, which must be
    // in the page to load; it then shows only the note. A link in the pop-up closes it and goes there in the book.
    notes.addEventListener('before-render', (e) => {
      const popup = document.createElement('div');
      popup.id = 'popup';
      popup.append(e.detail.view);
      document.body.append(popup);
      e.detail.view.addEventListener('link', (l) => { l.preventDefault(); popup.remove(); this.popup = null; this.view.goTo(l.detail.href); });
    });
    notes.addEventListener('render', (e) => { this.popup = e.detail.view; });
    view.addEventListener('link', (e) => { notes.handle(view.book, e)?.catch((x) => console.error(String(x))); });
    await view.open(new File([bytes], 'book.epub', { type: 'application/epub+zip' }));
    await view.goTo(0);
  },
  doc() { const c = this.view.renderer.getContents()[0]; return c && c.doc; },
  async next() { await this.view.next(); },
  // A bare file name (vol01.xhtml#x), as the book's own links have it, is the package's: foliate takes hrefs from the zip's root.
  async goTo(href) { await this.view.goTo(href.includes('/') ? href : this.view.book.sections[0].id.replace(/[^/]*$/, '') + href); },
  pageHrefs() { return this.view.book.pageList.map((p) => p.href); },
  where() { const i = this.view.renderer.getContents()[0].index; return this.view.book.sections[i].id.replace(/^.*\\//, ''); },
  direction() { return this.view.book.dir; },
  popupDoc() { const c = this.popup && this.popup.renderer && this.popup.renderer.getContents()[0]; return c ? c.doc : null; },
};
window.ready = true;
`;

/** In-page helpers (strings: tsx's name helpers do not exist in the page). */
export const HELPERS = `
window.H = {
  frameRect(doc) { return doc.defaultView.frameElement.getBoundingClientRect(); },
  rect(el) {
    const fr = this.frameRect(el.ownerDocument);
    const r = el.getBoundingClientRect();
    return { x: fr.left + r.left, y: fr.top + r.top, w: r.width, h: r.height };
  },
  charRect(node, i) {
    const doc = node.ownerDocument;
    const range = doc.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
    const fr = this.frameRect(doc); const b = range.getBoundingClientRect();
    return { x: fr.left + b.left, y: fr.top + b.top, w: b.width, h: b.height };
  },
  /** What the engine shows of its frame: the viewport, cut by every scrolling or clipping box around the frame. */
  clip(doc) {
    let box = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
    for (let el = doc.defaultView.frameElement.parentElement; el; el = el.parentElement || (el.getRootNode() && el.getRootNode().host)) {
      const cs = getComputedStyle(el);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const r = el.getBoundingClientRect();
      box = { left: Math.max(box.left, r.left), top: Math.max(box.top, r.top), right: Math.min(box.right, r.right), bottom: Math.min(box.bottom, r.bottom) };
    }
    return box;
  },
  onScreen(r) {
    // The clip is cached until the next settle() (it changes only when the engine moves).
    const c = this._clip || (this._clip = this.clip(R.doc()));
    return r.x >= c.left - 0.5 && r.x + Math.max(r.w, 1) <= c.right + 0.5 && r.y >= c.top - 0.5 && r.y + Math.max(r.h, 1) <= c.bottom + 0.5;
  },
  /** Whether an element's start is shown: its first character, or its own box when it has no text (a pagebreak marker). */
  visible(el) {
    if (!el) return false;
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.data.search(/\\S/);
      if (i >= 0) return this.onScreen(this.charRect(n, i));
    }
    return this.onScreen(this.rect(el));
  },
};
`;

export async function settle(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    H._clip = null;
    const doc = R.doc();
    if (doc) await doc.fonts.ready;
    await new Promise((r) => setTimeout(r, 150));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    H._clip = null;
  })()`);
}

export interface Screens {
  dir: string;
  shots: string[];
}

export async function shoot(page: Page, s: Screens, name: string, grey = false): Promise<void> {
  await settle(page);
  if (grey) await page.evaluate(`document.documentElement.style.filter = 'grayscale(1)'`);
  const file = path.join(s.dir, `${name}.png`);
  await page.screenshot({ path: file });
  if (grey) await page.evaluate(`document.documentElement.style.filter = ''`);
  s.shots.push(file);
}

/** Opens a book and pages from the cover to the first volume; returns the hrefs seen. */
export async function openToFirstVolume(page: Page, work: string, engine: Engine, epubBase64: string): Promise<string[]> {
  await page.goto(pathToFileURL(path.join(work, `${engine}.html`)).href);
  await page.waitForFunction('window.ready === true', { timeout: 20_000 });
  await page.evaluate(HELPERS);
  await page.evaluate(`R.open(${JSON.stringify(epubBase64)})`);
  await settle(page);
  const order: string[] = [];
  for (;;) {
    const at = (await page.evaluate('R.where()')) as string;
    if (order[order.length - 1] !== at) order.push(at);
    if (at.startsWith('vol')) break;
    await page.evaluate('R.next()');
    await settle(page);
    assert.ok(order.length < 8 && (await page.evaluate('R.where()')) !== undefined, `${engine}: reaches the first volume`);
  }
  return order;
}



/** Clicks an element of the displayed document (or of the pop-up) with the mouse, as a reader would. */
export async function click(page: Page, selectorJs: string): Promise<void> {
  const r = (await page.evaluate(`(() => { const el = ${selectorJs}; return el ? H.rect(el) : null; })()`)) as { x: number; y: number; w: number; h: number } | null;
  assert.ok(r, `element to click: ${selectorJs}`);
  await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
  // The engines navigate asynchronously.
  await new Promise((res) => setTimeout(res, 400));
  await settle(page);
}

/** Goes to a place of the book through the engine's own navigation (as its table of contents does) and waits for it. */
export async function goTo(page: Page, href: string): Promise<void> {
  await page.evaluate(`R.goTo(${JSON.stringify(href)})`);
  await settle(page);
}

const visibleJs = (id: string): string => `(() => { const el = R.doc() && R.doc().getElementById(${JSON.stringify(id)}); return !!el && H.visible(el); })()`;

/** Whether the start of an element of the shown document is on screen. */
export async function onScreen(page: Page, id: string): Promise<boolean> {
  return (await page.evaluate(visibleJs(id))) as boolean;
}

/**
 * Shows an element of a document as a reader gets there from the book's table of contents (toc.xhtml,
 * another document: epub.js 0.3 moves within the shown document by the page's width where it means its
 * height, managers/default moveTo), and says whether its start is on screen.
 */
export async function reach(page: Page, engine: Engine, file: string, id: string): Promise<boolean> {
  await goTo(page, 'toc.xhtml');
  await goTo(page, `${file}#${id}`);
  await page.waitForFunction(visibleJs(id), { timeout: 5_000 }).catch(() => undefined);
  return onScreen(page, id);
}

/** Where a followed link's target shows: in the engine's pop-up, or on the page shown, its start on screen. */
export interface Shown {
  how: 'pop-up' | 'page';
  /** The document shown (a page), or the one under the pop-up. */
  where: string;
  text: string;
}

/** Clicks a link as a reader would; its target as shown, or null when it is neither in a pop-up nor on screen. */
export async function follow(page: Page, linkJs: string, targetId: string, timeout = 10_000): Promise<Shown | null> {
  await click(page, linkJs);
  const id = JSON.stringify(targetId);
  await page
    .waitForFunction(`(() => { const d = R.popupDoc(); if (d && d.body && d.body.textContent.trim()) return true; return ${visibleJs(targetId)}; })()`, { timeout })
    .catch(() => undefined);
  await settle(page);
  return (await page.evaluate(`(() => {
    const pop = R.popupDoc();
    if (pop && pop.body.textContent.trim()) return { how: 'pop-up', where: R.where(), text: pop.body.textContent.trim() };
    const el = R.doc().getElementById(${id});
    return el && H.visible(el) ? { how: 'page', where: R.where(), text: el.textContent.trim() } : null;
  })()`)) as Shown | null;
}
