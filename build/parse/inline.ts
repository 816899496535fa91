/**
 * Inline syntax shared by every importer: a span of source text → inline
 * nodes. Which brackets make notes, and whether anchors (¶, <pb:…>), entities
 * (&KR0433;) and compositions ({艹虑}) are markup, comes from the format's
 * conventions (formats.ts). □ makes lacunae, Private Use Area characters make
 * glyph placeholders. Line breaks inside a paragraph join its lines.
 *
 * The scan is one pass with a bounded stack: nesting deeper than MAX_DEPTH is
 * reported once and flattened, so time is linear in the span's length and no
 * later stage recurses deeper than that.
 */
import type { Anchor, Glyph, Inline, LayerId, Note, Small, Text } from '../tree/types.js';
import { parseFormula } from '../gaiji/composition.js';
import { DEFAULT_LAYER, footnoteLayer, layerFromTag, readLayerTag } from '../tree/layers.js';
import type { Source } from './source.js';
import { append } from '../tree/append.js';

export interface NoteBracket {
  open: string;
  close: string;
  /** The layer of notes in these brackets (注 when absent; a {tag} or a label can change it). */
  layer?: LayerId;
  /**
   * `〈左傳哀元年〉云：`: a short bracket at the head of a paragraph followed by 云 or 曰
   * cites a book; it stays text, brackets and all, and is no note.
   */
  citation?: boolean;
  /** A pair closed right before this character is no note: （子卿遠）〔子遠，卿〕, the words an editor deletes, then his. */
  notBefore?: string;
  /** A pair around fewer characters is no note: 說（文）云, 毛更生（曰）整理, an editor's deletion marks. */
  minLength?: number;
  /** A pair opened right after this character is no note: 「嚴」〔莊〕, the word an editor corrects, then his. */
  notAfter?: string;
}

export interface InlineOptions {
  /** Bracket pairs that enclose a note. */
  notes: ReadonlyArray<NoteBracket>;
  /** Contents of a note's brackets that are small text, not commentary (〈臣〉, （臣）). */
  smallWords: ReadonlySet<string>;
  /** `{音義}` at a note's head names its layer (the Markdown convention, the 四庫 corpora). */
  tags?: boolean;
  /** Kanripo's `/`: where a note's right sub-column ends (data, not text). */
  split?: string;
  /** Kanripo's `¶`: the end of a line of the source edition. */
  lineAnchor?: string;
  /** `<pb:KR1d0028_WYG_005-1b>`: the start of a page of the source edition (sticky, global flags off). */
  pageAnchor?: RegExp;
  /** `&KR0433;`: a character the transcription could not encode; group 1 is its name. */
  entity?: RegExp;
  /** `{艹虑}`, `<匚算>`: a character described by its components. A pair that also makes notes (〈艹嚣〉) describes a character only around two or three Han characters. */
  compositions?: ReadonlyArray<readonly [string, string]>;
  /** CBETA's 組字式 in these brackets (`[女*省]`, `[臊-品+巳]`): a composition only where the inside is a formula (gaiji/composition.ts); `[提要]` stays text. */
  formulas?: readonly [string, string];
  /**
   * 殆知閣's `■〈木槖〉`, `■〈磬，召代石〉`: a character the transcriber could not type, its mark followed by its
   * description in brackets (parts, or words; one level of brackets inside: `■〈木〈广外屰内〉〉`). One glyph, never
   * the mark and a note, whatever the file's other brackets are.
   */
  described?: { mark: string; open: string; close: string };
  /**
   * A bare label in the text (四庫 注疏's `注主人州長也…`) that opens a layer
   * running to the next note or the paragraph's end; the label is markup,
   * kept as the note's label. Only outside notes and before a Han character.
   */
  runLabels?: ReadonlyArray<LayerLabel>;
  /** Inline marks of a pandoc-like text: `~某~` a gloss in small type, `*某某*` a proper name (專名號); only around Han text on one line. */
  spans?: ReadonlyArray<{ open: string; close: string; as: 'small' | 'proper' }>;
  /** Numbering in note brackets, `(1)`, `(12)`: text, not a note (sticky). */
  numbering?: RegExp;
  /** Kanripo: `)¶\n(` (page markers between allowed) continues the note on the next source line. */
  continuedNotes?: boolean;
  /** Words standing right before a note's bracket that name its layer (四庫 注疏: `音義(…)`, `疏(…)`). */
  noteLabels?: ReadonlyArray<LayerLabel>;
  /** Labels inside a note that start one commentator's part (三家注: `【集解】`, `【索隱】`). */
  innerLabels?: ReadonlyArray<LayerLabel>;
  /** Markdown: inline HTML — `<sub>` small text, `<cn-era ce="1037">` text with its year as data; other tags left out with a warning. */
  html?: boolean;
  /** Markdown footnotes: `[^1]` → a note holding its definition, at the reference. */
  footnotes?: ReadonlyMap<string, FootnoteDefinition>;
  /** The Markdown convention's escape: `\【` is the character 【, never markup (isEscapable says which characters). */
  escape?: boolean;
  /**
   * Pairs that, around a commentator's label alone (〔注〕, 【按語】, 【野王案】: commentaryLabel),
   * are that label though they make no note: what follows, to the paragraph's end or the next label, is its layer.
   * The row's note brackets are read so too.
   */
  labelBrackets?: ReadonlyArray<readonly [string, string]>;
}

