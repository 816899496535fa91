import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderVolume, volumeFilename } from './xhtml.js';
import { commentary, h, note, p, pos, sampleTree, t, vol } from './fixtures.test-util.js';
import type { App } from '../../tree/types.js';
import { findAll, parseXhtml, readVolume, textOf } from './read-epub.test-util.js';
import { legendPage } from './front.js';
import { Element } from 'domhandler';

const wrap = (body: string): string => `<html><body>${body}</body></html>`;

test('volume files have explicit ASCII names, padded to the volume count', () => {
  assert.equal(volumeFilename(0, 2), 'vol01.xhtml');
  assert.equal(volumeFilename(16, 17), 'vol17.xhtml');
  assert.equal(volumeFilename(4, 120), 'vol005.xhtml');
});

test('main text is plain; each inline note is a <small> whose class names its layer, with epub:type and role', () => {
  const tree = sampleTree();
  const doc = renderVolume(tree.children[0], 0, 2, { popup: new Set() });
  const nodes = parseXhtml(wrap(doc.body));
  const notes = findAll(nodes, (e) => e.name === 'small');
  const byLayer = new Map(notes.map((e) => [e.attribs.class, e]));
  for (const layer of ['zhu', 'yinyi', 'shu', 'chuchu', 'an']) {
    const e = byLayer.get(`note note-${layer}`);
    assert.ok(e, `a note of layer ${layer}`);
    assert.equal(e.attribs['epub:type'], `diaoban:${layer}`);
    assert.equal(e.attribs.role, 'note');
  }
  // Each note is named by its layer for assistive technology.
  assert.deepEqual(
    notes.map((e) => e.attribs['aria-label']),
    ['注', '音義', '疏', '出處', '案'],
  );
  // The 音義 note sits inside the 注 note.
  const zhu = byLayer.get('note note-zhu')!;
  assert.equal(findAll(zhu.children, (e) => e.name === 'small')[0].attribs.class, 'note note-yinyi');
  // Commentary paragraph keeps its layer.
  const para = findAll(nodes, (e) => e.name === 'p' && (e.attribs.class ?? '').startsWith('commentary'))[0];
  assert.equal(para.attribs.class, 'commentary note-fuzhu');
  // The first paragraph of the main text holds no markup other than the notes.
  const first = findAll(nodes, (e) => e.name === 'p' && e.attribs.class === 'text')[0];
  assert.ok(first.children.every((c) => c.type === 'text' || (c instanceof Element && c.name === 'small')));
});

test('an unknown layer survives as class note-<id>', () => {
  const tree = sampleTree();
  const doc = renderVolume(tree.children[1], 1, 2, { popup: new Set() });
  assert.match(
    doc.body,
    /<small class="note note-mystery" epub:type="diaoban:mystery" role="note" aria-label="mystery"><span class="layer-label" aria-hidden="true">〔mystery〕<\/span>未知之層<\/small>/,
  );
  assert.ok(doc.layers.has('mystery'));
});

