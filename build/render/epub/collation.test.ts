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

test('each corrected place links to its entry in the volume’s 校勘記, and the entry links back', async () => {
  const bytes = await renderEpub(corrected(), {});
  const one = await volume(bytes, 1);
  const doc = parseXhtml(one);
  const marks = findAll(doc, (e) => (e.attribs.class ?? '').includes('noteref-jiao'));
  const entries = findAll(doc, (e) => (e.attribs.class ?? '') === 'jiao-entry');
  assert.equal(marks.length, 2);
  assert.equal(entries.length, 2);
  for (const [i, mark] of marks.entries()) {
    const entry = entries[i];
    assert.equal(mark.attribs.href, `#${entry.attribs.id}`);
    assert.equal(mark.attribs['epub:type'], 'noteref');
    const back = findAll([entry], (e) => e.attribs.role === 'doc-backlink')[0];
    assert.equal(back.attribs.href, `#${mark.attribs.id}`);
  }
  // The insertion shows its new text, the deletion only its mark; the entries say what changed.
  assert.match(one, /主人戒<span class="correction">衆<\/span><a class="noteref noteref-jiao"/);
  assert.match(one, /州長<a class="noteref noteref-jiao"/);
  assert.match(one, /<section id="vol01-jiao" class="jiaokanji note-jiao" epub:type="endnotes" role="doc-endnotes"/);
  assert.match(one, /補衆　據某本補/);
  assert.match(one, /刪也/);
  // Volume two has its own section and numbering; the witness is named.
  const two = await volume(bytes, 2);
  assert.match(two, /id="vol02-jiao-1"/);
  assert.match(two, /禮辭→辭禮　從阮刻本/);
  // The legend names the layer.
  const legend = (await unzip(bytes)).text.get('OEBPS/legend.xhtml')!;
  assert.match(legend, /<span class="legend-label">校<\/span>/);
});

test('collation off: the corrected text, no marks, no section, no legend entry', async () => {
  const bytes = await renderEpub(corrected(), { collation: false });
  const one = await volume(bytes, 1);
  assert.match(one, /主人戒衆賓/);
  assert.doesNotMatch(one, /jiao/);
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
  assert.equal(legendPage(tree, new Set(), { source: joined }), legendPage(tree, new Set()));
  // Volumes in the other order: another first sample and correction, so the order is what decides.
  const reversed = joinLegendSources([...tree.children].reverse().map((v) => legendSource(v)));
  assert.equal(reversed.layers.get('zhu'), '許諾也');
  assert.notEqual(reversed.correction?.new, '衆');
});
