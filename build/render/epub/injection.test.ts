/**
 * XML injection: every edition value that reaches the EPUB's XML (the
 * package's title, creator, description and language, the NCX, the nav, the
 * title page, volume titles and headings in every document) carries a
 * payload built to break out of its context — markup closing the element,
 * a comment, CDATA's end, entity references, quotes — and characters XML
 * cannot carry at all (C0 controls, U+FFFE, lone surrogates). Each file is
 * parsed by a strict XML parser (Python's expat) and the payload reads back
 * as text, where XML cannot carry a character as U+FFFD.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { renderEpub } from './index.js';
import { META, h, p, vol } from './fixtures.test-util.js';
import { unzip } from './read-epub.test-util.js';
import type { Root } from '../../tree/types.js';

function payload(key: string): string {
  return `${key}</dc:title><dc:title>injected</dc:title><script>alert(1)</script><!-- ]]> &amp; &lt; &#0; &bogus; "' > \u0001\u0000\u001b[2J\u000b\uFFFE\uD800${key}\uDC00 𠀀 end`;
}

const xmlSafe = (s: string): string =>
  s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** Every file parsed by expat; for each, the text of the elements asked for (by local name), in document order. */
function parseAll(files: Record<string, string>, names: string[]): Record<string, Record<string, string[]> | string> {
  const script = `
import json, sys, xml.dom.minidom
files = json.load(sys.stdin)
names = ${JSON.stringify(names)}
out = {}
def text(node):
    return ''.join(n.data if n.nodeType in (n.TEXT_NODE, n.CDATA_SECTION_NODE) else text(n) for n in node.childNodes)
for name, body in files.items():
    try:
        doc = xml.dom.minidom.parseString(body.encode('utf-8', 'surrogatepass'))
    except Exception as e:
        out[name] = 'parse error: ' + str(e)
        continue
    found = {}
    for n in names:
        found[n] = [text(e) for e in doc.getElementsByTagNameNS('*', n)]
    out[name] = found
json.dump(out, sys.stdout, ensure_ascii=True)
`;
  // JSON carries lone surrogates as \\u escapes, which Python reads back as the same code units.
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(files), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, Record<string, string[]> | string>;
}

test('every edition value in the EPUB is text in well-formed XML: the package, the NCX, the nav, the title page, the volumes', async () => {
  const meta = { ...META, title: payload('title'), author: payload('author'), dynasty: payload('dynasty'), description: payload('description'), language: payload('language') };
  const tree: Root = {
    type: 'root',
    edition: meta,
    children: [vol(payload('volume'), 1, p('title', payload('volume')), h(1, payload('heading')), p('text', '鄉射之禮', payload('text')))],
  };
  const bytes = await renderEpub(tree, { date: '2026-01-01' });
  const { text } = await unzip(bytes);
  const files = Object.fromEntries([...text].filter(([name]) => /\.(opf|ncx|xhtml)$/.test(name)));
  const parsed = parseAll(files, ['title', 'creator', 'description', 'language', 'text', 'a', 'h1', 'h2', 'p']);
  for (const [name, result] of Object.entries(parsed)) assert.equal(typeof result, 'object', `${name}: ${String(result)}`);
  const get = (file: string, element: string): string[] => (parsed[file] as Record<string, string[]>)[element];
  const opf = Object.keys(files).find((n) => n.endsWith('.opf'))!;
  const ncx = Object.keys(files).find((n) => n.endsWith('.ncx'))!;
  const nav = Object.keys(files).find((n) => n.endsWith('toc.xhtml'))!;
  assert.deepEqual(get(opf, 'title'), [xmlSafe(payload('title'))], 'dc:title, one, as given');
  assert.deepEqual(get(opf, 'creator'), [xmlSafe(`${payload('dynasty')}　${payload('author')}`)]);
  assert.deepEqual(get(opf, 'description'), [xmlSafe(payload('description'))]);
  assert.ok(get(opf, 'language')[0].startsWith(xmlSafe(payload('language')).slice(0, 20)), 'dc:language carries the value');
  assert.ok(get(ncx, 'text').includes(xmlSafe(payload('title'))), 'the NCX title');
  assert.ok(get(ncx, 'text').some((t) => t.includes(xmlSafe(payload('volume')))), 'the NCX volume label');
  assert.ok(get(nav, 'a').some((t) => t.includes(xmlSafe(payload('volume')))), 'the nav volume label');
  const volume = Object.keys(files).find((n) => /vol\d+\.xhtml$/.test(n))!;
  const body = [...get(volume, 'h1'), ...get(volume, 'h2'), ...get(volume, 'p')].join('\n');
  assert.ok(body.includes(xmlSafe(payload('heading'))), 'the heading as text');
  assert.ok(body.includes(xmlSafe(payload('text'))), 'the text as text');
  for (const [name, xml] of Object.entries(files)) {
    assert.doesNotMatch(xml, /<script|<dc:title>injected/, `${name}: no markup from the edition`);
  }
});
