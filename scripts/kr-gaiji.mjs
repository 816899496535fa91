/**
 * Kanripo's list of characters its transcriptions could not encode
 * (kanripo/KR-Gaiji: charlist.org.txt and a glyph image a code) → the
 * project's data in data/kr-gaiji/:
 *   table.json   one entry a code: its Unicode character, its reading (the
 *                list's normalized form), an IDS, whether the list is unsure,
 *                whether it has an image; and the compositions the list
 *                itself writes (`[口*敕]`) → the code they name
 *   images/      one PNG a code, black ink in the alpha channel (the list's
 *                images are either black on transparent or black on opaque
 *                white: the second kind turned into the first, 255 − grey as
 *                alpha), re-encoded at zlib level 9: what a glyph was, no
 *                pixel lost
 *   node scripts/kr-gaiji.mjs [SOURCE_DIR]   (default ../shared/corpora/kr-gaiji)
 * The output is byte-identical for the same input.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.resolve(process.argv[2] ?? path.join(ROOT, '..', 'shared', 'corpora', 'kr-gaiji'));
const OUT = path.join(ROOT, 'data', 'kr-gaiji');

const isPrivateUse = (cp) => (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000;
const isIdc = (cp) => cp >= 0x2ff0 && cp <= 0x2fff;
/** One character that Unicode encodes for itself (not a Private Use code point). */
const oneCharacter = (s) => [...s].length === 1 && !isPrivateUse(s.codePointAt(0)) && !isIdc(s.codePointAt(0));
const isIds = (s) => [...s].length > 1 && isIdc(s.codePointAt(0));
/** A composition in the CBETA form the list writes (`[口*敕]`, `[炫-ㄙ+ㄥ]`). */
const isComposition = (s) => /^\[[^\[\]\s]{2,30}\]$/u.test(s) && /[*/@+\-]/u.test(s);

/** `鉉:1,銨:1`, `數?`, `⿺風軍`: the candidates of a cell, each with its count and whether the list is unsure of it. */
function candidates(cell) {
  return cell
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^(.*?):(\d+)$/u.exec(part);
      let value = m ? m[1] : part;
      const unsure = value.endsWith('?') && value.length > 1;
      if (unsure) value = value.slice(0, -1);
      const code = /^U\+([0-9A-F]{4,6})$/iu.exec(value);
      if (code) value = String.fromCodePoint(parseInt(code[1], 16));
      return { value, count: m ? Number(m[2]) : 1, unsure };
    });
}

function entryOf(code, unicodeCell, normalCell, compositions) {
  const entry = {};
  const consider = (list, asUnicode) => {
    for (const c of list) {
      if (isComposition(c.value)) {
        compositions[c.value] ??= code;
        continue;
      }
      if (isIds(c.value)) {
        entry.ids ??= c.value;
        continue;
      }
      if (!oneCharacter(c.value)) continue;
      if (asUnicode && !c.unsure) entry.u ??= c.value;
    }
  };
  const unicode = candidates(unicodeCell.trim());
  consider(unicode, true);
  // The reading: the most counted single character of the normalized form (the first on a tie), else an unsure Unicode guess.
  const readings = [...candidates(normalCell.trim()), ...unicode.filter((c) => c.unsure)].filter((c) => oneCharacter(c.value));
  consider(candidates(normalCell.trim()), false);
  const best = readings.reduce((a, b) => (b.count > a.count ? b : a), readings[0]);
  if (best && best.value !== entry.u) {
    entry.n = best.value;
    if (best.unsure) entry.unsure = true;
  }
  return entry;
}

/** The image as black ink in alpha: the list's alpha images as they are, an opaque one's darkness as alpha. */
function inkPng(bytes) {
  const src = PNG.sync.read(bytes);
  const out = new PNG({ width: src.width, height: src.height, colorType: 4, inputColorType: 6, inputHasAlpha: true });
  let opaque = true;
  for (let i = 3; i < src.data.length; i += 4) if (src.data[i] !== 255) opaque = false;
  for (let i = 0; i < src.data.length; i += 4) {
    const grey = Math.round(0.299 * src.data[i] + 0.587 * src.data[i + 1] + 0.114 * src.data[i + 2]);
    out.data[i] = 0;
    out.data[i + 1] = 0;
    out.data[i + 2] = 0;
    out.data[i + 3] = opaque ? 255 - grey : Math.round((src.data[i + 3] * (255 - grey)) / 255);
  }
  return PNG.sync.write(out, { colorType: 4, inputColorType: 6, deflateLevel: 9, deflateStrategy: 1 });
}

function main() {
  const list = readFileSync(path.join(SOURCE, 'charlist.org.txt'), 'utf8');
  const images = new Set(readdirSync(path.join(SOURCE, 'images')).filter((f) => /^KR\d+\.png$/u.test(f)));
  const codes = {};
  const compositions = {};
  for (const line of list.split('\n')) {
    const cells = line.split('\t');
    if (!/^KR\d+$/u.test(cells[0] ?? '') || cells.length < 5) continue;
    const code = cells[0];
    const entry = entryOf(code, cells[2], cells[3], compositions);
    const image = /\[\[file:images\/(KR\d+\.png)\]\]/u.exec(cells[4])?.[1];
    if (image && images.has(image)) entry.image = 1;
    codes[code] = entry;
  }
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(path.join(OUT, 'images'), { recursive: true });
  let bytes = 0;
  for (const [code, entry] of Object.entries(codes)) {
    if (!entry.image) continue;
    const png = inkPng(readFileSync(path.join(SOURCE, 'images', `${code}.png`)));
    writeFileSync(path.join(OUT, 'images', `${code}.png`), png);
    bytes += png.length;
  }
  const sortedCompositions = Object.fromEntries(Object.entries(compositions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const table = { source: 'kanripo/KR-Gaiji charlist.org.txt', codes, compositions: sortedCompositions };
  const json = JSON.stringify(table) + '\n';
  writeFileSync(path.join(OUT, 'table.json'), json);
  const count = Object.keys(codes).length;
  const drawn = Object.values(codes).filter((e) => e.image).length;
  console.log(`${count} codes (${drawn} images, ${bytes} bytes; table ${json.length} bytes; ${Object.keys(sortedCompositions).length} compositions) → ${path.relative(ROOT, OUT)}`);
  if (!existsSync(path.join(OUT, 'table.json')) || statSync(path.join(OUT, 'table.json')).size === 0) process.exit(1);
}

main();
