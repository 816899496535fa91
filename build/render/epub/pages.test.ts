/**
 * Page numbers: the PDF's pages found in the tree (from the layout), their
 * labels as the PDF prints them, the source edition's pages from anchors, and
 * the markers the renderer writes for both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import type { BookLayout, Page, PageSpec } from '../../layout/types.js';
import type { Anchor, Inline, Root, Volume } from '../../tree/types.js';
import { computeGeometry, parseTemplateDefinition, renderHtml, type Template } from '../pdf/index.js';
import { SAMPLES, REPO, loadSample } from '../../engine/samples.js';
import { printPageList, pageStarts, sourcePageList, volumeUnits, type PageList } from './pages.js';
import { renderVolume } from './xhtml.js';
import { META, commentary, note, p, vol } from './fixtures.test-util.js';
import { findAll, parseXhtml } from './read-epub.test-util.js';

/** Gives every node of the tree the offsets a parser would (one source file, in reading order). */
function positioned(tree: Root): Root {
  let offset = 0;
  const at = (length: number) => {
    const start = { line: 1, column: offset + 1, offset };
    offset += length;
    return { file: 'src.txt', start, end: { line: 1, column: offset + 1, offset } };
  };
  const walk = (n: Inline): void => {
    if (n.type === 'text' || n.type === 'lacuna' || n.type === 'glyph') n.position = at(n.value.length);
    else if ('children' in n) n.children.forEach(walk);
    offset += 1; // a bracket or a line end between nodes
  };
  for (const v of tree.children) for (const b of v.children) b.children.forEach(walk);
  return tree;
}

/** A tiny page (3 columns of 4 cells, no indents), so that notes cross pages. */
const SPEC: PageSpec = (() => {
  const s = pageSpecFor('modern', { columns: 3, cells: 4 });
  for (const role of Object.keys(s.indents) as Array<keyof PageSpec['indents']>) s.indents[role] = { first: 0, rest: 0 };
  return { ...s, bylineFoot: 0 };
})();

/** Distinct characters, so that a character tells where it is. */
function taker(): (n: number) => string {
  let next = 0x4e00;
  return (n) => Array.from({ length: n }, () => String.fromCodePoint(next++)).join('');
}

function handTree(): Root {
  const take = taker();
  return positioned({
    type: 'root',
    edition: { ...META, title: '測試' },
    children: [
      vol(
        '測試卷一',
        1,
        p('text', take(6), note('zhu', take(14)), take(2), note('shu', take(20)), take(3)),
        // A commentary paragraph long enough to fill a page with note characters only.
        commentary('zhu', take(60)),
        p('text', take(5)),
      ),
    ],
  });
}

/** The first character of each page, as the layout sets it. */
function firstChars(pages: readonly Page[]): Array<string | undefined> {
  return pages.map((page) => {
    const col = [...page.columns].sort((a, b) => a.index - b.index).find((c) => c.runs.length);
    const run = col?.runs[0];
    if (!run) return undefined;
    return run.type === 'text' ? [...run.text][0] : [...(run.right[0]?.text ?? '')][0];
  });
}

test('each page of the layout starts at its first character in the tree, also inside notes and on a page of notes only', () => {
  const tree = handTree();
  const layout = layoutBook(tree, SPEC);
  const pages = layout.volumes[0].pages;
  assert.ok(pages.length >= 4, `several pages (${pages.length})`);
  const runs = pages.map((pg) => pg.columns.flatMap((c) => c.runs));
  assert.ok(runs.some((r) => r[0]?.type === 'note'), 'a page starts inside a note');
  assert.ok(runs.some((r) => r.length && r.every((x) => x.type === 'note')), 'a page holds notes only');
  const units = volumeUnits(tree.children[0]);
  const starts = pageStarts(units, pages);
  const firsts = firstChars(pages);
  starts.forEach((s, i) => {
    assert.notEqual(s, undefined, `page ${i + 1} found`);
    // The characters are distinct: the unit must be the one holding the page's first character.
    assert.equal(s, units.findIndex((u) => u.text === firsts[i]), `page ${i + 1} starts at ${firsts[i]}`);
  });
});

