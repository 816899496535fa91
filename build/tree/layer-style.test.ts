/**
 * The layer style table's colours are legible by day and by night: each
 * layer's light colour at 4.5:1 or more on white and on black (for readers
 * whose night theme does not say it is dark), its dark colour on black and on
 * a dark grey; and the EPUB's layer rules colour labels, noterefs, backlinks
 * and rules only, never the text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LAYER_STYLES } from './layer-style.js';
import { layerCss } from '../render/epub/layers.js';

const luminance = (hex: string): number => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string): number => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

test('every layer colour is at least 4.5:1 where it is used: light on white and black, dark on black and #121212', () => {
  const coloured = LAYER_STYLES.filter((l) => l.colour);
  assert.ok(coloured.length >= 10);
  for (const l of coloured) {
    for (const bg of ['#ffffff', '#000000']) assert.ok(contrast(l.colour!.light, bg) >= 4.5, `${l.id} ${l.colour!.light} on ${bg}: ${contrast(l.colour!.light, bg).toFixed(2)}`);
    for (const bg of ['#000000', '#121212']) assert.ok(contrast(l.colour!.dark, bg) >= 4.5, `${l.id} ${l.colour!.dark} on ${bg}: ${contrast(l.colour!.dark, bg).toFixed(2)}`);
  }
  // Negative control: the old fixed colours fail at night.
  assert.ok(contrast('#222222', '#121212') < 4.5 && contrast('#1d4a7a', '#000000') < 4.5);
});

test('the EPUB colours labels, noterefs, backlinks and rules, never a note\'s text, and has a dark scheme', () => {
  const css = layerCss('"Noto Serif CJK TC", serif');
  for (const m of css.replace(/@media[^{]*\{/g, '').matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    if (!/(^|[^-])color:/.test(m[2])) continue;
    for (const sel of m[1].split(',').map((s) => s.trim()))
      assert.match(sel, /> \.layer-label$|^a\.noteref-|a\.backlink$|^p\.commentary\.note-\w+$|^aside\.note-\w+$/, `coloured: ${sel}`);
  }
  assert.match(css, /@media \(prefers-color-scheme: dark\) \{/);
  assert.match(css, /small\.note-zhu \{ font-size: 0\.7em; font-family: "Kaiti TC", /);
  assert.match(css, /p\.commentary\.note-shu \{ padding-inline-start: 1em; border-block-start: 2px solid #2575d2;[^}]*box-decoration-break: clone;/);
});
