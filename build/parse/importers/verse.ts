/**
 * Importer for verse + commentary text (六藝綱目): verse lines (the main text)
 * each followed by unbracketed commentary paragraphs; 【附注】 opens a
 * supplementary layer; ○ separates glosses inside commentary.
 *
 * Which paragraph is verse and which is commentary is not marked in the
 * source: `classifyVerseParagraph` scores the signs (see there). Where it is
 * wrong, `diaoban import` writes the text as Markdown, where an editor marks
 * commentary explicitly (`> `).
 */
import type { Block } from '../../tree/types.js';
import { BYLINE, VolumeBuilder, contentLines, heading, paragraph, textWithLabels } from '../blocks.js';
import type { Source } from '../source.js';
import type { ImportResult } from './corpus.js';
import { append } from '../../tree/append.js';

const FUZHU_LABEL = /^【附[注註]】/u;
const SCHOLAR = /^(?:\p{Script=Han}{1,2}氏|剛中|刚中|朱子|程子|張子|张子|張南軒|张南轩|陳北溪|陈北溪|周禮注|周礼注|說文|説文|说文|爾雅|尔雅|鄭注|郑注)曰?/u;
const GLOSS = /^\p{Script=Han}{1,3}?(?:者|也|音|俗作|古作|本作|小篆|一作|或作|亦作|通作|\p{Script=Han}{2}[反切])/u;
const VARIANT = /^(?:俗作|古作|本作|或作|一作|亦作|通作)/u;
const FANQIE = /\p{Script=Han}{2}[反切]/u;

/** The paragraph without its notes and Private Use Area characters (which stand for unknown words). */
function bare(content: string): string {
  let out = '';
  let inNote = 0;
  for (const ch of content) {
    if (ch === '【') inNote++;
    else if (ch === '】' && inNote > 0) inNote--;
    else if (inNote === 0 && !(ch >= '\uE000' && ch <= '\uF8FF')) out += ch;
  }
  return out;
}

/**
 * Commentary or verse? Positive scores mean commentary. The signs: ○ (only
 * commentary separates glosses), a gloss of a word of the verse line before
 * (朝者…, 禴薄也, 槱音酉) or of its spelling (俗作…), a closing 也, a scholar quoted at the head (剛中曰, 許氏曰),
 * 反切, length (verse lines are short and in four-character phrases), a
 * stanza parallel to the verse before (the same first four characters),
 * and alternation with the paragraph before.
 */
export function classifyVerseParagraph(content: string, previousVerse: string, previousWasVerse: boolean): 'verse' | 'commentary' {
  const text = bare(content);
  const length = Array.from(text).length;
  let score = 0;
  if (text.includes('○')) score += 3;
  if (GLOSS.test(text) && previousVerse.includes(text[0])) score += 3;
  if (VARIANT.test(text)) score += 3;
  if (text.endsWith('也')) score += 1;
  if (SCHOLAR.test(text)) score += 3;
  if (FANQIE.test(text)) score += 2;
  if (length > 40) score += 2;
  if (length > 60) score += 2;
  if (length <= 32 && length % 4 === 0) score -= 2;
  // A stanza parallel to the verse before it opens with the same four characters (射自左膘…上殺, 射自左膘…次殺).
  if (previousWasVerse && length % 4 === 0 && Array.from(text).slice(0, 4).join('') === Array.from(previousVerse).slice(0, 4).join('')) score -= 4;
  score += previousWasVerse ? 1 : -1;
  return score > 1 ? 'commentary' : 'verse';
}

export function importVerse(src: Source, fallbackTitle: string): ImportResult {
  const builder = new VolumeBuilder(src);
  const blocks: Block[] = [];
  let previousVerse = '';
  let previousWasVerse = false;
  let inHead = true;
  for (const line of contentLines(src.text)) {
    const { content } = line;
    if (inHead && BYLINE.test(content)) {
      blocks.push(paragraph(src, 'byline', line.start, line.end));
      continue;
    }
    inHead = false;
    if (FUZHU_LABEL.test(content)) {
      const labelLength = content.indexOf('】') + 1;
      const p = paragraph(src, 'commentary', line.start + labelLength, line.end, undefined, 'fuzhu');
      // The source prints the label: it is kept (not text), for the print and the EPUB to show.
      p.label = content.slice(1, labelLength - 1);
      blocks.push(p);
      continue;
    }
    const text = bare(content);
    if (Array.from(text).length <= 4 && !text.includes('○')) {
      const depth = /[纲綱]领|[綱纲]領|[条條]目/u.test(text) ? 1 : 2;
      blocks.push(heading(src, depth, line.start, line.end));
      previousVerse = '';
      previousWasVerse = false;
      continue;
    }
    if (/^以上/u.test(text)) {
      blocks.push(paragraph(src, 'text', line.start, line.end));
      previousWasVerse = false;
      continue;
    }
    if (classifyVerseParagraph(content, previousVerse, previousWasVerse) === 'commentary') {
      blocks.push(paragraph(src, 'commentary', line.start, line.end, undefined, 'zhu'));
      previousWasVerse = false;
    } else {
      append(blocks, textWithLabels(src, line.start, line.end, 'text'));
      previousVerse = text;
      previousWasVerse = true;
    }
  }
  for (const block of blocks) builder.add(block);
  return { volumes: builder.finish(fallbackTitle) };
}
