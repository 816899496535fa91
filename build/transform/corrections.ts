/**
 * Corrections: the editor's record, applied to the tree so that the sources
 * stay as they came. Each applied entry becomes a `correction` node (old
 * text, new text as children, note, witness, kind, its place in the
 * corrections file): the stuff of the edition's 校勘記.
 *
 * corrections.yaml is a list of entries:
 *   - find: 前儒所未及     text as the source has it (or as the edition prints it)
 *     replace: 先儒所未及  the corrected text; "" deletes
 *     at: juan09.txt:12   optional: file[:line] to look in
 *     note: 據文淵閣本改   optional
 *     source: 文淵閣本     optional: the witness followed
 *     kind: 改             optional: 改 補 刪 乙 (inferred otherwise)
 *   - find: ""            an insertion: empty find, the text it follows in `after`
 *     after: 所未
 *     replace: 及
 * Context shared by find and replace is not part of the correction: the
 * entry above records 前 → 先. An entry must match exactly once where it
 * applies; otherwise it is an error at the entry's own file:line:col and the
 * rest still builds.
 */
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { location } from 'vfile-location';
import { isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import type { Correction, Inline, Parent, Root, Script, SourcePosition, Text } from '../tree/types.js';
import { slicePosition } from './layers.js';
import type { ConversionChoices } from '../tree/edition.js';
import { convertText } from './script.js';
import { noControl } from '../parse/edition-schema.js';

export type CorrectionKind = Correction['kind'];

/** The scripts of an edition (and its conversion choices), for entries written in the printed script. */
export interface Scripts {
  from: Script;
  to: Script;
  choices?: ConversionChoices;
}

export const CORRECTION_KINDS: readonly CorrectionKind[] = ['改', '補', '刪', '乙'];
/** Simplified spellings an editor may type. */
const KIND_ALIASES: Readonly<Record<string, CorrectionKind>> = { 补: '補', 删: '刪' };

export interface CorrectionEntry {
  /** The text to find; '' for an insertion. */
  find: string;
  replace: string;
  /** An insertion: the text the new text follows. */
  after?: string;
  /** `at`: the file (relative to the edition folder) and line to look in. */
  file?: string;
  line?: number;
  note?: string;
  witness?: string;
  /** Given by the editor; inferred from the change when absent. */
  kind?: CorrectionKind;
  /** Where the entry stands in the corrections file. */
  entry: SourcePosition;
  /** The corrections file: messages about the entry go there. */
  source: VFile;
}

const KNOWN_KEYS = new Set(['find', 'replace', 'after', 'at', 'note', 'source', 'kind']);

export function parseCorrections(file: VFile): CorrectionEntry[] {
  const text = String(file.value ?? '');
  const loc = location(text);
  const path = file.path ?? 'corrections.yaml';
  const position = (range: readonly number[] | null | undefined): SourcePosition => {
    const at = (offset: number) => {
      const p = loc.toPoint(offset) ?? loc.toPoint(Math.max(0, text.length - 1)) ?? { line: 1, column: 1 };
      return { line: p.line, column: p.column, offset };
    };
    return { file: path, start: at(range?.[0] ?? 0), end: at(range?.[1] ?? range?.[0] ?? 0) };
  };
  const report = (severity: 'error' | 'warning', reason: string, place: SourcePosition | undefined, ruleId = 'corrections') => {
    const m = file.message(reason, { place: place ? { start: place.start, end: place.end } : undefined, ruleId, source: 'diaoban' });
    m.fatal = severity === 'error';
  };
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  for (const e of doc.errors) report('error', `the corrections file is not valid YAML: ${e.message.split('\n')[0]}`, position(e.pos), 'corrections-yaml');
  if (doc.errors.length > 0 || doc.contents === null) return [];
  if (!isSeq(doc.contents)) {
    report('error', 'the corrections file must be a list of entries (- find: …, replace: …)', position(doc.contents.range), 'corrections-yaml');
    return [];
  }
  const out: CorrectionEntry[] = [];
  for (const item of doc.contents.items as YamlNode[]) {
    const entry = position(item?.range);
    if (!isMap(item)) {
      report('error', 'each correction is a mapping: find: …, replace: … (and at:, note:, source:, kind:)', entry);
      continue;
    }
    const field = (key: string): YamlNode | undefined => item.get(key, true) as YamlNode | undefined;
    // A control character would reach the book (as U+FFFD) and the terminal: the entry is left out, said at the value.
    let controlled = false;
    const str = (key: string): string | undefined | null => {
      const node = field(key);
      if (node === undefined) return undefined;
      if (isScalar(node) && node.value === null) return null;
      if (isScalar(node) && (typeof node.value === 'string' || typeof node.value === 'number')) {
        const value = String(node.value);
        const control = noControl(value);
        if (control) {
          report('error', `${key} ${control}: ${JSON.stringify(value.slice(0, 40))}; the correction is left out`, position(node.range));
          controlled = true;
        }
        return value;
      }
      report('error', `${key} must be text`, position(node.range));
      return undefined;
    };
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!KNOWN_KEYS.has(key)) report('warning', `unknown key "${key}" in a correction is ignored; known keys: ${[...KNOWN_KEYS].join(', ')}`, position((pair.key as YamlNode | null)?.range));
    }
    const find = str('find') ?? '';
    const replace = str('replace');
    const after = str('after') ?? undefined;
    if (controlled) continue;
    if (replace === undefined) {
      report('error', 'a correction needs replace: the corrected text ("" to delete)', entry);
      continue;
    }
    if (find === '' && !after) {
      report('error', 'an insertion (empty find) needs after: the text the new text follows', entry);
      continue;
    }
    if (find !== '' && after) {
      report('error', 'give either find (a replacement or deletion) or after with an empty find (an insertion), not both', entry);
      continue;
    }
    if (find !== '' && find === (replace ?? '')) {
      report('error', 'find and replace are the same: the entry changes nothing', entry);
      continue;
    }
    if (find === '' && (replace ?? '') === '') {
      report('error', 'an insertion needs the text to insert in replace', entry);
      continue;
    }
    const result: CorrectionEntry = { find, replace: replace ?? '', entry, source: file };
    if (after) result.after = after;
    const at = str('at');
    if (at) {
      const where = /^(.+?)(?::(\d+))?$/.exec(at.trim());
      if (where) {
        result.file = where[1];
        if (where[2]) result.line = Number(where[2]);
      }
    }
    const note = str('note');
    if (note) result.note = note;
    const witness = str('source');
    if (witness) result.witness = witness;
    const kind = str('kind');
    if (kind) {
      const k = KIND_ALIASES[kind.trim()] ?? kind.trim();
      if ((CORRECTION_KINDS as readonly string[]).includes(k)) result.kind = k as CorrectionKind;
      else report('error', `kind must be one of ${CORRECTION_KINDS.join(' ')} (改 replace, 補 insert, 刪 delete, 乙 transpose), not "${kind}"; it is inferred instead`, position(field('kind')?.range));
    }
    if (!controlled) out.push(result);
  }
  return out;
}

