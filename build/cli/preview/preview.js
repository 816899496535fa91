// diaoban watch preview: the PDF's pages (pdf.js, canvas and text layer,
// rendered as they scroll into view) beside the EPUB (epub.js), updated
// on every good build (server-sent events) without losing the reader's place.
import * as pdfjs from '/vendor/pdf.mjs';

pdfjs.GlobalWorkerOptions.workerSrc = '/vendor/pdf.worker.mjs';

const WIDTH = 560;
const $ = (id) => document.getElementById(id);
const pagesEl = $('pages');
const scroller = $('pdf');
let shownGeneration = -1;
let doc = null;
let observer = null;
let book = null;
let rendition = null;
let epubPlace = null;

async function renderPage(div) {
  if (div.dataset.rendered === doc.__generation) return;
  div.dataset.rendered = doc.__generation;
  const current = doc;
  const page = await current.getPage(Number(div.dataset.page));
  const viewport = page.getViewport({ scale: WIDTH / page.getViewport({ scale: 1 }).width });
  const canvas = document.createElement('canvas');
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  const text = document.createElement('div');
  text.className = 'textLayer';
  await page.render({ canvasContext: canvas.getContext('2d'), viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] }).promise;
  if (current !== doc) return;
  div.querySelectorAll('canvas, .textLayer').forEach((e) => e.remove());
  div.prepend(canvas);
  div.append(text);
  await new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport }).render();
}

async function showPdf(state) {
  const next = await pdfjs.getDocument({ url: `/book.pdf?g=${state.generation}`, isEvalSupported: false }).promise;
  next.__generation = String(state.generation);
  const first = await next.getPage(1);
  const size = first.getViewport({ scale: WIDTH / first.getViewport({ scale: 1 }).width });
  const top = scroller.scrollTop;
  const old = doc;
  doc = next;
  observer?.disconnect();
  observer = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) renderPage(e.target).catch((err) => console.error(err));
  }, { root: scroller, rootMargin: '600px 0px' });
  const changed = new Set(state.changedPages);
  // Pages are kept (and re-rendered) where they are, so the scroll position — the reader's place — stays.
  for (let n = 1; n <= next.numPages; n++) {
    let div = pagesEl.children[n - 1];
    if (!div) {
      div = document.createElement('div');
      div.className = 'page';
      div.innerHTML = '<span class="label"></span>';
      pagesEl.append(div);
    }
    div.dataset.page = String(n);
    div.id = `page-${n}`;
    div.style.width = `${size.width}px`;
    div.style.height = `${size.height}px`;
    div.style.setProperty('--total-scale-factor', String(size.scale));
    div.classList.toggle('changed', changed.has(n));
    div.querySelector('.label').textContent = `p. ${n}`;
    observer.observe(div);
  }
  while (pagesEl.children.length > next.numPages) pagesEl.lastElementChild.remove();
  scroller.scrollTop = top;
  old?.destroy();
  const nav = $('changed');
  nav.replaceChildren();
  for (const c of state.changes) {
    const pages = [...c.pages, ...c.collation].filter((p) => !p.removed);
    if (!pages.length) continue;
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `${c.volumeLabel} ${pages[0].leaf}${pages.length > 1 ? `–${pages[pages.length - 1].leaf}` : ''}`;
    b.onclick = () => $(`page-${pages[0].pdfPage}`)?.scrollIntoView({ block: 'start' });
    nav.append(b);
  }
}

async function showEpub(state) {
  if (rendition) {
    epubPlace = rendition.currentLocation()?.start?.cfi ?? epubPlace;
    rendition.destroy();
    book.destroy();
  }
  const bytes = await (await fetch(`/book.epub?g=${state.generation}`)).arrayBuffer();
  book = window.ePub(bytes);
  const viewer = $('viewer');
  rendition = book.renderTo(viewer, { width: viewer.clientWidth, height: viewer.clientHeight, flow: 'paginated', spread: 'none' });
  await rendition.display(epubPlace ?? undefined).catch(() => rendition.display());
}

function showState(state) {
  const status = $('status');
  status.className = `status ${state.status}`;
  status.textContent = state.status === 'ok' ? 'up to date' : state.status === 'building' ? 'building…' : 'error: last good pages shown';
  $('summary').textContent = state.lines.filter((l) => /changed|no page changed/.test(l)).join(' · ');
  const error = $('error');
  error.hidden = !state.error || state.status !== 'error';
  error.textContent = state.error ?? '';
  $('messages').replaceChildren(
    ...state.messages.map((m) => {
      const li = document.createElement('li');
      li.className = m.severity;
      li.textContent = m.text;
      return li;
    }),
  );
}

let pending = Promise.resolve();
async function refresh() {
  const state = await (await fetch('/state')).json();
  showState(state);
  if (state.generation > 0 && state.generation !== shownGeneration) {
    shownGeneration = state.generation;
    await Promise.all([showPdf(state), showEpub(state).catch((e) => console.error(e))]);
    document.body.dataset.generation = String(state.generation);
  }
  document.body.dataset.build = String(state.build);
}

$('epub-next').onclick = () => rendition?.next();
$('epub-prev').onclick = () => rendition?.prev();
const events = new EventSource('/events');
events.addEventListener('build', () => {
  pending = pending.then(refresh).catch((e) => console.error(e));
});
