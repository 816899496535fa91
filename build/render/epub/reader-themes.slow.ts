/**
 * The EPUBs for every reader, in epub.js and foliate-js in Chromium:
 * - by night and by day: the reader's dark theme (its colours, and
 *   prefers-color-scheme: dark) and a light one; every layer's text, label,
 *   noteref and backlink at 4.5:1 or more on the background the reader
 *   shows (computed styles), with a negative control (a fixed #222222 note);
 *   a labelled layer's commentary paragraphs and pop-up notes carry its rule,
 *   repeated on each page they run onto (box-decoration-break: clone);
 * - numbered notes: a noteref clicked shows its note (foliate's pop-up, or
 *   epub.js's page of the volume's notes document), its backlink clicked
 *   comes back to the reference, at 1200×800 and at a phone's 390×700;
 * - with no CJK font on the system (fontconfig given DejaVu only): every
 *   character on the pages of 評點岳陽樓記 and 儀禮注疏 drawn by the
 *   embedded fonts (Chromium's platform fonts per node), with a negative
 *   control (the same page with its fonts' @font-face rules removed).
 * Screenshots stay in $TMPDIR/diaoban-epub-reader/themes/ for a person to look at.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../engine/browser.js';
import { loadSystemFonts } from '../../fonts/load.js';
import type { LoadedFont } from '../../fonts/types.js';
import { loadSample } from '../../engine/samples.js';
import { bookEpub } from './books.test-util.js';
import { ENGINES, click, follow, openToFirstVolume, reach, settle, shoot, writeReaderPages, type Engine, type Screens } from './reader.test-util.js';

const SHOTS = path.join(tmpdir(), 'diaoban-epub-reader', 'themes');
const SIZES = [
  { name: 'desktop', width: 1200, height: 800 },
  { name: 'phone', width: 390, height: 700 },
] as const;
/** The reader's night theme: light grey on near black, as Foliate's and most readers' dark themes. */
const NIGHT = { color: '#e0e0e0', background: '#121212' };
const DAY = { color: '#000000', background: '#ffffff' };
const BOOKS = ['yili-zhushu', 'liuyi-gangmu', 'yili-sanjia', 'pingdian'] as const;

let root: string;
let work: string;
let browser: Browser;
let fonts: LoadedFont[];
const epubs = new Map<string, string>();

async function launch(env: NodeJS.ProcessEnv = process.env, dir = 'profile'): Promise<Browser> {
  // foliate-js is native ES modules: Chromium loads module scripts from file: URLs only with this flag.
  return puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    env,
    args: [...CHROMIUM_FLAGS, '--allow-file-access-from-files', `--user-data-dir=${path.join(root, dir)}`],
  });
}

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'diaoban-reader-themes-'));
  work = path.join(root, 'pages');
  await writeReaderPages(work);
  fonts = await loadSystemFonts();
  for (const name of BOOKS) {
    const { tree, config } = await loadSample(name);
    epubs.set(name, Buffer.from(await bookEpub({ name, tree, config }, fonts)).toString('base64'));
  }
  browser = await launch();
  await mkdir(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** Applies a theme as the engine's reader does: its colours on the book's documents, and the colour scheme. */
async function theme(page: Page, engine: Engine, t: typeof NIGHT): Promise<void> {
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: t === NIGHT ? 'dark' : 'light' }]);
  const css = `html, body { color: ${t.color} !important; background: ${t.background} !important; }`;
  if (engine === 'epubjs') {
    await page.evaluate(`(() => {
      R.rendition.themes.register('t', { 'html, body': { color: '${t.color} !important', background: '${t.background} !important' } });
      R.rendition.themes.select('t');
    })()`);
  } else {
    await page.evaluate(`R.view.renderer.setStyles(${JSON.stringify(css)})`);
  }
  await settle(page);
}

