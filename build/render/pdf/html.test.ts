import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFName, PDFDict, PDFArray, PDFHexString } from 'pdf-lib';
import { pageSpecFor } from '../../layout/index.js';
import type { BookLayout, Page } from '../../layout/types.js';
import {
  chineseNumeral,
  computeGeometry,
  cellBox,
  noteBox,
  outlineEntries,
  parsePageSize,
  parseTemplateDefinition,
  pageInnerHtml,
  planPages,
  renderHtml,
  repairRadical,
  repairToUnicodeCMap,
  saveDeterministic,
  setInfo,
  setOutline,
  volumeLabel,
  partLabel,
  MISSING_GLYPH,
  fontSourcesWithOverrides,
  type RenderOptions,
  type Template,
} from './index.js';
import { syntheticLayout } from './synthetic.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function template(name: string): Template {
  return {
    definition: parseTemplateDefinition(JSON.parse(readFileSync(join(ROOT, 'templates', name, 'template.json'), 'utf8')), name),
    pageHtml: readFileSync(join(ROOT, 'templates', name, 'page.html'), 'utf8'),
    css: readFileSync(join(ROOT, 'styles', `${name}.css`), 'utf8'),
    baseCss: readFileSync(join(ROOT, 'styles', 'base.css'), 'utf8'),
  };
}

function options(layout: BookLayout, name = 'siku', covers?: (cp: number) => boolean): RenderOptions {
  const t = template(name);
  return {
    meta: { title: '禮經本義', author: '蔡德晉', language: 'zh-Hant' },
    template: t,
    geometry: computeGeometry(t.definition, layout.spec),
    fonts: [{ local: 'Noto Serif CJK TC' }, { file: '/usr/share/fonts/truetype/hanazono/HanaMinA.ttf' }],
    covers,
  };
}

/** The document as PAGINATE_SCRIPT leaves it, without the page model: the head, then each placeholder filled with its page. */
function filled(html: string): string {
  const fills = JSON.parse(/<script type="application\/json" id="diaoban-fill">([\s\S]*?)<\/script>/.exec(html)![1]) as string[];
  const placeholders = /<template id="diaoban-pages">\n([\s\S]*?)\n<\/template>/.exec(html)![1].split('\n');
  assert.equal(placeholders.length, fills.length);
  return html.slice(0, html.indexOf('<body')) + placeholders.map((p, i) => p.replace(/<\/div>$/, `${fills[i]}</div>`)).join('\n');
}

function page(partial: Partial<Page> & Pick<Page, 'columns'>): Page {
  return { number: 1, pageInVolume: 1, leaf: 1, side: 'recto', volume: 1, volumeTitle: '禮經本義卷一', bookmarks: [], ...partial };
}

test('chineseNumeral writes leaf numbers as books do', () => {
  assert.deepEqual([1, 10, 12, 20, 21, 99, 100, 105, 112, 120].map(chineseNumeral), [
    '一', '十', '十二', '二十', '二十一', '九十九', '一百', '一百〇五', '一百一十二', '一百二十',
  ]);
});

test('parsePageSize reads named and explicit sizes', () => {
  assert.deepEqual(parsePageSize('A5'), [148, 210]);
  assert.deepEqual(parsePageSize('b5'), [176, 250]);
  assert.deepEqual(parsePageSize('148mm 210mm'), [148, 210]);
  assert.deepEqual(parsePageSize('A5 landscape'), [210, 148]);
  assert.deepEqual(parsePageSize('10cm 20cm'), [100, 200]);
  assert.throws(() => parsePageSize('huge'), /unknown page size/);
});

