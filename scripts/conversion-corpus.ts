/**
 * The traditional texts the script conversion learns from and is measured
 * on: every text under ../shared/corpora (Kanripo's 44 works and their WYG
 * witnesses, the traditional texts of the development corpus, the single
 * files) that reads as traditional, parsed as diaoban parses it, as streams
 * of text (script.ts textStreams). Texts are grouped into works by the
 * passages they share (a work's other copy, a 文心雕龍 in two corpora), so
 * that a work's own text is never in the table that converts it.
 * Used by scripts/context-model.ts and bench/conversion.ts; reads files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VFile } from 'vfile';
import { sourceScript } from '../build/engine/text-defaults.js';
import { parseSource } from '../build/parse/index.js';
import { textStreams } from '../build/transform/script.js';

export const CORPORA = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'corpora');

export interface CorpusText {
  /** Path under the corpora folder. */
  file: string;
  /** The work: a Kanripo id where the path names one (KR3a0010 and its WYG witness), else the file. */
  work: string;
  /** Its text as streams (each a paragraph's text around its notes, a note's text …), in order. */
  streams: string[];
}

function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'kr-gaiji') out.push(...textFiles(p));
    } else if (/\.(txt|md)$/u.test(name) && !/^(SOURCES|README)\.md$/u.test(name)) out.push(p);
  }
  return out;
}

/** Every traditional text of the corpora, in path order. */
export function traditionalTexts(root = CORPORA): CorpusText[] {
  const out: CorpusText[] = [];
  for (const file of textFiles(root)) {
    const parsed = parseSource(new VFile({ path: file, value: readFileSync(file) }), path.basename(file));
    const streams: string[] = [];
    for (const volume of parsed.volumes) for (const texts of textStreams(volume)) streams.push(texts.map((t) => t.value).join(''));
    if (streams.length === 0 || sourceScript(streams.join('')) !== 'traditional') continue;
    const rel = path.relative(root, file);
    out.push({ file: rel, work: /KR\d[a-z]\d{4}/u.exec(rel)?.[0] ?? rel, streams });
  }
  return out;
}

const HAN = /\p{Script=Han}/u;

/**
 * Works that share passages are one group: two works whose texts have at
 * least 0.5% of the smaller's sampled 14-character windows in common (and
 * ten) — the same text in two corpora, a book quoting another at length.
 * Windows are sampled by their own hash (one in eight), so two copies of a
 * passage sample the same windows.
 */
export function groupsByOverlap(texts: readonly CorpusText[]): Map<string, string> {
  const byWork = new Map<string, string[]>();
  for (const t of texts) for (const s of t.streams) for (const c of s) if (HAN.test(c)) (byWork.get(t.work) ?? byWork.set(t.work, []).get(t.work)!).push(c);
  const works = [...byWork.keys()];
  const windows = works.map((w) => {
    const chars = byWork.get(w)!;
    const set = new Set<string>();
    for (let i = 0; i + 14 <= chars.length; i++) {
      const window = chars.slice(i, i + 14).join('');
      let h = 0;
      for (let j = 0; j < window.length; j++) h = (Math.imul(h, 31) + window.charCodeAt(j)) | 0;
      if ((h & 7) === 0) set.add(window);
    }
    return set;
  });
  const parent = works.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const owner = new Map<string, number>();
  const shared = new Map<number, number>();
  windows.forEach((set, i) => {
    for (const w of set) {
      const o = owner.get(w);
      if (o === undefined) owner.set(w, i);
      else shared.set(o * works.length + i, (shared.get(o * works.length + i) ?? 0) + 1);
    }
  });
  for (const [pair, n] of shared) {
    const a = Math.floor(pair / works.length);
    const b = pair % works.length;
    if (n >= 10 && n >= 0.005 * Math.min(windows[a].size, windows[b].size)) parent[find(a)] = find(b);
  }
  return new Map(works.map((w, i) => [w, works[find(i)]]));
}

/** The groups dealt into `k` folds of about equal size, largest first (deterministic). */
export function foldsOf(texts: readonly CorpusText[], k: number): Map<string, number> {
  const group = groupsByOverlap(texts);
  const size = new Map<string, number>();
  for (const t of texts) size.set(group.get(t.work)!, (size.get(group.get(t.work)!) ?? 0) + t.streams.reduce((n, s) => n + s.length, 0));
  const load = new Array<number>(k).fill(0);
  const foldOfGroup = new Map<string, number>();
  for (const [g, n] of [...size].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const f = load.indexOf(Math.min(...load));
    foldOfGroup.set(g, f);
    load[f] += n;
  }
  return new Map(texts.map((t) => [t.file, foldOfGroup.get(group.get(t.work)!)!]));
}