/** What changed, context trimmed: find 前儒所 / replace 先儒所 → at 0, old 前, new 先. */
export function narrowChange(find: string, replace: string): { at: number; old: string; new: string } {
  const a = Array.from(find);
  const b = Array.from(replace);
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return { at: a.slice(0, p).join('').length, old: a.slice(p, a.length - s).join(''), new: b.slice(p, b.length - s).join('') };
}

/**
 * narrowChange on the texts as the edition prints them, so that an entry
 * whose find is in the source's script and whose replace is in the printed
 * one (无锡人 → 無錫縣人) records only what a reader sees change (補 縣).
 * Falls back to the raw texts where the conversion is not character for
 * character.
 */
function narrowPrinted(find: string, replace: string, scripts: Scripts | undefined): { at: number; old: string; new: string } {
  if (!scripts || scripts.from === scripts.to) return narrowChange(find, replace);
  const f = convertText(find, scripts.from, scripts.to, scripts.choices);
  const r = convertText(replace, scripts.from, scripts.to, scripts.choices);
  if (f.length !== find.length || r.length !== replace.length) return narrowChange(find, replace);
  const printed = narrowChange(f, r);
  const oldLength = printed.old.length;
  return { at: printed.at, old: find.slice(printed.at, printed.at + oldLength), new: replace.slice(printed.at, printed.at + printed.new.length) };
}

/** 補 for an insertion, 刪 for a deletion, 乙 for the same characters in another order, 改 otherwise. */
export function inferKind(old: string, replacement: string): CorrectionKind {
  if (old === '') return '補';
  if (replacement === '') return '刪';
  const sorted = (s: string) => Array.from(s).sort().join('');
  if (Array.from(old).length > 1 && old !== replacement && sorted(old) === sorted(replacement)) return '乙';
  return '改';
}