test('pop-up layers become numbered noterefs → asides in the volume\'s notes document, linking back; other layers stay inline', () => {
  const tree = sampleTree();
  const doc = renderVolume(tree.children[0], 0, 2, { popup: new Set(['shu', 'fuzhu']) });
  assert.ok(doc.notes);
  assert.equal(doc.notes.filename, 'vol01-notes.xhtml');
  const nodes = parseXhtml(wrap(doc.body + doc.notes.body));
  const refs = findAll(nodes, (e) => e.name === 'a' && e.attribs.role === 'doc-noteref');
  assert.deepEqual(
    refs.map((r) => [r.attribs.class, r.attribs['epub:type'], r.attribs.role, r.attribs.href]),
    [
      ['noteref noteref-shu', 'noteref', 'doc-noteref', 'vol01-notes.xhtml#fn1'],
      ['noteref noteref-fuzhu', 'noteref', 'doc-noteref', 'vol01-notes.xhtml#fn2'],
    ],
  );
  // Numbered by layer: the reference and the backlink show the same label and number.
  assert.deepEqual(refs.map((r) => textOf(r.children)), ['疏一', '附注一']);
  const asides = findAll(nodes, (e) => e.name === 'aside');
  assert.deepEqual(
    asides.map((a) => [a.attribs.id, a.attribs.class, a.attribs['epub:type'], a.attribs.role]),
    [
      ['fn1', 'note note-shu popup', 'footnote', 'doc-footnote'],
      ['fn2', 'commentary note-fuzhu popup', 'footnote', 'doc-footnote'],
    ],
  );
  assert.equal(textOf(asides[0].children), '〔疏一〕疏曰此一經論戒賓之事');
  assert.equal(asides[0].attribs['aria-label'], '疏一');
  // Every aside leads with a link back to its reference, which exists.
  for (const a of asides) {
    const back = findAll(a.children, (e) => e.name === 'a')[0];
    assert.equal(back.attribs.role, 'doc-backlink');
    assert.equal(back.attribs.href, `vol01.xhtml#${a.attribs.id}-ref`);
    assert.equal(refs.filter((r) => r.attribs.id === `${a.attribs.id}-ref`).length, 1, `reference of ${a.attribs.id}`);
  }
  // The asides do not interrupt the running text: all of them are in the notes document.
  assert.doesNotMatch(doc.body, /<aside/);
  const [notes] = findAll(parseXhtml(wrap(doc.notes.body)), (e) => e.name === 'section');
  assert.equal(notes.attribs.class, 'footnotes');
  assert.equal(findAll(notes.children, (e) => e.name === 'aside').length, asides.length);
  // 注 stays inline.
  assert.ok(findAll(nodes, (e) => e.attribs.class === 'note note-zhu').length === 1);
});

test('a pop-up commentary paragraph at the head of a volume gets its own noteref anchor', () => {
  const v = vol('卷一', 1, commentary('shu', '疏文'), p('text', '經文'));
  const doc = renderVolume(v, 0, 1, { popup: new Set(['shu']) });
  assert.match(doc.body, /<p class="noteref-anchor"><a class="noteref noteref-shu"[^>]*>疏一<\/a><\/p>\n<p class="text">經文<\/p>/);
  assert.match(doc.notes!.body, /<aside id="fn1"[^>]*><p><a class="backlink" href="vol01.xhtml#fn1-ref" role="doc-backlink">〔疏一〕<\/a>疏文<\/p><\/aside>/);
  assert.equal(readVolume(wrap(doc.body), wrap(doc.notes!.body)).text, '疏文經文');
});

test('nested pop-up notes keep reading order', () => {
  const v = vol('卷一', 1, p('text', '甲', note('shu', '乙', note('shu', '丙'), '丁'), '戊'));
  const doc = renderVolume(v, 0, 1, { popup: new Set(['shu']) });
  const r = readVolume(wrap(doc.body), wrap(doc.notes!.body));
  assert.equal(r.text, '甲乙丙丁戊');
  assert.deepEqual(r.notes, [
    ['shu', '乙丙丁'],
    ['shu', '丙'],
  ]);
});

test('TOC nests volumes → headings by depth', () => {
  const v = vol('卷一', 1, h(1, '嘉禮'), h(2, '士冠禮'), h(3, '鹿中'), h(3, '兕中'), h(2, '士昏禮'), h(1, '賓禮'), h(3, '孤項'));
  const doc = renderVolume(v, 0, 1, { popup: new Set() });
  const shape = (e: { label: string; children: unknown[] }): unknown => [e.label, (e.children as Array<typeof e>).map(shape)];
  assert.deepEqual(shape(doc.toc), [
    '卷一',
    [
      ['嘉禮', [['士冠禮', [['鹿中', []], ['兕中', []]]], ['士昏禮', []]]],
      ['賓禮', [['孤項', []]]],
    ],
  ]);
  assert.equal(doc.toc.children[0].href, 'vol01.xhtml#vol01-h1');
  assert.match(doc.body, /<h2 id="vol01-h1" class="heading heading-1">嘉禮<\/h2>/);
  assert.match(doc.body, /<h4 id="vol01-h3" class="heading heading-3">鹿中<\/h4>/);
});

