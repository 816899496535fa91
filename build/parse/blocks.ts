/**
 * Pieces shared by the line-based importers: lines with offsets, the line
 * patterns of 四庫 corpus texts, paragraphs, and grouping blocks into volumes.
 */
import type { Block, Heading, LayerId, Paragraph, ParagraphRole, Volume } from '../tree/types.js';
import { DEFAULT_INLINE, parseInline, type InlineOptions } from './inline.js';
import type { Source } from './source.js';
import { append } from '../tree/append.js';

export interface Line {
  /** 1-based line number. */
  number: number;
  /** Offsets of the content without surrounding white space (ASCII or full-width). */
  start: number;
  end: number;
  content: string;
}

const SPACE = /[\s\u3000]/u;

/** Every line of the text, blank ones too (content ''), trimmed, with their offsets. A line ends at LF, CRLF or CR. */
export function physicalLines(text: string): Line[] {
  const lines: Line[] = [];
  const breaks = /\r\n?|\n/g;
  let lineStart = 0;
  let number = 1;
  for (;;) {
    breaks.lastIndex = lineStart;
    const m = breaks.exec(text);
    const lineEnd = m ? m.index : text.length;
    let s = lineStart;
    let e = lineEnd;
    while (s < e && SPACE.test(text[s])) s++;
    while (e > s && SPACE.test(text[e - 1])) e--;
    lines.push({ number, start: s, end: e, content: text.slice(s, e) });
    if (!m) break;
    lineStart = lineEnd + m[0].length;
    number++;
  }
  return lines;
}

/** Non-blank lines of the text, trimmed, with their offsets. */
export function contentLines(text: string): Line[] {
  return physicalLines(text).filter((l) => l.content !== '');
}

/**
 * The length in characters of `content` without its bracketed parts (【…】,
 * 〈…〉, or the pairs given), in one pass: an unclosed bracket runs to the end.
 */
export function bareLength(content: string, pairs: ReadonlyArray<readonly [string, string]> = [['【', '】'], ['〈', '〉']]): number {
  let length = 0;
  let closing: string | null = null;
  let depth = 0;
  for (const ch of content) {
    if (closing === null) {
      const pair = pairs.find(([open]) => open === ch);
      if (pair) {
        closing = pair[1];
        depth = 1;
      } else length++;
    } else if (ch === closing) {
      if (--depth === 0) closing = null;
    } else if (pairs.some(([open, close]) => open === ch && close === closing)) depth++;
  }
  return length;
}

/** `<經部,禮類,…` and `<经部,…>`: catalogue data, never markup, never text. */
export const CATEGORY_LINE = /^<[經经史子集][部][,，]/u;
/** 欽定四庫全書 (with an optional 經部四 after it). */
export const SIKU_BANNER = /^(?:欽定四庫全書|钦定四库全书)(?:[\s\u3000]+\S+)?$/u;
const NUMERAL = '〇零一二三四五六七八九十百千';
/** A volume title: 禮書綱目卷九, 墨子卷之二 (the 明 prints' 卷之) or 某經註卷上 (no number: group 2 undefined), with an optional byline after white space. */
export const VOLUME_TITLE = new RegExp(`^(\\S{0,20}?[卷巻](?:[第之]?([${NUMERAL}]+)|[上中下]))(?:[\\s\\u3000]+(\\S.*))?$`, 'u');
/** An author line: 婺源江永撰, 宋 陳祥道 撰, 舒 恭 注, 赵宜中附注, 赵人　公孙龙　着 (着 for 著, as simplified texts write it). */
export const BYLINE = /^(?:[^\s【〈<]{1,12})(?:[\s\u3000]+[^\s【〈<]{1,8}){0,3}[\s\u3000]*(?:撰|譔|注|註|附注|編|编|輯|辑|述|著|着|校|訂|订|疏|譯|译)$/u;
/** A section label: 右戒賓 (with its note, if any) alone or followed by white space and more text. */
export const SECTION_LABEL = /^右[^\s\u3000【〈]{1,12}(?:【[^】]*】|〈[^〉]*〉)?(?=[\s\u3000]|$)/u;
/** A label inside a paragraph, after a note: …】右張侯 記… */
const INLINE_LABEL = /(?<=[】〉])右[^\s\u3000【〈】〉]{1,12}[\s\u3000]+(?=[記记])/gu;

