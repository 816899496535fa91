/**
 * Readings decided from the whole text, where a convention can go two ways,
 * each said in a message (`check` prints it, `check --json` lists it under
 * readings) and overridden by `conventions:` in edition.yaml:
 * - `〈…〉` around two or three Han characters: a character described by its
 *   parts (〈艹嚣〉) or a note (before import: the row's inline options);
 * - numbered commentary: `〔一〕` markers in the text and the `〔一〕　…`
 *   paragraphs they call (a chtxt history's later commentary): each
 *   paragraph becomes a note at its marker (after import);
 * - sub-column order: measured over the notes split by `/` (import-report.ts
 *   subcolumnOrder); a text whose notes read reversed is swapped when the
 *   edition says so (`subcolumns: left-first`), and reported either way.
 */
import type { Inline, Note, Paragraph, Text, Volume } from '../tree/types.js';
import type { FormatConventions } from './formats.js';
import { clearlyReversed, subcolumnOrder } from './import-report.js';
import type { Source } from './source.js';

const HAN_OR_RADICAL = /^[\p{Script=Han}\u2e80-\u2fdf]$/u;

/** 〈…〉 as descriptions of characters when nearly all of the file's 〈…〉 hold two or three Han characters. */
export function decideDescriptions(src: Source, conv: FormatConventions, forced?: boolean): FormatConventions {
  const pairs = conv.inline.notes.filter((n) => n.open === '〈' && n.close === '〉');
  if (pairs.length === 0 || conv.inline.compositions?.some(([o]) => o === '〈')) return conv;
  let all = 0;
  let short = 0;
  let first = -1;
  const mark = conv.inline.described?.open === '〈' ? conv.inline.described.mark : undefined;
  for (const m of src.text.matchAll(/〈([^〈〉\n]{1,300})〉/gu)) {
    // ■〈木槖〉 describes its mark's character in any text (inline.ts described): no evidence either way.
    if (mark !== undefined && src.text.startsWith(mark, (m.index ?? 0) - mark.length)) continue;
    all++;
    const chars = Array.from(m[1]);
    if (chars.length >= 2 && chars.length <= 3 && chars.every((c) => HAN_OR_RADICAL.test(c))) {
      short++;
      if (first < 0) first = m.index ?? 0;
    }
  }
  if (short === 0 && forced === undefined) return conv;
  const described = forced ?? (short >= 3 && short >= all * 0.8);
  // Said when it was a choice: described, forced, or a fifth of the 〈…〉 or more short.
  if (described || forced !== undefined || short * 5 >= all) src.report(
    'info',
    described
      ? `〈…〉 around two or three characters read as characters described by their parts (${short} of ${all} 〈…〉${forced ? ', as conventions: descriptions says' : ''}); conventions: descriptions: false reads them as notes`
      : `〈…〉 read as notes (${short} of ${all} hold two or three characters only${forced === false ? ', as conventions: descriptions says' : ''}); conventions: descriptions: true reads those as described characters`,
    Math.max(0, first),
    Math.max(0, first) + 1,
    'composition-reading',
  );
  return described ? { ...conv, inline: { ...conv.inline, compositions: [...(conv.inline.compositions ?? []), ['〈', '〉']] } } : conv;
}

/**
 * A run label (注 before full-size text, InlineOptions.runLabels) is markup
 * only in a text that writes it so again and again, outside its notes, with
 * the labelled notes (音義(…), 疏(…)) after it: five times or more.
 */