interface Hit {
  /** The volume the hit is in (index in the tree). */
  volume: number;
  node: Text;
  parent: Parent;
  /** UTF-16 index of the target in node.value. */
  index: number;
}

function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** A text node of the tree with where it hangs. */
interface TextAt {
  volume: number;
  node: Text;
  parent: Parent;
}

/** A piece of an indexed text: a text node now in the tree, standing at `start` of its origin's text. */
interface Piece extends TextAt {
  start: number;
}

/** A text as it was indexed (a text node of the tree, or a correction's new text) and the nodes it is split into now, by start. */
interface Origin {
  volume: number;
  value: string;
  pieces: Piece[];
  /** The origin's text as printed, when its conversion keeps the length; null when not; undefined until asked. */
  shown?: string | null;
}

/**
 * Where every character and pair of characters stands in the book's text,
 * made once: an entry looks only at the places of its rarest pair and checks
 * each against the node now there, so N entries cost about N lookups, not N
 * walks of the book (1,000–8,000 entries on a 200,000-character volume were
 * 4.5–84 s). A correction splits a node into pieces that keep their place in
 * the text indexed, so nothing is indexed again but the correction's new
 * text. The same index of the text as printed (script conversion) is made
 * the first time an entry needs it, each text converted once (2,000 entries
 * matching nothing in a simplified text were 53 s).
 */
class TextIndex {
  private readonly origins: Origin[] = [];
  private readonly originOf = new Map<Text, Origin>();
  /** gram (gramKey) → pairs (origin index, offset), flat. */
  private readonly source = new Map<number, number[]>();
  private printed: Map<number, number[]> | null = null;
  private readonly shownPiece = new WeakMap<Text, string | null>();

  /** The grams find() will look up: those of the entries' targets. Only they are indexed (a book has hundreds of thousands, an entry a few). */
  private readonly wanted = new Set<number>();

  constructor(
    private readonly tree: Root,
    private readonly scripts: Scripts | undefined,
    targets: readonly string[],
  ) {
    for (const target of targets) for (const key of targetGrams(target)) this.wanted.add(key);
    for (let v = 0; v < tree.children.length; v++) this.addVolume(v);
  }

  private addVolume(volume: number): void {
    visit(this.tree.children[volume], 'text', (node: Text, _i, parent) => {
      if (parent) this.add(volume, node, parent as Parent);
    });
  }

  private post(table: Map<number, number[]>, text: string, origin: number): void {
    const at = (key: number, i: number): void => {
      if (!this.wanted.has(key)) return;
      let list = table.get(key);
      if (!list) table.set(key, (list = []));
      list.push(origin, i);
    };
    for (let i = 0; i < text.length; i++) {
      at(gramKey(text, i, 1), i);
      if (i + 1 < text.length) at(gramKey(text, i, 2), i);
    }
  }

  /** A new text in the tree (at the start, or a correction's new text). */
  add(volume: number, node: Text, parent: Parent): void {
    const origin: Origin = { volume, value: node.value, pieces: [{ volume, node, parent, start: 0 }] };
    this.origins.push(origin);
    this.originOf.set(node, origin);
    this.post(this.source, node.value, this.origins.length - 1);
    if (this.printed) this.postPrinted(this.origins.length - 1);
  }

  private postPrinted(index: number): void {
    const origin = this.origins[index];
    origin.shown ??= this.convert(origin.value);
    if (origin.shown !== null) this.post(this.printed!, origin.shown, index);
  }

  private convert(text: string): string | null {
    const scripts = this.scripts!;
    const converted = convertText(text, scripts.from, scripts.to, scripts.choices);
    // Indices carry over only where the conversion went character for character.
    return converted.length === text.length && Array.from(converted).length === Array.from(text).length ? converted : null;
  }

  /** A node as the edition prints it (converted on its own, as a reader sees it), or null. */
  shown(node: Text): string | null {
    let shown = this.shownPiece.get(node);
    if (shown === undefined) this.shownPiece.set(node, (shown = this.convert(node.value)));
    return shown;
  }

  /** `node` was split into `pieces` (text nodes, each at its offset in node's text). */
  split(node: Text, pieces: ReadonlyArray<{ node: Text; at: number }>, parent: Parent): void {
    const origin = this.originOf.get(node);
    if (!origin) return;
    this.originOf.delete(node);
    const k = origin.pieces.findIndex((p) => p.node === node);
    const old = origin.pieces[k];
    const fresh = pieces.map((p): Piece => ({ volume: old.volume, node: p.node, parent, start: old.start + p.at }));
    origin.pieces.splice(k, 1, ...fresh);
    for (const piece of fresh) this.originOf.set(piece.node, origin);
  }

