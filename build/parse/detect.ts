/**
 * Which importer reads a source: the format whose signs (formats.ts) weigh
 * most in the head of the text, among the formats for its kind of file
 * (Markdown or plain text). `--format` or `format:` in edition.yaml overrides it.
 */
import type { SourceFormat } from '../tree/edition.js';
import { FORMATS } from './formats.js';

export function detectFormat(path: string, text: string): SourceFormat {
  return detectFormatScored(path, text).format;
}

/** A detection and how sure it is: the winner's signs against the runner-up's. */
export interface Detection {
  format: SourceFormat;
  /** The weight of the signs found, winner's. */
  score: number;
  /** The next format's score (0 when no other format's signs are there). */
  runnerUp: number;
  /** 0 … 1: (score − runnerUp) / score, 0 when nothing was found and the default was taken. */
  confidence: number;
}

export function detectFormatScored(path: string, text: string): Detection {
  const head = text.slice(0, 20000).replace(/\r\n?/g, '\n');
  const markdown = /\.(md|markdown)$/i.test(path);
  let best: SourceFormat = markdown ? 'markdown' : 'daizhige';
  let bestScore = 0;
  let runnerUp = 0;
  for (const row of FORMATS) {
    if (Boolean(row.extensions) !== markdown) continue;
    let score = 0;
    for (const sign of row.signs) if (sign.pattern.test(head)) score += sign.weight;
    if (score > bestScore) {
      runnerUp = bestScore;
      best = row.format;
      bestScore = score;
    } else if (score > runnerUp) runnerUp = score;
  }
  const confidence = bestScore > 0 ? Math.round(((bestScore - runnerUp) / bestScore) * 100) / 100 : 0;
  // docsify pages indent paragraphs with full-width spaces and carry no {tags} or # volumes.
  if (markdown && (best === 'docsify' || best === 'markdown')) best = /^\u3000/mu.test(head) && !/^#\s/mu.test(head) ? 'docsify' : 'markdown';
  return { format: best, score: bestScore, runnerUp, confidence };
}