test('text is escaped', () => {
  const doc = renderVolume(vol('卷<一>', 1, p('text', 'a<b>&c')), 0, 1, { popup: new Set() });
  assert.match(doc.body, /a&lt;b&gt;&amp;c/);
  assert.match(doc.body, /aria-label="卷&lt;一&gt;"/);
});

test('the legend names each layer of the tree and shows it set as it is in the text', () => {
  const { body: html, notes } = legendPage(sampleTree(), new Set(['shu']));
  for (const label of ['注', '音義', '附注', '出處', '案', 'mystery']) assert.ok(html.includes(`<span class="legend-label">${label}</span>`), label);
  assert.match(html, /<small class="note note-zhu"[^>]*>主人州長也長丁丈反<\/small>/);
  assert.match(html, /<small class="note note-yinyi"[^>]*><span class="layer-label" aria-hidden="true">〔音義〕<\/span>長丁丈反<\/small>/);
  // The pop-up sample in the legend's notes document, linking back: no link within one document (epub.js lands those off).
  const [, n] = /<a class="noteref noteref-shu"[^>]*href="legend-notes\.xhtml#legend-(\d+)"[^>]*>疏<\/a>/.exec(html) ?? [];
  assert.ok(n, html);
  assert.match(html, new RegExp(`id="legend-${n}-ref"`));
  assert.match(notes ?? '', new RegExp(`<aside id="legend-${n}" class="note note-shu popup" epub:type="footnote"[^>]*><p><a class="backlink" href="legend\\.xhtml#legend-${n}-ref"`));
  assert.doesNotMatch(html, /<aside/);
  // No pop-up layer, no correction: no notes document.
  assert.equal(legendPage(sampleTree(), new Set()).notes, undefined);
});

test('a layer is told apart without colour: its printed label in front, unless its text starts with it; 注 unlabelled', () => {
  const v = vol('卷一', 1, p('text', '經', note('zhu', '注文'), note('yinyi', '食亦反'), note('shu', '疏曰云云'), note('shu', '又云'), { ...note('jijie', '徐廣曰'), label: '集解' }));
  const doc = renderVolume(v, 0, 1, { popup: new Set() });
  const labels = findAll(parseXhtml(wrap(doc.body)), (e) => e.name === 'small').map((e) => {
    const l = findAll(e.children, (x) => x.attribs.class === 'layer-label')[0];
    return l ? textOf(l.children) : '';
  });
  assert.deepEqual(labels, ['', '〔音義〕', '', '〔疏〕', '〔集解〕']);
  assert.equal(readVolume(wrap(doc.body)).text, '經注文食亦反疏曰云云又云徐廣曰');
});

test('a note the source labels 【注】 but the tool files under 案 says 注 on the page and to screen readers, its layer kept in the class', () => {
  const v = vol('卷一', 1, p('text', '經', { ...note('an', '某說非也'), label: '注' }));
  const small = findAll(parseXhtml(wrap(renderVolume(v, 0, 1, { popup: new Set() }).body)), (e) => e.name === 'small')[0];
  assert.equal(small.attribs.class, 'note note-an');
  assert.equal(small.attribs['aria-label'], '注');
  assert.equal(textOf(findAll(small.children, (x) => x.attribs.class === 'layer-label')[0].children), '〔注〕');
});

test('headings never skip a level: a depth-2 heading after the volume title is h2', () => {
  const v = vol('禮書卷一百十', 110, p('title', '禮書卷一百十'), h(2, '鹿中'), h(3, '兕中'), h(1, '嘉禮'), h(3, '孤項'));
  const doc = renderVolume(v, 0, 1, { popup: new Set() });
  const levels = [...doc.body.matchAll(/<h(\d)/g)].map((m) => Number(m[1]));
  assert.deepEqual(levels, [1, 2, 3, 2, 3]);
  for (let i = 1; i < levels.length; i++) assert.ok(levels[i] <= levels[i - 1] + 1, `h${levels[i - 1]} → h${levels[i]}`);
});

