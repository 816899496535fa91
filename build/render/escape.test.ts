import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cssString, escapeHtml, xmlChars } from './escape.js';
import { computeGeometry, contentSecurityPolicy, pageFields, parseTemplateDefinition, planPages, renderHtml, type RenderOptions, type Template } from './pdf/index.js';
import { syntheticLayout } from './pdf/synthetic.js';
import { pageSpecFor } from '../layout/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const EVIL = `X</style><script>alert(1)</script><style>"'\\\n&<>`;

test('cssString keeps any text one CSS string that cannot end a <style> block', () => {
  assert.equal(cssString('Noto Serif CJK TC'), '"Noto Serif CJK TC"');
  assert.equal(cssString('花園明朝'), '"花園明朝"');
  const s = cssString(EVIL);
  assert.doesNotMatch(s, /[<>&\n']/);
  assert.equal(s.slice(1, -1).includes('"'), false, 'no bare quote inside');
  assert.equal(s, '"X\\3C /style\\3E \\3C script\\3E alert(1)\\3C /script\\3E \\3C style\\3E \\22 \\27 \\5C \\A \\26 \\3C \\3E "');
  assert.equal(escapeHtml(EVIL).includes('<'), false);
});

test("the page's font faces and title stay inside their context, and the page carries its policy", () => {
  const name = 'siku';
  const template: Template = {
    definition: parseTemplateDefinition(JSON.parse(readFileSync(join(ROOT, 'templates', name, 'template.json'), 'utf8')), name),
    pageHtml: readFileSync(join(ROOT, 'templates', name, 'page.html'), 'utf8'),
    css: readFileSync(join(ROOT, 'styles', `${name}.css`), 'utf8'),
    baseCss: readFileSync(join(ROOT, 'styles', 'base.css'), 'utf8'),
  };
  const layout = syntheticLayout(pageSpecFor(name), 1, 1);
  const { html } = renderHtml(layout, {
    meta: { title: EVIL, author: EVIL, language: 'zh-Hant' },
    template,
    geometry: computeGeometry(template.definition, layout.spec),
    fonts: [{ local: EVIL }, { file: `/tmp/${EVIL}.ttf` }],
    nonce: 'abc',
  });
  assert.equal(html.match(/<\/style>/g)?.length, 1, 'one style block, ended once');
  assert.equal(html.match(/<script/g)?.length, 1, 'the JSON island only');
  assert.match(html, /<script type="application\/json" id="diaoban-fill">/);
  assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy('abc'))}">`));
  assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<title>'), 'the policy comes before anything it governs');
  assert.match(contentSecurityPolicy('abc'), /script-src 'nonce-abc'.*connect-src 'none'.*frame-src 'none'.*object-src 'none'/);
  assert.match(contentSecurityPolicy(), /script-src 'none'/, 'no nonce, no script');
});

test('every field a page template prints is escaped (running head and folio too), in the placeholders and in the filled pages', () => {
  const name = 'modern';
  const layout = syntheticLayout(pageSpecFor(name), 2, 2);
  for (const page of layout.volumes.flatMap((v) => v.pages)) page.volumeTitle = EVIL;
  const definition = parseTemplateDefinition(JSON.parse(readFileSync(join(ROOT, 'templates', name, 'template.json'), 'utf8')), name);
  const options: RenderOptions = {
    meta: { title: EVIL, author: EVIL, language: 'zh-Hant' },
    template: { definition, pageHtml: '', css: '', baseCss: '' },
    geometry: computeGeometry(definition, layout.spec),
    fonts: [],
    nonce: 'abc',
  };
  // A page.html that prints every field there is, so that a field added later is covered too.
  const fields = Object.keys(pageFields(planPages(layout)[0], options));
  assert.ok(fields.includes('runningHead') && fields.includes('folio'));
  options.template.pageHtml = fields.map((f) => `<div class="f-${f}">{{${f}}}</div>`).join('');
  const { html } = renderHtml(layout, options);
  const fills = JSON.parse(/<script type="application\/json" id="diaoban-fill">([\s\S]*?)<\/script>/.exec(html)![1]) as string[];
  const placeholders = /<template id="diaoban-pages">([\s\S]*?)<\/template>/.exec(html)![1];
  for (const markup of [placeholders, ...fills]) {
    assert.doesNotMatch(markup, /<script|<\/style|<style/i, 'no markup from the edition');
  }
  // The running head of a recto is the volume, of a verso the book: both the hostile text, escaped.
  const heads = fills.map((f) => /<div class="f-runningHead">([^]*?)<\/div><div/.exec(f)?.[1]);
  assert.ok(heads.some((h) => h === escapeHtml(EVIL)), 'the running head is printed, escaped');
  assert.match(fills[0], /<div class="f-folio">一<\/div>/);
  assert.equal(html.match(/<script/g)?.length, 1, 'the JSON island only');
});

test('escapeHtml keeps any value one attribute and one text node of well-formed XML (expat), characters XML cannot carry as U+FFFD', () => {
  const value = `${EVIL}]]><!-- --> &amp; &#0; \u0001\u0000\u001b[2J\uFFFE\uD800 𠀀 \uDC00`;
  const wellFormed = value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  const xml = `<p title="${escapeHtml(value)}">${escapeHtml(value)}</p>`;
  const script = 'import json, sys, xml.dom.minidom\nd = xml.dom.minidom.parseString(sys.stdin.buffer.read()).documentElement\nprint(json.dumps([d.getAttribute("title"), "".join(n.data for n in d.childNodes), len(d.childNodes)]))';
  const r = spawnSync('python3', ['-c', script], { input: xml, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const [title, text, nodes] = JSON.parse(r.stdout) as [string, string, number];
  assert.equal(nodes, 1, 'one text node, no element');
  assert.equal(title, wellFormed.replace(/\n/g, ' '), 'the attribute as given (a line end in an attribute reads as a space)');
  assert.equal(text, wellFormed);
});

test('a string returned as it is (no character that may need escaping) is what the full escaping gives: every UTF-16 unit alone and in a pair', async () => {
  const { escapeXml } = await import('./epub/xhtml.js');
  const fullHtml = (t: string): string => xmlChars(t).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const fullXml = (t: string): string => xmlChars(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  let differ = 0;
  for (let u = 0; u <= 0xffff; u++) {
    const t = `主${String.fromCharCode(u)}人`;
    if (escapeHtml(t) !== fullHtml(t) || escapeXml(t) !== fullXml(t)) differ++;
  }
  assert.equal(differ, 0);
  assert.equal(escapeXml('\uD840\uDC00'), '\uD840\uDC00', 'a well-formed pair stays');
  assert.equal(escapeHtml('a\uD840b'), 'a\uFFFDb', 'a lone surrogate is U+FFFD (negative control of the fast path)');
});
