/**
 * No script but ours, nothing reaches the network: an edition that carries
 * script and markup in every string it controls is built for real (PDF and
 * EPUB) with a loopback listener (HTTP and WebSocket on 127.0.0.1) waiting
 * for it. Chromium is run through `--chromium` with a wrapper that logs the
 * pages' console, which is how a script that ran would show.
 * Then the page's Content-Security-Policy alone, with its negative control.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import JSZip from 'jszip';
import { parseDocument } from 'htmlparser2';
import { Element, type Node as DomNode } from 'domhandler';
import { findChromium, launchBrowser, type OfflineBrowser } from '../engine/browser.js';
import { contentSecurityPolicy, escapeHtml } from '../render/pdf/index.js';

const BIN = path.resolve('bin/diaoban.js');
const work = mkdtempSync(path.join(tmpdir(), 'diaoban-hostile-'));
let server: Server;
let port = 0;
/** Every connection the listener saw (a WebSocket starts as one), and what it asked for. */
const seen: string[] = [];

before(async () => {
  server = createServer((request, response) => {
    seen.push(`http ${request.url}`);
    response.end('hello');
  });
  server.on('connection', () => seen.push('connection'));
  server.on('upgrade', (request, socket) => {
    seen.push(`websocket ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  rmSync(work, { recursive: true, force: true });
});

/** What a script that ran would do: say so on the console, call home over HTTP and a WebSocket. */
function js(context: string): string {
  // Short enough that every value stays within edition.yaml's limits (500 characters a name): a payload must reach the outputs, not be refused.
  return `console.log('diaoban-'+'ran:${context}');new WebSocket('ws://127.0.0.1:${port}/');fetch('//127.0.0.1:${port}/')`;
}

/** Markup that would run, load or show something in HTML or XHTML text, an attribute, a <title> or a <style>. */
function payload(context: string): string {
  return (
    `</title></style>"'><script>${js(context)}</script>` +
    `<img src="http://127.0.0.1:${port}/img-${context}" onerror="${js(context)}">` +
    `<iframe src="file:///etc/passwd"></iframe><meta http-equiv="refresh" content="0;url=file:///etc/passwd">` +
    `");} @import url(http://127.0.0.1:${port}/css-${context}); a{b:("`
  );
}

/** A tiny TrueType font whose family name is `family` (Python fontTools, as scripts/cff2ttf.py uses). */
function fontNamed(file: string, family: string): void {
  const script = [
    'import sys',
    'from fontTools.fontBuilder import FontBuilder',
    'from fontTools.pens.ttGlyphPen import TTGlyphPen',
    'fb = FontBuilder(1000, isTTF=True)',
    "fb.setupGlyphOrder(['.notdef', 'box'])",
    "fb.setupCharacterMap({0x2FF0: 'box'})",
    'pen = TTGlyphPen(None)',
    'pen.moveTo((100, -100)); pen.lineTo((100, 800)); pen.lineTo((900, 800)); pen.lineTo((900, -100)); pen.closePath()',
    'glyph = pen.glyph()',
    "fb.setupGlyf({'.notdef': glyph, 'box': glyph})",
    "fb.setupHorizontalMetrics({'.notdef': (1000, 100), 'box': (1000, 100)})",
    'fb.setupHorizontalHeader(ascent=880, descent=-120)',
    "fb.setupNameTable({'familyName': sys.argv[2], 'styleName': 'Regular'})",
    'fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)',
    'fb.setupPost()',
    'fb.save(sys.argv[1])',
  ].join('\n');
  execFileSync(process.env.DIAOBAN_PYTHON ?? '/usr/bin/python3', ['-c', script, file, family]);
}

const y = (value: string): string => JSON.stringify(value);

function hostileEdition(template: string): string {
  const dir = path.join(work, `ed-${template}`);
  mkdirSync(dir);
  fontNamed(path.join(dir, 'evil.ttf'), `Evil${payload('font')}`);
  writeFileSync(
    path.join(dir, 'edition.yaml'),
    [
      `title: ${y(`題${payload('title')}`)}`,
      `author: ${y(`撰${payload('author')}`)}`,
      `dynasty: ${y(`朝${payload('dynasty')}`)}`,
      `description: ${y(`述${payload('description')}`)}`,
      `template: ${template}`,
      'date: 2026-01-01',
      'sources:',
      '  - a.md',
      'fonts:',
      '  main:',
      `    - ${y(`evil.ttf#Evil${payload('font')}`)}`,
      'layers:',
      // A layer id is checked as an id (edition.yaml's schema); its label carries the payload.
      '  - layer: an',
      `    label: ${y(`案${payload('label')}`)}`,
      '    pattern: "^愚謂"',
      'seals:',
      '  - image: seal.svg',
    ].join('\n') + '\n',
  );
  // A seal that would run a script, load an image from the network and show a local file, were it not drawn as an image.
  writeFileSync(
    path.join(dir, 'seal.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="${escapeHtml(js('seal-onload'))}">` +
      `<script>${js('seal')}</script><image href="http://127.0.0.1:${port}/seal-img" width="10" height="10"/>` +
      `<image xlink:href="file:///etc/passwd" width="10" height="10"/><rect width="10" height="10" fill="#b3261e"/></svg>\n`,
  );
  writeFileSync(
    path.join(dir, 'a.md'),
    `# 卷一${payload('volume')}\n\n## 鄉射禮${payload('heading')}\n\n主人戒賓${payload('text')}【注${payload('note')}】【愚謂${payload('an')}】` +
      `【{眉批}眉${payload('meipi')}】【{側批}側${payload('cepi')}】〖{譯:${payload('ruby').replace(/[{}\n]/g, '')}}賓〗\n`,
  );
  return dir;
}

/** Runs diaoban to the end without blocking the listener's event loop. */
function diaoban(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('close', (status) => done({ status, stderr }));
  });
}

function elements(nodes: DomNode[], out: Element[] = []): Element[] {
  for (const n of nodes) {
    if (!(n instanceof Element)) continue;
    out.push(n);
    elements(n.children, out);
  }
  return out;
}

test('an edition with script and markup in every string it controls: nothing runs, nothing connects, nothing outside is printed', async () => {
  const log = path.join(work, 'chromium.log');
  const wrapper = path.join(work, 'chromium');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${findChromium()} --enable-logging --v=0 --log-file=${log} "$@"\n`);
  chmodSync(wrapper, 0o755);
  const out = path.join(work, 'dist');
  const editions = ['siku', 'modern'].map(hostileEdition);
  const result = await diaoban(['build', '--chromium', wrapper, '--out', out, ...editions]);
  await new Promise((r) => setTimeout(r, 500));
  assert.doesNotMatch(result.stderr, /\n\s+at |internal error/, result.stderr);
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(seen, [], 'the loopback listener saw no connection (HTTP or WebSocket)');
  // The wrapper logged the pages' console: a script that ran would have said so there.
  assert.ok(existsSync(log), 'Chromium ran through --chromium');
  assert.doesNotMatch(readFileSync(log, 'utf8'), /diaoban-ran/);

  for (const template of ['siku', 'modern']) {
    const pdf = path.join(out, `ed-${template}.pdf`);
    const text = execFileSync('pdftotext', ['-raw', pdf, '-']).toString('utf8').replace(/\s+/g, '');
    assert.doesNotMatch(text, /root:x:0/, `${template}: /etc/passwd is not printed`);
    // The payload reached the page as text, escaped, not lost (the Markdown importer leaves HTML tags out of the body, with a warning, and keeps the text between them).
    assert.ok(text.includes('主人戒賓'), `${template}: the text is printed`);
    // (A payload split by a page break reads back interleaved with the page's running head: look for a whole one.)
    assert.match(text, /console\.log\('diaoban-'\+'ran:(?:heading|text|note|an)'\)/, `${template}: the payload is printed as text`);

    const zip = await JSZip.loadAsync(readFileSync(path.join(out, `ed-${template}.epub`)));
    let documents = 0;
    for (const name of Object.keys(zip.files)) {
      if (!/\.(xhtml|opf|ncx|css)$/.test(name)) continue;
      const body = await zip.file(name)!.async('string');
      assert.doesNotMatch(body, /root:x:0/);
      if (name.endsWith('.css')) {
        // Outside its strings, the style sheet is ours: the font family stayed one string.
        const code = body.replace(/"(?:[^"\\\n]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*'/g, '""');
        assert.doesNotMatch(code, /@import|url\(\s*["']?(https?|file):|<\//i, `${name}: the font family stays one CSS string`);
        continue;
      }
      documents++;
      const all = elements(parseDocument(body, { xmlMode: true }).children);
      // The head is the template's (its <link> to style.css); the edition's strings are in the body, the package and the nav.
      const inBody = new Set(all.filter((e) => e.name === 'body').flatMap((b) => elements(b.children)));
      for (const e of all) {
        if (inBody.has(e) || !name.endsWith('.xhtml')) assert.ok(!/^(script|iframe|object|embed|style|link|base|form)$/i.test(e.name), `${name}: no <${e.name}> from the edition`);
        assert.ok(!(e.name === 'meta' && 'http-equiv' in e.attribs), `${name}: no <meta http-equiv>`);
        for (const [attribute, value] of Object.entries(e.attribs)) {
          assert.ok(!/^on/i.test(attribute), `${name}: no ${attribute} handler`);
          if (/^(src|href|data|action|poster|srcset|xlink:href)$/i.test(attribute)) assert.doesNotMatch(value, /^\s*(https?|wss?|file):/i, `${name}: no ${attribute}=${value}`);
        }
      }
      if (name.endsWith('.xhtml') && body.includes('主人戒賓')) assert.ok(body.includes('&lt;script&gt;console.log'), `${name}: the payload is kept as text`);
    }
    assert.ok(documents > 3);
  }
});

test("the page's Content-Security-Policy alone stops a script that got in and its WebSocket; without it both run", async () => {
  let browser: OfflineBrowser | undefined;
  try {
    browser = await launchBrowser();
    const nonce = 'n0nce-of-the-run';
    const page = (csp: boolean): string =>
      '<!doctype html><html><head><meta charset="utf-8">' +
      (csp ? `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(nonce))}">` : '') +
      `</head><body><p>text</p><script>window.ran = ['inline']; new WebSocket('ws://127.0.0.1:${port}/csp-${csp}');</script>` +
      `<img src="x:" onerror="window.ran = (window.ran || []).concat('handler')">` +
      `<object data="file:///etc/passwd"></object><iframe src="file:///etc/passwd"></iframe>` +
      `<script nonce="${nonce}">window.ours = true;</script></body></html>`;
    const results: Record<string, { ran: unknown; ours: unknown; connected: number; framed: boolean }> = {};
    for (const csp of [true, false]) {
      const file = path.join(work, `csp-${csp}.html`);
      writeFileSync(file, page(csp));
      const before = seen.length;
      const tab = await browser.newPage();
      await tab.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      await new Promise((r) => setTimeout(r, 800));
      const { ran, ours } = await tab.evaluate(() => ({ ran: (window as unknown as { ran?: string[] }).ran, ours: (window as unknown as { ours?: boolean }).ours }));
      let framed = false;
      for (const frame of tab.frames()) {
        if (frame === tab.mainFrame()) continue;
        framed ||= await frame.evaluate(() => document.body?.innerText.includes('root:x:0') ?? false).catch(() => false);
      }
      results[String(csp)] = { ran, ours, connected: seen.slice(before).filter((s) => s.startsWith('websocket')).length, framed };
      await tab.close();
    }
    assert.deepEqual(results.true, { ran: undefined, ours: true, connected: 0, framed: false }, 'with the policy: only our script ran, no WebSocket');
    // Negative control: without the policy the script runs and its WebSocket reaches the listener (request interception does not see it);
    // a local file in a frame stays out either way: request interception, the second wall.
    assert.deepEqual(results.false, { ran: ['inline', 'handler'], ours: true, connected: 1, framed: false });
    // Nor can the page be sent to a local file (a meta refresh, which no policy stops).
    const file = path.join(work, 'refresh.html');
    writeFileSync(file, '<!doctype html><meta http-equiv="refresh" content="0;url=file:///etc/passwd"><p>text</p>');
    const own = pathToFileURL(file).href;
    const tab = await browser.newPage({ navigate: (url) => url === own });
    await tab.goto(own, { waitUntil: 'load' });
    await new Promise((r) => setTimeout(r, 800));
    assert.notEqual(tab.url(), 'file:///etc/passwd');
    assert.doesNotMatch(await tab.evaluate(() => document.documentElement.innerText), /root:x:0/);
  } finally {
    await browser?.close();
    seen.length = 0;
  }
});
