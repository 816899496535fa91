/**
 * Importers for 四庫全書 corpus text, one paragraph a line:
 * - daizhige (殆知閣): `<經部,…` category lines, 欽定四庫全書, volume title with
 *   byline, 【】 notes, 右… section labels followed by 記 text, short item
 *   headings (鹿中, 兕中 …);
 * - wikisource (中華文庫): the same, plus page-header lines, whole lines in 〈〉
 *   that comment on the line before, inline 〈〉, and 篇 headings after the
 *   byline or a section label.
 */
import type { Block, Volume } from '../../tree/types.js';
import {
  BYLINE,
  bareLength,
  CATEGORY_LINE,
  SIKU_BANNER,
  VOLUME_TITLE,
  SECTION_LABEL,
  VolumeBuilder,
  chineseNumber,
  contentLines,
  contentsLines,
  heading,
  physicalLines,
  reportContents,
  paragraph,
  textWithLabels,
  type Line,
} from '../blocks.js';
import type { Source } from '../source.js';
import { bylineStartIn } from '../title.js';
import type { FormatConventions } from '../formats.js';
import { DEFAULT_INLINE, type InlineOptions } from '../inline.js';

/** What a source says about itself (Kanripo's org header, Markdown front matter). */
export interface SourceMeta {
  title?: string;
  /** The title in other scripts (front matter `title: { zh-hans: … }`). */
  titles?: Record<string, string>;
  juan?: number;
  author?: string;
  /** Everything else, as written (BASEEDITION, source_url …). */
  data: Record<string, string>;
}

export interface ImportResult {
  volumes: Volume[];
  meta?: SourceMeta;
  /** The file's lines were read as the print's columns (Kanripo ¶ ending them): its long paragraphs are the print's. */
  printColumns?: boolean;
}

type Previous = 'start' | 'title' | 'byline' | 'heading' | 'label' | 'text';

function hasSpace(content: string): boolean {
  return /[\s\u3000]/u.test(content);
}

/** A whole line in 〈…〉: the bracket opened at its head closes at its end. */
function isWholeLineNote(content: string): boolean {
  if (!content.startsWith('〈') || !content.endsWith('〉')) return false;
  let depth = 0;
  const chars = Array.from(content);
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '〈') depth++;
    else if (chars[i] === '〉' && --depth === 0) return i === chars.length - 1;
  }
  return false;
}

const WIKISOURCE_CHROME = /中[华華]文[库庫]|全[览覽][\s\u3000]*\|?$/u;
const WIKISOURCE_HEADING = /^\p{Script=Han}{1,6}(?:礼|禮|仪|儀|服|彻|徹)(?:上|下)?(?:〈[^〉]{1,4}〉)?$/u;

interface Handlers {
  /** Returns blocks for a line that is not one of the shared kinds, or null. */
  line(line: Line, previous: Previous): { blocks: Block[]; kind: Previous } | null;
  skip?(line: Line, seenContent: boolean): boolean;
}