test('the grid fills the page area: columns and the 版心 side by side, mirrored on the verso', () => {
  const spec = pageSpecFor('siku');
  const g = computeGeometry(template('siku').definition, spec);
  assert.equal(g.columns, 8);
  assert.equal(g.cells, 21);
  // Columns plus 版心 plus frame add up to the area width, within rounding.
  const bw = g.banxin!.recto.width;
  assert.ok(Math.abs(g.columns * g.colWidth + bw + 2 * g.frame - g.area.width) < 0.01);
  assert.ok(Math.abs(g.cells * g.cellHeight + 2 * g.frame - g.area.height) < 0.01);
  // Recto: the 版心 is at the left (fore-edge); column 0 at the right. Verso: mirrored.
  assert.ok(g.banxin!.recto.left < g.banxin!.verso.left);
  const r0 = cellBox(g, 'recto', 0, 0);
  const r7 = cellBox(g, 'recto', 7, 0);
  assert.ok(r0.x > r7.x, 'column 0 is the rightmost');
  assert.ok(r7.x >= g.banxin!.recto.left + bw - 0.01, 'the columns do not overlap the 版心 on the recto');
  const v0 = cellBox(g, 'verso', 0, 0);
  assert.ok(v0.x + v0.w <= g.banxin!.verso.left + 0.01, 'the columns do not overlap the 版心 on the verso');
  // Note sub-columns halve the column; right first.
  const nr = noteBox(g, 'recto', 2, 'right', 5);
  const nl = noteBox(g, 'recto', 2, 'left', 5);
  assert.ok(nr.x > nl.x);
  assert.ok(Math.abs(nr.w + nl.w - g.colWidth) < 1e-9);
  // Margins: the binding (inside) is on the right of a recto, on the left of a verso.
  assert.ok(g.margins.recto.right > g.margins.recto.left);
  assert.ok(g.margins.verso.left > g.margins.verso.right);
  // Note characters are smaller than main ones and fit half a column.
  assert.ok(g.noteSize < g.fontSize && g.noteSize <= g.colWidth / 2);
});

test('planPages inserts a blank page so that every volume starts on a recto', () => {
  const layout = syntheticLayout(pageSpecFor('siku'), 7, 2); // volumes of 4 and 3 pages
  const planned = planPages(layout);
  assert.equal(planned.length, 7);
  const odd = syntheticLayout(pageSpecFor('siku'), 6, 2); // 3 + 3: a blank after the first volume
  const p2 = planPages(odd);
  assert.equal(p2.length, 7);
  assert.equal(p2[3].page, null);
  assert.equal(p2[3].side, 'verso');
  assert.equal(p2[4].side, 'recto');
  p2.forEach((p, i) => assert.equal(p.side, i % 2 === 0 ? 'recto' : 'verso'));
});

test('volumeLabel drops the book title from the volume title', () => {
  assert.equal(volumeLabel('禮經本義卷一', '禮經本義'), '卷一');
  assert.equal(volumeLabel('鄉射禮', '禮經本義'), '鄉射禮');
});

