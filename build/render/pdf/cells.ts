/**
 * The characters of one run (or one sub-column's segment) as page markup,
 * each at the place the layout gave it: stretches of ideographs as one
 * letter-spaced element, punctuation one element a mark — drawn, anchored
 * by its ink (ink.ts) where its standard puts it, set beside the character
 * before as 句讀, or kept as invisible text — 縱中橫 digits, rotated Latin,
 * and the marks beside the text (著重號, 專名號, 書名號). The text layer
 * keeps every character with its ordinary code point.
 */
import type { SideMark } from '../../layout/types.js';
import type { GlyphDrawing } from '../../tree/types.js';
import { escapeHtml } from './template.js';
import { markOf, type ModernStandard, type PunctuationStandard } from '../../punctuation/index.js';
import type { PageGeometry } from './geometry.js';
import type { InkTable } from './ink.js';

/** A character at its place: `at` (cells from the column's top) and `advance` (cells), as the layout gave them. */
export interface Slot {
  ch: string;
  at: number;
  advance: number;
}

export interface CellContext {
  g: PageGeometry;
  standard: PunctuationStandard;
  ink: InkTable;
  /** The character as printed (HTML-escaped; 〓 where no font has it). */
  show: (ch: string) => string;
  /** How a label the source prints is drawn (styles/layers.json via the layout's spec): `yinwen` in a black box; bracketed labels are plain characters. */
  label?: 'yinwen' | 'bracket';
  /** A glyph drawn in its cell (the layout's `drawing`): its picture as a URL, where no font has `ch` (〓 or the list's character); undefined to print `ch`. */
  draw?: (ch: string, drawing: GlyphDrawing) => DrawnPicture | undefined;
}

/** A drawn glyph's picture: a data: URL, and whether it is a glyph image of a list (cut to its ink) rather than a composed em square. */
export interface DrawnPicture {
  url: string;
  inkBox: boolean;
}

export interface SlotsStyle {
  /** Classes put in front of each element's own (`n R L-zhu d2 ` for a note, `lac ` …). */
  cls: string;
  note: boolean;
  /** Which sub-column a note's slots are in. */
  sub?: 'R' | 'L';
  /** Ideographs may be set as one letter-spaced stretch. */
  grouped: boolean;
  style?: 'small' | 'lacuna' | 'glyph' | 'tcy' | 'latin' | 'label';
  mark?: SideMark;
}

/**
 * Marks beside the text that 句讀 and `none` editions print: the 圈點 of
 * 評點本 (circles, double circles, sesame and heavy dots) and ruby. 著重號,
 * 專名號, 書名號 and 示亡號 are punctuation (GB/T 15834 標號), printed only
 * in a modern standard.
 */
const CLASSICAL_MARKS: ReadonlySet<string> = new Set(['circle', 'sesame', 'double', 'heavy', 'ruby']);

/** Characters whose vertical advance is exactly one em in our fonts: a stretch of them is one element. */
const GRID_SAFE = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF01-\uFF60\u25A1\u2E80-\u2FDF]$/u;
const EPS = 1e-6;

const mm = (x: number): string => `${Math.round(x * 1000) / 1000}mm`;
const em = (x: number): string => `${Math.round(x * 10000) / 10000}em`;

/** The slots of a run or of a sub-column's segments from `start`. */
export function slotsOf(start: number, text: string, advances: readonly number[] | undefined): Slot[] {
  let at = start;
  return Array.from(text, (ch, i) => {
    const advance = advances?.[i] ?? 1;
    const slot = { ch, at, advance };
    at += advance;
    return slot;
  });
}

function isModern(s: PunctuationStandard): s is ModernStandard {
  return s === 'mainland' || s === 'taiwan';
}

/** `top` of an element: a class for a whole main cell, else a length. */
function top(at: number, g: PageGeometry): { cls: string; css: string } {
  if (Math.abs(at - Math.round(at)) < EPS && Math.round(at) >= 0 && Math.round(at) < g.cells) return { cls: ` r${Math.round(at)}`, css: '' };
  return { cls: '', css: `top:${mm(at * g.cellHeight)};` };
}

function element(cls: string, style: string, content: string): string {
  return `<i class="${cls.replace(/\s+/g, ' ').trim()}"${style ? ` style="${style}"` : ''}>${content}</i>`;
}

/**
 * A glyph drawn in its cell (a run of one slot): the picture a mask in the
 * text's colour, at the text's size (the note's in a note), and the
 * drawing's text in the text layer, invisible, set small enough to stay in
 * the cell (an IDS, `&KR0433;`), so that search and copy find it once, in
 * reading order. Undefined where the character itself is printed.
 */