/** WCAG contrast of every layer's text, label, noteref and backlink against the background behind it, in the shown document. */
const CONTRAST_JS = `(() => {
  const doc = R.doc();
  const rgb = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.a > 0.5) return c; }
    return rgb(getComputedStyle(doc.defaultView.frameElement.parentElement).backgroundColor);
  };
  const out = [];
  const seen = new Set();
  for (const el of doc.querySelectorAll('.note, p.commentary, a.noteref, .layer-label, a.backlink')) {
    const layer = ([...el.classList].find((c) => /^note(ref)?-/.test(c)) || [...(el.closest('.note, .commentary') || el).classList].find((c) => /^note-/.test(c)) || '').replace(/^note(ref)?-/, '');
    const part = el.matches('a.noteref') ? 'noteref' : el.matches('.layer-label') ? 'label' : el.matches('a.backlink') ? 'backlink' : 'text';
    const key = layer + ' ' + part;
    if (seen.has(key)) continue;
    seen.add(key);
    const cs = getComputedStyle(el);
    const fg = rgb(cs.color), bg = background(el);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const block = part === 'text' && el.matches('p.commentary, aside');
    out.push({ key, color: cs.color, background: 'rgb(' + bg.r + ', ' + bg.g + ', ' + bg.b + ')', ratio: (a + 0.05) / (b + 0.05), opacity: Number(cs.opacity),
      rule: block ? cs.borderBlockStartStyle + ' ' + (cs.boxDecorationBreak || cs.webkitBoxDecorationBreak) : null });
  }
  return out;
})()`;

interface Contrast {
  /** A commentary paragraph's or pop-up note's rule and whether it is repeated on each page it runs onto: `solid clone`. */
  rule: string | null;
  key: string;
  color: string;
  background: string;
  ratio: number;
  opacity: number;
}

/** Goes to a place of the book and waits for it. */
async function goTo(page: Page, href: string): Promise<void> {
  await page.evaluate(`R.goTo(${JSON.stringify(href)})`);
  await settle(page);
}

async function openPage(b: Browser, engine: Engine, book: string, size: { width: number; height: number }, t: { diagnostic(s: string): void }): Promise<Page> {
  const page = await b.newPage();
  await page.setViewport({ width: size.width, height: size.height });
  page.on('pageerror', (e) => t.diagnostic(`${engine} ${book}: page error ${(e as Error).message}`));
  await openToFirstVolume(page, work, engine, epubs.get(book)!);
  return page;
}