/**
 * A commentator's label, as a source writes it alone in brackets: a layer's
 * name (注, 疏, 集解, 附注 …: layers.ts), or 案/按/按語 (an editor's or the
 * author's remark) or 注/註/解/箋/評 after a name of up to three characters
 * (野王案, 郭注). Undefined for anything else (【唐】, 〔闕文〕, 〔守虛〕).
 */
export function commentaryLabel(content: string): { layer: LayerId; label: string } | undefined {
  if (!/^\p{Script=Han}{1,4}$/u.test(content)) return undefined;
  const named = layerFromTag(content);
  if (named && !ANNOTATION_IDS.has(named)) return { layer: named, label: content };
  if (/^\p{Script=Han}{0,3}(?:案|按|按語|按语)$/u.test(content)) return { layer: 'an', label: content };
  if (/^\p{Script=Han}{0,2}(?:注|註|解|箋|笺|評|评)$/u.test(content)) return { layer: 'zhu', label: content };
  return undefined;
}

const ANNOTATION_IDS = new Set(['meipi', 'cepi']);

/** The characters the Markdown convention reads as markup — its brackets and tags, and ASCII punctuation as CommonMark — which a backslash makes text. */
export const MARKUP_CHARACTERS = '【】〈〉〖〗{}';
const ESCAPABLE = new Set([...MARKUP_CHARACTERS, ...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~']);

export function isEscapable(ch: string): boolean {
  return ESCAPABLE.has(ch);
}

export interface FootnoteDefinition {
  /** The definition's text in the source. */
  start: number;
  end: number;
  /** Set when a reference used it. */
  used?: boolean;
}

export interface LayerLabel {
  /** As the source writes it: `音義`, `【集解】`. */
  text: string;
  layer: LayerId;
  /** As a reader knows it: `集解`. */
  label: string;
}

export const DEFAULT_INLINE: InlineOptions = {
  notes: [
    { open: '【', close: '】' },
    { open: '〈', close: '〉', citation: true },
  ],
  smallWords: new Set(['臣']),
  tags: true,
};

/** Deeper notes than this are not commentary any more but a broken file: flattened, reported once. */
export const MAX_DEPTH = 16;

interface Frame {
  open: string;
  /** A Markdown inline element rather than a note. */
  kind?: 'small' | 'era';
  era?: number;
  label?: string;
  citation?: boolean;
  /** Closing bracket; null for a note opened by a label such as 【附注】 that runs to the end. */
  close: string | null;
  /** A run label's note (InlineOptions.runLabels): it ends where the next note begins. */
  untilNote?: boolean;
  start: number;
  layer?: LayerId;
  /** Characters before the sub-column split mark, per source line of the note. */
  splits?: number[];
  children: Inline[];
}

export function isPrivateUse(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
}

function isControl(cp: number): boolean {
  return (cp < 0x20 && cp !== 0x09) || (cp >= 0x7f && cp < 0xa0);
}

const LACUNA = '□';
const HTML_TAG = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'<>]+))?)*)\s*\/?>/y;
const FOOTNOTE_REF = /\[\^([^\]\s]{1,20})\]/y;
const TAG = /\{([^{}\s]{1,16})\}/uy;
const BREAK_SPACE = /[ \t\u3000]/u;
/** Characters between which a joined line break stays a space: Latin letters and digits. */
const WORDISH = /[A-Za-z0-9]/;

interface Compiled {
  opens: Map<string, NoteBracket>;
  closes: Set<string>;
  compositionOpens: Map<string, string>;
}
const compiledCache = new WeakMap<InlineOptions, Compiled>();
function compile(options: InlineOptions): Compiled {
  let c = compiledCache.get(options);
  if (!c) {
    c = {
      opens: new Map(options.notes.map((b) => [b.open, b])),
      closes: new Set(options.notes.map((b) => b.close)),
      compositionOpens: new Map((options.compositions ?? []).map(([o, cl]) => [o, cl])),
    };
    compiledCache.set(options, c);
  }
  return c;
}

/** `<pb:KR1d0028_WYG_005-1b>` or mandoku's `<pb:T_T14n0475_0537a>` → edition, juan, leaf. */
export function pageAnchorData(id: string): Pick<Anchor, 'edition' | 'juan' | 'leaf'> {
  const parts = id.split('_');
  const kr = parts.length >= 3 && /^KR\d/i.test(parts[0]);
  const edition = kr ? parts[1] : parts[0];
  const place = parts[parts.length - 1];
  const m = /^(?:(\d+)-)?(\d+[a-z]?)$/i.exec(place);
  const out: Pick<Anchor, 'edition' | 'juan' | 'leaf'> = {};
  if (edition) out.edition = edition;
  if (m?.[1]) out.juan = Number(m[1]);
  out.leaf = m ? m[2].replace(/^0+(?=\d)/, '') : place;
  return out;
}

/**
 * Parses `src.text[start, end)`. Returns the inline nodes; problems go to the
 * source's file as messages.
 */
export function parseInline(src: Source, start: number, end: number, options: InlineOptions = DEFAULT_INLINE): Inline[] {
  const { text } = src;
  const { opens, closes, compositionOpens } = compile(options);
  const root: Frame = { open: '', close: '', start, children: [] };
  const stack: Frame[] = [root];
  /** Brackets opened beyond MAX_DEPTH, by closing bracket: their closers are dropped too. */
  const flattened = new Map<string, number>();
  let tooDeepReported = false;
  /** An opening past MAX_DEPTH: left out (its closer too, later), said once a span. */
  const tooDeep = (closer: string, at: number, stop: number, what: string, marks: string) => {
    flattened.set(closer, (flattened.get(closer) ?? 0) + 1);
    if (tooDeepReported) return;
    tooDeepReported = true;
    src.report('error', `${what} nested deeper than ${MAX_DEPTH} levels here: the deeper ${marks} are left out and their text kept; check the ${marks}`, at, stop, 'nesting-too-deep');
  };
  let textStart = start;

  const top = () => stack[stack.length - 1];
  const flush = (upTo: number) => {
    if (upTo > textStart) {
      const node: Text = { type: 'text', value: text.slice(textStart, upTo), position: src.position(textStart, upTo) };
      top().children.push(node);
    }
  };
  const closeFrame = (frame: Frame, endOffset: number) => {
    const content = frame.children;
    if (frame.kind === 'era') {
      for (const c of content) if (c.type === 'text') c.data = { ...(c.data ?? {}), era: frame.era };
      append(top().children, content);
      return;
    }
    if (frame.kind === 'small') {
      if (content.length > 0 && content.every((c) => c.type === 'text')) top().children.push({ type: 'small', children: content as Text[], position: src.position(frame.start, endOffset) });
      else append(top().children, content);
      return;
    }
    if (frame.citation && frame.start === start && frame.close !== null && endOffset - frame.start <= 20 && /[云曰]/u.test(text[endOffset] ?? '')) {
      const openEnd = frame.start + frame.open.length;
      top().children.push({ type: 'text', value: frame.open, position: src.position(frame.start, openEnd) }, ...content, { type: 'text', value: frame.close, position: src.position(endOffset - frame.close.length, endOffset) });
      return;
    }
    const only = content.length === 1 && content[0].type === 'text' ? content[0].value : null;
    if (only !== null && options.smallWords.has(only)) {
      const small: Small = { type: 'small', children: [content[0] as Text], position: src.position(frame.start, endOffset) };
      top().children.push(small);
      return;
    }
    const note: Note = {
      type: 'note',
      layer: frame.layer ?? DEFAULT_LAYER,
      children: content,
      position: src.position(frame.start, endOffset),
    };
    if (frame.label) note.label = frame.label;
    if (frame.untilNote) note.fullSize = true;
    if (frame.splits && frame.splits.length > 0) {
      note.split = frame.splits[0];
      if (frame.splits.length > 1) note.splits = frame.splits;
    }
    if (options.innerLabels) append(top().children, splitLabelledNote(note, options.innerLabels));
    else top().children.push(note);
  };
  /** After a closing bracket at `from`: the offset after the reopening bracket of a continued note, or -1. */
  const continuation = (from: number, close: string): number => {
    const open = stack[stack.length - 1].open;
    let j = from;
    let lines = 0;
    while (j < end) {
      const c = text[j];
      // The next source line may begin with the blank cells of its indent (WYG `　(……/……)¶`).
      if (c === options.lineAnchor || c === ' ' || c === '\t' || c === '\u3000') j++;
      else if (c === '\n' || c === '\r') {
        lines++;
        j++;
      } else if (c === '<' && options.pageAnchor) {
        options.pageAnchor.lastIndex = j;
        const m = options.pageAnchor.exec(text);
        if (!m) break;
        j += m[0].length;
      } else break;
    }
    void close;
    return lines > 0 && j < end && text.startsWith(open, j) ? j + open.length : -1;
  };
  /** The line and page anchors between `from` and `to`, into the note that runs on. */
  const emitAnchors = (from: number, to: number) => {
    for (let j = from; j < to; ) {
      if (text[j] === options.lineAnchor) {
        top().children.push(lineAnchor(src, text, j));
        j++;
        continue;
      }
      if (text[j] === '<' && options.pageAnchor) {
        options.pageAnchor.lastIndex = j;
        const m = options.pageAnchor.exec(text);
        if (m) {
          top().children.push({ type: 'anchor', kind: 'page', value: m[0], ...pageAnchorData(m[1] ?? ''), position: src.position(j, j + m[0].length) });
          j += m[0].length;
          continue;
        }
      }
      j++;
    }
  };
  /** Characters of the innermost note since its last line anchor, and where its split mark stood (-1: none yet). */
  let columnChars = 0;
  let pendingSplit = -1;
  /** A source line of a note ends (¶ or its closing bracket): its split is data of the note. */
  const endColumn = () => {
    if (options.split && stack.length > 1 && (pendingSplit >= 0 || columnChars > 0)) {
      (top().splits ??= []).push(pendingSplit >= 0 ? pendingSplit : columnChars);
    }
    columnChars = 0;
    pendingSplit = -1;
  };

  /**
   * text.indexOf(needle, from), remembered per needle: the scan only moves on, so a close that is not there is
   * looked for once, not once an opening (a line of 200,000 unclosed 【 took two minutes).
   */
  const seen = new Map<string, { from: number; at: number }>();
  const indexFrom = (needle: string, from: number): number => {
    const known = seen.get(needle);
    if (known && known.from <= from && (known.at < 0 || known.at >= from)) return known.at;
    const at = text.indexOf(needle, from);
    seen.set(needle, { from, at });
    return at;
  };

  /** 〈艹嚣〉 where 〈〉 also makes notes: two or three Han characters (or radicals) and the close. */
  const describedAt = (from: number, close: string): boolean => {
    const stop = indexFrom(close, from);
    if (stop < 0 || stop >= end || stop - from > 12) return false;
    const n = Array.from(text.slice(from, stop));
    return n.length >= 2 && n.length <= 3 && n.every((c) => /[\p{Script=Han}\u2e80-\u2fdf]/u.test(c));
  };

  // Labels stand in square and lenticular brackets; a note in round ones, (注) or （疏）, is a note.
  const labelPairs = new Map<string, string>([...options.notes.map((n): [string, string] => [n.open, n.close]), ...(options.labelBrackets ?? [])].filter(([open]) => open !== '(' && open !== '（'));
  /** A label alone in a note's or a label's brackets at `i`: its layer and where it ends. */
  const labelAt = (at: number, ch: string): { layer: LayerId; label: string; end: number } | undefined => {
    const close = labelPairs.get(ch);
    if (close === undefined || options.innerLabels?.some((l) => text.startsWith(l.text, at))) return undefined;
    const stop = indexFrom(close, at + ch.length);
    if (stop < 0 || stop >= end || stop - at > 8) return undefined;
    const found = commentaryLabel(text.slice(at + ch.length, stop));
    return found ? { ...found, end: stop + close.length } : undefined;
  };

  let i = start;
  while (i < end) {
    const cp = text.codePointAt(i) as number;
    const ch = cp > 0xffff ? text.slice(i, i + 2) : text[i];
    const next = i + ch.length;
    if (ch === '\\' && options.escape && next < end && isEscapable(text[next])) {
      // `\【`: the character as text, a node of its own (marked, so that no later pass reads it as markup either).
      flush(i);
      const escaped: Text = { type: 'text', value: text[next], data: { escaped: true }, position: src.position(next, next + 1) };
      top().children.push(escaped);
      columnChars++;
      i = next + 1;
      textStart = i;
      continue;
    }
    const span = options.spans?.find((sp) => text.startsWith(sp.open, i));
    if (span) {
      const from = i + span.open.length;
      const stop = indexFrom(span.close, from);
      // What the patterns below can take is far shorter: a longer stretch is not sliced.
      const inner = stop < 0 || stop - from > 512 ? '' : text.slice(from, stop);
      // A proper name may hold a gloss (*大~太~王*: 大王, its 大 read 太).
      const glossed = span.as === 'proper' && /^(?:[^\s~*<>]|~[^\s~*<>]{1,10}~){1,30}$/u.test(inner) && inner.includes('~');
      if (stop >= 0 && stop < end && (/^[^\s~*<>]{1,30}$/u.test(inner) || glossed) && /\p{Script=Han}/u.test(inner)) {
        flush(i);
        const t: Text = { type: 'text', value: inner, position: src.position(from, stop) };
        const after = stop + span.close.length;
        const parts: Inline[] = glossed ? glossParts(src, from, inner) : [t];
        top().children.push(span.as === 'small' ? { type: 'small', children: [t], position: src.position(i, after) } : { type: 'mark', kind: 'proper', children: parts, position: src.position(i, after) });
        columnChars += inner.length;
        i = after;
        textStart = i;
        continue;
      }
    }
    if (options.runLabels && stack.length === 1) {
      const run = options.runLabels.find((l) => text.startsWith(l.text, i) && /\p{Script=Han}/u.test(text[i + l.text.length] ?? '') && !opens.has(text[i + l.text.length]));
      if (run) {
        flush(i);
        stack.push({ open: run.text, close: null, start: i, layer: run.layer, label: run.label, untilNote: true, children: [] });
        i += run.text.length;
        textStart = i;
        continue;
      }
    }
    // 〔注〕, 【按語】: a commentator's label alone in its brackets, not a note (a label inside a note, 【集解】, is the note's).
    const label = labelAt(i, ch);
    if (label) {
      flush(i);
      if (stack.length > 1 && top().close === null && top().label !== undefined && !top().untilNote) closeFrame(stack.pop() as Frame, i);
      stack.push({ open: ch, close: null, start: i, layer: label.layer, label: label.label, children: [] });
      i = label.end;
      textStart = i;
      continue;
    }
    let bracket = opens.get(ch);
    // 【集解】, 【案】: an inner label (a note's part, or a mid-line label the importer reads) stays text, brackets and all.
    const inner = bracket ? options.innerLabels?.find((l) => text.startsWith(l.text, i)) : undefined;
    if (inner) {
      columnChars += inner.text.length;
      i += inner.text.length;
      continue;
    }
    if (bracket && options.numbering) {
      options.numbering.lastIndex = i;
      const m = options.numbering.exec(text);
      if (m && i + m[0].length <= end) {
        // `(1)`: the text's own numbering, kept as text.
        columnChars += m[0].length;
        i += m[0].length;
        continue;
      }
    }
    if (bracket && compositionOpens.has(ch) && describedAt(i + ch.length, compositionOpens.get(ch) as string)) bracket = undefined;
    // （子卿遠）〔子遠，卿〕: the words an editor deletes, before the words put in their place, are text.
    // （子卿遠）〔子遠，卿〕, 說（文）云: an editor's deletion before his correction, or a short one, is text, brackets and all.
    const closedAt = bracket && (bracket.notBefore || bracket.minLength || bracket.notAfter) ? indexFrom(bracket.close, next) : -1;
    const reopened = closedAt >= 0 ? indexFrom(ch, next) : -1;
    const short = (): boolean => closedAt - next < 2 * (bracket?.minLength ?? 0) && Array.from(text.slice(next, closedAt)).length < (bracket?.minLength ?? 0);
    if (bracket && closedAt >= 0 && closedAt < end && !(reopened >= 0 && reopened < closedAt) && ((bracket.notBefore !== undefined && text[closedAt + bracket.close.length] === bracket.notBefore) || (bracket.notAfter !== undefined && text[i - 1] === bracket.notAfter) || short())) {
      columnChars += closedAt + bracket.close.length - i;
      i = closedAt + bracket.close.length;
      continue;
    }
    if (bracket) {
      // A label before the bracket names the note's layer (not when the note is flattened: then it stays text).
      const named = stack.length <= MAX_DEPTH ? options.noteLabels?.find((l) => i - l.text.length >= textStart && text.startsWith(l.text, i - l.text.length)) : undefined;
      flush(named ? i - named.text.length : i);
      // A run label's layer (注…) ends where a note begins.
      if (stack.length === 2 && top().untilNote) closeFrame(stack.pop() as Frame, named ? i - named.text.length : i);
      if (stack.length > MAX_DEPTH) {
        tooDeep(bracket.close, i, next, 'notes', 'brackets');
        i = next;
        textStart = i;
        continue;
      }
      let layer = named?.layer ?? bracket.layer;
      let tagLabel: string | undefined;
      let contentStart = next;
      if (options.tags) {
        TAG.lastIndex = next;
        const tag = next < end ? TAG.exec(text) : null;
        if (tag && TAG.lastIndex <= end) {
          const read = readLayerTag(tag[1]);
          layer = read.layer;
          if (read.label) tagLabel = read.label;
          if (layer === undefined) {
            layer = read.name;
            src.report('warning', `unknown layer tag {${tag[1]}}; it is kept as a layer of its own — known layers: 注 音義 疏 附注 出處 案, and 眉批 側批 (annotations)`, next, next + tag[0].length, 'layer-unknown');
          }
          contentStart = next + tag[0].length;
        }
      }
      const frame: Frame = { open: ch, close: bracket.close, start: named ? i - named.text.length : i, layer, children: [] };
      if (named) frame.label = named.label;
      if (tagLabel) frame.label = tagLabel;
      if (bracket.citation) frame.citation = true;
      stack.push(frame);
      columnChars = 0;
      pendingSplit = -1;
      i = contentStart;
      textStart = i;
      continue;
    }
    if (closes.has(ch)) {
      flush(i);
      const excess = flattened.get(ch) ?? 0;
      if (excess > 0) {
        flattened.set(ch, excess - 1);
        i = next;
        textStart = i;
        continue;
      }
      const depth = findOpen(stack, ch);
      if (depth < 0) {
        src.report('error', `unmatched closing ${ch}: no opening bracket before it in this paragraph; delete it or add the opening bracket`, i, next, 'bracket-unmatched');
      } else {
        if (stack.length - 1 === depth) {
          const resume = options.continuedNotes ? continuation(next, ch) : -1;
          if (resume >= 0) {
            // `)¶\n(`: the source's column ended inside the note; the note runs on.
            endColumn();
            emitAnchors(next, resume - stack[depth].open.length);
            i = resume;
            textStart = i;
            continue;
          }
          endColumn();
        }
        // Label notes (【附注】…) end where their enclosing bracket ends.
        while (stack.length - 1 > depth) {
          const inner = stack.pop() as Frame;
          if (inner.close !== null) {
            src.report('error', `unclosed ${inner.open}: closed here by ${ch} of an outer note; add the missing ${inner.close}`, inner.start, inner.start + inner.open.length, 'bracket-unclosed');
          }
          closeFrame(inner, i);
        }
        const frame = stack.pop() as Frame;
        closeFrame(frame, next);
      }
      columnChars = 0;
      pendingSplit = -1;
      i = next;
      textStart = i;
      continue;
    }
    if (options.split && ch === options.split && stack.length > 1) {
      flush(i);
      pendingSplit = columnChars;
      i = next;
      textStart = i;
      continue;
    }
    if (options.lineAnchor && ch === options.lineAnchor) {
      flush(i);
      endColumn();
      top().children.push(lineAnchor(src, text, i));
      i = next;
      textStart = i;
      continue;
    }
    if (ch === '<' && options.pageAnchor) {
      options.pageAnchor.lastIndex = i;
      const m = options.pageAnchor.exec(text);
      if (m && i + m[0].length <= end) {
        flush(i);
        const stop = i + m[0].length;
        top().children.push({ type: 'anchor', kind: 'page', value: m[0], ...pageAnchorData(m[1] ?? ''), position: src.position(i, stop) });
        i = stop;
        textStart = i;
        continue;
      }
    }
    if (ch === '<' && options.html && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close >= 0 && close + 3 <= end) {
        flush(i);
        src.report('info', 'an HTML comment is left out (not part of the text)', i, close + 3, 'html-comment');
        i = close + 3;
        textStart = i;
        continue;
      }
    }
    if (ch === '<' && options.html) {
      HTML_TAG.lastIndex = i;
      const m = HTML_TAG.exec(text);
      if (m && i + m[0].length <= end) {
        flush(i);
        const stop = i + m[0].length;
        const [, closing, rawName, attrs] = m;
        const name = rawName.toLowerCase();
        const known = name === 'sub' || name === 'cn-era';
        if (known && !closing && stack.length > MAX_DEPTH) tooDeep(`</${name}>`, i, stop, 'elements', 'tags');
        else if (known && closing && (flattened.get(`</${name}>`) ?? 0) > 0) {
          flattened.set(`</${name}>`, (flattened.get(`</${name}>`) ?? 0) - 1);
        } else if (!closing && known) {
          const frame: Frame = { open: `<${name}>`, close: `</${name}>`, kind: name === 'sub' ? 'small' : 'era', start: i, children: [] };
          if (name === 'cn-era') {
            const ce = /\bce\s*=\s*["']?(-?\d+)/i.exec(attrs);
            if (ce) frame.era = Number(ce[1]);
          }
          stack.push(frame);
        } else if (closing && (name === 'sub' || name === 'cn-era')) {
          const depth = findOpen(stack, `</${name}>`);
          if (depth > 0) {
            while (stack.length - 1 > depth) closeFrame(stack.pop() as Frame, i);
            closeFrame(stack.pop() as Frame, stop);
          } else src.report('warning', `closing tag </${name}> without its opening tag: left out`, i, stop, 'html-tag');
        } else {
          src.report('warning', `HTML tag <${closing}${name}> is not part of the manuscript convention: the tag is left out, the text around it kept`, i, stop, 'html-tag');
        }
        i = stop;
        textStart = i;
        continue;
      }
    }
    if (ch === '[' && options.footnotes) {
      FOOTNOTE_REF.lastIndex = i;
      const m = FOOTNOTE_REF.exec(text);
      if (m && i + m[0].length <= end) {
        const def = options.footnotes.get(m[1]);
        if (def) {
          flush(i);
          const stop = i + m[0].length;
          if (def.used) src.report('warning', `footnote [^${m[1]}] is referred to again: its text is set at its first reference only`, i, stop, 'footnote-repeated');
          else {
            def.used = true;
            const children = parseInline(src, def.start, def.end, { ...options, footnotes: undefined });
            const note: Note = { type: 'note', layer: footnoteLayer(text.slice(def.start, def.end)), footnote: m[1], children, position: src.position(i, stop) };
            top().children.push(note);
          }
          i = stop;
          textStart = i;
          continue;
        }
        src.report('warning', `footnote reference [^${m[1]}] has no definition ("[^${m[1]}]: …"): kept as text`, i, i + m[0].length, 'footnote-missing');
      }
    }
    if (ch === '&' && options.entity) {
      options.entity.lastIndex = i;
      const m = options.entity.exec(text);
      if (m && i + m[0].length <= end) {
        flush(i);
        const stop = i + m[0].length;
        // What it stands for is the transform's to say (transform/charmap.ts: the edition's charmap, then KR-Gaiji).
        const glyph: Glyph = { type: 'glyph', value: m[0], entity: m[1], position: src.position(i, stop) };
        top().children.push(glyph);
        columnChars++;
        i = stop;
        textStart = i;
        continue;
      }
    }
    if (options.described && ch === options.described.mark && text.startsWith(options.described.open, next)) {
      const inner = describedAfter(text, next, end, options.described);
      if (inner !== undefined) {
        flush(i);
        const after = next + options.described.open.length + inner.length + options.described.close.length;
        top().children.push({ type: 'glyph', value: text.slice(i, after), description: inner, position: src.position(i, after) });
        columnChars++;
        i = after;
        textStart = i;
        continue;
      }
    }
    if (options.formulas && ch === options.formulas[0]) {
      // A formula is short (gaiji/composition.ts): look for its end nearby only, so that a text of lone brackets stays linear.
      const near = text.slice(next, Math.min(end, next + 128)).indexOf(options.formulas[1]);
      const stop = near < 0 ? -1 : next + near;
      const inner = stop < 0 ? '' : text.slice(next, stop);
      if (inner && parseFormula(inner)) {
        flush(i);
        const after = stop + options.formulas[1].length;
        top().children.push({ type: 'glyph', value: text.slice(i, after), description: inner, position: src.position(i, after) });
        columnChars++;
        i = after;
        textStart = i;
        continue;
      }
    }
    const compositionClose = compositionOpens.get(ch);
    if (compositionClose !== undefined) {
      const stop = indexFrom(compositionClose, next);
      const inner = stop < 0 || stop - next > 32 ? '' : text.slice(next, stop);
      if (stop >= 0 && stop < end && /^[^\s{}<>()（）【】]{2,8}$/u.test(inner)) {
        flush(i);
        const after = stop + compositionClose.length;
        top().children.push({ type: 'glyph', value: text.slice(i, after), description: inner, position: src.position(i, after) });
        columnChars++;
        i = after;
        textStart = i;
        continue;
      }
    }
    if (ch === LACUNA) {
      flush(i);
      let j = next;
      while (j < end && text[j] === LACUNA) j++;
      top().children.push({ type: 'lacuna', value: text.slice(i, j), position: src.position(i, j) });
      columnChars += j - i;
      i = j;
      textStart = i;
      continue;
    }
    if (isPrivateUse(cp) || cp === 0xfffd) {
      // U+FFFD: a byte that did not decode; decode.ts reports it where it stands.
      flush(i);
      const glyph: Glyph = { type: 'glyph', value: ch, codePoint: cp, position: src.position(i, next) };
      top().children.push(glyph);
      columnChars++;
      i = next;
      textStart = i;
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      // A line break inside a paragraph joins its lines: CJK needs no space, Latin words keep one.
      flush(i);
      let j = next;
      if (ch === '\r' && text[j] === '\n') j++;
      while (j < end && BREAK_SPACE.test(text[j])) j++;
      const before = text[i - 1] ?? '';
      const after = text[j] ?? '';
      if (WORDISH.test(before) && WORDISH.test(after)) {
        top().children.push({ type: 'text', value: ' ', position: src.position(i, j) });
      }
      i = j;
      textStart = i;
      continue;
    }
    if (isControl(cp)) {
      flush(i);
      src.report('error', `control character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (binary garbage?) is not text; it was left out — delete it`, i, next, 'control-character');
      i = next;
      textStart = i;
      continue;
    }
    if (!BREAK_SPACE.test(ch)) columnChars++;
    i = next;
  }
  flush(end);
  while (stack.length > 1) {
    const frame = stack.pop() as Frame;
    if (frame.close !== null) {
      src.report('error', `unclosed ${frame.open}: the note runs to the end of the paragraph; add the missing ${frame.close} where the note ends`, frame.start, frame.start + frame.open.length, 'bracket-unclosed');
    }
    closeFrame(frame, end);
  }
  return root.children;
}

/**
 * A line anchor (Kanripo ¶) at `i`. The full-width spaces that begin the
 * next line are the source's blank cells at its head (an indent the line
 * joining drops): kept as `data.indent`, for layout: source.
 */
function lineAnchor(src: Source, text: string, i: number): Anchor {
  const anchor: Anchor = { type: 'anchor', kind: 'line', value: text[i], position: src.position(i, i + 1) };
  let j = i + 1;
  if (text[j] === '\r') j++;
  if (text[j] === '\n') {
    let n = 0;
    while (text[j + 1 + n] === '\u3000') n++;
    if (n > 0) anchor.data = { indent: n };
  }
  return anchor;
}

/** Stack index of the innermost frame closed by `close`, or -1. At most MAX_DEPTH frames are looked at. */
function findOpen(stack: Frame[], close: string): number {
  for (let d = stack.length - 1; d > 0; d--) {
    if (stack[d].close === close) return d;
  }
  return -1;
}


/**
 * A note whose text holds labelled parts (`【集解】…【索隱】…`) → one note a
 * part, each in the layer its label names, the label kept as data. Text before
 * the first label stays a note of the note's own layer.
 */
export function splitLabelledNote(note: Note, labels: ReadonlyArray<LayerLabel>): Note[] {
  const parts: Note[] = [];
  let current: Note | null = null;
  const startPart = (label: LayerLabel | null, at: Note['position']) => {
    current = { type: 'note', layer: label?.layer ?? note.layer, children: [], position: at };
    if (label) current.label = label.label;
    else if (note.label) current.label = note.label;
    parts.push(current);
    return current;
  };
  for (const child of note.children) {
    if (child.type !== 'text') {
      (current ?? startPart(null, child.position)).children.push(child);
      continue;
    }
    let from = 0;
    const value = child.value;
    for (let k = value.indexOf('【'); k >= 0; k = value.indexOf('【', k + 1)) {
      const label = labels.find((l) => value.startsWith(l.text, k));
      if (!label) continue;
      if (k > from) (current ?? startPart(null, child.position)).children.push(textSlice(child, from, k));
      const at = slicePoint(child, k);
      startPart(label, { file: child.position.file, start: at, end: at });
      from = k + label.text.length;
      k = from - 1;
    }
    if (from < value.length) (current ?? startPart(null, child.position)).children.push(textSlice(child, from, value.length));
  }
  if (parts.length <= 1 && !parts[0]?.label) return [note];
  for (const part of parts) {
    const last = part.children[part.children.length - 1];
    if (last) part.position = { ...part.position, end: last.position.end };
  }
  if (parts.length > 0) parts[parts.length - 1].position = { ...parts[parts.length - 1].position, end: note.position.end };
  return parts.filter((p) => p.children.length > 0 || p.label);
}

/** The point `index` UTF-16 units into a one-line text node. */
function slicePoint(node: Text, index: number) {
  const s = node.position.start;
  return { line: s.line, column: s.column + index, offset: (s.offset ?? 0) + index };
}

function textSlice(node: Text, from: number, to: number): Text {
  if (from === 0 && to === node.value.length) return node;
  return { type: 'text', value: node.value.slice(from, to), position: { file: node.position.file, start: slicePoint(node, from), end: slicePoint(node, to) } };
}

/** A proper name's text with its ~gloss~ parts in small type. */
function glossParts(src: Source, start: number, inner: string): Inline[] {
  const out: Inline[] = [];
  let at = 0;
  for (const m of inner.matchAll(/~([^~]+)~/gu)) {
    const k = m.index ?? 0;
    if (k > at) out.push({ type: 'text', value: inner.slice(at, k), position: src.position(start + at, start + k) });
    const t: Text = { type: 'text', value: m[1], position: src.position(start + k + 1, start + k + 1 + m[1].length) };
    out.push({ type: 'small', children: [t], position: src.position(start + k, start + k + m[0].length) });
    at = k + m[0].length;
  }
  if (at < inner.length) out.push({ type: 'text', value: inner.slice(at), position: src.position(start + at, start + inner.length) });
  return out;
}

/** The description after a mark (`■〈…〉`, from the open bracket at `at`): at most 24 characters on the line, brackets inside one deep; undefined where it is no description. */
function describedAfter(text: string, at: number, end: number, d: { open: string; close: string }): string | undefined {
  const start = at + d.open.length;
  let depth = 0;
  for (let j = start; j < Math.min(end, start + 48); j++) {
    const c = text[j];
    if (c === '\n') return undefined;
    if (text.startsWith(d.open, j)) {
      if (++depth > 1) return undefined;
    } else if (text.startsWith(d.close, j)) {
      if (depth === 0) {
        const inner = text.slice(start, j);
        return Array.from(inner).length <= 24 && /\p{Script=Han}/u.test(inner) ? inner : undefined;
      }
      depth--;
    }
  }
  return undefined;
}
