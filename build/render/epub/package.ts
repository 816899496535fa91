/**
 * epub-gen-memory, made deterministic. The library writes a random UUID, the
 * clock's time on every zip entry and fetches fonts by URL; this subclass
 * sets the identifier, writes the font bytes it is given, and zips the
 * library's entries itself (zip.ts) with one fixed date. `mimetype` stays
 * the first, stored entry.
 */
import { EPub, type Chapter, type Options } from 'epub-gen-memory';
import { writeZip } from './zip.js';

export interface FixedParts {
  identifier: string;
  /** Date for every zip entry. */
  date: Date;
  /** Font bytes, in the order of `options.fonts`. */
  fontBytes: readonly Uint8Array[];
}

class DeterministicEpub extends EPub {
  private readonly fixed: FixedParts;

  constructor(options: Options, content: readonly Chapter[], fixed: FixedParts) {
    super(options, content);
    this.fixed = fixed;
    this.uuid = fixed.identifier;
  }

  protected override async downloadAllFonts(): Promise<void> {
    if (!this.options.fonts.length) return;
    const dir = this.zip.folder('OEBPS')!.folder('fonts')!;
    (this.options.fonts as Array<{ filename: string }>).forEach((font, i) => dir.file(font.filename, this.fixed.fontBytes[i]));
  }

  async build(): Promise<Uint8Array> {
    await this.render();
    // The library's entries, in its order, zipped with Node's zlib (zip.ts: faster than jszip's pako, and per-entry reuse).
    const entries = await Promise.all(
      Object.values(this.zip.files).map(async (entry) =>
        entry.dir ? { name: entry.name } : { name: entry.name, data: await entry.async('uint8array'), store: entry.name === 'mimetype' },
      ),
    );
    return writeZip(entries, this.fixed.date);
  }
}

/** Runs epub-gen-memory with fixed identifier, fonts and dates; returns the EPUB bytes. */
export function buildPackage(options: Options, chapters: readonly Chapter[], fixed: FixedParts): Promise<Uint8Array> {
  return new DeterministicEpub(options, chapters, fixed).build();
}