test('renderHtml puts every character in its cell class, jiazhu right sub-column first', () => {
  const spec = pageSpecFor('siku');
  const layout: BookLayout = {
    spec,
    volumes: [
      {
        index: 0,
        title: '禮經本義卷一',
        pages: [
          page({
            bookmarks: [{ level: 1, title: '禮經本義卷一' }],
            columns: [
              {
                index: 0,
                runs: [
                  { type: 'text', start: 0, text: '大夫<&>' },
                  { type: 'note', start: 4, cells: 2, right: [{ layer: 'zhu', depth: 1, text: '右一' }], left: [{ layer: 'zhu', depth: 2, text: '左' }] },
                  { type: 'text', start: 6, text: '臣', style: 'small' },
                ],
              },
            ],
          }),
        ],
      },
    ],
  };
  const rendered = renderHtml(layout, { ...options(layout) });
  assert.equal(rendered.planned.length, 1);
  const html = filled(rendered.html);
  // CJK stretches are one element on the strict grid (g), starting at their first cell; others one per cell.
  assert.match(html, /<i class="g r0">大夫<\/i><i class="r2">&#60;<\/i><i class="r3">&#38;<\/i>/);
  assert.match(html, /<i class="n R L-zhu g r4">右一<\/i><i class="n L L-zhu d2 g r4">左<\/i><i class="s r6">臣<\/i>/);
  assert.match(html, /class="pg recto vstart"/);
  // The 版心 carries the book, the part (the volume) and the leaf number.
  assert.match(html, /bx-title">禮經本義<span class="bx-part">卷一<\/span>/);
  assert.match(html, /bx-leaf">一</);
  // Fonts come from local() or file: URLs, never the network.
  assert.match(html, /local\("Noto Serif CJK TC"\)/);
  assert.match(html, /url\("file:\/\/\/usr\/share\/fonts\/truetype\/hanazono\/HanaMinA\.ttf"\)/);
  assert.doesNotMatch(html, /https?:/);
});

test('an uncovered character prints as 〓', () => {
  const spec = pageSpecFor('siku');
  const layout: BookLayout = {
    spec,
    volumes: [{ index: 0, title: 'x', pages: [page({ columns: [{ index: 0, runs: [{ type: 'text', start: 0, text: '甲\u{30000}乙' }] }] })] }],
  };
  const covers = (cp: number): boolean => cp !== 0x30000;
  const html = filled(renderHtml(layout, { ...options(layout, 'siku', covers) }).html);
  assert.match(html, new RegExp(`<i class="g r0">甲${MISSING_GLYPH}乙</i>`));
  assert.doesNotMatch(html, /\u{30000}/u);
});

test('a character that needs no glyph (zero-width space) is not 〓, as check and the EPUB count it', () => {
  const spec = pageSpecFor('siku');
  const layout: BookLayout = {
    spec,
    volumes: [{ index: 0, title: 'x', pages: [page({ columns: [{ index: 0, runs: [{ type: 'text', start: 0, text: '甲\u200b' }] }] })] }],
  };
  const none = (): boolean => false;
  const html = filled(renderHtml(layout, { ...options(layout, 'siku', none) }).html);
  assert.match(html, /\u200b/);
  assert.equal(html.split(MISSING_GLYPH).length - 1, 1);
});

test('Paged.js sees light placeholders with the running-head strings; the characters wait aside', () => {
  const layout = syntheticLayout(pageSpecFor('modern'), 3, 1);
  const { html } = renderHtml(layout, { ...options(layout, 'modern'), nonce: 'n0nce' });
  const template = /<template id="diaoban-pages">([\s\S]*?)<\/template>/.exec(html)![1];
  assert.equal((template.match(/class="pg /g) ?? []).length, 3);
  assert.doesNotMatch(template, /<i /);
  // The margin boxes' strings: the volume (recto), the book (verso), the folio from the layout.
  assert.match(template, /<div class="pg recto vstart" data-i="0"><span class="rh-book">禮經本義<\/span><span class="rh-volume">卷一<\/span><span class="rh-folio">一<\/span><\/div>/);
  assert.match(template, /<div class="pg verso" data-i="1">.*<span class="rh-folio">二<\/span><\/div>/);
  const island = /<script type="application\/json" id="diaoban-fill">([\s\S]*?)<\/script>/.exec(html)![1];
  const fills = JSON.parse(island) as string[];
  assert.equal(fills.length, 3);
  assert.match(fills[0], /<i class="g r\d+">/);
  // The page model is Paged.js's: named pages with their margins, the modern template's margin boxes.
  assert.match(html, /@page recto\{margin:[^}]+\}/);
  assert.match(html, /@page verso\{margin:[^}]+\}/);
  assert.match(html, /@top-left \{ content: string\(volume\)/);
  assert.match(html, /script-src &#39;nonce-n0nce&#39;/);
});

test('correction marks take no cell: a ○ beside the column (四庫), a number (modern), placed from the geometry', () => {
  for (const [template, mark] of [['siku', '○'], ['modern', '2']] as const) {
    const layout = syntheticLayout(pageSpecFor(template), 1, 1);
    const first = layout.volumes[0].pages[0];
    first.corrections = [{ number: 2, column: 1, cell: 3 }];
    const plain = syntheticLayout(pageSpecFor(template), 1, 1);
    const without = pageInnerHtml(planPages(plain)[0], options(plain, template));
    const html = pageInnerHtml(planPages(layout)[0], options(layout, template));
    const marks = html.match(/<b class="jiao-mark [^"]*" style="right:([\d.]+)mm;top:([\d.]+)mm[^"]*">([^<]*)<\/b>/g) ?? [];
    assert.equal(marks.length, 1, template);
    assert.ok(marks[0].endsWith(`>${mark}</b>`), marks[0]);
    // Everything else is as without the mark: the grid is untouched.
    assert.equal(html.replace(marks[0], ''), without);
  }
});

test('bleed and crop marks are asked of Paged.js only when the edition wants them', () => {
  const layout = syntheticLayout(pageSpecFor('siku'), 1, 1);
  const base = options(layout, 'siku');
  const size = `size:${base.geometry.width}mm ${base.geometry.height}mm`;
  assert.match(renderHtml(layout, base).html, new RegExp(`@page\\{${size};margin:[^;]+;\\}`));
  assert.match(renderHtml(layout, { ...base, bleed: '3mm' }).html, new RegExp(`@page\\{${size};margin:[^;]+;bleed:3mm;\\}`));
  assert.match(renderHtml(layout, { ...base, bleed: '3mm', marks: true }).html, new RegExp(`@page\\{${size};margin:[^;]+;bleed:3mm;marks:crop cross;\\}`));
});

test('radicals in ToUnicode maps read as the ideograph the text has', () => {
  const text = new Set(Array.from('大夫門見民戶'));
  assert.equal(repairRadical(0x2f24, text), '大');
  assert.equal(repairRadical(0x2fa8, text), '門');
  assert.equal(repairRadical(0x2ea0, text), '民');
  assert.equal(repairRadical(0x2f3e, text), '戶');
  // A radical that the text really has stays.
  assert.equal(repairRadical(0x2f24, new Set(['⼤'])), '⼤');
  const cmap = [
    '/CIDInit /ProcSet findresource begin',
    'begincmap',
    '3 beginbfchar',
    '<14> <2F24>',
    '<1B> <592B>',
    '<20> <2EA0>',
    'endbfchar',
    '1 beginbfrange',
    '<30> <31> <2FA7>',
    'endbfrange',
    'endcmap',
  ].join('\n');
  const fixed = repairToUnicodeCMap(cmap, text)!;
  assert.match(fixed, /<14> <5927>/);
  assert.match(fixed, /<1B> <592B>/);
  assert.match(fixed, /<20> <6C11>/);
  // The range reaching ⾨ (U+2FA8) becomes single entries: ⾧ (no candidate) stays mapped by NFKC to 長, ⾨ to 門.
  assert.match(fixed, /<30> <9577>/);
  assert.match(fixed, /<31> <9580>/);
  assert.doesNotMatch(fixed, /beginbfrange/);
  assert.equal(repairToUnicodeCMap('beginbfchar\n<01> <0041>\nendbfchar', text), null);
});

test('post-processing writes metadata, R2L, the outline, and the same bytes for the same input', async () => {
  const make = async (): Promise<Uint8Array> => {
    const doc = await PDFDocument.create({ updateMetadata: false });
    for (let i = 0; i < 4; i++) doc.addPage([420, 595]);
    setInfo(doc, { title: '禮經本義', author: '清 蔡德晉', subject: '禮', language: 'zh-Hant', date: '2026-01-01' });
    setOutline(doc, [
      { level: 1, title: '禮經本義卷一', pageIndex: 0 },
      { level: 2, title: '士冠禮', pageIndex: 1 },
      { level: 1, title: '禮經本義卷二', pageIndex: 2 },
    ]);
    return saveDeterministic(doc);
  };
  const a = await make();
  const b = await make();
  assert.deepEqual(Buffer.from(a), Buffer.from(b));
  const doc = await PDFDocument.load(a, { updateMetadata: false });
  assert.equal(doc.getTitle(), '禮經本義');
  assert.equal(doc.getAuthor(), '清 蔡德晉');
  assert.equal(doc.getCreationDate()?.toISOString(), '2026-01-01T00:00:00.000Z');
  const prefs = doc.catalog.lookup(PDFName.of('ViewerPreferences'), PDFDict);
  assert.equal(prefs.get(PDFName.of('Direction'))?.toString(), '/R2L');
  const outlines = doc.catalog.lookup(PDFName.of('Outlines'), PDFDict);
  const first = outlines.lookup(PDFName.of('First'), PDFDict);
  assert.equal((first.lookup(PDFName.of('Title')) as PDFHexString).decodeText(), '禮經本義卷一');
  const child = first.lookup(PDFName.of('First'), PDFDict);
  assert.equal((child.lookup(PDFName.of('Title')) as PDFHexString).decodeText(), '士冠禮');
  const second = first.lookup(PDFName.of('Next'), PDFDict);
  assert.equal((second.lookup(PDFName.of('Title')) as PDFHexString).decodeText(), '禮經本義卷二');
  const dest = first.lookup(PDFName.of('Dest'), PDFArray);
  assert.equal(dest.get(0).toString(), doc.getPage(0).ref.toString());
  // The trailer /ID is a hash of the document, not a sentinel.
  const tail = Buffer.from(a).toString('latin1');
  assert.doesNotMatch(tail, /D1A0BA4ED1A0BA4E/);
  assert.match(tail, /\/ID \[ <[0-9A-F]{32}> <[0-9A-F]{32}> \]/);
});

test("outlineEntries takes each page's bookmarks at its PDF page index, after inserted blanks", () => {
  const layout = syntheticLayout(pageSpecFor('siku'), 6, 2);
  const entries = outlineEntries(planPages(layout));
  assert.deepEqual(
    entries.map((e) => [e.level, e.title, e.pageIndex]),
    [
      [1, '禮經本義卷一', 0],
      [2, '鄉射禮', 2],
      [1, '禮經本義卷二', 4],
      [2, '鄉射禮', 6],
    ],
  );
});

test("an edition's fonts go in front of the stack: files by file: URL, names by local()", () => {
  const sources = fontSourcesWithOverrides(['/opt/fonts/MyKai.ttf', 'LXGW WenKai']);
  assert.deepEqual(sources.slice(0, 2), [{ local: 'LXGW WenKai' }, { file: '/opt/fonts/MyKai.ttf' }]);
  assert.deepEqual(sources[2], { local: 'Noto Serif CJK TC' });
  assert.deepEqual(sources.slice(3).map((s) => s.file), ['/usr/share/fonts/truetype/hanazono/HanaMinA.ttf', '/usr/share/fonts/truetype/hanazono/HanaMinB.ttf']);
});

test('a collection face named in fonts.main is asked for by its family, as the EPUB reads it', () => {
  const sources = fontSourcesWithOverrides(['/opt/fonts/Set.ttc#Foo Serif', 'HanaMinB']);
  assert.deepEqual(sources.slice(0, 3), [{ local: 'Foo Serif' }, { file: '/usr/share/fonts/truetype/hanazono/HanaMinB.ttf' }, { local: 'Noto Serif CJK TC' }]);
  assert.equal(sources.length, 4);
});

test('the 版心 names the part after the title — 提要, 卷N, 校勘記 — and never says the title twice', () => {
  const page = (extra: Partial<Page> = {}): Page => ({ number: 1, pageInVolume: 1, leaf: 1, side: 'recto', volume: 0, volumeTitle: '禮經本義卷一', bookmarks: [], columns: [], ...extra });
  assert.equal(partLabel({ page: page(), volumeTitle: '禮經本義卷一' }, '禮經本義'), '卷一');
  assert.equal(partLabel({ page: page(), volumeTitle: '禮經本義卷一', front: true }, '禮經本義'), '提要');
  assert.equal(partLabel({ page: page({ collation: true }), volumeTitle: '禮經本義卷一' }, '禮經本義'), '校勘記');
  // A work in one volume named as the book: nothing after the title (not 評點岳陽樓記 評點岳陽樓記).
  assert.equal(partLabel({ page: page(), volumeTitle: '評點岳陽樓記' }, '評點岳陽樓記'), '');
  // A volume named otherwise keeps its name (control).
  assert.equal(partLabel({ page: page(), volumeTitle: '鄉射禮' }, '儀禮注疏'), '鄉射禮');
  // planPages marks the 提要's pages: before the leaves count again.
  const v = { index: 0, title: '禮經本義卷一', pages: [page(), page({ number: 2, pageInVolume: 2, side: 'verso' }), page({ number: 3, pageInVolume: 3 }), page({ number: 4, pageInVolume: 4, leaf: 1, side: 'verso' })] };
  const planned = planPages({ spec: pageSpecFor('siku'), volumes: [v] });
  assert.deepEqual(planned.map((p) => p.front ?? false), [true, true, false, false]);
});