test('the renderer puts each pagebreak right before the page’s first character, or after the noteref of the pop-up it falls in', () => {
  const tree = handTree();
  const layout = layoutBook(tree, SPEC);
  const list = printPageList(tree, layout, { style: 'folio', source: 'PDF' });
  const firsts = firstChars(layout.volumes[0].pages);
  for (const popup of [new Set<string>(), new Set(['shu'])]) {
    const doc = renderVolume(tree.children[0], 0, 1, { popup, pages: list.volumes[0] });
    assert.equal(doc.pageBreaks, layout.volumes[0].pages.length);
    const main = doc.body.slice(0, doc.body.indexOf('</section>'));
    const markers = [...main.matchAll(/<span id="(page-\d+)" class="pagebreak"[^>]*><\/span>((?:<[^>]+>)*)(.)/gu)];
    assert.equal(markers.length, firsts.length, 'every marker in the running text');
    markers.forEach((m, i) => {
      if (popup.size && m[2] === '' && /noteref/.test(main.slice(Math.max(0, m.index! - 200), m.index))) {
        // After a pop-up's noteref: the page starts inside that note.
        const ref = /href="vol01-notes\.xhtml#(fn\d+)"[^>]*>[^<]*<\/a>$/.exec(main.slice(0, m.index))?.[1];
        assert.ok(ref, `page ${i + 1} follows a noteref`);
        const notes = doc.notes!.body;
        const aside = notes.slice(notes.indexOf(`<aside id="${ref}"`));
        assert.ok(aside.slice(0, aside.indexOf('</aside>')).includes(firsts[i]!), `page ${i + 1}'s first character is in ${ref}`);
      } else {
        assert.equal(m[3], firsts[i], `marker ${m[1]} before the first character of page ${i + 1}`);
      }
    });
  }
});

test('labels: leaf and side (四庫), folio (modern), volume named in a book of several, front matter apart', () => {
  const take = taker();
  const make = (...vols: Volume[]): Root => positioned({ type: 'root', edition: { ...META, title: '書' }, children: vols });
  const one = make(vol('書卷一', 1, p('text', take(40))));
  const leaf = printPageList(one, layoutBook(one, SPEC), { style: 'leaf', source: 'PDF' });
  assert.deepEqual(leaf.volumes[0].map((b) => b.label), ['一a', '一b', '二a', '二b']);
  const folio = printPageList(one, layoutBook(one, SPEC), { style: 'folio', source: 'PDF' });
  assert.deepEqual(folio.volumes[0].map((b) => b.label), ['一', '二', '三', '四']);
  // 卷一 opens with its title, then the front matter (as 禮經本義 does): the title's page is front matter too.
  const two = make(vol('書卷一', 1, p('title', take(2)), p('front', take(13)), p('text', take(3))), vol('書卷二', 2, p('text', take(3))));
  const labels = printPageList(two, layoutBook(two, SPEC), { style: 'leaf', source: 'PDF' }).volumes.map((v) => v.map((b) => b.label));
  // 卷一 ends on a recto: the PDF's blank verso after it is in the list too.
  assert.deepEqual(labels, [['卷首 一a', '卷首 一b', '卷一 一a', '卷一 一b'], ['卷二 一a']]);
});

function template(name: string): Template {
  const read = (p: string): string => readFileSync(join(REPO, p), 'utf8');
  return {
    definition: parseTemplateDefinition(JSON.parse(read(`templates/${name}/template.json`)), name),
    pageHtml: read(`templates/${name}/page.html`),
    css: read(`styles/${name}.css`),
    baseCss: read('styles/base.css'),
  };
}

/** What the PDF prints on each page that has text: the 版心's leaf (siku, in the page's filling) or the folio (modern, the placeholder's string for its margin box). */
function printedNumbers(layout: BookLayout, name: string): string[] {
  const t = template(name);
  const { html } = renderHtml(layout, {
    meta: { title: 'x', author: 'y', language: 'zh-Hant' },
    template: t,
    geometry: computeGeometry(t.definition, layout.spec),
    fonts: [],
  });
  const fills = JSON.parse(/<script type="application\/json" id="diaoban-fill">([\s\S]*?)<\/script>/.exec(html)![1]) as string[];
  const placeholders = /<template id="diaoban-pages">([\s\S]*?)<\/template>/.exec(html)![1].split('<div class="pg ').slice(1);
  assert.equal(placeholders.length, fills.length);
  const pages = placeholders.map((s, i) => ({ s, fill: fills[i] })).filter(({ s }) => !s.startsWith('recto blank') && !s.startsWith('verso blank'));
  return pages.map(({ s, fill }) => {
    if (name === 'siku') return /<div class="bx-leaf">([^<]*)<\/div>/.exec(fill)![1] + (s.startsWith('recto') ? 'a' : 'b');
    return /<span class="rh-folio">([^<]*)<\/span>/.exec(s)![1];
  });
}

test('the page list says what the PDF prints on each page (禮經本義 卷一–二 with its 提要, 四庫; 儀禮注疏, modern)', async () => {
  for (const [work, style] of [
    ['lijing-benyi', 'leaf'],
    ['yili-zhushu', 'folio'],
  ] as const) {
    const { tree: full, config } = await loadSample(work);
    const tree: Root = { ...full, children: full.children.slice(0, 2) };
    const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
    const list = printPageList(tree, layout, { style, source: 'PDF' });
    const printed = printedNumbers(layout, config.meta.template);
    const labels = list.volumes.flat().map((b) => b.label.replace(/^\S+ /, ''));
    assert.deepEqual(labels, printed, work);
  }
});

