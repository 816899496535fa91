/**
 * Generated manuscripts for the property tests (fuzz.test.ts, a small fixed
 * sample) and `npm run fuzz` (300 inputs, figures printed): text that mixes
 * every convention the importers know — the five samples' brackets, Kanripo
 * anchors, entities and split notes, chtxt labels, 國學導航 [疏] blocks and
 * compositions, Wikisource Markdown — with deep and broken nesting, control
 * characters, every line end, and the encodings a user brings (UTF-8 with a
 * few bad bytes, GB18030, Big5, UTF-16). `checkInput` parses and transforms
 * one input in memory and says what went wrong, if anything.
 */
import fc from 'fast-check';
import iconv from 'iconv-lite';
import { VFile } from 'vfile';
import { defaultEdition } from './edition.js';
import { parseEdition } from './index.js';
import { transformTree } from '../transform/index.js';
import type { Inline, Root } from '../tree/types.js';
import { layerLabel } from '../tree/layers.js';

const TRADITIONAL = '主人戒賓賓出迎再拜答乃請禮辭許退送射之禮侯道乏參中庭東西南北堂階上下衆大夫士於為與鄉飲酒';
const SIMPLIFIED = '主人戒宾出迎再拜答乃请礼辞许退送射之侯道乏参中庭东西南北堂阶上下众大夫士于为与乡饮酒';

const han = (pool: string) => fc.array(fc.constantFrom(...Array.from(pool)), { minLength: 1, maxLength: 12 }).map((a) => a.join(''));

