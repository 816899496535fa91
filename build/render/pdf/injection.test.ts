/**
 * PDF syntax cannot be injected: every edition value that reaches the PDF
 * (title, author and dynasty, description, language, date, keywords, volume
 * and section titles in the outline) carries a payload built to close its
 * string and write an /OpenAction — U+0128/U+0129 (which latin1 turns into
 * `(` `)`), `)`, `\`, `>>`, a line end, NUL, lone surrogates. The book is
 * printed by Chromium and assembled both ways (concatenation, and the
 * pdf-lib fallback), then read back with qpdf's JSON: no action anywhere,
 * and every value reads back as it was given (a lone surrogate as U+FFFD,
 * the one thing a text string cannot carry).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { chromiumForTests } from './test-chromium.js';
import { buildPdf } from '../../engine/pdf.js';
import { pageSpecFor } from '../../layout/index.js';
import { defaultEdition } from '../../parse/edition.js';
import { assemblePdf } from './assemble.js';
import { outlineEntries } from './index.js';
import { syntheticLayout } from './synthetic.js';
import { pdfTextHex, pdfTextString } from '../escape.js';

const { work, browser } = chromiumForTests('diaoban-injection-');

/** Closes a literal string (directly, or once narrowed to latin1), ends the dictionary and opens a script action. */
function payload(key: string): string {
  const js = `/OpenAction << /S /JavaScript /JS (app.alert('${key}')) >> /AA << /O << /S /Launch /F (/bin/sh) >> >>`;
  return `${key}\u0129 ${js} \u0128) ${js} (\\) ${js} >> endobj\n1 0 obj << ${js} >>\r\0 <FEFF0029> \uD800 ${key} \uDC00 \\`;
}

const wellFormed = (s: string): string => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every object qpdf reads in the file (its JSON v2: `obj:N 0 R` → { value } or { stream: { dict } }). */
function qpdfObjects(path: string): Map<string, Json> {
  const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-key=qpdf', '--decode-level=none', path], { maxBuffer: 1 << 28 }).toString('utf8')) as {
    qpdf: [unknown, Record<string, { value?: Json; stream?: { dict: Json } }>];
  };
  const out = new Map<string, Json>();
  for (const [key, o] of Object.entries(json.qpdf[1])) out.set(key, o.value ?? o.stream?.dict ?? null);
  return out;
}

/** A text string as qpdf gives it (`u:` Unicode, `b:` hex bytes). */
function qpdfText(value: Json | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.startsWith('u:')) return value.slice(2);
  return undefined;
}

const ACTION_KEYS = new Set(['/OpenAction', '/AA', '/JS', '/JavaScript', '/A', '/URI', '/Launch', '/SubmitForm', '/ImportData', '/GoToR', '/EmbeddedFiles', '/AcroForm']);
const ACTION_TYPES = new Set(['/JavaScript', '/Launch', '/URI', '/SubmitForm', '/ImportData', '/GoToR', '/GoToE', '/ResetForm', '/Hide', '/Named', '/Rendition', '/SetOCGState', '/Trans', '/GoTo3DView', '/Sound', '/Movie']);

/** Where an action, or a key that carries one, is found in any object: [] when there is none. */
function actions(objects: Map<string, Json>): string[] {
  const found: string[] = [];
  const walk = (value: Json, where: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (ACTION_KEYS.has(k)) found.push(`${where} ${k}`);
        if (k === '/S' && typeof v === 'string' && ACTION_TYPES.has(v)) found.push(`${where} /S ${v}`);
        if (k === '/Type' && v === '/Action') found.push(`${where} /Type /Action`);
        walk(v, `${where} ${k}`);
      }
    }
  };
  for (const [key, value] of objects) walk(value, key);
  return found;
}

function catalogAndInfo(objects: Map<string, Json>): { catalog: Record<string, Json>; info: Record<string, Json> } {
  const trailer = objects.get('trailer') as Record<string, Json>;
  const catalog = objects.get(`obj:${trailer['/Root'] as string}`) as Record<string, Json>;
  const info = objects.get(`obj:${trailer['/Info'] as string}`) as Record<string, Json>;
  return { catalog, info };
}

async function outlineTitles(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as {
    getDocument(src: { data: Uint8Array; verbosity: number; isEvalSupported: boolean }): {
      promise: Promise<{ getOutline(): Promise<Array<{ title: string; items: Array<{ title: string }> }>>; destroy(): Promise<void> }>;
    };
  };
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  const outline = await doc.getOutline();
  await doc.destroy();
  return outline.flatMap((o) => [o.title, ...o.items.map((i) => i.title)]);
}

