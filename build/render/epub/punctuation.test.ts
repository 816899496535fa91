/**
 * The EPUB carries the edition's punctuation: every mark kept as text (the
 * reading system reflows it), the body classed by the standard the
 * stylesheet spaces it in, and epubcheck clean with those rules.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Root } from '../../tree/types.js';
import { loadSample } from '../../engine/samples.js';
import { markOf } from '../../punctuation/index.js';
import { renderEpub } from './index.js';
import { findAll, parseXhtml, unzip } from './read-epub.test-util.js';

const run = promisify(execFile);

async function volumeBody(tree: Root): Promise<{ bodyClass: string; text: string; css: string; bytes: Uint8Array }> {
  const bytes = await renderEpub(tree, { date: '2026-01-01' });
  const { text } = await unzip(bytes);
  const name = [...text.keys()].find((n) => /vol\d+\.xhtml$/.test(n))!;
  const doc = parseXhtml(text.get(name)!);
  const body = findAll(doc, (e) => e.name === 'body')[0];
  const css = [...text.entries()].find(([n]) => n.endsWith('.css'))![1];
  return { bodyClass: body.attribs.class ?? '', text: text.get(name)!, css, bytes };
}

test('EPUB: the punctuated sample keeps every mark; the body says the standard (Taiwan for zh-Hant, mainland when the edition says so)', async () => {
  const { tree } = await loadSample('lishu-biaodian');
  const taiwan = await volumeBody(tree);
  assert.match(taiwan.bodyClass, /\bpunct-taiwan\b/);
  assert.match(taiwan.css, /body\.punct-taiwan\s*\{\s*text-spacing-trim:\s*space-all/);
  assert.match(taiwan.css, /body\.punct-mainland\s*\{\s*text-spacing-trim:\s*normal/);
  // Every mark of the manuscript is in the document, as its ordinary code point.
  const marks = (s: string): string => Array.from(s).filter((ch) => markOf(ch) && ch !== '【' && ch !== '】').join('');
  const treeChars = (nodes: readonly unknown[]): string =>
    nodes.map((n) => { const x = n as { value?: string; children?: unknown[] }; return x.value ?? (x.children ? treeChars(x.children) : ''); }).join('');
  const source = treeChars(tree.children.flatMap((v) => v.children));
  const body = taiwan.text.slice(taiwan.text.indexOf('<body'));
  assert.ok(marks(source).length > 200);
  assert.equal(marks(body.replace(/<[^>]*>/g, '')), marks(source));
  // Marks beside the text: a span of their kind, styled on the left (專名號, 書名號) or right (著重號).
  assert.match(body, /<span class="mark mark-proper">張鎰<\/span>/);
  assert.match(body, /<span class="mark mark-book">禮圖<\/span>/);
  assert.match(taiwan.css, /\.mark-book \{[^}]*underline wavy; text-underline-position: left/);
  // Negative control: an edition that names mainland (and hanging) gets those classes instead.
  const mainland = await volumeBody({ ...tree, edition: { ...tree.edition, punctuation: { standard: 'mainland', hanging: true } } });
  assert.match(mainland.bodyClass, /\bpunct-mainland\b/);
  assert.match(mainland.bodyClass, /\bpunct-hanging\b/);
  assert.doesNotMatch(mainland.bodyClass, /punct-taiwan/);
  // A 句讀 edition still reads with modern marks in a reflowing reader: its language's standard.
  const judou = await volumeBody({ ...tree, edition: { ...tree.edition, punctuation: { standard: 'judou' }, language: 'zh-Hans' } });
  assert.match(judou.bodyClass, /\bpunct-mainland\b/);

  // epubcheck accepts the stylesheet's punctuation rules (0 errors, 0 warnings).
  const dir = await mkdtemp(path.join(tmpdir(), 'diaoban-epub-punct-'));
  try {
    const file = path.join(dir, 'mainland.epub');
    await writeFile(file, mainland.bytes);
    const r = await run('java', ['-jar', '/usr/share/java/epubcheck.jar', file], { maxBuffer: 1 << 24 }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
    const out = `${r.stdout}\n${r.stderr}`;
    assert.match(out, /No errors or warnings detected/, out.slice(-1500));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