const piece = fc.oneof(
  { weight: 12, arbitrary: fc.oneof(han(TRADITIONAL), han(SIMPLIFIED)) },
  { weight: 4, arbitrary: fc.constantFrom('【', '】', '〈', '〉', '(', ')', '（', '）', '〔', '〕', '/', '{', '}', '[', ']', '<', '>') },
  { weight: 2, arbitrary: fc.constantFrom('¶', '<pb:KR1d0026_SBCK_002-1a>', '<pb:T_T14n0475_0537a>', '&KR0002;', '&KR9999;', '{艹虑}', '<匚算>', '\uE163', '□□', '○释曰：', '【集解】', '【索隱】', '音義(', '疏(') },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\r\n\r\n', '　　', ' ', '\t') },
  { weight: 2, arbitrary: fc.constantFrom('\n## 卷一·本紀第一\n', '\n** 2 曲禮下\n', '\n　　●卷二士冠礼第一\n', '\n[疏]“陈服”至“北上”。\n', '\n〔注文一行〕\n', '\n〈左傳〉云：\n', '\n# src: LIJI 02\n', '\n右戒賓 記大夫\n', '\n欽定四庫全書\n', '\n禮書綱目卷九\n') },
  { weight: 2, arbitrary: fc.constantFrom('[^1]', '[^2]', '\n[^1]: 一本作某。\n', '<sub>小字</sub>', '<cn-era ce="1037">景祐四年</cn-era>', '\n<div>漢字在此</div>\n', '\n[鏈]: 網址\n', '\n- 列表\n', '\n```\n代碼\n```\n', '<!-- 註釋 -->', '\n> {附注}補注\n', '*強調*') },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u0007', '\u007f', '\ufffd') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('【', '(', '〈', '】'), fc.integer({ min: 20, max: 3000 })).map(([b, n]) => b.repeat(n)) },
);

const HEADERS = ['', '', '# -*- mode: mandoku-view -*-\n#+TITLE: 儀禮\n#+PROPERTY: JUAN 2\n', '---\ntitle:\n  zh-hant: 鬼谷子\nsource_url: https://example.org/x\n---\n', '<經部,禮類,禮書綱目\n'];

export type Encoding = 'utf-8' | 'utf-8-bad' | 'gb18030' | 'big5' | 'utf-16le' | 'utf-16be';

export interface GeneratedManuscript {
  text: string;
  path: string;
  encoding: Encoding;
  /** Where bad bytes go, as fractions of the length (utf-8-bad). */
  bad: number[];
}

export const manuscript: fc.Arbitrary<GeneratedManuscript> = fc.record({
  header: fc.constantFrom(...HEADERS),
  pieces: fc.array(piece, { minLength: 1, maxLength: 400 }),
  ext: fc.constantFrom('.txt', '.txt', '.md'),
  encoding: fc.constantFrom<Encoding>('utf-8', 'utf-8', 'utf-8-bad', 'gb18030', 'big5', 'utf-16le', 'utf-16be'),
  bad: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
}).map(({ header, pieces, ext, encoding, bad }) => {
  let text = header + pieces.join('');
  // A legacy encoding is told apart by its characters: a short file is a sentence, not a word.
  if (encoding !== 'utf-8' && (text.match(/\p{Script=Han}/gu)?.length ?? 0) < 12) text += encoding === 'gb18030' ? '乡射之礼主人戒宾宾出迎再拜' : '鄉射之禮主人戒賓賓出迎再拜';
  return { text, path: `fuzz${ext}`, encoding, bad };
});

/** The bytes of a generated manuscript; its text as the bytes can hold it (Big5 has no simplified characters). */
export function encode(m: GeneratedManuscript): { bytes: Uint8Array; text: string } {
  let text = m.text;
  if (m.encoding === 'big5') text = Array.from(text).map((c) => (iconv.decode(iconv.encode(c, 'big5'), 'big5') === c ? c : '之')).join('');
  if (m.encoding === 'utf-16le' || m.encoding === 'utf-16be') {
    return { bytes: new Uint8Array(iconv.encode(text, m.encoding, { addBOM: true })), text };
  }
  if (m.encoding === 'gb18030' || m.encoding === 'big5') return { bytes: new Uint8Array(iconv.encode(text, m.encoding)), text };
  const bytes = new TextEncoder().encode(text);
  if (m.encoding !== 'utf-8-bad') return { bytes, text };
  // Overwrite a lead byte here and there with 0xFF (never valid in UTF-8): those characters are lost, with a message each.
  const out = new Uint8Array(bytes);
  const broken = new Set<number>();
  for (const f of m.bad) {
    let i = Math.min(out.length - 1, Math.floor(f * out.length));
    while (i > 0 && (out[i] & 0xc0) === 0x80) i--;
    if (i >= 0) {
      out[i] = 0xff;
      broken.add(i);
    }
  }
  // The text as it stands after the damage: each broken character is gone.
  let u = 0;
  let kept = '';
  for (const ch of text) {
    const len = new TextEncoder().encode(ch).length;
    if (!broken.has(u)) kept += ch;
    u += len;
  }
  return { bytes: out, text: kept };
}

export interface Outcome {
  crashed?: string;
  ms: number;
  /** Han characters of the input found neither in the tree nor in a message. */
  lost: number;
  /** Han characters in the tree that the input never had (a wrong decoding). */
  garbled: number;
  /** Errors without a line. */
  unpositioned: number;
  chars: number;
}

const HAN = /\p{Script=Han}/u;

function multiset(s: string, into = new Map<string, number>()): Map<string, number> {
  for (const c of s) if (HAN.test(c)) into.set(c, (into.get(c) ?? 0) + 1);
  return into;
}

/** The strings of the tree's nodes (text, glyphs, labels, data); what the importers compose (titles, layer names) goes to `titles`. */
function treeStrings(tree: Root, out: string[], titles: string[]): void {
  titles.push(tree.edition.title);
  const walk = (nodes: readonly Inline[]) => {
    for (const n of nodes) {
      if ('value' in n && typeof n.value === 'string') out.push(n.value);
      if (n.type === 'note' && n.label) out.push(n.label);
      // A layer tag ({附注}) is markup; the layer it names is in the tree.
      if (n.type === 'note') titles.push(layerLabel(n.layer));
      if (n.data) out.push(JSON.stringify(n.data));
      if ('children' in n) walk(n.children as Inline[]);
    }
  };
  for (const v of tree.children) {
    titles.push(v.title);
    for (const b of v.children) {
      if (b.data) out.push(JSON.stringify(b.data));
      if (b.type === 'paragraph' && b.layer) titles.push(layerLabel(b.layer));
      walk(b.children);
    }
  }
}

/** Parse + transform one generated manuscript and judge the result. */
export function checkInput(m: GeneratedManuscript): Outcome {
  const { bytes, text } = encode(m);
  const file = new VFile({ path: m.path, value: bytes });
  const config = defaultEdition('fuzz', [m.path]);
  config.meta.title = '';
  const t0 = performance.now();
  let tree: Root;
  try {
    const parsed = parseEdition(config, [file]).tree;
    tree = transformTree(parsed, { ...config, meta: { ...config.meta, script: 'traditional' } }, { files: [file] });
    void tree;
    // What the property compares is the parsed tree, in the source's script.
    tree = parsed;
  } catch (error) {
    return { crashed: (error as Error).stack ?? String(error), ms: performance.now() - t0, lost: 0, garbled: 0, unpositioned: 0, chars: text.length };
  }
  const ms = performance.now() - t0;
  // HTML comments are left out with a message: their characters are accounted for.
  const input = multiset(m.path.endsWith('.md') ? text.replace(/<!--[\s\S]*?-->/gu, '') : text);
  const nodes: string[] = [];
  const titles: string[] = [];
  treeStrings(tree, nodes, titles);
  const output = multiset([...nodes, ...titles, ...file.messages.map((msg) => msg.reason)].join(''));
  let lost = 0;
  for (const [c, n] of input) lost += Math.max(0, n - (output.get(c) ?? 0));
  let garbled = 0;
  for (const [c, n] of multiset(nodes.join(''))) if (!input.has(c)) garbled += n;
  const unpositioned = file.messages.filter((msg) => msg.fatal === true && !msg.line).length;
  return { ms, lost, garbled, unpositioned, chars: text.length };
}

export interface FuzzFigures {
  seed: number;
  inputs: number;
  crashes: number;
  hangs: number;
  lost: number;
  garbled: number;
  unpositioned: number;
  /** Inputs with lost or garbled characters. */
  badInputs: number;
  slowestMsPerKChar: number;
  /** Characters over all inputs, and the largest input. */
  characters: number;
  largest: number;
  firstProblem?: { input: GeneratedManuscript; outcome: Outcome };
}

/** A hang: more than this per thousand characters (linear work is well under 5 ms). */
export const HANG_MS_PER_KCHAR = 200;

export function runFuzz(seed: number, inputs: number): FuzzFigures {
  const samples = fc.sample(manuscript, { seed, numRuns: inputs });
  const figures: FuzzFigures = { seed, inputs, crashes: 0, hangs: 0, lost: 0, garbled: 0, unpositioned: 0, badInputs: 0, slowestMsPerKChar: 0, characters: 0, largest: 0 };
  for (const input of samples) {
    const outcome = checkInput(input);
    figures.characters += outcome.chars;
    figures.largest = Math.max(figures.largest, outcome.chars);
    const perK = outcome.ms / Math.max(1, outcome.chars / 1000);
    figures.slowestMsPerKChar = Math.max(figures.slowestMsPerKChar, outcome.chars >= 1000 ? perK : 0);
    const hang = outcome.ms > 1000 && perK > HANG_MS_PER_KCHAR;
    if (outcome.crashed) figures.crashes++;
    if (hang) figures.hangs++;
    figures.lost += outcome.lost;
    figures.garbled += outcome.garbled;
    figures.unpositioned += outcome.unpositioned;
    if (outcome.lost || outcome.garbled) figures.badInputs++;
    if (!figures.firstProblem && (outcome.crashed || hang || outcome.lost || outcome.garbled || outcome.unpositioned)) figures.firstProblem = { input, outcome };
  }
  return figures;
}