for (const engine of ENGINES) {
  test(`${engine}: every layer legible by night and by day (text, label, noteref, backlink ≥ 4.5:1), with a negative control`, async (t) => {
    for (const book of BOOKS) {
      const page = await openPage(browser, engine, book, SIZES[0], t);
      try {
        const s: Screens = { dir: SHOTS, shots: [] };
        for (const [name, th] of [['day', DAY], ['night', NIGHT]] as const) {
          await theme(page, engine, th);
          // The volume's text, then its notes document (the backlinks), where there is one.
          const ref = (await page.evaluate(`(() => { const a = R.doc().querySelector('section.volume a.noteref'); return a ? a.getAttribute('href') : null; })()`)) as string | null;
          const seen: Contrast[] = (await page.evaluate(CONTRAST_JS)) as Contrast[];
          await shoot(page, s, `${engine}-${book}-${name}-desktop-volume`);
          if (ref && !ref.startsWith('#')) {
            await goTo(page, ref);
            seen.push(...((await page.evaluate(CONTRAST_JS)) as Contrast[]));
            await shoot(page, s, `${engine}-${book}-${name}-desktop-notes`);
            await goTo(page, 'vol01.xhtml');
          }
          assert.ok(seen.some((c) => c.key.endsWith(' text')), `${engine} ${book}: notes measured`);
          for (const c of seen) {
            assert.ok(c.ratio >= 4.5, `${engine} ${book} ${name}: ${c.key} ${c.color} on ${c.background} at ${c.ratio.toFixed(2)}:1`);
            assert.ok(c.opacity === 1, `${engine} ${book} ${name}: ${c.key} not faded`);
            // A labelled layer's block says its layer again on every page it runs onto: its rule, cloned.
            if (c.rule && !c.key.startsWith('zhu ')) assert.match(c.rule, /^(solid|dotted|dashed|double) clone$/, `${engine} ${book}: ${c.key} has its layer's rule on every page (${c.rule})`);
          }
          t.diagnostic(`${engine} ${book} ${name}: ${seen.map((c) => `${c.key} ${c.ratio.toFixed(1)}`).join(', ')}`);
        }
        // Negative control: a note in the fixed dark grey of the old stylesheet fails at night.
        await page.evaluate(`(() => { const st = R.doc().createElement('style'); st.textContent = 'small.note, p.commentary { color: #222222 !important; }'; R.doc().head.append(st); })()`);
        const spoilt = (await page.evaluate(CONTRAST_JS)) as Contrast[];
        assert.ok(spoilt.some((c) => c.key.endsWith(' text') && c.ratio < 4.5), `${engine} ${book}: the contrast check fails a fixed #222222 note at night`);
        t.diagnostic(`screenshots: ${s.shots.join(' ')}`);
      } finally {
        await page.close();
      }
    }
  });

  test(`${engine}: a numbered note followed and its backlink followed, landing on the right page, at 1200×800 and 390×700`, async (t) => {
    for (const book of ['yili-zhushu', 'liuyi-gangmu'] as const) {
      for (const size of SIZES) {
        const page = await openPage(browser, engine, book, size, t);
        try {
          const s: Screens = { dir: SHOTS, shots: [] };
          // The first reference and one far into the volume (its note deep in the notes document).
          const refs = (await page.evaluate(`(() => { const a = [...R.doc().querySelectorAll('section.volume a.noteref')].filter((x) => !x.getAttribute('href').startsWith('#')); return a.length ? [a[0].id, a[Math.floor(a.length * 2 / 3)].id] : []; })()`)) as string[];
          assert.equal(refs.length, 2, `${engine} ${book}: pop-up notes`);
          for (const [k, ref] of refs.entries()) {
            const label = (await page.evaluate(`R.doc().getElementById(${JSON.stringify(ref)}).textContent`)) as string;
            assert.match(label, /[一二三四五六七八九十百〇]$/u, `${engine} ${book}: the reference ${ref} is numbered (${label})`);
            const href = (await page.evaluate(`R.doc().getElementById(${JSON.stringify(ref)}).getAttribute('href')`)) as string;
            const note = href.slice(href.indexOf('#') + 1);
            // From the book's table of contents (reach: epub.js lands a link within the shown document off).
            if (!(await reach(page, engine, 'vol01.xhtml', ref))) {
              await shoot(page, s, `${engine}-${book}-${size.name}-note${k + 1}-missing`);
              t.diagnostic(JSON.stringify(await page.evaluate(`(() => { const el = R.doc().getElementById(${JSON.stringify(ref)}); return { rect: H.rect(el), clip: H.clip(R.doc()), where: R.where() }; })()`)));
            }
            assert.ok(await page.evaluate(`H.visible(R.doc().getElementById(${JSON.stringify(ref)}))`), `${engine} ${book} ${size.name}: noteref ${ref} on screen`);
            const shown = await follow(page, `R.doc().getElementById(${JSON.stringify(ref)})`, note, 15_000);
            assert.ok(shown, `${engine} ${book} ${size.name}: clicking ${ref} (${label}) shows its note`);
            // The note shown is the one referred to: it begins with the reference's label and number.
            assert.ok(shown.text.startsWith(`〔${label}〕`), `${engine} ${book} ${size.name}: the note shown is ${label}'s (${shown.text.slice(0, 12)}…)`);
            if (shown.how === 'page') assert.equal(shown.where, 'vol01-notes.xhtml');
            await shoot(page, s, `${engine}-${book}-${size.name}-note${k + 1}-open`);
            await click(page, shown.how === 'pop-up' ? `R.popupDoc().querySelector('a.backlink')` : `R.doc().getElementById(${JSON.stringify(note)}).querySelector('a.backlink')`);
            await page.waitForFunction(`R.where() === 'vol01.xhtml' && H.visible(R.doc().getElementById(${JSON.stringify(ref)}))`, { timeout: 15_000 }).catch(() => undefined);
            assert.equal(await page.evaluate('R.where()'), 'vol01.xhtml', `${engine} ${book} ${size.name}: back in the volume`);
            assert.ok(await page.evaluate(`H.visible(R.doc().getElementById(${JSON.stringify(ref)}))`), `${engine} ${book} ${size.name}: back at the reference ${ref}`);
            await shoot(page, s, `${engine}-${book}-${size.name}-note${k + 1}-back`);
            t.diagnostic(`${engine} ${book} ${size.name}: ${label} shown as a ${shown.how}, and back`);
          }
          // By night at this size, for a person to look at.
          await theme(page, engine, NIGHT);
          await shoot(page, s, `${engine}-${book}-${size.name}-night`);
        } finally {
          await page.close();
        }
      }
    }
  });
}