export function decideRunLabels(src: Source, conv: FormatConventions): FormatConventions {
  const labels = conv.inline.runLabels;
  if (!labels?.length) return conv;
  const opens = new Set(conv.inline.notes.map((n) => n.open));
  const closes = new Set(conv.inline.notes.map((n) => n.close));
  let depth = 0;
  let count = 0;
  let first = -1;
  // Header and comment lines (#+TITLE: 儀禮注疏) are not text.
  const text = src.text.replace(/^#.*$/gmu, (m) => ' '.repeat(m.length));
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (opens.has(c)) depth++;
    else if (closes.has(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && labels.some((l) => text.startsWith(l.text, i) && /\p{Script=Han}/u.test(text[i + l.text.length] ?? ''))) {
      count++;
      if (first < 0) first = i;
    }
  }
  const labelled = (conv.inline.noteLabels ?? []).some((l) => text.includes(l.text + (conv.inline.notes[0]?.open ?? '(')));
  const on = count >= 5 && labelled;
  if (count > 0) {
    src.report('info', on ? `${labels.map((l) => l.text).join(' ')} before full-size text read as a layer's label (${count} times outside the notes): the text after it, up to the next note, is that layer` : `${labels.map((l) => l.text).join(' ')} read as text (${count} times outside the notes${labelled ? '' : ', no labelled notes'})`, Math.max(0, first), Math.max(0, first) + 1, 'run-label-reading');
  }
  return on ? conv : { ...conv, inline: { ...conv.inline, runLabels: undefined } };
}

const NUMERAL = '〇一二三四五六七八九十百';
const MARKER = new RegExp(`〔([${NUMERAL}]+)〕`, 'gu');
const HEAD = new RegExp(`^[\\s\\u3000]*〔([${NUMERAL}]+)〕[\\s\\u3000]*`, 'u');

/**
 * `〔N〕` in the text and a later paragraph `〔N〕　…`: the paragraph is the
 * note at the nearest marker N before it not yet taken. A paragraph with no
 * marker stays a commentary paragraph (its number its label); a marker with
 * no paragraph stays text (check reports it as markup left).
 */
export function linkNumberedCommentary(src: Source, volumes: Volume[]): Volume[] {
  let linked = 0;
  let unlinked = 0;
  let firstAt: number | undefined;
  for (const volume of volumes) {
    type Marker = { n: string; node: Text; at: number; note?: Note };
    const markers: Marker[] = [];
    const byNode = new Map<Text, Marker[]>();
    const kept: Volume['children'] = [];
    const collect = (children: readonly Inline[]) => {
      for (const node of children) {
        if (node.type !== 'text') continue;
        for (const mm of node.value.matchAll(MARKER)) {
          const marker = { n: mm[1], node, at: mm.index ?? 0 };
          markers.push(marker);
          byNode.set(node, [...(byNode.get(node) ?? []), marker]);
        }
      }
    };
    for (const block of volume.children) {
      if (block.type !== 'paragraph') {
        // A heading may carry a marker too (序致第一〔一〕): its note is the chapter's.
        if (block.type === 'heading') collect(block.children);
        kept.push(block);
        continue;
      }
      const head = block.children[0];
      const m = head?.type === 'text' ? HEAD.exec(head.value) : null;
      if (m && head?.type === 'text') {
        const marker = [...markers].reverse().find((k) => !k.note && k.n === m[1]);
        const rest = head.value.slice(m[0].length);
        const offset = (head.position.start.offset ?? 0) + m[0].length;
        const children: Inline[] = [...(rest ? [{ type: 'text' as const, value: rest, position: src.position(offset, offset + rest.length) }] : []), ...block.children.slice(1)];
        if (marker) {
          // Its own parentheses (（以下简称通录）) are the note's words, no note inside the note.
          marker.note = { type: 'note', layer: 'zhu', children: children.map((c) => (c.type === 'note' && c.layer === 'zhu' && src.text[c.position.start.offset ?? -1] === '（' ? asWritten(src, c) : c)), position: block.position };
          linked++;
          firstAt ??= head.position.start.offset;
          continue;
        }
        unlinked++;
        kept.push({ ...block, role: 'commentary', layer: 'zhu', label: m[1], children });
        continue;
      }
      collect(block.children);
      kept.push(block);
    }
    // Each marker a paragraph was linked to becomes its note, where the marker stood.
    for (const block of kept) {
      if (block.type !== 'paragraph' && block.type !== 'heading') continue;
      block.children = block.children.flatMap((node) => (node.type === 'text' && byNode.has(node) ? splitAtMarkers(src, node, byNode.get(node) as Marker[]) : [node]));
    }
    volume.children = kept;
  }
  if (linked + unlinked > 0) {
    src.report('info', `numbered commentary: ${linked} paragraphs 〔N〕　… set as notes at their markers 〔N〕${unlinked ? `, ${unlinked} with no marker before them kept as commentary paragraphs` : ''}`, firstAt ?? 0, (firstAt ?? 0) + 1, 'numbered-commentary');
  }
  return volumes;
}

/** A node as the source writes it, brackets and all: a text node. */
function asWritten(src: Source, node: Inline): Text {
  const start = node.position.start.offset ?? 0;
  const end = node.position.end.offset ?? start;
  return { type: 'text', value: src.text.slice(start, end), position: src.position(start, end) };
}

function splitAtMarkers(src: Source, node: Text, markers: ReadonlyArray<{ n: string; at: number; note?: Note }>): Inline[] {
  const base = node.position.start.offset ?? 0;
  const out: Inline[] = [];
  let from = 0;
  const piece = (a: number, b: number) => {
    if (b > a) out.push({ type: 'text', value: node.value.slice(a, b), position: src.position(base + a, base + b) });
  };
  for (const m of markers) {
    if (!m.note) continue;
    piece(from, m.at);
    out.push(m.note);
    from = m.at + m.n.length + 2;
  }
  piece(from, node.value.length);
  return out;
}

/** Sub-column order: reported from the measure; swapped where the edition says `subcolumns: left-first`. */
export function decideSubcolumns(src: Source, conv: FormatConventions, volumes: Volume[], forced?: 'right-first' | 'left-first'): Volume[] {
  if (!conv.inline.split) return volumes;
  const order = subcolumnOrder(volumes);
  if (order.split < 10 && !forced) return volumes;
  const reversedLooking = order.reversed >= 5 && order.reversed > 2 * order.inOrder;
  // Left first beyond doubt (貞觀政要's 戈直 notes: (作損/擾亦) reads 擾亦作損): swapped, and said so.
  const reading = forced ?? (clearlyReversed(order) ? 'left-first' : 'right-first');
  src.report(
    'info',
    `sub-columns read ${reading === 'right-first' ? 'right first (the text before / first)' : 'left first (the text after / first)'}${forced ? ', as conventions: subcolumns says' : ''}: of ${order.split} notes split by ${conv.inline.split}, ${order.inOrder} start before it with the words they gloss (or a sound's gloss), ${order.reversed} after it${reversedLooking && reading === 'right-first' ? ' — they look reversed; conventions: subcolumns: left-first swaps them' : ''}${!forced && reading === 'left-first' ? '; conventions: subcolumns: right-first keeps them as written' : ''}`,
    0,
    0,
    'subcolumn-order',
  );
  if (reading === 'left-first') for (const v of volumes) for (const b of v.children) swapSubcolumns(src, b.children);
  return volumes;
}

/** A note of text split by `/`: its two parts in the other order (text nodes cut where the split falls). */
function swapSubcolumns(src: Source, nodes: Inline[]): void {
  for (const n of nodes) {
    if (n.type !== 'note') {
      if ('children' in n) swapSubcolumns(src, n.children as Inline[]);
      continue;
    }
    if (n.split === undefined || n.splits || n.children.some((c) => c.type !== 'text')) continue;
    const right: Inline[] = [];
    const left: Inline[] = [];
    let seen = 0;
    for (const c of n.children as Text[]) {
      const chars = Array.from(c.value);
      const take = Math.max(0, Math.min(chars.length, n.split - seen));
      seen += chars.length;
      const a = chars.slice(0, take).join('');
      const b = chars.slice(take).join('');
      const s0 = c.position.start.offset ?? 0;
      if (a) right.push(b ? { type: 'text', value: a, position: src.position(s0, s0 + a.length) } : c);
      if (b) left.push(a ? { type: 'text', value: b, position: src.position(s0 + a.length, s0 + a.length + b.length) } : c);
    }
    n.children = [...left, ...right];
    n.split = left.reduce((k, c) => k + Array.from((c as Text).value).length, 0);
  }
}
