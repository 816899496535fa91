/**
 * Which importer reads a source: from its name and a look at its text.
 * `--format` or `format:` in edition.yaml overrides it.
 */
import type { SourceFormat } from '../tree/edition.js';

export function detectFormat(path: string, text: string): SourceFormat {
  const head = text.slice(0, 20000);
  if (/\.(md|markdown)$/i.test(path)) {
    // docsify pages indent paragraphs with full-width spaces and carry no {tags} or # volumes.
    return /^\u3000/mu.test(head) && !/^#\s/mu.test(head) ? 'docsify' : 'markdown';
  }
  if (/中[华華]文[库庫]/u.test(head.slice(0, 500)) || /^〈[^\n]*〉$/mu.test(head)) return 'wikisource';
  if (/^【附[注註]】/mu.test(head)) return 'verse';
  return 'daizhige';
}
