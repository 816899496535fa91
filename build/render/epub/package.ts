/**
 * epub-gen-memory, made deterministic. The library writes a random UUID, the
 * clock's time on every zip entry and fetches fonts by URL; this subclass
 * sets the identifier, writes the font bytes it is given, and zips the
 * library's entries itself (zip.ts) with one fixed date. `mimetype` stays
 * the first, stored entry.
 */
import { createHash } from 'node:crypto';
import { EPub, type Chapter, type Options } from 'epub-gen-memory';
import { writeZip, writeZipWithStore, type DeflatedStore } from './zip.js';

export interface FixedParts {
  identifier: string;
  /** Date for every zip entry. */
  date: Date;
  /** Font bytes, in the order of `options.fonts`. */
  fontBytes: readonly Uint8Array[];
  /** Images the chapters show (seals), by their href under OEBPS/. */
  images?: ReadonlyArray<{ href: string; mediaType: string; bytes: Uint8Array }>;
}

/** What a build keeps for the next, in a new process too (the engine's build cache): chapter documents and compressed entries. */
export interface PackageStore extends DeflatedStore {
  get(kind: 'epub-chapter' | 'epub-deflated', key: string): Promise<Uint8Array | undefined>;
  put(kind: 'epub-chapter' | 'epub-deflated', key: string, bytes: Uint8Array): Promise<void>;
}

class DeterministicEpub extends EPub {
  private readonly fixed: FixedParts;
  private readonly store: PackageStore | undefined;

  constructor(options: Options, content: readonly Chapter[], fixed: FixedParts, store?: PackageStore) {
    super(options, content);
    this.fixed = fixed;
    this.store = store;
    this.uuid = fixed.identifier;
    // The library met our images while reading the chapters and named them at random: give them our names back.
    // A remembered chapter (buildPackage) comes empty, so the library meets its images in none: the manifest lists ours all the same.
    const met = new Map(this.images.map((image) => [image.url, `images/${image.id}.${image.extension}`]));
    for (const [given, href] of met) if (href !== given) for (const chapter of this.content) chapter.content = chapter.content.split(href).join(given);
    this.images = (fixed.images ?? []).map((im) => {
      const file = im.href.replace(/^images\//, '');
      return { url: im.href, id: file.replace(/\.[^.]*$/, ''), extension: file.slice(file.lastIndexOf('.') + 1), mediaType: im.mediaType };
    });
  }

  protected override async downloadAllImages(): Promise<void> {
    const oebps = this.zip.folder('OEBPS')!;
    for (const im of this.fixed.images ?? []) oebps.file(im.href, im.bytes);
  }

  protected override async downloadAllFonts(): Promise<void> {
    if (!this.options.fonts.length) return;
    const dir = this.zip.folder('OEBPS')!.folder('fonts')!;
    (this.options.fonts as Array<{ filename: string }>).forEach((font, i) => dir.file(font.filename, this.fixed.fontBytes[i]));
  }

  /** The library's entries, in its order, zipped with Node's zlib (zip.ts: faster than jszip's pako, and per-entry reuse). */
  async build(replace: ReadonlyMap<string, Uint8Array> = new Map(), made?: Map<string, Uint8Array>): Promise<Uint8Array> {
    await this.render();
    const entries = await Promise.all(
      Object.values(this.zip.files).map(async (entry) => {
        if (entry.dir) return { name: entry.name };
        const data = replace.get(entry.name) ?? (await entry.async('uint8array'));
        if (made?.has(entry.name)) made.set(entry.name, data);
        return { name: entry.name, data, store: entry.name === 'mimetype' };
      }),
    );
    return this.store ? writeZipWithStore(entries, this.fixed.date, this.store) : writeZip(entries, this.fixed.date);
  }
}

/**
 * Chapter documents the library made, by what they were made from: the
 * library parses, re-serialises and templates every chapter on every build,
 * which a rebuild after a correction need do for its volume only. The
 * package documents (OPF, nav, NCX) read chapters' titles and file names,
 * not their content, so a remembered chapter is given to the library empty
 * and its document put back.
 */
const chapterDocuments = new Map<string, Uint8Array>();
let rememberedBytes = 0;

/** Forgets the remembered chapter documents (memory; the output is the same either way). */
export function forgetChapterDocuments(): void {
  chapterDocuments.clear();
  rememberedBytes = 0;
}

function chapterKey(options: Options, chapter: Chapter): string {
  const o = options as Options & Record<string, unknown>;
  return createHash('sha256')
    .update(JSON.stringify([o.chapterXHTML, o.lang, o.prependChapterTitles, o.version, chapter]))
    .digest('hex');
}

/**
 * Runs epub-gen-memory with fixed identifier, fonts and dates; returns the EPUB bytes.
 * With a store, chapter documents and compressed entries of earlier builds (other processes' too) are used again.
 */
export async function buildPackage(options: Options, chapters: readonly Chapter[], fixed: FixedParts, store?: PackageStore): Promise<Uint8Array> {
  const keys = chapters.map((c) => chapterKey(options, c));
  const stored = new Map<string, Uint8Array>();
  if (store) {
    await Promise.all(
      keys.map(async (key, i) => {
        if (!chapters[i].filename || chapterDocuments.has(key)) return;
        const bytes = await store.get('epub-chapter', key);
        if (bytes) stored.set(key, bytes);
      }),
    );
  }
  const replace = new Map<string, Uint8Array>();
  const made = new Map<string, Uint8Array>();
  const given = chapters.map((chapter, i) => {
    const known = chapterDocuments.get(keys[i]) ?? stored.get(keys[i]);
    const name = `OEBPS/${chapter.filename}`;
    if (!known || !chapter.filename) {
      made.set(name, new Uint8Array(0));
      return chapter;
    }
    replace.set(name, known);
    return { ...chapter, content: '' };
  });
  const bytes = await new DeterministicEpub(options, given, fixed, store).build(replace, made);
  const puts: Array<Promise<void>> = [];
  chapters.forEach((chapter, i) => {
    const document = made.get(`OEBPS/${chapter.filename}`) ?? stored.get(keys[i]);
    if (!document?.byteLength) return;
    if (store && made.has(`OEBPS/${chapter.filename}`)) puts.push(store.put('epub-chapter', keys[i], document));
    if (chapterDocuments.has(keys[i])) return;
    if (rememberedBytes > 12 << 20) {
      chapterDocuments.clear();
      rememberedBytes = 0;
    }
    chapterDocuments.set(keys[i], document);
    rememberedBytes += document.byteLength;
  });
  await Promise.all(puts);
  return bytes;
}
