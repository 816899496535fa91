/**
 * The EPUBs as readers see them, in two reading engines in Chromium:
 * epub.js 0.3 (the engine of many Readium-era web readers) and foliate-js
 * (Foliate's engine; footnotes as pop-ups through its FootnoteHandler).
 * For every sample: front matter, then vertical text set right to left and
 * read on at the top right of the next page; a noteref clicked and the note
 * shown, then its backlink back to the reference; a page reached through
 * the page list; layers told apart in grey. At 1200×800 and 390×700: a
 * 校勘記 mark and its backlink followed (the 校勘記 in a document of its
 * own; negative control, the old one within the volume); the nav's
 * subheadings and pages reached. Each layer's computed size, face, weight,
 * indentation and rule as styles/layers.json says (negative control: one look
 * for all). Geometry is read from the rendered DOM; screenshots stay in
 * $TMPDIR/diaoban-epub-reader/<engine|collation|layers>/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'puppeteer';
import { launchBrowser, type OfflineBrowser } from '../../engine/browser.js';
import { loadSystemFonts } from '../../fonts/load.js';
import type { LoadedFont } from '../../fonts/types.js';
import { SAMPLES } from '../../engine/samples.js';
import JSZip from 'jszip';
import { bookEpub, loadBook, withCorrections } from './books.test-util.js';
import { click, follow, goTo, onScreen, openToFirstVolume, reach, settle, shoot, writeReaderPages, type Engine, type Screens, type Shown } from './reader.test-util.js';
import { LAYER_STYLES, faceFamilies } from '../../tree/layer-style.js';

/** Where the screenshots stay after the run, for a person to look at. */
export const SCREENSHOT_DIR = path.join(tmpdir(), 'diaoban-epub-reader');
const W = 600;
const H = 800;

let browser: OfflineBrowser;
let work: string;
let fonts: LoadedFont[];
const epubs = new Map<string, string>();

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'diaoban-reader-'));
  fonts = await loadSystemFonts();
  for (const name of [...SAMPLES, 'yili-sanjia']) epubs.set(name, Buffer.from(await bookEpub(await loadBook(name), fonts)).toString('base64'));
  const corrected = await bookEpub(withCorrections(await loadBook('yili-zhushu')), fonts);
  epubs.set('corrected', Buffer.from(corrected).toString('base64'));
  epubs.set('corrected-in-volume', Buffer.from(await collationInVolume(corrected)).toString('base64'));
  await writeReaderPages(work);
  // foliate-js is native ES modules: Chromium loads module scripts from file: URLs only with this flag.
  browser = await launchBrowser({ extraArgs: ['--allow-file-access-from-files'] });
});

