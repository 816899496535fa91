/**
 * Writes build/collate/variant-table.ts: the pairs of variant forms (異體)
 * the collation folds, from
 *   U  Unicode's Unihan (Debian unicode-data, Unihan_Variants.txt.bz2): kZVariant, kSemanticVariant
 *   O  OpenCC's variant dictionaries (opencc-js: TWVariants, HKVariants)
 *   K  Kanripo's KR-Gaiji list (../shared/corpora/kr-gaiji/charlist.org.txt): a character and its normalized form
 *   D  build/collate/variant-forms.tsv: ours, each row with its source (add, or keep apart)
 * A pair (but a kZVariant, one character by definition, or one of ours) is left out when it is two characters a script conversion tells
 * apart — OpenCC's TSCharacters makes one the simplified form of the other
 * and that form is also a traditional character of its own (于/於, 台/臺,
 * 后/後: distinct words in classical text) — or when our table says apart.
 *
 *   tsx scripts/variant-forms.ts           write the table
 *   tsx scripts/variant-forms.ts --check   exit 1 if the table is not what the sources make
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import HKVariants from 'opencc-js/dict/HKVariants';
import TWVariants from 'opencc-js/dict/TWVariants';
import TSCharacters from 'opencc-js/dict/TSCharacters';
import { oneToManyByChar } from '../build/transform/one-to-many.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'build', 'collate', 'variant-table.ts');
const OURS = path.join(ROOT, 'build', 'collate', 'variant-forms.tsv');
const UNIHAN = '/usr/share/unicode/Unihan_Variants.txt';

function unihanText(): string {
  if (existsSync(UNIHAN)) return readFileSync(UNIHAN, 'utf8');
  if (existsSync(`${UNIHAN}.bz2`)) return execFileSync('bzcat', [`${UNIHAN}.bz2`], { encoding: 'utf8', maxBuffer: 64 << 20 });
  throw new Error(`${UNIHAN}(.bz2) is missing: apt-get install unicode-data`);
}

const fromCode = (u: string): string => String.fromCodePoint(parseInt(u.slice(2), 16));
const isHan = (c: string): boolean => /^\p{Script=Han}$/u.test(c);

type Source = 'U' | 'Z' | 'O' | 'K' | 'D';
const pairs = new Map<string, Set<Source>>();
const pairKey = (x: string, y: string): string => (x < y ? `${x}\t${y}` : `${y}\t${x}`);
function add(x: string, y: string, source: Source): void {
  x = x.normalize('NFC');
  y = y.normalize('NFC');
  if (x === y || !isHan(x) || !isHan(y)) return;
  const key = pairKey(x, y);
  let set = pairs.get(key);
  if (!set) pairs.set(key, (set = new Set()));
  set.add(source);
}

let unihanVersion = '';
for (const line of unihanText().split('\n')) {
  const version = /^#\s*Unicode version:\s*([\d.]+)/i.exec(line);
  if (version && !unihanVersion) unihanVersion = version[1];
  const [code, field, value] = line.split('\t');
  if (!code.startsWith('U+') || (field !== 'kZVariant' && field !== 'kSemanticVariant')) continue;
  for (const target of value.split(' ')) add(fromCode(code), fromCode(target.split('<')[0]), field === 'kZVariant' ? 'Z' : 'U');
}
for (const dict of [TWVariants, HKVariants]) {
  for (const entry of dict.split('|')) {
    const [from, ...to] = entry.split(' ');
    for (const t of to) if (Array.from(from).length === 1 && Array.from(t).length === 1) add(from, t, 'O');
  }
}
const GAIJI = path.join(ROOT, '..', 'shared', 'corpora', 'kr-gaiji', 'charlist.org.txt');
for (const line of readFileSync(GAIJI, 'utf8').split('\n')) {
  const [, , char, normal] = line.split('\t');
  if (char && normal && Array.from(char).length === 1 && Array.from(normal).length === 1) add(char, normal, 'K');
}
const apart = new Set<string>();
const ours: string[] = [];
for (const line of readFileSync(OURS, 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [x, y, what, source] = line.split('\t');
  if (!source) throw new Error(`${OURS}: every row needs its source: ${line}`);
  if (what === 'add') add(x, y, 'D');
  else if (what === 'apart') apart.add(pairKey(x, y));
  else throw new Error(`${OURS}: add or apart, not ${what}`);
  ours.push(line);
}

// Two readings a conversion tells apart: the simplified form that is a traditional character of its own, and each character it stands for.
const simplifiedOf = new Map<string, string>();
for (const entry of TSCharacters.split('|')) {
  const [t, s] = entry.split(' ');
  if (Array.from(t).length === 1 && s && Array.from(s).length === 1) simplifiedOf.set(t, s);
}
const ownToo = new Set<string>();
for (const [s, { readings }] of oneToManyByChar()) if (readings.includes(s)) ownToo.add(s);
const scriptPair = (x: string, y: string): boolean => (simplifiedOf.get(x) === y && ownToo.has(y)) || (simplifiedOf.get(y) === x && ownToo.has(x));

const kept: Array<[string, string, string]> = [];
let leftOut = 0;
for (const [key, sources] of [...pairs].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const [x, y] = key.split('\t');
  if (apart.has(key) || (!sources.has('Z') && !sources.has('D') && scriptPair(x, y))) leftOut++;
  else kept.push([x, y, [...sources].sort().join('')]);
}
const characters = new Set(kept.flatMap(([x, y]) => [x, y]));
const pairText = kept.map(([x, y, s]) => `${x}${y}${s}`).join(' ');
const body = `/**
 * GENERATED by scripts/variant-forms.ts — do not edit; edit build/collate/variant-forms.tsv and run
 * \`npx tsx scripts/variant-forms.ts\`. Pairs of variant forms (異體) the collation folds: ${kept.length} pairs of
 * ${characters.size} characters — Unihan ${unihanVersion} kZVariant (Z) and kSemanticVariant (U), OpenCC's TWVariants and
 * HKVariants (O), Kanripo's KR-Gaiji normalized forms (K), ours (D: variant-forms.tsv, ${ours.length} rows, each with its source) — less ${leftOut} pairs a
 * script conversion tells apart (于/於, 台/臺) or our table keeps apart. Pairs, not classes: variant
 * relations do not chain (勑 is a form of 敕 and of 徠, which are two words).
 */
/** Each pair: its two characters, then its sources (U, O, D); pairs parted by spaces. */
export const VARIANT_PAIRS = ${JSON.stringify(pairText)};
`;
if (process.argv.includes('--check')) {
  const now = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
  if (now !== body) {
    console.error(`${path.relative(ROOT, OUT)} is not what its sources make: run tsx scripts/variant-forms.ts`);
    process.exit(1);
  }
} else {
  writeFileSync(OUT, body);
  console.log(`${path.relative(ROOT, OUT)}: ${kept.length} pairs of ${characters.size} characters (${leftOut} left out), ${Buffer.byteLength(body)} bytes`);
}
