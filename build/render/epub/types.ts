import type { FontProvider, LoadedFont, SubsetFont } from '../../fonts/types.js';
import type { LayerId } from '../../tree/types.js';
import type { PageList } from './pages.js';
import type { VolumeDocument } from './xhtml.js';
import type { PackageStore } from './package.js';

export interface EpubOptions {
  /** Layers set as pop-up footnotes (noteref → aside); the others stay inline. */
  popupLayers?: readonly LayerId[];
  /** The font stack (first wins), already loaded, or a provider; no fonts are embedded when absent. */
  fonts?: readonly LoadedFont[] | FontProvider;
  /**
   * Publication date, ISO 8601 (2026-01-01 or a full timestamp). Used for
   * dc:date, dcterms:modified and every zip entry. Falls back to the
   * edition's `date`, then 2000-01-01 (never the clock).
   */
  date?: string;
  /** Corrections marked and listed in a 校勘記 at the end of each volume (edition.yaml collation; default true). */
  collation?: boolean;
  /** Subsets the fonts to the book's text (default: fonts/subset.ts subsetFonts); the CLI passes one that remembers. */
  subset?: (fonts: readonly LoadedFont[], text: string) => Promise<SubsetFont[]>;
  /**
   * Where the pages of an edition start (pages.ts: printPageList for the PDF's
   * pages, sourcePageList for the source edition's): pagebreak markers, the
   * nav's page-list and pageBreakSource. No page list when absent.
   */
  pageList?: PageList;
  /**
   * A volume's document, remembered: `render` makes it. The CLI passes one that
   * keeps the documents of the last build, so that a rebuild renders the
   * volumes that changed only (the output is the same either way).
   */
  volumeMemo?: (index: number, render: () => VolumeDocument) => VolumeDocument;
  /**
   * Chapter documents and compressed entries kept between builds (the CLI
   * passes its build cache): a new process rebuilding after a correction
   * templates and deflates the changed volume's documents only (the output
   * is the same either way).
   */
  store?: PackageStore;
  /**
   * Seals (印章, edition.yaml `seals:`) as the loader made them: each an image
   * after the text of the print page it is stamped on (the end of the book
   * for `last`, or without a page list), with its words as alt text.
   */
  seals?: readonly EpubSeal[];
  /** Called after each volume is rendered: i = 1…n. */
  onVolume?: (i: number, n: number) => void;
}

/** A seal for the EPUB: where the print has it, the words it bears, the image (a PNG: engine/load.ts rasterises an SVG). */
export interface EpubSeal {
  page: number | 'last';
  name?: string;
  data: { bytes: Uint8Array; type: 'png' | 'svg' };
}

/** An entry of the nested table of contents. */
export interface TocEntry {
  label: string;
  href: string;
  children: TocEntry[];
  /** Where in its document it points: the units before it (pages.ts counts them); absent: the document's start. */
  at?: number;
}