after(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * Vertical, right to left: three characters of main text go down one column;
 * the screen's text starts at its right edge; notes small; the fonts used.
 * Walks the characters on screen (they are contiguous in reading order).
 */
const MEASURE_JS = `(() => {
  const doc = R.doc();
  const walker = doc.createTreeWalker(doc.querySelector('section.volume'), NodeFilter.SHOW_TEXT);
  let run = null, right = -Infinity, seen = false, note = null;
  outer: for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const main = n.parentElement.matches('p.text, p.ji, p.label');
    for (let i = 0; i < n.data.length; i++) {
      if (/\\s/.test(n.data[i])) continue;
      const r = H.charRect(n, i);
      if (!H.onScreen(r)) { if (seen) break outer; continue; }
      seen = true;
      right = Math.max(right, r.x + r.w);
      if (!note && n.parentElement.matches('small.note')) note = n.parentElement;
      if (!run && main && i + 2 < n.data.length && !/\\s/.test(n.data.slice(i, i + 3)) && H.onScreen(H.charRect(n, i + 2))) run = [n, i];
    }
  }
  if (!run) return null;
  const [node, i0] = run;
  const p = node.parentElement;
  return {
    writingMode: getComputedStyle(doc.body).writingMode,
    chars: [0, 1, 2].map((k) => H.charRect(node, i0 + k)),
    mainSize: parseFloat(getComputedStyle(p).fontSize),
    noteSize: note ? parseFloat(getComputedStyle(note).fontSize) / parseFloat(getComputedStyle(note.parentElement).fontSize) * parseFloat(getComputedStyle(p).fontSize) : null,
    fontsLoaded: [...doc.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')),
    firstTextX: right,
  };
})()`;

interface Measured {
  writingMode: string;
  chars: Array<{ x: number; y: number; w: number; h: number }>;
  mainSize: number;
  noteSize: number | null;
  fontsLoaded: string[];
  firstTextX: number;
}

/** The last character on screen and the first one after it (kept as window.__next). */
const FLOW_JS = `(() => {
  const doc = R.doc();
  const walker = doc.createTreeWalker(doc.querySelector('section.volume'), NodeFilter.SHOW_TEXT);
  let last = null, next = null;
  for (let n = walker.nextNode(); n && !next; n = walker.nextNode()) {
    for (let i = 0; i < n.data.length; i++) {
      if (/\\s/.test(n.data[i])) continue;
      const r = H.charRect(n, i);
      if (H.onScreen(r)) last = { x: r.x, y: r.y, ch: n.data[i] };
      else if (last) { next = { x: r.x, y: r.y, ch: n.data[i] }; window.__next = [n, i]; break; }
    }
  }
  return { last, next };
})()`;

interface At {
  x: number;
  y: number;
  ch: string;
}

async function readBook(engine: 'epubjs' | 'foliate', workName: string, t: { diagnostic(s: string): void }): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: W, height: H });
    page.on('pageerror', (e) => t.diagnostic(`${engine} ${workName}: page error ${(e as Error).message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') t.diagnostic(`${engine} ${workName}: console ${m.text()}`);
    });
    const s: Screens = { dir: path.join(SCREENSHOT_DIR, engine), shots: [] };
    await mkdir(s.dir, { recursive: true });
    const order = await openToFirstVolume(page, work, engine, epubs.get(workName)!);
    assert.deepEqual(order, ['cover.xhtml', 'titlepage.xhtml', 'legend.xhtml', 'toc.xhtml', 'vol01.xhtml'], `${engine} ${workName}: front matter first`);
    assert.equal(await page.evaluate('R.direction()'), 'rtl');
    await shoot(page, s, `${workName}-01-volume`);

    // Vertical, right to left, notes small, the embedded font in use.
    let m = (await page.evaluate(MEASURE_JS)) as Measured | null;
    // The first screen may hold only titles and headings.
    for (let k = 0; !m && k < 3; k++) {
      await page.evaluate('R.next()');
      await settle(page);
      m = (await page.evaluate(MEASURE_JS)) as Measured | null;
    }
    assert.ok(m, `${engine} ${workName}: main text on the first pages`);
    assert.equal(m.writingMode, 'vertical-rl');
    const [c0, c1, c2] = m.chars;
    assert.ok(Math.abs(c0.x - c1.x) < 1 && Math.abs(c1.x - c2.x) < 1, `${engine} ${workName}: one column ${JSON.stringify(m.chars)}`);
    assert.ok(c1.y >= c0.y + c0.h * 0.8 && c2.y >= c1.y + c1.h * 0.8, `${engine} ${workName}: top to bottom`);
    assert.ok(m.firstTextX > W * 0.75, `${engine} ${workName}: the page's text starts at the right (x=${m.firstTextX})`);
    if (m.noteSize !== null) assert.ok(m.noteSize <= m.mainSize * 0.7, `${engine} ${workName}: notes small (${m.noteSize} vs ${m.mainSize})`);
    assert.ok(m.fontsLoaded.includes('Noto Serif CJK TC'), `${engine} ${workName}: embedded font loaded: ${m.fontsLoaded.join(', ')}`);

    // The reading runs off the left of this page and on at the top right of the next.
    const flow = (await page.evaluate(FLOW_JS)) as { last: At | null; next: At | null };
    if (flow.last && flow.next) {
      assert.ok(flow.last.x < W / 2, `${engine} ${workName}: the page ends at the left (x=${flow.last.x})`);
      await page.evaluate('R.next()');
      await settle(page);
      const next = (await page.evaluate(`(() => { const [n, i] = window.__next; const r = H.charRect(n, i); return { x: r.x, y: r.y, ch: n.data[i] }; })()`)) as At;
      assert.equal(next.ch, flow.next.ch);
      assert.ok(next.x > W / 2 && next.x < W && next.y >= 0 && next.y < H / 2, `${engine} ${workName}: the next page starts at the top right with ${next.ch} (${next.x}, ${next.y})`);
      await shoot(page, s, `${workName}-02-next-page`);
    }

    // A page reached through the page list: the last page of the first volume.
    const hrefs = (await page.evaluate('R.pageHrefs()')) as string[];
    assert.ok(hrefs.length > 0, `${engine} ${workName}: a page list`);
    const target = [...hrefs].reverse().find((h) => h.includes('vol01.xhtml#'))!;
    const id = target.slice(target.indexOf('#') + 1);
    await page.evaluate(`R.goTo(${JSON.stringify(target)})`);
    await settle(page);
    assert.equal(await page.evaluate(`R.where()`), 'vol01.xhtml');
    const marker = (await page.evaluate(`(() => { const el = R.doc().getElementById(${JSON.stringify(id)}); return { on: H.visible(el), label: el.getAttribute('aria-label') }; })()`)) as { on: boolean; label: string };
    assert.ok(marker.on, `${engine} ${workName}: page ${marker.label} (${id}) on screen after going there by the page list`);
    await shoot(page, s, `${workName}-03-page-list-${id}`);

    // Layers in grey: each layer's first note on screen, with its label; noterefs not link blue.
    const layers = (await page.evaluate(`(() => {
      const doc = R.doc();
      const out = {};
      for (const el of doc.querySelectorAll('section.volume small.note, section.volume p.commentary, section.volume a.noteref')) {
        const layer = [...el.classList].find((c) => /^note(ref)?-/.test(c)).replace(/^note(ref)?-/, '');
        if (layer && !out[layer]) {
          const markers = [...doc.querySelectorAll('.pagebreak')].filter((m) => m.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
          out[layer] = { page: markers.length ? markers[markers.length - 1].id : null, noteref: el.localName === 'a' };
        }
      }
      return out;
    })()`)) as Record<string, { page: string | null; noteref: boolean }>;
    for (const [layer, at] of Object.entries(layers)) {
      if (at.page) await page.evaluate(`R.goTo(${JSON.stringify(`${target.slice(0, target.indexOf('#'))}#${at.page}`)})`);
      await settle(page);
      const sel = at.noteref ? `a.noteref-${layer}` : `.note-${layer}:not(a)`;
      let shown = (await page.evaluate(`(() => { const el = [...R.doc().querySelectorAll(${JSON.stringify(`section.volume ${sel}`)})][0]; return H.visible(el); })()`)) as boolean;
      for (let k = 0; !shown && k < 3; k++) {
        await page.evaluate('R.next()');
        await settle(page);
        shown = (await page.evaluate(`(() => { const el = [...R.doc().querySelectorAll(${JSON.stringify(`section.volume ${sel}`)})][0]; return H.visible(el); })()`)) as boolean;
      }
      assert.ok(shown, `${engine} ${workName}: a note of layer ${layer} on screen`);
      const look = (await page.evaluate(`(() => {
        const el = [...R.doc().querySelectorAll(${JSON.stringify(`section.volume ${sel}`)})][0];
        const label = el.querySelector(':scope > .layer-label');
        const cs = getComputedStyle(el);
        return { tag: el.tagName, label: label ? label.textContent : null, text: el.textContent.slice(0, 6), color: cs.color, name: el.getAttribute('aria-label') };
      })()`)) as { tag: string; label: string | null; text: string; color: string; name: string | null };
      if (at.noteref) assert.notEqual(look.color, 'rgb(0, 0, 238)', `${engine} ${workName}: a ${layer} noteref is not link blue`);
      else {
        assert.ok(look.name, `${engine} ${workName}: the ${layer} note is named for screen readers`);
        if (layer !== 'zhu') assert.ok(look.label || look.text.startsWith(look.name!), `${engine} ${workName}: the ${layer} note shows its label (${look.text}…)`);
      }
      await shoot(page, s, `${workName}-04-grey-${layer}`, true);
    }

    // A pop-up note: its numbered reference clicked, the note shown (foliate's pop-up, or epub.js's page of the volume's
    // notes document); its backlink clicked, the reference shown again. reader-themes.slow.ts does the same at two sizes.
    const ref = (await page.evaluate(`(() => { const a = R.doc().querySelector('section.volume a.noteref:not([href^="#"])'); return a ? a.id : null; })()`)) as string | null;
    if (ref) {
      const href = (await page.evaluate(`R.doc().getElementById(${JSON.stringify(ref)}).getAttribute('href')`)) as string;
      const label = (await page.evaluate(`R.doc().getElementById(${JSON.stringify(ref)}).textContent`)) as string;
      const note = href.slice(href.indexOf('#') + 1);
      await page.evaluate(`R.goTo(${JSON.stringify(`${target.slice(0, target.indexOf('#'))}#${ref}`)})`);
      await settle(page);
      assert.ok(await page.evaluate(`H.visible(R.doc().getElementById(${JSON.stringify(ref)}))`), `${engine} ${workName}: noteref ${ref} on screen`);
      await shoot(page, s, `${workName}-05-note-closed`);
      // A pop-up opens the book again in a view of its own: follow gives it time.
      const opened = await follow(page, `R.doc().getElementById(${JSON.stringify(ref)})`, note);
      assert.ok(opened, `${engine} ${workName}: clicking ${ref} shows note ${note}`);
      assert.ok(opened.text.startsWith(`〔${label}〕`), `${engine} ${workName}: the note shown is ${label}'s`);
      t.diagnostic(`${engine} ${workName}: note ${label} shown as a ${opened.how}`);
      await shoot(page, s, `${workName}-06-note-open`);
      await click(page, opened.how === 'pop-up' ? `R.popupDoc().querySelector('a.backlink')` : `R.doc().getElementById(${JSON.stringify(note)}).querySelector('a.backlink')`);
      await page.waitForFunction(`R.where() === 'vol01.xhtml' && H.visible(R.doc().getElementById(${JSON.stringify(ref)}))`, { timeout: 10_000 }).catch(() => undefined);
      assert.ok(await page.evaluate(`H.visible(R.doc().getElementById(${JSON.stringify(ref)}))`), `${engine} ${workName}: back at the reference ${ref}`);
      assert.equal(await page.evaluate(`R.popupDoc()`), null);
      await shoot(page, s, `${workName}-07-note-back`);
    }
    t.diagnostic(`screenshots: ${s.shots.join(' ')}`);
  } finally {
    await page.close();
  }
}

for (const engine of ['epubjs', 'foliate'] as const) {
  test(`${engine} in Chromium, every sample: vertical right-to-left pages, a page by the page list, layers in grey, a pop-up note and back`, async (t) => {
    for (const name of SAMPLES) await readBook(engine, name, t);
  });
}

/**
 * The negative control of the 校勘記 test: the book as it was made before the
 * 校勘記 had a document of its own, its section at the end of the volume's
 * document and its links (mark → entry, entry → mark) within that document.
 */
async function collationInVolume(bytes: Uint8Array): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const vol = await zip.file('OEBPS/vol01.xhtml')!.async('string');
  const jiao = /<section id="vol01-jiao"[\s\S]*<\/ol>\n<\/section>/.exec(await zip.file('OEBPS/vol01-collation.xhtml')!.async('string'))![0];
  const end = vol.lastIndexOf('</section>');
  zip.file('OEBPS/vol01.xhtml', `${vol.slice(0, end)}${jiao.replaceAll('href="vol01.xhtml#', 'href="#')}\n${vol.slice(end)}`.replaceAll('href="vol01-collation.xhtml#', 'href="#'));
  return zip.generateAsync({ type: 'uint8array', mimeType: 'application/epub+zip' });
}

const SIZES = [
  { name: 'desktop', width: 1200, height: 800 },
  { name: 'phone', width: 390, height: 700 },
] as const;

interface Followed {
  ref: string;
  label: string;
  /** The entry as the mark clicked shows it. */
  to: Shown | null;
  /** The mark as the entry's backlink clicked shows it. */
  back: Shown | null;
}

/** The first and the last 校勘記 mark of the first volume: each clicked, its entry shown, its backlink clicked. */
async function followCollation(engine: Engine, book: string, size: (typeof SIZES)[number], t: { diagnostic(s: string): void }): Promise<Followed[]> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: size.width, height: size.height });
    await openToFirstVolume(page, work, engine, epubs.get(book)!);
    const refs = (await page.evaluate(`[...R.doc().querySelectorAll('section.volume a.noteref-jiao')].map((a) => a.id)`)) as string[];
    assert.equal(refs.length, 3, `${engine} ${book}: three 校勘記 marks`);
    const out: Followed[] = [];
    for (const ref of [refs[0], refs[refs.length - 1]]) {
      assert.ok(await reach(page, engine, 'vol01.xhtml', ref), `${engine} ${book} ${size.name}: the mark ${ref} on screen`);
      const label = (await page.evaluate(`R.doc().getElementById(${JSON.stringify(ref)}).textContent`)) as string;
      const href = (await page.evaluate(`R.doc().getElementById(${JSON.stringify(ref)}).getAttribute('href')`)) as string;
      const entry = href.slice(href.indexOf('#') + 1);
      const to = await follow(page, `R.doc().getElementById(${JSON.stringify(ref)})`, entry);
      const shots: Screens = { dir: path.join(SCREENSHOT_DIR, 'collation'), shots: [] };
      await mkdir(shots.dir, { recursive: true });
      await shoot(page, shots, `${engine}-${book}-${size.name}-${ref}-entry`);
      let back: Shown | null = null;
      if (to) {
        back = await follow(page, to.how === 'pop-up' ? `R.popupDoc().querySelector('a.jiao-back')` : `R.doc().getElementById(${JSON.stringify(entry)}).querySelector('a.jiao-back')`, ref);
        await shoot(page, shots, `${engine}-${book}-${size.name}-${ref}-back`);
      }
      t.diagnostic(`${engine} ${book} ${size.name} ${ref}: entry ${to ? `shown as a ${to.how} in ${to.where}` : 'not on screen'}; back ${back ? `in ${back.where}` : 'not on screen'}`);
      out.push({ ref, label, to, back });
    }
    return out;
  } finally {
    await page.close();
  }
}