export function chineseNumber(numeral: string): number | null {
  const digits: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
  const units: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
  let total = 0;
  let digit = -1;
  for (const ch of numeral) {
    if (ch in digits) digit = digits[ch];
    else if (ch in units) {
      total += (digit < 0 ? 1 : digit) * units[ch];
      digit = -1;
    } else return null;
  }
  if (digit >= 0) total += digit;
  return total > 0 ? total : null;
}

export function paragraph(src: Source, role: ParagraphRole, start: number, end: number, options: InlineOptions = DEFAULT_INLINE, layer?: LayerId): Paragraph {
  const node: Paragraph = { type: 'paragraph', role, children: parseInline(src, start, end, options), position: src.position(start, end) };
  if (layer !== undefined) node.layer = layer;
  return node;
}

export function heading(src: Source, depth: 1 | 2 | 3, start: number, end: number, options: InlineOptions = DEFAULT_INLINE): Heading {
  return { type: 'heading', depth, children: parseInline(src, start, end, options), position: src.position(start, end) };
}

function trimSpan(text: string, start: number, end: number): [number, number] {
  while (start < end && SPACE.test(text[start])) start++;
  while (end > start && SPACE.test(text[end - 1])) end--;
  return [start, end];
}

/**
 * A line of running text that may hold section labels: 右戒賓 at its head,
 * or …】右張侯 記… inside. Each label becomes its own paragraph and what
 * follows it (記 and other appended matter) a `ji` paragraph.
 */
export function textWithLabels(src: Source, start: number, end: number, role: ParagraphRole, options: InlineOptions = DEFAULT_INLINE): Paragraph[] {
  const out: Paragraph[] = [];
  const text = src.text.slice(start, end);
  const head = SECTION_LABEL.exec(text);
  let cursor = start;
  let currentRole = role;
  if (head) {
    const labelEnd = start + head[0].length;
    out.push(paragraph(src, 'label', start, labelEnd, options));
    cursor = labelEnd;
    currentRole = 'ji';
  }
  INLINE_LABEL.lastIndex = 0;
  for (const match of text.matchAll(INLINE_LABEL)) {
    const at = start + (match.index ?? 0);
    if (at < cursor) continue;
    const [s, e] = trimSpan(src.text, cursor, at);
    if (e > s) out.push(paragraph(src, currentRole, s, e, options));
    const [ls, le] = trimSpan(src.text, at, at + match[0].length);
    out.push(paragraph(src, 'label', ls, le, options));
    cursor = at + match[0].length;
    currentRole = 'ji';
  }
  const [s, e] = trimSpan(src.text, cursor, end);
  if (e > s) out.push(paragraph(src, currentRole, s, e, options));
  return out;
}

/** 巻 and 卷 are one character as transcribers type it (家語卷一 opens the volume, 家語巻一 closes it). */
// 巻 and 卷 are one character as transcribers type it (家語卷一 opens the volume, 家語巻一 closes it); a title in 《》 is
// the same title without them (CBETA: 《妙法蓮華經》卷第四 opens, 妙法蓮華經卷第四 closes).
const same = (t: string) => t.replace(/巻/gu, '卷').replace(/[《》]/gu, '');

/**
 * Groups blocks into volumes. A volume title opens a volume; the same title
 * again closes it (the closing title stays in the volume as a title line).
 * Blocks before any volume title go to the head of the first volume.
 */
export class VolumeBuilder {
  readonly volumes: Volume[] = [];
  private pending: Block[] = [];
  private current: Volume | null = null;
  private closed = true;

  constructor(private readonly src: Source) {}

  /** True when the line names the volume now open: the closing title. */
  isClosingTitle(title: string): boolean {
    return this.current !== null && !this.closed && same(this.current.title) === same(title);
  }

