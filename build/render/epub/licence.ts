/**
 * The fonts' page (字型): each embedded font by its family, with the
 * copyright notice and licence its own name table records (kept in the
 * subset, build/fonts/licence.ts), and the SIL Open Font License's text
 * when a font is under it — the OFL asks that every copy of the fonts come
 * with it.
 */
import { fontLicence, isOfl } from '../../fonts/licence.js';
import type { LoadedFont } from '../../fonts/types.js';
import { EPUB_ASSETS } from './assets.js';
import { escapeXml } from './xhtml.js';

export const FONTS_PAGE_TITLE = '字型';

/** The page for the fonts a book embeds (their records are the same in the font and in its subset). */
export function fontsPage(fonts: readonly Pick<LoadedFont, 'family' | 'bytes'>[]): string {
  const licences = fonts.map((f) => ({ family: f.family, ...fontLicence(f.bytes) }));
  const items = licences.map((l) => {
    const parts = [
      `<dt lang="en">${escapeXml(l.family)}</dt>`,
      ...l.copyright.map((c) => `<dd lang="${/[\u3040-\u30ff]/u.test(c) ? 'ja' : 'en'}">${escapeXml(c)}</dd>`),
      l.licence ? `<dd lang="en">${escapeXml(l.licence)}</dd>` : `<dd>字型未記授權。</dd>`,
      ...(l.url ? [`<dd lang="en">${escapeXml(l.url)}</dd>`] : []),
    ];
    return parts.join('\n');
  });
  const ofl = licences.some(isOfl)
    ? [`<h2 id="ofl" lang="en">SIL Open Font License 1.1</h2>`, `<pre class="licence-text" lang="en">${escapeXml(EPUB_ASSETS.ofl.trim())}</pre>`]
    : [];
  return [
    `<section class="fonts" epub:type="colophon" role="doc-colophon" aria-labelledby="fonts-title">`,
    `<h1 id="fonts-title">${FONTS_PAGE_TITLE}</h1>`,
    `<p>本書所嵌字型（各取書中所用之字），及其字型檔所載之版權與授權：</p>`,
    `<dl class="font-licences">`,
    ...items,
    `</dl>`,
    ...ofl,
    `</section>`,
  ].join('\n');
}