for (const engine of ['epubjs', 'foliate'] as const) {
  test(`${engine}: a 校勘記 mark followed and its backlink followed land on the right page at 1200×800 and 390×700; negative control: the 校勘記 within its volume's document`, async (t) => {
    for (const size of SIZES) {
      for (const f of await followCollation(engine, 'corrected', size, t)) {
        assert.ok(f.to, `${engine} ${size.name}: clicking ${f.ref} shows its entry`);
        // The entry shown is the mark's: it begins with the mark's number and says what was changed.
        assert.ok(f.to.text.startsWith(f.label) && f.to.text.includes('據某本改'), `${engine} ${size.name}: the entry shown is ${f.label}'s (${f.to.text.slice(0, 12)}…)`);
        if (f.to.how === 'page') assert.equal(f.to.where, 'vol01-collation.xhtml');
        assert.ok(f.back, `${engine} ${size.name}: its backlink shows the mark ${f.ref} again`);
        assert.equal(f.back.how, 'page');
        assert.equal(f.back.where, 'vol01.xhtml');
      }
    }
    // The same check on the book as it was: epub.js at 1200×800 shows the text around, not the entry.
    if (engine === 'epubjs') {
      const old = await followCollation(engine, 'corrected-in-volume', SIZES[0], t);
      assert.ok(old.some((f) => f.to === null), `${engine}: the check sees an entry within the volume's document off screen`);
    }
  });
}