test('every sample: each page with text found in order at its first character; a page break for every page', async () => {
  for (const work of SAMPLES) {
    const { tree, config } = await loadSample(work);
    const layout = layoutBook(tree, pageSpecFor(config.meta.template, config.layout));
    tree.children.forEach((volume, v) => {
      const pages = layout.volumes[v].pages;
      const units = volumeUnits(volume);
      // The renderer counts the characters as volumeUnits does, so its markers stand where the units say.
      for (const popup of [new Set<string>(), new Set(['shu', 'fuzhu', 'zhu'])])
        assert.equal(renderVolume(volume, v, tree.children.length, { popup }).units, units.length, `${work} vol ${v + 1}: units`);
      const starts = pageStarts(units, pages);
      const firsts = firstChars(pages);
      let last = -1;
      pages.forEach((page, i) => {
        if (!page.columns.some((c) => c.runs.length)) return;
        const s = starts[i];
        assert.ok(s !== undefined && s > last, `${work} vol ${v + 1} page ${page.pageInVolume}: found after the page before`);
        assert.equal([...units[s].text][0], firsts[i], `${work} vol ${v + 1} page ${page.pageInVolume} starts with its first character`);
        last = s;
      });
    });
    const list = printPageList(tree, layout, { style: 'leaf', source: 'PDF' });
    assert.equal(list.volumes.flat().length, layout.volumes.flatMap((v) => v.pages).length, `${work}: every page in the page list`);
  }
});

function anchor(juan: number, leaf: string): Anchor {
  return { type: 'anchor', kind: 'page', value: `<pb:KR1d0028_WYG_${String(juan).padStart(3, '0')}-${leaf}>`, edition: 'WYG', juan, leaf, position: META_POS };
}
const META_POS = { file: 'src.txt', start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

test('the source edition’s pages: a break at each Kanripo page anchor, labelled by 卷 and leaf; none without anchors', () => {
  const tree: Root = {
    type: 'root',
    edition: META,
    children: [vol('儀禮注疏卷五', 5, p('text', anchor(5, '1a'), '士昏禮', note('zhu', '鄭', anchor(5, '1b'), '注')), p('text', '下達', anchor(5, '2a')), p('text', '納采'))],
  };
  const list = sourcePageList(tree) as PageList;
  assert.equal(list.source, '文淵閣四庫全書（WYG）');
  assert.deepEqual(
    list.volumes[0].map((b) => [b.index, b.label, b.id]),
    [
      [0, '卷五 1a', 'page-WYG-5-1a'],
      [4, '卷五 1b', 'page-WYG-5-1b'],
      [7, '卷五 2a', 'page-WYG-5-2a'],
    ],
  );
  const doc = renderVolume(tree.children[0], 0, 1, { popup: new Set(), pages: list.volumes[0] });
  const body = parseXhtml(`<html><body>${doc.body}</body></html>`);
  const markers = findAll(body, (e) => e.attribs['epub:type'] === 'pagebreak');
  assert.deepEqual(
    markers.map((m) => [m.attribs.id, m.attribs.role, m.attribs['aria-label']]),
    [
      ['page-WYG-5-1a', 'doc-pagebreak', '卷五 1a'],
      ['page-WYG-5-1b', 'doc-pagebreak', '卷五 1b'],
      ['page-WYG-5-2a', 'doc-pagebreak', '卷五 2a'],
    ],
  );
  assert.match(doc.body, /^<section[^>]*>\n<span id="page-WYG-5-1a"[^>]*><\/span><p class="text">士昏禮<small[^>]*>鄭<span id="page-WYG-5-1b"/);
  assert.match(doc.body, /下達<\/p>\n<span id="page-WYG-5-2a"[^>]*><\/span><p class="text">納采/);
  assert.equal(sourcePageList({ ...tree, children: [vol('卷一', 1, p('text', '無頁'))] }), undefined);
  // A second witness's markers among them (Kanripo's <md:…_SBCK_…>): the list follows the edition most marked alone.
  const sbck = (leaf: string): Anchor => ({ type: 'anchor', kind: 'page', value: `<md:KR1d0028_SBCK_005-${leaf}>`, edition: 'SBCK', juan: 5, leaf, position: META_POS });
  const two = sourcePageList({ ...tree, children: [vol('儀禮注疏卷五', 5, p('text', anchor(5, '1a'), '士昏禮', sbck('1a'), '下達', anchor(5, '1b'), '納采', anchor(5, '2a')))] }) as PageList;
  assert.deepEqual(two.volumes[0].map((b) => b.id), ['page-WYG-5-1a', 'page-WYG-5-1b', 'page-WYG-5-2a']);
  assert.equal(two.source, '文淵閣四庫全書（WYG）');
});