  /** A volume's nodes were replaced (a rebuild copied it): index the copy (the old volume's entries find no node any more). */
  reindex(volume: number): void {
    for (const origin of this.origins) if (origin.volume === volume) origin.pieces = [];
    this.addVolume(volume);
  }

  /** Every place `target` stands in a text node, as the source has it or (printed) as the edition prints it, in document order. */
  find(target: string, printed: boolean): Array<{ piece: Piece; index: number }> {
    if (target === '') return [];
    let table = this.source;
    if (printed) {
      if (!this.printed) {
        this.printed = new Map();
        for (let i = 0; i < this.origins.length; i++) this.postPrinted(i);
      }
      table = this.printed;
    }
    // The target's rarest gram: a pair (or its one character), at offset k of the target.
    let best: number[] | undefined;
    let k = 0;
    const grams = targetGrams(target);
    for (let i = 0; i < grams.length; i++) {
      if (!this.wanted.has(grams[i])) throw new Error(`corrections: "${target}" was not among the targets indexed`);
      const list = table.get(grams[i]);
      if (!list) return [];
      if (!best || list.length < best.length) {
        best = list;
        k = i;
      }
    }
    const out: Array<{ piece: Piece; index: number }> = [];
    for (let j = 0; j < best!.length; j += 2) {
      const origin = this.origins[best![j]];
      const start = best![j + 1] - k;
      if (start < 0) continue;
      const piece = pieceAt(origin.pieces, start);
      if (!piece) continue;
      const text = printed ? this.shown(piece.node) : piece.node.value;
      if (text !== null && text.startsWith(target, start - piece.start)) out.push({ piece, index: start - piece.start });
    }
    const offset = (p: Piece) => p.node.position?.start.offset ?? 0;
    return out.sort((a, b) => a.piece.volume - b.piece.volume || offset(a.piece) - offset(b.piece) || a.index - b.index);
  }
}

/** The grams find() looks up for a target, by offset: its one unit, or each pair. */
function targetGrams(target: string): number[] {
  if (target.length <= 1) return target.length ? [gramKey(target, 0, 1)] : [];
  return Array.from({ length: target.length - 1 }, (_, i) => gramKey(target, i, 2));
}

/** One UTF-16 unit, or two, at `i` of a text as a number (no string made for each of a book's grams). */
function gramKey(text: string, i: number, length: 1 | 2): number {
  return length === 1 ? text.charCodeAt(i) : 0x10000 + text.charCodeAt(i) * 0x10000 + text.charCodeAt(i + 1);
}

/** The piece whose text holds offset `at` of its origin (pieces are in order, without gaps inside one piece). */
function pieceAt(pieces: readonly Piece[], at: number): Piece | undefined {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = pieces[mid];
    if (at < p.start) hi = mid - 1;
    else if (at >= p.start + p.node.value.length) lo = mid + 1;
    else return p;
  }
  return undefined;
}

/**
 * Every place the entry's target (find, or after for an insertion) stands
 * in scope, in the text as the source has it, or — when it stands nowhere
 * there — in the text as the edition prints it (an editor proofreading a
 * converted edition copies the printed script).
 */
function findHits(index: TextIndex, fix: CorrectionEntry, scripts: Scripts | undefined): Hit[] {
  const target = fix.after ?? fix.find;
  const inScope = ({ piece: { node } }: { piece: Piece }): boolean => {
    const p = node.position;
    if (fix.file && p && !(p.file === fix.file || p.file.endsWith(`/${fix.file}`))) return false;
    return !(fix.line && p && (fix.line < p.start.line || fix.line > p.end.line));
  };
  const hit = ({ piece, index: at }: { piece: Piece; index: number }): Hit => ({ volume: piece.volume, node: piece.node, parent: piece.parent, index: at });
  const direct = index.find(target, false).filter(inScope).map(hit);
  if (direct.length > 0 || !scripts || scripts.from === scripts.to) return direct;
  return index.find(target, true).filter(inScope).map(hit);
}

function describe(fix: CorrectionEntry): string {
  const scope = fix.file ? ` in ${fix.file}${fix.line ? `:${fix.line}` : ''}` : '';
  return fix.after !== undefined ? `the insertion after "${fix.after}"${scope}` : `"${fix.find}" → "${fix.replace}"${scope}`;
}