/** Each layer's computed look in the shown document: its inline notes, commentary paragraphs and pop-up notes, beside the main text. */
const LAYER_LOOK_JS = `(() => {
  const doc = R.doc();
  const first = (cs) => cs.fontFamily.split(',')[0].trim().replace(/^["']|["']$/g, '');
  const main = doc.querySelector('section.volume p.text');
  const m = main && getComputedStyle(main);
  const out = { main: m ? { size: parseFloat(m.fontSize), family: first(m), weight: Number(m.fontWeight) } : null, forms: [] };
  const seen = new Set();
  for (const el of doc.querySelectorAll('small.note, p.commentary, aside.popup')) {
    if (el.parentElement.closest('small.note')) continue;
    const layer = [...el.classList].find((c) => c.startsWith('note-')).slice(5);
    const form = el.localName === 'small' ? 'inline' : el.localName === 'p' ? 'paragraph' : 'aside';
    if (seen.has(layer + form)) continue;
    seen.add(layer + form);
    const cs = getComputedStyle(el);
    const size = parseFloat(cs.fontSize);
    out.forms.push({ layer, form, size, ratio: size / parseFloat(getComputedStyle(el.parentElement).fontSize), family: first(cs), weight: Number(cs.fontWeight),
      indent: parseFloat(cs.paddingInlineStart) / size, rule: cs.borderBlockStartStyle });
  }
  return out;
})()`;

