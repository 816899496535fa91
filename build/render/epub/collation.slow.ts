/**
 * The 校勘記 in the EPUB: each corrected place marked with a link to its
 * entry in the volume's 校勘記 and back, layer class note-jiao, an entry in
 * the legend; nothing of it with collation off; epubcheck clean.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { VFile } from 'vfile';
import { applyCorrections, parseCorrections } from '../../transform/corrections.js';
import type { Root } from '../../tree/types.js';
import { META, h, note, p, vol } from './fixtures.test-util.js';
import { findAll, parseXhtml, unzip } from './read-epub.test-util.js';
import { renderEpub } from './index.js';
import { forgetChapterDocuments } from './package.js';

function corrected(): Root {
  const tree: Root = {
    type: 'root',
    edition: META,
    children: [
      vol('儀禮注疏卷一', 1, h(2, '鄉射禮'), p('text', '鄉射之禮主人戒賓', note('zhu', '主人州長也')), p('text', '賓出迎再拜主人答再拜')),
      vol('儀禮注疏卷二', 2, p('text', '乃請賓賓禮辭許')),
    ],
  };
  const file = new VFile({ path: 'corrections.yaml', value: '- find: 主人戒賓\n  replace: 主人戒衆賓\n  note: 據某本補\n- find: 州長也\n  replace: 州長\n- find: 禮辭\n  replace: 辭禮\n  source: 阮刻本\n' });
  applyCorrections(tree, parseCorrections(file));
  assert.deepEqual(file.messages.map(String), []);
  return tree;
}

const volume = async (bytes: Uint8Array, n: number): Promise<string> => (await unzip(bytes)).text.get(`OEBPS/vol0${n}.xhtml`)!;
const collationDoc = async (bytes: Uint8Array, n: number): Promise<string> => (await unzip(bytes)).text.get(`OEBPS/vol0${n}-collation.xhtml`)!;

test('each corrected place links to its entry in the volume’s 校勘記, a document of its own read after the volume, and the entry links back', async () => {
  const bytes = await renderEpub(corrected(), {});
  const one = await volume(bytes, 1);
  const jiao = await collationDoc(bytes, 1);
  const marks = findAll(parseXhtml(one), (e) => (e.attribs.class ?? '').includes('noteref-jiao'));
  const entries = findAll(parseXhtml(jiao), (e) => (e.attribs.class ?? '') === 'jiao-entry');
  assert.equal(marks.length, 2);
  assert.equal(entries.length, 2);
  for (const [i, mark] of marks.entries()) {
    const entry = entries[i];
    // Between the two documents, never within one (epub.js lands a link within the shown document off).
    assert.equal(mark.attribs.href, `vol01-collation.xhtml#${entry.attribs.id}`);
    assert.equal(mark.attribs['epub:type'], 'noteref');
    const back = findAll([entry], (e) => e.attribs.role === 'doc-backlink')[0];
    assert.equal(back.attribs.href, `vol01.xhtml#${mark.attribs.id}`);
  }
  // The insertion shows its new text, the deletion only its mark; the entries say what changed.
  assert.match(one, /主人戒<span class="correction">衆<\/span><a class="noteref noteref-jiao"/);
  assert.match(one, /州長<a class="noteref noteref-jiao"/);
  assert.doesNotMatch(one, /jiao-entry|jiaokanji/);
  assert.match(jiao, /<section id="vol01-jiao" class="jiaokanji note-jiao" epub:type="endnotes" role="doc-endnotes"/);
  assert.match(jiao, /<title>儀禮注疏卷一　校勘記<\/title>/);
  assert.match(jiao, /補衆　據某本補/);
  assert.match(jiao, /刪也/);
  // In the reading order, right after its volume.
  const opf = (await unzip(bytes)).text.get('OEBPS/content.opf')!;
  assert.match(opf, /<itemref idref="vol01"\/>\s*<itemref idref="vol01-collation"\/>\s*<itemref idref="vol02"\/>\s*<itemref idref="vol02-collation"\/>/);
  // Volume two has its own 校勘記 and numbering; the witness is named.
  const two = await collationDoc(bytes, 2);
  assert.match(two, /id="vol02-jiao-1"/);
  assert.match(two, /禮辭→辭禮　從阮刻本/);
  // The legend names the layer.
  const legend = (await unzip(bytes)).text.get('OEBPS/legend.xhtml')!;
  assert.match(legend, /<span class="legend-label">校<\/span>/);
  assert.match(legend, /href="legend-notes\.xhtml#legend-jiao"/);
  assert.match((await unzip(bytes)).text.get('OEBPS/legend-notes.xhtml')!, /<aside id="legend-jiao"[^>]*><p><a class="jiao-back" href="legend\.xhtml#legend-jiao-ref"/);
});

test('collation off: the corrected text, no marks, no section, no legend entry', async () => {
  const bytes = await renderEpub(corrected(), { collation: false });
  const one = await volume(bytes, 1);
  assert.match(one, /主人戒衆賓/);
  assert.doesNotMatch(one, /jiao/);
  assert.equal((await unzip(bytes)).text.get('OEBPS/vol01-collation.xhtml'), undefined);
  assert.doesNotMatch((await unzip(bytes)).text.get('OEBPS/legend.xhtml')!, /legend-jiao/);
});

test('epubcheck: an EPUB with a 校勘記 has 0 errors and 0 warnings', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'diaoban-epub-jiao-'));
  try {
    const file = path.join(dir, 'corrected.epub');
    await writeFile(file, await renderEpub(corrected(), {}));
    const r = await promisify(execFile)('java', ['-jar', '/usr/share/java/epubcheck.jar', file], { maxBuffer: 1 << 24 }).catch((e: { stdout: string; stderr: string }) => e);
    const output = `${r.stdout}\n${r.stderr}`;
    const m = /Messages: (\d+) fatals? \/ (\d+) errors? \/ (\d+) warnings?/.exec(output);
    assert.ok(m, output);
    assert.deepEqual([m[1], m[2], m[3]], ['0', '0', '0'], output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a rebuild that reuses unchanged chapters gives the bytes of a fresh build', async () => {
  forgetChapterDocuments();
  await renderEpub(corrected(), {});
  const changed = corrected();
  changed.children[1].children.push(p('text', '禮成樂備'));
  const reused = await renderEpub(changed, {});
  forgetChapterDocuments();
  const fresh = await renderEpub(changed, {});
  assert.ok(Buffer.from(reused).equals(Buffer.from(fresh)));
  assert.match(await volume(reused, 2), /禮成樂備/);
  assert.match(await collationDoc(reused, 2), /禮辭→辭禮/);
});

test('the legend made from the volumes says what the legend of the whole tree says: first sample of each layer, first correction', async () => {
  const { joinLegendSources, legendPage, legendSource } = await import('./front.js');
  const tree = corrected();
  // A layer in both volumes, with other text in the second: the first volume's sample is the book's.
  tree.children[1].children.push(p('text', '賓許', note('zhu', '許諾也')));
  const joined = joinLegendSources(tree.children.map((v) => legendSource(v)));
  assert.deepEqual(joined, legendSource(tree));
  assert.equal(joined.layers.get('zhu'), '主人州長');
  assert.equal(joined.correction?.new, '衆');
  assert.deepEqual(legendPage(tree, new Set(), { source: joined }), legendPage(tree, new Set()));
  // Volumes in the other order: another first sample and correction, so the order is what decides.
  const reversed = joinLegendSources([...tree.children].reverse().map((v) => legendSource(v)));
  assert.equal(reversed.layers.get('zhu'), '許諾也');
  assert.notEqual(reversed.correction?.new, '衆');
});