export function drawnHtml(slot: Slot, drawing: GlyphDrawing, s: SlotsStyle, ctx: CellContext): string | undefined {
  const picture = ctx.draw?.(slot.ch, drawing);
  if (!picture) return undefined;
  const t = top(slot.at, ctx.g);
  const length = Array.from(drawing.text).length;
  const text = length > 1 ? `<span style="font-size:${em(1 / length)}">${escapeHtml(drawing.text)}</span>` : `<span>${escapeHtml(drawing.text)}</span>`;
  return element(`${s.cls}gi${picture.inkBox ? ' gk' : ''}${t.cls}`, `${t.css}--gi:url(${picture.url});`, text);
}

/** The HTML of a run's or segment's slots (see the module comment). */
export function slotsHtml(slots: readonly Slot[], s: SlotsStyle, ctx: CellContext): string {
  const { g } = ctx;
  const size = s.note ? g.noteSize : g.fontSize;
  let out = '';
  if (s.style === 'tcy' || s.style === 'latin') {
    const first = slots[0];
    const length = slots.reduce((n, x) => n + x.advance, 0);
    const t = top(first.at, g);
    if (s.style === 'tcy') return element(`${s.cls}tcy${t.cls}`, t.css, slots.map((x) => ctx.show(x.ch)).join(''));
    // Rotated Latin: half-width forms (hwid), each advanced by exactly half a cell.
    const spacing = `letter-spacing:${mm(g.cellHeight / 2 - size / 2)};height:${mm(length * g.cellHeight)};`;
    return element(`${s.cls}lat${t.cls}`, t.css + spacing, slots.map((x) => ctx.show(x.ch)).join(''));
  }
  let group: Slot[] = [];
  /** The stretch's pitch: the advance of its characters that take a place. */
  const pitchOf = (xs: readonly Slot[]): number | undefined => xs.find((x) => x.advance > 0)?.advance;
  const flush = (): void => {
    if (group.length === 0) return;
    const pitch = pitchOf(group) ?? 1;
    const start = group[0].at;
    const t = top(start, g);
    // A stretch at another pitch than one cell (a justified column): its own letter-spacing.
    const spacing = Math.abs(pitch - 1) < EPS ? '' : `letter-spacing:${mm(pitch * g.cellHeight - size)};`;
    const content = group.map((x) => (x.advance === 0 ? zeroHtml(x, start, size, ctx) : ctx.show(x.ch))).join('');
    out += element(`${s.cls}g${t.cls}`, t.css + spacing, content);
    group = [];
  };
  /** Whether x continues the stretch: right after its last character, at the same pitch. */
  const continues = (x: Slot): boolean => {
    const last = group[group.length - 1];
    if (!last) return true;
    const pitch = pitchOf(group);
    return Math.abs(last.at + last.advance - x.at) < EPS && (x.advance === 0 || pitch === undefined || Math.abs(pitch - x.advance) < EPS);
  };
  for (let i = 0; i < slots.length; i++) {
    const x = slots[i];
    if (x.ch === ' ' || x.ch === '\u3000') {
      flush();
      continue;
    }
    const row = markOf(x.ch);
    if (row && s.style !== 'lacuna' && s.style !== 'glyph') {
      // A mark that takes no place (句讀, none) stays inside the stretch, so that the characters sit exactly as without it.
      if (x.advance === 0 && s.grouped && continues(x)) {
        group.push(x);
        continue;
      }
      flush();
      // A dash of several cells (——) is one rule.
      if (isModern(ctx.standard) && row.place[ctx.standard] === 'line' && x.advance > 0) {
        let j = i;
        while (j + 1 < slots.length && markOf(slots[j + 1].ch)?.place[ctx.standard] === 'line') j++;
        out += ruleHtml(slots.slice(i, j + 1), s, ctx);
        i = j;
        continue;
      }
      out += markHtml(x, s, ctx);
      continue;
    }
    const shown = ctx.show(x.ch);
    const safe = s.grouped && GRID_SAFE.test(shown === '〓' ? shown : x.ch) && x.advance > 0;
    if (safe && continues(x)) {
      group.push(x);
      continue;
    }
    flush();
    if (safe) {
      group.push(x);
      continue;
    }
    const t = top(x.at, g);
    out += element(`${s.cls}${t.cls}`, t.css, shown);
  }
  flush();
  if (s.style === 'label' && ctx.label === 'yinwen') out = labelBoxHtml(slots, s, ctx) + out;
  if (s.mark && (isModern(ctx.standard) || CLASSICAL_MARKS.has(s.mark.kind))) out += sideMarkHtml(slots, s, ctx);
  return out;
}