interface LayerLook {
  main: { size: number; family: string; weight: number } | null;
  forms: Array<{ layer: string; form: 'inline' | 'paragraph' | 'aside'; size: number; ratio: number; family: string; weight: number; indent: number; rule: string }>;
}

/**
 * What styles/layers.json says, checked against the computed looks: an inline note's size (em of the text
 * around it), face and weight; a commentary paragraph's face, indentation and rule; a pop-up note's face and
 * rule; and the inline notes of two layers differ in size, face or weight from the main text and from each
 * other. None of these is a colour: they hold in grey. Returns what does not hold.
 */
function layerProblems(look: LayerLook): string[] {
  const problems: string[] = [];
  if (!look.main) return ['no main text'];
  const main = look.main;
  const face = (f: string): string => faceFamilies(f)[0] ?? main.family;
  for (const l of look.forms) {
    const want = LAYER_STYLES.find((s) => s.id === l.layer);
    if (!want) continue;
    const at = `${l.layer} ${l.form}`;
    if (l.family !== face(want.face)) problems.push(`${at}: face ${l.family}, not ${face(want.face)}`);
    if (l.form === 'inline') {
      if (Math.abs(l.ratio - want.size) > 0.01) problems.push(`${at}: size ${l.ratio.toFixed(3)}em, not ${want.size}em`);
      if (l.weight !== want.weight) problems.push(`${at}: weight ${l.weight}, not ${want.weight}`);
      if (l.size >= main.size) problems.push(`${at}: not smaller than the main text`);
    } else {
      if (l.rule !== want.rule) problems.push(`${at}: rule ${l.rule}, not ${want.rule}`);
      if (l.form === 'paragraph' && Math.abs(l.indent - want.indent) > 0.01) problems.push(`${at}: indent ${l.indent.toFixed(2)}em, not ${want.indent}em`);
      if (l.size >= main.size) problems.push(`${at}: not smaller than the main text`);
    }
  }
  const inline = look.forms.filter((l) => l.form === 'inline');
  for (const [i, a] of inline.entries()) {
    for (const b of inline.slice(i + 1)) {
      if (a.size === b.size && a.family === b.family && a.weight === b.weight) problems.push(`${a.layer} and ${b.layer}: the same size, face and weight`);
    }
  }
  return problems;
}