function importCorpus(src: Source, fallbackTitle: string, handlers: Handlers, inline: InlineOptions = DEFAULT_INLINE): ImportResult {
  const builder = new VolumeBuilder(src);
  let previous: Previous = 'start';
  let seenContent = false;
  const contents = contentsLines(physicalLines(src.text));
  reportContents(src, physicalLines(src.text), contents);
  for (const line of contentLines(src.text)) {
    const { content } = line;
    if (contents.has(line.number)) {
      builder.add(paragraph(src, 'front', line.start, line.end, inline));
      continue;
    }
    if (CATEGORY_LINE.test(content)) {
      src.report('info', `catalogue line left out (data about the work, not its text): ${content}`, line.start, line.end, 'catalogue-line');
      continue;
    }
    if (handlers.skip?.(line, seenContent)) {
      src.report('info', 'page header of the web copy, not part of the work: left out', line.start, line.end, 'source-chrome');
      continue;
    }
    seenContent = true;
    // The first line a title and its byline (物理小识　﹝明﹞方以智撰, 《公孙龙子注》（清）陈澧注): each a paragraph of its role.
    const bylineAt = previous === 'start' ? bylineStartIn(content) : undefined;
    if (bylineAt !== undefined) {
      const titleText = content.slice(0, bylineAt).trimEnd();
      const open = /^《/u.test(titleText) && /》$/u.test(titleText) ? 1 : 0;
      builder.add(paragraph(src, 'title', line.start + open, line.start + titleText.length - open, { ...inline, notes: [] }));
      builder.add(paragraph(src, 'byline', line.start + bylineAt, line.end, { ...inline, notes: [] }));
      previous = 'byline';
      continue;
    }
    if (SIKU_BANNER.test(content)) {
      builder.add(paragraph(src, 'title', line.start, line.end));
      previous = 'title';
      continue;
    }
    const title = VOLUME_TITLE.exec(content);
    if (title && !content.includes('【') && !content.includes('〈')) {
      const [, name, numeral, byline] = title;
      const titleEnd = line.start + name.length;
      if (builder.isClosingTitle(name)) {
        builder.add(paragraph(src, 'title', line.start, titleEnd));
        builder.close();
      } else {
        builder.open(name, numeral ? chineseNumber(numeral) : null, line.start, line.end);
        builder.add(paragraph(src, 'title', line.start, titleEnd));
      }
      if (byline) {
        const bylineStart = line.start + content.indexOf(byline, name.length);
        builder.add(paragraph(src, 'byline', bylineStart, line.end));
      }
      previous = byline ? 'byline' : 'title';
      continue;
    }
    if ((previous === 'start' || previous === 'title' || previous === 'heading') && BYLINE.test(content)) {
      builder.add(paragraph(src, 'byline', line.start, line.end));
      previous = 'byline';
      continue;
    }
    const special = handlers.line(line, previous);
    if (special) {
      for (const block of special.blocks) builder.add(block);
      previous = special.kind;
      continue;
    }
    const blocks = textWithLabels(src, line.start, line.end, 'text', inline);
    for (const block of blocks) builder.add(block);
    previous = SECTION_LABEL.test(content) ? 'label' : 'text';
  }
  return { volumes: builder.finish(fallbackTitle) };
}

/** `conv`: the row as parseSource decided it (〈…〉 as described characters, decide.ts); its inline options set the text. */
/** The 四庫 head's category lines (子部一, 儒家類, 雜家類一) and the 提要's heading. */
const SIKU_CATEGORY = /^[\s\u3000]*(?:[經经史子集]部[〇一二三四五六七八九十]*|\p{Script=Han}{1,6}[類类][〇一二三四五六七八九十]*|\p{Script=Han}{0,12}提要)[\s\u3000]*$/u;
/** A chapter's name alone on its line (孟春紀第一; 玉清境上清經　第一; 白马论弟二, 迹府弟一（一）: 弟 for 第, the editor's note number after). */
const CHAPTER_LINE = /^[\s\u3000]*[^\s\u3000，。；：、！？【】〈〉]{1,12}[\s\u3000]*[第弟][〇一二三四五六七八九十百]+(?:[（〔][〇一二三四五六七八九十百]+[）〕])?[\s\u3000]*$/u;