/**
 * 陰文: the label's characters white in a black box (drawn before them, so
 * that they print over it), the box a little wider than the type and
 * reaching a little past the first and last character.
 */
function labelBoxHtml(slots: readonly Slot[], s: SlotsStyle, ctx: CellContext): string {
  const { g } = ctx;
  const shown = slots.filter((x) => x.advance > 0);
  if (shown.length === 0) return '';
  const { centre, half } = lane(s, g);
  const pad = 0.12 * half;
  const size = 2 * half;
  const y0 = shown[0].at * g.cellHeight + (g.cellHeight - size) / 2 - pad;
  const last = shown[shown.length - 1];
  const y1 = (last.at + last.advance) * g.cellHeight - (g.cellHeight - size) / 2 + pad;
  return `<b class="lbox${s.note ? ' n' : ''}" style="top:${mm(y0)};right:${mm(centre - half - pad)};width:${mm(size + 2 * pad)};height:${mm(y1 - y0)}"></b>`;
}

/**
 * A mark that takes no place, inside a stretch: its glyph's advance taken
 * back by letter-spacing (so the characters after it sit where they would
 * without it), invisible; a 句讀 circle or dot drawn beside the character
 * before, `--y` below the stretch's top.
 */
function zeroHtml(x: Slot, start: number, size: number, ctx: CellContext): string {
  const { g } = ctx;
  const form = ctx.standard === 'judou' ? markOf(x.ch)?.judou : null;
  if (!form) return `<span class="pz">${ctx.show(x.ch)}</span>`;
  const y = (x.at - start) * g.cellHeight - (g.cellHeight - size) / 2 - 0.06 * size;
  return `<span class="pz pj-${form}" style="--y:${mm(y)}">${ctx.show(x.ch)}</span>`;
}

/**
 * One mark. Modern standards: the mark in its place — a compressed mark
 * drawn in the half of its cell that holds its ink — upright and anchored
 * by its ink where the table says, or in the font's vertical form. Judou:
 * the invisible character with a circle or dot at the lower right of the
 * character before it (or invisible only, for a mark with no 句讀 form).
 * None: the invisible character.
 */
function markHtml(x: Slot, s: SlotsStyle, ctx: CellContext): string {
  const { g } = ctx;
  const row = markOf(x.ch)!;
  const size = s.note ? g.noteSize : g.fontSize;
  const shown = ctx.show(x.ch);
  if (!isModern(ctx.standard) || x.advance === 0) {
    // Invisible in the cell at its place; a 句讀 form drawn at the lower right of the character before (--y: its centre).
    const form = ctx.standard === 'judou' ? row.judou : null;
    const t = top(x.at, g);
    if (!form) return element(`${s.cls}pn${t.cls}`, t.css, shown);
    return element(`${s.cls}pj pj-${form}${t.cls}`, `${t.css}--y:${mm(-(g.cellHeight - size) / 2 - 0.06 * size)};`, shown);
  }
  const side = row.ink[ctx.standard];
  // Where the mark's whole (virtual) cell starts: a compressed mark keeps the half with its ink.
  const shift = x.advance < 1 - EPS ? (side === 'end' ? x.advance - 1 : side === 'centre' ? (x.advance - 1) / 2 : 0) : 0;
  const t = top(x.at + shift, g);
  const place = row.place[ctx.standard];
  if (place === 'corner') return element(`${s.cls}pq pq-${row.noEnd ? 'open' : 'close'} pq-${row.corner ?? 'single'}${t.cls}`, t.css, shown);
  if (typeof place === 'object') {
    const ink = ctx.ink[x.ch] ?? { x: 0.5, y: 0.5 };
    const move = `transform:translate(${em(place.x - ink.x)},${em(place.y - ink.y)});`;
    return element(`${s.cls}pa${t.cls}`, t.css + move, shown);
  }
  return element(`${s.cls}pm${t.cls}`, t.css, shown);
}

/** Dashes: one rule through the middle of their cells, and each character invisible in its cell (the text layer). */
function ruleHtml(slots: readonly Slot[], s: SlotsStyle, ctx: CellContext): string {
  const { g } = ctx;
  const first = slots[0];
  const length = slots.reduce((n, x) => n + x.advance, 0);
  const rule = `<b class="pr${s.note ? ` n ${s.sub ?? 'R'}` : ''}" style="top:${mm(first.at * g.cellHeight)};height:${mm(length * g.cellHeight)}"></b>`;
  return rule + slots.map((x) => {
    const t = top(x.at, g);
    return element(`${s.cls}pn${t.cls}`, t.css, ctx.show(x.ch));
  }).join('');
}