/** The stylesheet the EPUB had before layers.json gave each layer its look: one size, face and weight, no rule. */
const ONE_LOOK_CSS = 'small.note { font-size: 0.65em !important; font-family: serif !important; font-weight: 400 !important; } p.commentary, aside.popup { font-family: serif !important; border-block-start-style: none !important; padding-inline-start: 1em !important; }';

for (const engine of ['epubjs', 'foliate'] as const) {
  test(`${engine}: each layer's computed size, face and weight as styles/layers.json says, apart from the main text and from each other, in grey (儀禮注疏 三家, 六藝綱目); negative control: one look for all`, async (t) => {
    for (const book of ['yili-sanjia', 'liuyi-gangmu']) {
      const page = await browser.newPage();
      try {
        await page.setViewport({ width: W, height: H });
        await openToFirstVolume(page, work, engine, epubs.get(book)!);
        const look = (await page.evaluate(LAYER_LOOK_JS)) as LayerLook;
        const notes = (await page.evaluate(`(() => { const a = R.doc().querySelector('section.volume a.noteref'); return a ? a.getAttribute('href') : null; })()`)) as string | null;
        const shots: Screens = { dir: path.join(SCREENSHOT_DIR, 'layers'), shots: [] };
        await mkdir(shots.dir, { recursive: true });
        await shoot(page, shots, `${engine}-${book}-grey`, true);
        if (notes) {
          // The pop-up notes, as a reader without pop-ups reads them: their document.
          await goTo(page, notes);
          await page.waitForFunction(`R.where() === ${JSON.stringify(notes.split('#')[0])} && !!R.doc().querySelector('aside.popup')`, { timeout: 10_000 }).catch(() => undefined);
          look.forms.push(...((await page.evaluate(LAYER_LOOK_JS)) as LayerLook).forms.filter((f) => f.form === 'aside'));
          await shoot(page, shots, `${engine}-${book}-notes-grey`, true);
        }
        const layers = new Set(look.forms.map((f) => f.layer));
        assert.ok(layers.size >= 3, `${engine} ${book}: several layers (${[...layers].join(' ')})`);
        t.diagnostic(`${engine} ${book}: main ${JSON.stringify(look.main)}; ${look.forms.map((f) => `${f.layer} ${f.form} ${f.size.toFixed(1)}px (${f.ratio.toFixed(2)}em) ${f.family} ${f.weight}${f.form === 'inline' ? '' : ` indent ${f.indent.toFixed(2)}em rule ${f.rule}`}`).join('; ')}`);
        assert.deepEqual(layerProblems(look), [], `${engine} ${book}`);
        // Negative control: with one look for every layer, as before, the check fails.
        await page.evaluate(`(() => { const st = R.doc().createElement('style'); st.textContent = ${JSON.stringify(ONE_LOOK_CSS)}; R.doc().head.append(st); })()`);
        const spoilt = (await page.evaluate(LAYER_LOOK_JS)) as LayerLook;
        if (notes) await goTo(page, 'vol01.xhtml');
        await page.evaluate(`(() => { const st = R.doc().createElement('style'); st.textContent = ${JSON.stringify(ONE_LOOK_CSS)}; R.doc().head.append(st); })()`);
        spoilt.main = ((await page.evaluate(LAYER_LOOK_JS)) as LayerLook).main;
        spoilt.forms.push(...((await page.evaluate(LAYER_LOOK_JS)) as LayerLook).forms);
        assert.ok(layerProblems(spoilt).length > 0, `${engine} ${book}: the check fails one look for all layers`);
      } finally {
        await page.close();
      }
    }
  });
}

