/**
 * An SVG seal reads nothing but its own bytes (issue 29). Reproduction: a
 * 240-byte seal whose <image> named /dev/zero was read while resvg parsed
 * it, before images were left out — 4.26 GB in the seal process; a FIFO held
 * it until its time ran out. Every reference outside the SVG is now taken
 * out of its text first (any prefix, any quoting), and what could bring one
 * back (entities with markup, external entities, style sheets, url()) is
 * refused with a message; the seal process's memory is capped.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sealImage } from './load.js';
import { SEAL_PROCESS_BYTES, withoutExternalReferences } from './seal-raster.js';

const work = mkdtempSync(path.join(tmpdir(), 'diaoban-seal-refs-'));
after(() => rmSync(work, { recursive: true, force: true }));

const svg = (body: string, head = ''): Uint8Array => new TextEncoder().encode(`${head}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">${body}<rect width="10" height="10" fill="#b3261e"/></svg>`);

test('a seal whose <image> names /dev/zero or a FIFO is drawn without reading it', { timeout: 60_000 }, async () => {
  const fifo = path.join(work, 'fifo');
  execFileSync('mkfifo', [fifo]);
  for (const target of ['/dev/zero', fifo, `file://${fifo}`]) {
    for (const attribute of ['href', 'xlink:href']) {
      const started = Date.now();
      const result = await sealImage(svg(`<image ${attribute}="${target}" width="100" height="100"/><filter id="f"><feImage ${attribute}='${target}'/></filter>`), '10mm');
      assert.ok(typeof result !== 'string', `${target}: ${String(result)}`);
      assert.match(result.warning ?? '', /draws images, which are left out/);
      // Before: the parse read 4 GB, or waited on the FIFO for the whole 10 s limit.
      assert.ok(Date.now() - started < 5000, `${target} (${attribute}) drawn in ${Date.now() - started} ms`);
    }
  }
});

test('references are taken out however written; what could bring one back is refused with a message', async () => {
  const clean = withoutExternalReferences('<svg><use href="#a"/><image\nxlink:href = \'/etc/passwd\' /><image svg:href="&#47;dev&#47;zero"/><image href="data:image/png;base64,AAAA"/></svg>');
  assert.ok(typeof clean !== 'string');
  assert.equal(clean.removed, 3);
  assert.doesNotMatch(clean.svg, /passwd|dev|data:/);
  assert.match(clean.svg, /href="#a"/, 'a fragment of the SVG itself stays');
  // (An internal DTD subset is not taken for an SVG at all by sealImage's first look; the text is checked for one anyway.)
  const refused: Array<[string, RegExp]> = [
    ['<!DOCTYPE svg [<!ENTITY e "<image href=&#34;/dev/zero&#34;/>">]>', /entity that holds markup/],
    ['<!DOCTYPE svg [<!ENTITY e SYSTEM "/etc/passwd">]>', /external or parameter entity/],
    ['<!DOCTYPE svg [<!ENTITY % p "x">]>', /external or parameter entity/],
    ['<?xml-stylesheet href="/etc/style.css"?>', /style sheet/],
  ];
  for (const [head, reason] of refused) assert.match(String(withoutExternalReferences(`${head}<svg/>`)), reason, head);
  assert.match(String(await sealImage(svg('', '<?xml-stylesheet href="/etc/style.css"?>'), '10mm')), /style sheet/);
  assert.match(String(await sealImage(svg('<style>@import "/etc/x.css";</style>'), '10mm')), /@import/);
  assert.match(String(await sealImage(svg('<rect fill="url(/etc/x.svg#p)" width="1" height="1"/>'), '10mm')), /url\(\) that names something outside/);
  // Controls: a plain entity (Illustrator names namespaces so) is no reference; a DOCTYPE and url(#id) draw.
  assert.ok(typeof withoutExternalReferences('<!DOCTYPE svg [<!ENTITY ns_svg "http://www.w3.org/2000/svg">]><svg/>') !== 'string');
  const illustrator = await sealImage(svg('<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="1" height="1"/>', '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'), '10mm');
  assert.ok(typeof illustrator !== 'string', String(illustrator));
  assert.equal(illustrator.warning, undefined);
});

test('the seal process runs with its memory capped', () => {
  // The seal process is started as this command is: past the cap, an allocation fails (the control: under it, it succeeds).
  const run = (bytes: number) => spawnSync('/bin/sh', ['-c', `ulimit -v ${Math.floor(SEAL_PROCESS_BYTES / 1024)} && exec "$0" "$@"`, process.execPath, '-e', `Buffer.alloc(${bytes}, 1)`], { encoding: 'utf8' });
  assert.notEqual(run(2 * SEAL_PROCESS_BYTES).status, 0, 'twice the cap cannot be had');
  assert.equal(run(64 * 1024 ** 2).status, 0, 'a seal’s worth can');
});