/** The x range of a column or sub-column, in mm from the column's right edge. */
function lane(s: SlotsStyle, g: PageGeometry): { centre: number; half: number } {
  if (!s.note) return { centre: g.colWidth / 2, half: g.fontSize / 2 };
  const shift = g.noteShift;
  return { centre: s.sub === 'L' ? (3 * g.colWidth) / 4 - shift : g.colWidth / 4 + shift, half: g.noteSize / 2 };
}

/**
 * The marks set beside the middle of each character, and their size (em of
 * the type): 評點本's 圈 ○ and 雙圈 ◎ larger than a 句號's circle, ● (重)
 * larger than a 讀點's dot, 頓 a sesame dot; the 著重號 dot of modern text.
 * Each is its own shape at its own size, so that none reads as another.
 */
const CIRCLE_MARKS: Partial<Record<SideMark['kind'], number>> = { circle: 0.3, double: 0.36, heavy: 0.22, sesame: 0.22, dot: 0.16 };
/** How far right of the type the middle of a mark beside it stands (em): clear of a 句讀 mark at the type's corner. */
const SIDE_MARK_X = 0.26;

/**
 * Marks beside the characters: dots, circles and sesame dots to the right
 * of each character (not of punctuation, clreq 5.3.1), the straight
 * 專名號 and the wavy 書名號 to the left of the stretch, shortened by 1/16
 * em at its ends so that two stretches side by side stay apart (5.6.1).
 */
function sideMarkHtml(slots: readonly Slot[], s: SlotsStyle, ctx: CellContext): string {
  const { g } = ctx;
  const mark = s.mark!;
  const { centre, half } = lane(s, g);
  const size = 2 * half;
  const cls = `sm${s.note ? ' n' : ''}`;
  if (mark.kind === 'ruby') return rubyHtml(slots, s, ctx);
  const circles = CIRCLE_MARKS[mark.kind];
  if (circles) {
    // Beside the middle of each character, in the gutter (SIDE_MARK_X em from the type): apart from a 句讀 mark, which sits
    // by the character's lower right corner, between it and the next.
    const d = circles * size;
    const right = centre - half - SIDE_MARK_X * size - d / 2;
    let out = '';
    for (const x of slots) {
      if (x.advance <= 0 || markOf(x.ch) || x.ch.trim() === '') continue;
      const y = (x.at + x.advance / 2) * g.cellHeight - d / 2;
      out += `<b class="${cls} sm-${mark.kind}" style="top:${mm(y)};right:${mm(right)};width:${mm(d)};height:${mm(d)}"></b>`;
    }
    return out;
  }
  const shown = slots.filter((x) => x.advance > 0);
  if (shown.length === 0) return '';
  if (mark.kind === 'box') {
    // 示亡號 (clreq 5.1.1.4): a frame round the name.
    const y0 = shown[0].at * g.cellHeight + (g.cellHeight - size) / 2 - 0.06 * size;
    const last = shown[shown.length - 1];
    const y1 = (last.at + last.advance) * g.cellHeight - (g.cellHeight - size) / 2 + 0.06 * size;
    const right = centre - half - 0.08 * size;
    return `<b class="${cls} sm-box" style="top:${mm(y0)};right:${mm(right)};width:${mm(size + 0.16 * size)};height:${mm(y1 - y0)}"></b>`;
  }
  const inset = size / 16;
  const y0 = shown[0].at * g.cellHeight + (mark.first ? inset : 0);
  const last = shown[shown.length - 1];
  const y1 = (last.at + last.advance) * g.cellHeight - (mark.last ? inset : 0);
  const x = centre + half + 0.12 * size;
  if (mark.kind === 'proper') {
    return `<b class="${cls} sm-proper" style="top:${mm(y0)};right:${mm(x)};height:${mm(y1 - y0)}"></b>`;
  }
  // 書名號: a wave drawn as a path, one period per third of an em.
  const amp = 0.05 * size;
  const period = size / 3;
  const length = y1 - y0;
  const periods = Math.max(1, Math.round(length / period));
  const step = length / periods;
  let d = `M${(amp).toFixed(3)} 0`;
  for (let k = 0; k < periods; k++) {
    const y = k * step;
    d += ` Q${(2 * amp).toFixed(3)} ${(y + step / 4).toFixed(3)} ${amp.toFixed(3)} ${(y + step / 2).toFixed(3)} T${amp.toFixed(3)} ${(y + step).toFixed(3)}`;
  }
  const w = 2 * amp;
  return (
    `<svg class="${cls} sm-book" style="top:${mm(y0)};right:${mm(x - amp)};width:${mm(w)};height:${mm(length)}" viewBox="0 0 ${w.toFixed(3)} ${length.toFixed(3)}">` +
    `<path d="${d}"/></svg>`
  );
}

