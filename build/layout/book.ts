/**
 * Volumes → book: book page numbers, and a blank verso page after a volume
 * that ends on a recto, so that every volume starts on a recto (an odd book
 * page). Volume layouts are not changed (a rebuild may reuse them): pages are
 * copied.
 */
import type { Root, Volume } from '../tree/types.js';
import { layoutSourceVolume, recordsSourceLines } from './source.js';
import type { BookLayout, Page, PageSpec, VolumeLayout } from './types.js';
import { layoutVolume, modeOf } from './engine.js';
import { plainText } from './flatten.js';
import { punctuationOf } from './spec.js';

function blankVerso(after: Page): Page {
  const pageInVolume = after.pageInVolume + 1;
  return {
    number: 0,
    pageInVolume,
    // The back of the leaf the volume ended on.
    leaf: after.leaf,
    side: 'verso',
    volume: after.volume,
    volumeTitle: after.volumeTitle,
    bookmarks: [],
    columns: [],
  };
}

/** Joins volume layouts (in order) into a book. */
export function assembleBook(spec: PageSpec, volumes: readonly VolumeLayout[]): BookLayout {
  let number = 1;
  const out: VolumeLayout[] = volumes.map((volume, i) => {
    const pages = volume.pages.map((page) => ({ ...page }));
    const last = pages[pages.length - 1];
    if (i < volumes.length - 1 && last && pages.length % 2 === 1) pages.push(blankVerso(last));
    for (const page of pages) page.number = number++;
    return { ...volume, pages };
  });
  return { spec, volumes: out };
}

/**
 * The spec with its punctuation resolved for an edition: the standard the
 * spec names, else the edition's (edition.yaml `punctuation`), else the
 * template's default for the edition's language and text; `adjacent` and
 * `hanging` from the edition when it sets them.
 */
export function resolvePunctuation(spec: PageSpec, tree: Root): PageSpec {
  const p = punctuationOf(spec);
  const setting = tree.edition.punctuation ?? {};
  const text = (): string => tree.children.flatMap((v) => v.children.map((b) => plainText(b.children))).join('');
  const resolved: PageSpec = { ...spec, punctuation: { ...p, standard: p.standard === 'auto' ? (setting.standard ?? 'auto') : p.standard } };
  const standard = modeOf(resolved, text, tree.edition.language).standard;
  return {
    ...spec,
    punctuation: { standard, adjacent: setting.adjacent ?? p.adjacent, hanging: setting.hanging ?? p.hanging, kinsoku: setting.kinsoku ?? p.kinsoku ?? 'gb', grid: p.grid },
  };
}

/**
 * Lays out every volume of the tree and joins them into a book (whose spec
 * has the punctuation resolved). With `spec.source` a volume that records
 * its source's lines is set line for line (source.ts); one that does not is
 * laid out as usual, and says so.
 */
export function layoutBook(tree: Root, spec: PageSpec): BookLayout {
  const resolved = resolvePunctuation(spec, tree);
  return assembleBook(
    resolved,
    tree.children.map((volume, i) => layoutVolumeText(volume, i, resolved, tree.edition.language)),
  );
}

/** A volume's text: on the template's grid, or (`layout: source`) on the source's own lines and pages. */
export function layoutVolumeText(volume: Volume, i: number, spec: PageSpec, language?: string): VolumeLayout {
  return spec.source ? sourceOrGrid(volume, i, spec, language) : layoutVolume(volume, i, spec);
}

function sourceOrGrid(volume: Volume, i: number, spec: PageSpec, language: string | undefined): VolumeLayout {
  if (recordsSourceLines(volume)) return layoutSourceVolume(volume, i, spec, modeOf(spec, () => '', language));
  const grid = layoutVolume(volume, i, spec);
  grid.diagnostics = [
    { severity: 'warning', reason: `layout: source, but ${volume.title} records no source lines (Kanripo ¶): laid out on the template's grid`, ruleId: 'source-layout-none', position: volume.position },
  ];
  return grid;
}
