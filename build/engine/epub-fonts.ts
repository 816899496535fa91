/**
 * The EPUB's font subsets, remembered: the same faces and the same set of
 * characters give the same subsets, so a rebuild whose text has no new
 * character does not subset again (HarfBuzz over 20–40 MB faces).
 */
import { assignCharacters, subsetFonts, type LoadedFont, type SubsetFont } from '../fonts/index.js';
import { hashKey, type BuildCache } from './cache.js';

type Stored = Omit<SubsetFont, 'bytes'> & { bytes: string };

const memories = new WeakMap<BuildCache, Map<string, SubsetFont[]>>();

/** `digests`: the fonts' digests (fonts-memo.ts fontDigest), in the order of the stack the subsetter is given. */
export function epubSubsetter(cache: BuildCache | undefined, digests: readonly string[]): (fonts: readonly LoadedFont[], text: string) => Promise<SubsetFont[]> {
  let memory = cache ? memories.get(cache) : undefined;
  if (cache && !memory) memories.set(cache, (memory = new Map()));
  return async (fonts, text) => {
    // What each face must draw decides the subsets: their code points, not the text's order (the key's name changes when
    // what a subset keeps does: licences, since issue 24).
    const parts = assignCharacters(fonts, text);
    const key = hashKey('epub-fonts-licences', ...digests, ...parts);
    const known = memory?.get(key) ?? (await cache?.getJson<Stored[]>('epub-fonts', key))?.map((f) => ({ ...f, bytes: new Uint8Array(Buffer.from(f.bytes, 'base64')) }));
    const subsets = known ?? (await subsetFonts(fonts, text));
    if (!known) await cache?.putJson('epub-fonts', key, subsets.map((f): Stored => ({ family: f.family, format: f.format, mediaType: f.mediaType, text: f.text, bytes: Buffer.from(f.bytes).toString('base64') })));
    if (memory && memory.size > 16) memory.clear();
    memory?.set(key, subsets);
    return subsets;
  };
}