  open(title: string, number: number | null, start: number, end: number): void {
    // The title of the volume just closed, again (黄帝内经素问's 卷第一 over each of its 篇): the same volume runs on.
    const last = this.volumes[this.volumes.length - 1];
    if (last && this.closed && last === this.current && same(last.title) === same(title)) {
      append(last.children, this.pending);
      this.pending = [];
      this.closed = false;
      return;
    }
    // Text before the first volume title is front matter (提要 and the like).
    const head = this.pending.map((b) => (this.volumes.length === 0 && b.type === 'paragraph' && b.role === 'text' ? { ...b, role: 'front' as const } : b));
    const volume: Volume = { type: 'volume', number, title, children: head, position: this.src.position(start, end) };
    this.pending = [];
    this.volumes.push(volume);
    this.current = volume;
    this.closed = false;
  }

  close(): void {
    this.closed = true;
  }

  /**
   * Whether a volume is open (a title opened it, none closed it); given a number, whether the open one has it (a title at
   * the text's end that closes it, however it is spelt: 論語集觧義疏卷七 / 論語集解義疏卷七).
   */
  isOpen(number?: number | null): boolean {
    if (number === undefined) return this.current !== null && !this.closed;
    return number !== null && this.current !== null && !this.closed && this.current.number === number;
  }

  /** Whether no volume is open yet and text waits: a title now, with nothing after it, closes that text (endVolume). */
  get waiting(): boolean {
    return this.current === null && this.pending.length > 0;
  }

  /**
   * A volume whose title stands only at its end (a CBETA juan: …等因緣所成。 / 《中論》卷第一):
   * every block so far is its text (none front matter), the title line closing it.
   */
  endVolume(title: string, number: number | null, start: number, end: number): void {
    const at = this.src.position(start, end);
    const volume: Volume = { type: 'volume', number, title, children: this.pending, position: { ...at, start: this.pending[0]?.position.start ?? at.start } };
    this.pending = [];
    this.volumes.push(volume);
    this.current = volume;
    this.closed = true;
  }

  add(block: Block): void {
    if (this.current && !this.closed) this.current.children.push(block);
    else if (this.current && this.closed && !startsVolumeHead(block)) this.current.children.push(block);
    else this.pending.push(block);
  }

  /** The volumes; blocks left over after the last volume are kept in it, or in one volume of their own. */
  finish(fallbackTitle: string): Volume[] {
    if (this.pending.length > 0) {
      if (this.current) append(this.current.children, this.pending);
      else {
        const first = this.pending[0].position;
        const last = this.pending[this.pending.length - 1].position;
        this.volumes.push({ type: 'volume', number: null, title: fallbackTitle, children: this.pending, position: { file: first.file, start: first.start, end: last.end } });
      }
      this.pending = [];
    }
    for (const v of this.volumes) {
      const last = v.children[v.children.length - 1];
      if (last) v.position = { ...v.position, end: last.position.end };
    }
    return this.volumes;
  }
}

/** Blocks that belong to the head of the next volume when they come after a closing title (欽定四庫全書). */
function startsVolumeHead(block: Block): boolean {
  return block.type === 'paragraph' && block.role === 'title';
}