function reportEntry(fix: CorrectionEntry, reason: string): void {
  const m = fix.source.message(reason, { place: { start: fix.entry.start, end: fix.entry.end }, ruleId: 'correction-unmatched', source: 'diaoban' });
  m.fatal = true;
}

/**
 * Applies the entries in order. Each one that matches exactly once splits
 * its text node around a `correction` node; each one that does not is an
 * error on the corrections file at the entry, and the text stays as it was.
 * `scripts` lets an entry written in the edition's printed script match.
 * `own(volume)` is asked before a volume is changed: a caller that shares
 * volumes between trees (a rebuild) copies the volume there and says so
 * (true), and the place is found again in the copy.
 */
export function applyCorrections(
  tree: Root,
  entries: readonly CorrectionEntry[],
  scripts?: Scripts,
  own: (volume: number) => boolean = () => false,
): Root {
  const texts = new TextIndex(tree, scripts, entries.map((fix) => fix.after ?? fix.find));
  for (const fix of entries) {
    let hits = findHits(texts, fix, scripts);
    if (hits.length !== 1) {
      const what = hits.length === 0 ? 'matches nothing' : `matches ${hits.length} places`;
      const hint =
        hits.length === 0
          ? 'check the text against the source (or the built edition), or fix at: file:line'
          : `make find longer, or add at: file:line (it matches at ${hits
              .slice(0, 4)
              .map((h) => `${h.node.position.file}:${h.node.position.start.line}`)
              .join(', ')}${hits.length > 4 ? ', …' : ''})`;
      reportEntry(fix, `correction ${describe(fix)} ${what}; it was not applied — ${hint}`);
      continue;
    }
    if (own(hits[0].volume)) {
      texts.reindex(hits[0].volume);
      hits = findHits(texts, fix, scripts);
    }
    const { node, parent, index } = hits[0];
    let at: number;
    let old: string;
    let replacement: string;
    if (fix.after !== undefined) {
      at = index + fix.after.length;
      old = '';
      replacement = fix.replace;
    } else {
      const change = narrowPrinted(fix.find, fix.replace, scripts);
      at = index + change.at;
      old = change.old;
      replacement = change.new;
    }
    const place = slicePosition(node.position, node.value, at, at + old.length);
    const correction: Correction = {
      type: 'correction',
      kind: fix.kind ?? inferKind(old, replacement),
      // As the source has it (a match in the printed script found the same place); converted with the rest.
      old: node.value.slice(at, at + old.length),
      entry: fix.entry,
      children: replacement ? [{ type: 'text', value: replacement, position: place }] : [],
      position: place,
    };
    if (fix.note) correction.note = fix.note;
    if (fix.witness) correction.witness = fix.witness;
    const pieces: Inline[] = [];
    if (at > 0) pieces.push({ type: 'text', value: node.value.slice(0, at), position: slicePosition(node.position, node.value, 0, at) });
    pieces.push(correction);
    const end = at + old.length;
    if (end < node.value.length) {
      pieces.push({ type: 'text', value: node.value.slice(end), position: slicePosition(node.position, node.value, end, node.value.length) });
    }
    const children = parent.children as Inline[];
    children.splice(children.indexOf(node), 1, ...pieces);
    // The index follows the split: the pieces keep their place in the node's text; the correction's new text is indexed.
    texts.split(node, pieces.flatMap((piece) => (piece.type === 'text' ? [{ node: piece, at: piece === pieces[0] && at > 0 ? 0 : end }] : [])), parent);
    for (const child of correction.children) if (child.type === 'text') texts.add(hits[0].volume, child, correction);
  }
  return tree;
}

/** The old text of every correction in the edition's script (the new text is converted with the rest of the tree). */
export function convertCorrectionsOld(tree: Root, from: Script, to: Script, choices?: ConversionChoices): Root {
  if (from === to) return tree;
  visit(tree, 'correction', (node: Correction) => {
    node.old = convertText(node.old, from, to, choices);
  });
  return tree;
}

/** The corrections of a tree or volume, in reading order. */
export function correctionsIn(node: Root | Parent): Correction[] {
  const out: Correction[] = [];
  visit(node, 'correction', (c: Correction) => {
    out.push(c);
  });
  return out;
}

/** The new text of a correction (its children as read). */
export function correctionText(node: Correction): string {
  let s = '';
  visit(node, (n) => {
    if (n.type === 'text' || n.type === 'lacuna') s += (n as Text).value;
  });
  return s;
}
