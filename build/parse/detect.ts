/**
 * Which importer reads a source: the format whose signs (formats.ts) weigh
 * most in the head of the text, among the formats for its kind of file
 * (Markdown or plain text). `--format` or `format:` in edition.yaml overrides it.
 */
import type { SourceFormat } from '../tree/edition.js';
import { FORMATS } from './formats.js';

export function detectFormat(path: string, text: string): SourceFormat {
  const head = text.slice(0, 20000).replace(/\r\n?/g, '\n');
  const markdown = /\.(md|markdown)$/i.test(path);
  let best: SourceFormat = markdown ? 'markdown' : 'daizhige';
  let bestScore = 0;
  for (const row of FORMATS) {
    if (Boolean(row.extensions) !== markdown) continue;
    let score = 0;
    for (const sign of row.signs) if (sign.pattern.test(head)) score += sign.weight;
    if (score > bestScore) {
      best = row.format;
      bestScore = score;
    }
  }
  // docsify pages indent paragraphs with full-width spaces and carry no {tags} or # volumes.
  if (markdown && (best === 'docsify' || best === 'markdown')) return /^\u3000/mu.test(head) && !/^#\s/mu.test(head) ? 'docsify' : 'markdown';
  return best;
}