/** Every platform font Chromium used for the text of the shown book document (CDP CSS.getPlatformFontsForNode), with its glyph count. */
async function platformFonts(page: Page): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  for (const frame of page.frames()) {
    // The engines show the book in an iframe (foliate's, sandboxed, in a process of its own): each element of the volume
    // holding text, asked through the frame's own DevTools session (Puppeteer's, not in its typings).
    const elements = await frame.$$('section.volume *, section.volume').catch(() => []);
    if (!elements.length) continue;
    const client = (frame as unknown as { client: CDPSession }).client;
    await client.send('DOM.enable');
    await client.send('CSS.enable');
    await client.send('DOM.getDocument', { depth: 0 });
    {
      for (const el of elements) {
        const hasText = await el.evaluate((e) => [...e.childNodes].some((c) => c.nodeType === 3 && (c.textContent ?? '').trim() !== ''));
        if (!hasText) continue;
        const { nodeId } = await client.send('DOM.requestNode', { objectId: el.remoteObject().objectId! });
        const { fonts: f } = await client.send('CSS.getPlatformFontsForNode', { nodeId });
        for (const x of f) {
          const key = `${x.familyName}${x.isCustomFont ? ' (embedded)' : ''}`;
          used.set(key, (used.get(key) ?? 0) + x.glyphCount);
        }
      }
    }
  }
  return used;
}

test('with no CJK font on the system, every character of 評點岳陽樓記 and 儀禮注疏 is drawn by the embedded fonts, in both engines; negative control without them', async (t) => {
  // fontconfig with DejaVu only: no CJK face for Chromium to fall back on.
  const conf = path.join(root, 'fonts.conf');
  await writeFile(conf, `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>${path.join(root, 'fc-cache')}</cachedir></fontconfig>`);
  const bare = await launch({ ...process.env, FONTCONFIG_FILE: conf }, 'profile-bare');
  try {
    for (const engine of ENGINES) {
      for (const book of ['pingdian', 'yili-zhushu'] as const) {
        const page = await openPage(bare, engine, book, { width: 600, height: 800 }, t);
        try {
          const used = await platformFonts(page);
          assert.ok(used.size > 0, `${engine} ${book}: fonts used`);
          const system = [...used.keys()].filter((f) => !f.endsWith('(embedded)'));
          assert.deepEqual(system, [], `${engine} ${book}: characters drawn by system fonts: ${[...used.entries()].map(([f, n]) => `${f} ${n}`).join(', ')}`);
          await shoot(page, { dir: SHOTS, shots: [] }, `${engine}-${book}-no-cjk-font`);
          t.diagnostic(`${engine} ${book}: ${[...used.entries()].map(([f, n]) => `${f} ${n}`).join(', ')}`);
          // Negative control: without the embedded faces, the same page falls back on the system's fonts.
          await page.evaluate(`(() => { for (const f of [...R.doc().fonts]) R.doc().fonts.delete(f); for (const l of R.doc().querySelectorAll('link[rel=stylesheet], style')) l.remove(); })()`);
          await settle(page);
          const fallback = [...(await platformFonts(page)).keys()].filter((f) => !f.endsWith('(embedded)'));
          assert.ok(fallback.length > 0, `${engine} ${book}: the check sees system fonts when the embedded ones are gone`);
        } finally {
          await page.close();
        }
      }
    }
  } finally {
    await bare.close();
  }
});
