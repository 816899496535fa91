/**
 * Volumes → book: book page numbers, and a blank verso page after a volume
 * that ends on a recto, so that every volume starts on a recto (an odd book
 * page). Volume layouts are not changed (a rebuild may reuse them): pages are
 * copied.
 */
import type { Root } from '../tree/types.js';
import type { BookLayout, Page, PageSpec, VolumeLayout } from './types.js';
import { layoutVolume } from './engine.js';

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

/** Lays out every volume of the tree and joins them into a book. */
export function layoutBook(tree: Root, spec: PageSpec): BookLayout {
  return assembleBook(
    spec,
    tree.children.map((volume, i) => layoutVolume(volume, i, spec)),
  );
}