test('characters no font draws and Private Use Area characters are 〓 with their code point; mapped glyphs show the mapping', () => {
  const pua = { type: 'glyph' as const, value: '\uf530', codePoint: 0xf530, position: sampleTree().children[0].position };
  const mapped = { ...pua, value: '\ue000', codePoint: 0xe000, replacement: '䡾' };
  const entity = { type: 'glyph' as const, value: '&KR0433;', entity: 'KR0433', position: pua.position };
  const v = vol('卷一', 1, p('text', '方田\ue0c5米', pua, mapped, entity, '丁\u{30000}'));
  const drawable = (cp: number): boolean => cp !== 0x30000;
  const doc = renderVolume(v, 0, 1, { popup: new Set(), drawable });
  assert.doesNotMatch(doc.body, /[\uE000-\uF8FF]/u, 'no Private Use Area character');
  assert.doesNotMatch(doc.body, /\u{30000}/u, 'nothing no font draws');
  assert.match(doc.body, /方田<span class="glyph unmapped" title="U\+E0C5">〓<\/span>米/);
  assert.match(doc.body, /<span class="glyph unmapped" title="U\+F530">〓<\/span><span class="glyph" title="U\+E000">䡾<\/span><span class="glyph unmapped" title="&amp;KR0433;">〓<\/span>/);
  assert.match(doc.body, /丁<span class="glyph unmapped" title="U\+30000">〓<\/span>/);
  assert.deepEqual(
    doc.missing.map((m) => m.source),
    ['U+E0C5', 'U+F530', '&KR0433;', 'U+30000'],
  );
  // Without fonts, only Private Use Area characters are replaced.
  assert.match(renderVolume(v, 0, 1, { popup: new Set() }).body, /丁\u{30000}/u);
});

test('the legend lists the characters shown as 〓 with the code points of the source', () => {
  const html = legendPage(sampleTree(), new Set(), { missing: [{ source: 'U+F530', count: 2, volume: '卷一' }] }).body;
  assert.match(html, /<li><span class="glyph unmapped" title="U\+F530">〓<\/span>　U\+F530　卷一，2處<\/li>/);
});

test('the 校勘記 shows a glyph it cites (「&KR1284;」) as the text does, its picture shipped; characters alone stay text (control)', () => {
  const app = (text: string): App => ({ type: 'app', apparatus: { base: '某', readings: [{ witness: '四庫本', text: '底', kind: 'reading' }], text }, children: [t('某')], position: pos });
  const render = (text: string) => renderVolume(vol('卷一', 1, p('text', '甲', app(text), '乙')), 0, 1, { popup: new Set(), picture: (d) => (d.image ? `images/${d.image}.png` : undefined) });
  const doc = render('「&KR1284;」，四庫本作「底」');
  assert.ok(doc.collation, 'a 校勘記');
  const imgs = findAll(parseXhtml(wrap(doc.collation.body)), (e) => e.name === 'img');
  assert.deepEqual(imgs.map((e) => [e.attribs.class, e.attribs.src]), [['gaiji', 'images/KR1284.png']]);
  assert.ok(imgs[0].attribs.alt, 'with an alt text');
  assert.deepEqual(doc.pictures.map((x) => x.href), ['images/KR1284.png'], 'the picture is shipped');
  // The code stays in the attributes (alt, the back link's label: the source's writing), never in the shown text.
  assert.doesNotMatch(doc.collation.body.replace(/<[^>]*>/gu, ''), /KR1284/u);
  const plain = render('「貴」，四庫本作「賤」');
  assert.deepEqual(findAll(parseXhtml(wrap(plain.collation!.body)), (e) => e.name === 'img'), []);
  assert.deepEqual(plain.pictures, []);
});