/** Checks a PDF: valid to qpdf and poppler, no action, each value as given. */
async function assertClean(bytes: Uint8Array, name: string, expected: { title: string; author: string; subject: string; language: string; keywords?: string; outline: string[] }): Promise<void> {
  const path = join(work, `${name}.pdf`);
  writeFileSync(path, bytes);
  const check = spawnSync('qpdf', ['--check', path], { encoding: 'utf8' });
  assert.equal(check.status, 0, `qpdf --check: ${check.stdout}${check.stderr}`);
  const poppler = spawnSync('pdfinfo', [path], { encoding: 'utf8' });
  assert.equal(poppler.stderr, '', 'poppler finds no syntax error');
  const objects = qpdfObjects(path);
  assert.deepEqual(actions(objects), [], `${name}: no action anywhere`);
  const { catalog, info } = catalogAndInfo(objects);
  assert.equal(catalog['/Names'], undefined, `${name}: no name tree (where /JavaScript would hang)`);
  const own = new Set(['/Type', '/Pages', '/Lang', '/Outlines', '/PageMode', '/PageLayout', '/ViewerPreferences']);
  assert.deepEqual(Object.keys(catalog).filter((k) => !own.has(k)), [], `${name}: the catalogue has only its own keys`);
  assert.equal(qpdfText(catalog['/Lang']), wellFormed(expected.language), `${name}: /Lang`);
  assert.equal(qpdfText(info['/Title']), wellFormed(expected.title), `${name}: /Title`);
  assert.equal(qpdfText(info['/Author']), wellFormed(expected.author), `${name}: /Author`);
  assert.equal(qpdfText(info['/Subject']), wellFormed(expected.subject), `${name}: /Subject`);
  if (expected.keywords !== undefined) assert.equal(qpdfText(info['/Keywords']), wellFormed(expected.keywords), `${name}: /Keywords`);
  assert.match(String(info['/CreationDate']), /^u:D:\d{14}Z/, `${name}: a date of digits`);
  assert.deepEqual(await outlineTitles(bytes), expected.outline.map(wellFormed), `${name}: the outline's titles`);
}

test('the encoder: UTF-16BE hex after a BOM, nothing but hex digits, lone surrogates as U+FFFD', () => {
  assert.equal(pdfTextString('禮)'), '<FEFF79AE0029>');
  assert.equal(pdfTextHex('\u0128'), 'FEFF0128', 'U+0128 stays two bytes, not a latin1 `(`');
  assert.equal(pdfTextHex('𠀀'), 'FEFFD840DC00', 'a pair stays a pair');
  assert.equal(pdfTextHex('a\uD800b\uDC00'), 'FEFF0061FFFD0062FFFD');
  assert.match(pdfTextHex(payload('x')), /^[0-9A-F]+$/);
});

test('every edition value that reaches the PDF carries a breakout payload as text: no action, each read back as given', async () => {
  const config = defaultEdition('injection', []);
  config.meta = {
    ...config.meta,
    title: payload('title'),
    author: payload('author'),
    dynasty: payload('dynasty'),
    description: payload('description'),
    language: payload('language'),
    date: payload('date'),
    template: 'siku',
  };
  const layout = syntheticLayout(pageSpecFor('siku'), 6, 2, payload('volume'));
  layout.volumes[0].pages[2].bookmarks = [{ level: 2, title: payload('heading') }];
  layout.volumes[1].pages[2].bookmarks = [{ level: 2, title: payload('section') }];
  const volumeTitles = layout.volumes.map((v) => v.title);
  const { bytes, planned } = await buildPdf(layout, config, { browser, concurrency: 1 });
  const author = `${payload('dynasty')} ${payload('author')}`;
  const expected = { title: payload('title'), author, subject: payload('description'), language: payload('language') };
  await assertClean(bytes, 'concatenated', { ...expected, outline: [volumeTitles[0], payload('heading'), volumeTitles[1], payload('section')] });

  // The pdf-lib path, which assemble takes for a run it cannot concatenate (here: saved with object streams).
  const resaved = await (await PDFDocument.load(bytes, { updateMetadata: false })).save({ useObjectStreams: true });
  const keywords = [payload('keyword'), 'b'];
  const viaPdfLib = await assemblePdf([{ bytes: resaved, chars: new Set() }], {
    info: { ...expected, keywords, date: payload('date') },
    outline: outlineEntries(planned),
  });
  await assertClean(viaPdfLib, 'pdf-lib', { ...expected, keywords: keywords.join(' '), outline: [volumeTitles[0], payload('heading'), volumeTitles[1], payload('section')] });
});