/** The name a contents entry and the heading it lists share: markup, brackets and what they hold, white space left out. */
function listedName(content: string): string {
  return content
    .replace(/<[^<>]*>|¶/gu, '')
    .replace(/[(（〔【][^()（）〔〕【】]*[)）〕】]/gu, '')
    .replace(/^[●○◎#*\s\u3000]+/u, '')
    .replace(/[\s\u3000]/gu, '');
}

const LISTS_A_PART = new RegExp(`[卷巻](?:[第之]?[${NUMERAL}]+|[上中下])|第[${NUMERAL}]+`, 'u');
const VOLUME_ITEM = new RegExp(`[卷巻](?:[第之]?[${NUMERAL}]+|[上中下])`, 'u');

/**
 * A contents list: a run of short lines (blank lines and page markers
 * aside), two or more of which name a volume or a chapter (卷一逍遥游第一;
 * 卷第一 and its chapters' names; 隐公卷一（起元年，尽元年）; a juan's chapters
 * under its title) that stands again later in the text, heading what it
 * lists. The list runs from the first such line to the run's end (八条, 附录,
 * a cut text's 卷第七 that never comes); a line the text follows is its
 * first heading, not an entry (潜夫論: 讃學第一 listed, then 讃學第一 over
 * its text); a run with one volume line only keeps it, the volume's own
 * title over its contents. Returns the lines' numbers.
 */
export function contentsLines(lines: readonly Line[], isData: (content: string) => boolean = () => false): Set<number> {
  const out = new Set<number>();
  const body = lines.filter((l) => l.content && !isData(l.content) && listedName(l.content) !== '');
  const names = body.map((l) => listedName(l.content));
  // An entry wrapped onto the next column (…晏子諫第 / 二): one entry, its number on the next line.
  const wrapped = new Set<number>();
  for (let k = 0; k + 1 < names.length; k++) {
    if (names[k].endsWith('第') && new RegExp(`^[${NUMERAL}]+$`, 'u').test(names[k + 1])) {
      names[k] += names[k + 1];
      wrapped.add(k + 1);
    }
  }
  const parts = names.map((n, k) => LISTS_A_PART.test(n) || wrapped.has(k));
  const inRun = names.map((n, k) => Array.from(n).length <= 30 && !/[，。；！？：]/u.test(n) && (parts[k] || Array.from(n).length <= 8));
  // A line the text follows heads it.
  const heads = (k: number) => k + 1 >= body.length || !inRun[k + 1];
  // Where each run ends, and the last line each short name's endings stand on (any line, and a heading line): one pass.
  const runEnd: number[] = new Array(body.length).fill(-1);
  for (let k = body.length - 1; k >= 0; k--) runEnd[k] = inRun[k] ? (k + 1 < body.length && inRun[k + 1] ? runEnd[k + 1] : k) : -1;
  const lastAt = new Map<string, number>();
  const lastHeading = new Map<string, number>();
  for (let j = 0; j < names.length; j++) {
    const chars = Array.from(names[j]);
    if (chars.length > 40) continue;
    for (let n = 2; n <= chars.length; n++) {
      const ending = chars.slice(chars.length - n).join('');
      lastAt.set(ending, j);
      if (heads(j)) lastHeading.set(ending, j);
    }
  }
  // A name stands again: its part after the volume (卷一逍遥游第一: 逍遥游第一) or the whole ends a later line, past the
  // run, or one heading text within it.
  const recurs = (k: number): boolean => {
    const name = names[k];
    const after = name.replace(VOLUME_ITEM, '');
    const key = after !== name && after !== '' && LISTS_A_PART.test(after) ? after : name;
    if (Array.from(key).length < 2) return false;
    return (lastAt.get(key) ?? -1) > runEnd[k] || (lastHeading.get(key) ?? -1) > k;
  };
  for (let a = 0; a < body.length; a++) {
    if (!inRun[a]) continue;
    const b = runEnd[a] + 1;
    const listed: number[] = [];
    for (let k = a; k < b; k++) if (parts[k] && !wrapped.has(k) && !heads(k) && recurs(k)) listed.push(k);
    if (listed.length >= 2) {
      const volumes = listed.filter((k) => VOLUME_ITEM.test(names[k]) && !/第[〇零一二三四五六七八九十百千]+$/u.test(names[k].replace(VOLUME_ITEM, '')));
      // The list ends where a volume's number starts again (卷八 …, then 庄子集解卷一: the text's first volume).
      let highest = 0;
      for (let k = listed[0]; k < b; k++) {
        const n = VOLUME_ITEM.exec(names[k]);
        const number = n ? (chineseNumber(n[0].replace(/^[卷巻][第之]?/u, '')) ?? 0) : 0;
        if (number > 0 && number < highest) break;
        highest = Math.max(highest, number);
        if (heads(k) || (k === listed[0] && volumes.length === 1 && volumes[0] === k)) continue;
        out.add(body[k].number);
      }
    }
    a = b - 1;
  }
  return out;
}

/** The contents list's reading, said where it starts: it rests on the names recurring, not on markup. */
export function reportContents(src: Source, lines: readonly Line[], contents: ReadonlySet<number>): void {
  if (contents.size === 0) return;
  const first = lines[Math.min(...contents) - 1];
  src.report('info', `${contents.size} lines read as a contents list (front matter, no volume or heading): the volumes and chapters they name stand again later, heading the text`, first.start, first.end, 'contents-reading');
}
