/**
 * Parse and transform, remembered for rebuilds: a source file whose bytes
 * did not change is not parsed again, and a volume whose parsed text (with
 * the corrections that reach it) did not change is not transformed again —
 * a correction's rebuild redoes its volume only. Results are kept in memory
 * for the session (watch, or several builds in one process), each under a
 * hash of everything it depends on; messages are kept with them and given
 * again. (A one-shot `diaoban build` parses anew: ~0.3 s of its start.)
 *
 * The trees are the pure stages' own (parse/, transform/): the same
 * functions run, volume by volume, in the same order; only the charmap's
 * messages are made over the whole tree, as transformTree makes them.
 */
import type { VFile } from 'vfile';
import type { EditionConfig, SourceFormat } from '../tree/edition.js';
import type { Root, Volume } from '../tree/types.js';
import { parseSource, type ParsedSource } from '../parse/index.js';
import { applyCharmap } from '../transform/charmap.js';
import { applyCorrections, convertCorrectionsOld } from '../transform/corrections.js';
import type { TransformOptions } from '../transform/index.js';
import { classifyLayers } from '../transform/layers.js';
import { reporterFor } from '../transform/report.js';
import { convertScript } from '../transform/script.js';
import { hashKey, toolVersion, type BuildCache } from './cache.js';

export interface LoadMemo {
  parseEdition(config: EditionConfig, files: VFile[], format?: SourceFormat): { tree: Root; sources: ParsedSource[] };
  transformTree(parsed: Root, config: EditionConfig, options: TransformOptions): Root;
}

interface StoredMessage {
  reason: string;
  place?: unknown;
  ruleId?: string;
  fatal?: boolean | null;
}

interface ParseEntry {
  format: SourceFormat;
  encoding: string;
  volumes: Volume[];
  messages: StoredMessage[];
}

function keep(file: VFile, from: number): StoredMessage[] {
  return file.messages.slice(from).map((m) => ({ reason: m.reason, place: m.place, ruleId: m.ruleId ?? undefined, fatal: m.fatal }));
}

function replay(file: VFile, messages: readonly StoredMessage[]): void {
  for (const s of messages) {
    const m = file.message(s.reason, { place: s.place as never, ruleId: s.ruleId, source: 'diaoban' });
    m.fatal = s.fatal ?? undefined;
  }
}

const memos = new WeakMap<BuildCache, LoadMemo>();

/** The memo of a build cache (one per cache, so that a clean cache starts from nothing). */
export function loadMemo(cache: BuildCache): LoadMemo {
  let memo = memos.get(cache);
  if (!memo) memos.set(cache, (memo = createLoadMemo()));
  return memo;
}

function createLoadMemo(): LoadMemo {
  const parsed = new Map<string, ParseEntry>();
  const transformed = new Map<string, Volume>();
  /** Keys of a parsed volume, by the volume (parsed volumes are shared between loads, never changed). */
  const volumeKeys = new WeakMap<Volume, string>();
  const parseKey = (config: EditionConfig, file: VFile, format?: SourceFormat): string =>
    hashKey('parse', toolVersion(), file.path ?? '', file.value instanceof Uint8Array ? file.value : String(file.value ?? ''), config.meta.title, format ?? config.format ?? '');

  return {
    parseEdition(config, files, format) {
      const sources = files.map((file): ParsedSource => {
        const key = parseKey(config, file, format);
        const known = parsed.get(key);
        if (known) {
          replay(file, known.messages);
          return { file, format: known.format, encoding: known.encoding, volumes: known.volumes };
        }
        const before = file.messages.length;
        const source = parseSource(file, config.meta.title, format ?? config.format);
        const entry: ParseEntry = { format: source.format, encoding: source.encoding, volumes: source.volumes, messages: keep(file, before) };
        parsed.set(key, entry);
        return source;
      });
      return { tree: { type: 'root', edition: config.meta, children: sources.flatMap((s) => s.volumes) }, sources };
    },

    transformTree(parsedTree, config, options) {
      const from = config.meta.sourceScript ?? config.meta.script;
      const to = config.meta.script;
      const tree: Root = { ...parsedTree, children: [...parsedTree.children] };
      // Volumes are copied before a correction changes them; the others stay shared.
      const owned = new Set<number>();
      const own = (i: number): boolean => {
        if (owned.has(i)) return false;
        tree.children[i] = structuredClone(tree.children[i]);
        owned.add(i);
        return true;
      };
      if (options.corrections) applyCorrections(tree, options.corrections, { from, to }, own);
      const salt = hashKey('transform', toolVersion(), JSON.stringify(config.layerRules), JSON.stringify(config.charmap), from, to, JSON.stringify(parsedTree.layers ?? []));
      tree.children = tree.children.map((volume, i) => {
        let id = owned.has(i) ? undefined : volumeKeys.get(volume);
        if (!id) {
          id = hashKey(JSON.stringify(volume));
          if (!owned.has(i)) volumeKeys.set(volume, id);
        }
        const key = hashKey(salt, id);
        const known = transformed.get(key);
        if (known) return known;
        const mine = owned.has(i) ? volume : structuredClone(volume);
        const one: Root = { ...tree, children: [mine] };
        classifyLayers(one, config.layerRules);
        convertCorrectionsOld(convertScript(one, from, to), from, to);
        transformed.set(key, one.children[0]);
        return one.children[0];
      });
      // The charmap's messages count over the whole book (as in transformTree); it reads glyphs only, which script conversion leaves alone.
      applyCharmap(tree, config.charmap, reporterFor(options.files ?? []));
      for (const map of [parsed, transformed] as const) if (map.size > 256) map.clear();
      return tree;
    },
  };
}
