/** The NCX's page list for EPUB 2 reading systems: one reading order over the TOC and the pages. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ncxNavigation } from './ncx.js';
import { renderEpub } from './index.js';
import { sampleTree } from './fixtures.test-util.js';
import { printPageList } from './pages.js';
import { layoutBook, pageSpecFor } from '../../layout/index.js';
import { findAll, parseXhtml, unzip } from './read-epub.test-util.js';

test('playOrder interleaves TOC entries and pages by their place, a page before a heading at the same place, shared by one target', () => {
  const toc = [
    { label: '卷一', href: 'vol01.xhtml', children: [{ label: '士冠禮', href: 'vol01.xhtml#h1', children: [], at: 10 }] },
    { label: '卷二', href: 'vol02.xhtml', children: [] },
  ];
  const pages = [
    { label: '一a', href: 'vol01.xhtml#page-1', at: 0 },
    { label: '一b', href: 'vol01.xhtml#page-2', at: 10 },
    { label: '二a', href: 'vol02.xhtml#page-3', at: 0 },
  ];
  const { points, pages: targets } = ncxNavigation(toc, pages, ['cover.xhtml', 'vol01.xhtml', 'vol02.xhtml']);
  assert.deepEqual(
    [points[0].playOrder, targets[0].playOrder, targets[1].playOrder, points[0].children[0].playOrder, points[1].playOrder, targets[2].playOrder],
    [1, 2, 3, 4, 5, 6],
  );
  // Two entries for one place share its playOrder.
  const shared = ncxNavigation([{ label: '卷一', href: 'vol01.xhtml#page-1', children: [], at: 0 }], [pages[0]], ['vol01.xhtml']);
  assert.equal(shared.points[0].playOrder, shared.pages[0].playOrder);
});

test('the EPUB\'s NCX has a pageList with every page of the nav\'s page-list, in order, playOrder rising along the book', async () => {
  const tree = sampleTree();
  const pageList = printPageList(tree, layoutBook(tree, pageSpecFor('siku')), { style: 'leaf', source: 'test.pdf' });
  const { text } = await unzip(await renderEpub(tree, { popupLayers: ['shu'], pageList }));
  const ncx = parseXhtml(text.get('OEBPS/toc.ncx')!);
  const nav = parseXhtml(text.get('OEBPS/toc.xhtml')!);
  const listed = findAll(findAll(nav, (e) => e.name === 'nav' && e.attribs['epub:type'] === 'page-list'), (e) => e.name === 'a').map((a) => a.attribs.href);
  const targets = findAll(ncx, (e) => e.name === 'pageTarget');
  assert.ok(targets.length > 1);
  assert.deepEqual(targets.map((t) => findAll(t.children, (e) => e.name === 'content')[0].attribs.src), listed);
  const orders = targets.map((t) => Number(t.attribs.playOrder));
  assert.ok(orders.every((o, i) => i === 0 || o > orders[i - 1]), `rising: ${orders.join(' ')}`);
  // Every playOrder from 1 to the last is used (navPoints and pages together).
  const all = [...findAll(ncx, (e) => e.name === 'navPoint'), ...targets].map((e) => Number(e.attribs.playOrder));
  assert.deepEqual([...new Set(all)].sort((a, b) => a - b), Array.from({ length: Math.max(...all) }, (_, i) => i + 1));
  // Negative control: without a page list, no pageList.
  const none = (await unzip(await renderEpub(tree, {}))).text.get('OEBPS/toc.ncx')!;
  assert.doesNotMatch(none, /<pageList>/);
});