for (const engine of ['epubjs', 'foliate'] as const) {
  test(`${engine}: table-of-contents subheadings and page-list entries of a volume land on their page from toc.xhtml at 1200×800 and 390×700 (六藝綱目); from within the volume shown, counted`, async (t) => {
    for (const size of SIZES) {
      const page = await browser.newPage();
      try {
        await page.setViewport({ width: size.width, height: size.height });
        await openToFirstVolume(page, work, engine, epubs.get('liuyi-gangmu')!);
        // The nav's entries into the first volume: its subheadings and a spread of its pages.
        const heads = (await page.evaluate(`[...R.doc().querySelectorAll('section.volume [id^="vol01-h"]')].map((h) => h.id)`)) as string[];
        const pages = ((await page.evaluate('R.pageHrefs()')) as string[]).filter((h) => h.includes('vol01.xhtml#')).map((h) => h.slice(h.indexOf('#') + 1));
        const ids = [...heads, ...pages.filter((_, i) => i % 4 === 2)];
        assert.ok(heads.length >= 3 && ids.length >= 10, `${engine}: subheadings and pages to go to`);
        const off: string[] = [];
        for (const id of ids) {
          assert.ok(await reach(page, engine, 'vol01.xhtml', id), `${engine} ${size.name}: ${id} on screen, reached from toc.xhtml`);
          // As a reader's own contents panel goes there while the volume is shown: the same section.
          await goTo(page, `vol01.xhtml#${ids[(ids.indexOf(id) + ids.length / 2) | 0] ?? ids[0]}`);
          await goTo(page, `vol01.xhtml#${id}`);
          if (!(await onScreen(page, id))) off.push(id);
        }
        t.diagnostic(`${engine} ${size.name}: ${ids.length} entries land from toc.xhtml; from within the volume shown, ${off.length} land off screen${off.length ? ` (${off.join(' ')})` : ''}`);
        // foliate lands them from within too; epub.js 0.3 does not always (its bug, above), which no package can change.
        if (engine === 'foliate') assert.deepEqual(off, [], `${engine} ${size.name}: from within the volume`);
      } finally {
        await page.close();
      }
    }
  });
}