/** Bopomofo (注音) and its tone marks. */
const ZHUYIN = /^[\u3105-\u312f\u31a0-\u31bf\u02ca\u02c7\u02cb\u02d9\u02c9]+$/u;
const TONE = /^[\u02ca\u02c7\u02cb\u02c9]$/u;
const LIGHT_TONE = '\u02d9';

/**
 * Ruby beside the characters, on their right (clreq 5.5): in the gutter
 * between the column's type and its right edge.
 * - One reading a character (readings): 注音 stacked in small symbols,
 *   centred on its character's cell, a tone mark (ˊˇˋ) to the right of the
 *   last symbol, the light tone (˙) above the first (國語注音符號手冊; clreq
 *   5.5.3); any other reading set along the cell, upright CJK or rotated
 *   Latin, shrunk to fit.
 * - One text along the span (ruby): centred on the span, the annotation's
 *   characters at a small size, overhanging both ends alike when longer
 *   (clreq 5.5.6).
 */
function rubyHtml(slots: readonly Slot[], s: SlotsStyle, ctx: CellContext): string {
  const { g } = ctx;
  const mark = s.mark!;
  const { centre, half } = lane(s, g);
  // The gutter right of the type: to the column's edge, or (the left sub-column) to the column's middle.
  const right = s.note && s.sub === 'L' ? g.colWidth / 2 : 0;
  const gutter = Math.max(0.5, centre - half - right);
  // The gutter's middle, from the column's right edge.
  const x = right + gutter / 2;
  const cls = `rb${s.note ? ' n' : ''}`;
  let out = '';
  if (mark.readings) {
    slots.forEach((slot, i) => {
      const reading = mark.readings?.[i] ?? '';
      if (!reading || slot.advance <= 0) return;
      const chars = Array.from(reading);
      const y = slot.at * g.cellHeight;
      const h = slot.advance * g.cellHeight;
      if (ZHUYIN.test(reading)) {
        const tone = chars.filter((c) => TONE.test(c));
        const light = chars.includes(LIGHT_TONE);
        const symbols = chars.filter((c) => !TONE.test(c) && c !== LIGHT_TONE);
        const z = Math.min(gutter / 1.45, (0.92 * h) / Math.max(1, symbols.length + (light ? 0.5 : 0)));
        const top = y + (h - z * symbols.length) / 2;
        const zx = x + (tone.length > 0 ? 0.2 * z : 0);
        if (light) out += `<i class="${cls} rz" style="top:${mm(top - 0.55 * z)};right:${mm(zx - z / 2)};width:${mm(z)};height:${mm(0.5 * z)};font-size:${mm(0.8 * z)};line-height:${mm(0.5 * z)}">${ctx.show(LIGHT_TONE)}</i>`;
        out += `<i class="${cls} rz" style="top:${mm(top)};right:${mm(zx - z / 2)};width:${mm(z)};font-size:${mm(z)};line-height:${mm(z)}">${symbols.map(ctx.show).join('')}</i>`;
        // The tone mark beside the last symbol, to its right, upper half.
        for (const t of tone) out += `<i class="${cls} rt" style="top:${mm(top + z * (symbols.length - 1))};right:${mm(zx - z / 2 - 0.55 * z)};width:${mm(0.55 * z)};font-size:${mm(0.7 * z)};line-height:${mm(0.55 * z)}">${ctx.show(t)}</i>`;
        return;
      }
      const z = Math.min(0.85 * gutter, (0.95 * h) / Math.max(1, chars.length));
      out += `<i class="${cls} rg" style="top:${mm(y)};height:${mm(h)};right:${mm(x - z / 2)};width:${mm(z)};font-size:${mm(z)};line-height:${mm(z)}">${chars.map(ctx.show).join('')}</i>`;
    });
    return out;
  }
  const text = mark.ruby ?? '';
  const shown = slots.filter((x2) => x2.advance > 0);
  if (!text || shown.length === 0) return '';
  const y0 = shown[0].at * g.cellHeight;
  const last = shown[shown.length - 1];
  const y1 = (last.at + last.advance) * g.cellHeight;
  const z = Math.min(0.85 * gutter, 0.5 * g.fontSize);
  return `<i class="${cls} rg" style="top:${mm(y0)};height:${mm(y1 - y0)};right:${mm(x - z / 2)};width:${mm(z)};font-size:${mm(z)};line-height:${mm(z)}">${Array.from(text).map(ctx.show).join('')}</i>`;
}