export function importDaizhige(src: Source, fallbackTitle: string, conv?: FormatConventions): ImportResult {
  // The 四庫 head (banner, category, the work's name, 提要 and its text) is front matter up to the first volume title or chapter.
  let head = false;
  const all = contentLines(src.text);
  // The lines around: a 冊's works (公孙龙子　鬼谷子) over their 提要 are the head too; a head starts under the banner.
  const next = new Map(all.map((l, k) => [l.number, all[k + 1]?.content ?? '']));
  const before = new Map(all.map((l, k) => [l.number, all[k - 1]?.content ?? '']));
  let byLength = 0;
  let firstByLength: Line | undefined;
  const heads = (line: Line, start: number, end: number, depth: 1 | 2 = 2): { blocks: Block[]; kind: 'heading' } => ({ blocks: [heading(src, depth, start, end, conv?.inline)], kind: 'heading' });
  const result = importCorpus(src, fallbackTitle, {
    line(line, previous) {
      const { content } = line;
      const above = before.get(line.number) ?? '';
      // A head ends at the next banner (the 冊's second head, over the work's own text).
      if (previous === 'byline' || previous === 'text' || previous === 'heading' || SIKU_BANNER.test(above)) head = false;
      if (previous === 'title' && (head || SIKU_BANNER.test(above)) && (SIKU_CATEGORY.test(content) || /提要[\s\u3000]*$/u.test(next.get(line.number) ?? ''))) head = true;
      if (head && /提要[\s\u3000]*$/u.test(content)) return { blocks: [paragraph(src, 'front', line.start, line.end, conv?.inline)], kind: 'title' };
      if (CHAPTER_LINE.test(content)) {
        head = false;
        return heads(line, line.start, line.end);
      }
      if (head) return { blocks: [paragraph(src, 'front', line.start, line.end, conv?.inline)], kind: 'title' };
      if (SECTION_LABEL.test(content)) return null;
      // 《楔子》, 《第一折》: a piece's or an act's name alone in 《》; ○宫殿规制: a section.
      const marked = /^(?:《([^《》]{1,10})》|[○◎]([^\s，。；：、！？「」『』○]{1,12}))$/u.exec(content);
      if (marked) {
        const at = line.start + (marked[1] !== undefined ? 1 : 1);
        return heads(line, at, at + (marked[1] ?? marked[2]).length);
      }
      // 鄉射禮    嘉禮十四: a part heading with its place in the 五禮.
      if ((previous === 'byline' || previous === 'title') && hasSpace(content) && bareLength(content) <= 16 && !content.includes('【')) {
        return heads(line, line.start, line.end, 1);
      }
      // A short line over a long one, no phrase in it (一宇宇者道也, 重过圣女祠, 天类, 鹿中): a heading, as the line's
      // length alone says (said, with its count).
      const length = bareLength(content);
      if (!hasSpace(content) && /^\p{Script=Han}/u.test(content) && !/[，。；：、！？「」『』,.;:!?]/u.test(content) && length >= 1 && (length <= 4 || (length <= 16 && bareLength(next.get(line.number) ?? '') >= Math.max(12, 2 * length)))) {
        if (length > 4) {
          byLength++;
          firstByLength ??= line;
        }
        return heads(line, line.start, line.end);
      }
      return null;
    },
  }, conv?.inline);
  if (firstByLength) src.report('info', `${byLength} short lines over longer ones read as headings (the line's length alone says so): a section's, a poem's or an entry's name`, firstByLength.start, firstByLength.end, 'heading-by-length');
  return result;
}

export function importWikisource(src: Source, fallbackTitle: string): ImportResult {
  return importCorpus(src, fallbackTitle, {
    skip: (line, seenContent) => !seenContent && WIKISOURCE_CHROME.test(line.content),
    line(line, previous) {
      const { content } = line;
      if (isWholeLineNote(content)) {
        // Commentary on the line before: the brackets are markers, the layer says what it is.
        // It leaves `previous` as it was, so that a heading after a heading's commentary is still seen.
        return { blocks: [paragraph(src, 'commentary', line.start + 1, line.end - 1, undefined, 'zhu')], kind: previous };
      }
      if (SECTION_LABEL.test(content)) return null;
      if (/提要$/u.test(content) && previous === 'title') {
        return { blocks: [paragraph(src, 'title', line.start, line.end)], kind: 'title' };
      }
      if (WIKISOURCE_HEADING.test(content) && ['byline', 'heading', 'label', 'title'].includes(previous)) {
        const depth = /^(?:[嘉賓賔宾軍军凶吉]礼|[嘉賓賔宾軍军凶吉]禮|逸[礼禮]|五[礼禮]之[仪儀])$/u.test(content) ? 1 : 2;
        return { blocks: [heading(src, depth, line.start, line.end)], kind: 'heading' };
      }
      return null;
    },
  });
}
