/** The PDF's document metadata, as the edition gives it (a module of its own: the up-to-date check reads it before the renderer loads). */
import type { EditionMeta } from '../../tree/types.js';

export interface PdfMeta {
  title: string;
  author: string;
  subject?: string;
  /** BCP 47 (zh-Hant). */
  language: string;
}

export function pdfMeta(meta: EditionMeta): PdfMeta {
  return { title: meta.title, author: meta.author, subject: meta.description, language: meta.language };
}
