/**
 * epub-gen-memory, made deterministic. The library writes a random UUID, the
 * clock's time on every zip entry and fetches fonts by URL; this subclass
 * sets the identifier, writes the font bytes it is given and stamps every
 * zip entry with one fixed date before the library's own jszip generates the
 * archive (no re-zip needed). `mimetype` stays the first, stored entry.
 */
import { EPub, type Chapter, type Options } from 'epub-gen-memory';

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
    for (const entry of Object.values(this.zip.files)) entry.date = this.fixed.date;
    return this.zip.generateAsync({
      type: 'uint8array',
      mimeType: 'application/epub+zip',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
  }
}

/** Runs epub-gen-memory with fixed identifier, fonts and dates; returns the EPUB bytes. */
export function buildPackage(options: Options, chapters: readonly Chapter[], fixed: FixedParts): Promise<Uint8Array> {
  return new DeterministicEpub(options, chapters, fixed).build();
}
