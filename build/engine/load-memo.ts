/**
 * Parse and transform, remembered for rebuilds: a source file whose bytes
 * did not change is not parsed again, and a volume whose parsed text (with
 * the corrections that reach it) did not change is not transformed again —
 * a correction's rebuild redoes its volume only. Results are kept in memory
 * for the session (watch, or several builds in one process) and in the
 * build cache on disk: the parsed sources (kind `parse`), each volume's
 * commentator counts and 集注 split (`classify`, `split`: what the book's
 * decision needs of it) and the converted volumes (`transform`), so that a
 * new `diaoban build` after a correction parses, classifies and converts
 * nothing but what changed. Each is kept under a hash of everything it
 * depends on; messages are kept with them and given again.
 *
 * The trees are the pure stages' own (parse/, transform/): the same
 * functions run, volume by volume, in transformTree's order. What is decided
 * over the whole book is decided over the whole book: which commentators a
 * 集注 names (from counts remembered per volume) and the charmap's messages.
 */
import type { VFile } from 'vfile';
import type { EditionConfig, SourceFormat } from '../tree/edition.js';
import type { Root, Volume } from '../tree/types.js';
import { parseEdition, parseSource, type ParsedSource, type ParseOptions } from '../parse/index.js';
import { applyCharmap } from '../transform/charmap.js';
import { addCounts, countCommentators, declareCommentators, decideCommentators, splitByDecision, type CommentatorCounts, type CommentatorSplit } from '../transform/commentators.js';
import { applyCorrections, convertCorrectionsOld } from '../transform/corrections.js';
import type { TransformOptions } from '../transform/index.js';
import { classifyLayers } from '../transform/layers.js';
import { reporterFor } from '../transform/report.js';
import { convertScript, convertTreeNames, prepareConversion, protectNames } from '../transform/script.js';
import { hashKey, keptTable, toolVersion, type BuildCache } from './cache.js';

export interface LoadMemo {
  parseEdition(config: EditionConfig, files: VFile[], format?: SourceFormat): { tree: Root; sources: ParsedSource[] };
  /** Async only to let the event loop turn between volumes (Ctrl-C is heard during a big book's load). */
  transformTree(parsed: Root, config: EditionConfig, options: TransformOptions): Promise<Root>;
}

interface StoredMessage {
  reason: string;
  place?: unknown;
  ruleId?: string;
  fatal?: boolean | null;
}

interface ParseEntry {
  source: Omit<ParsedSource, 'file'>;
  messages: StoredMessage[];
}

/**
 * A volume with its layers told apart, and its commentator counts (the book's
 * 集注 decision adds them up). The volume is made when first asked for: a
 * new process that finds the counts and the converted volume on disk does
 * not classify it at all.
 */
interface Classified {
  volume: () => Volume;
  key: string;
  counts: CommentatorCounts;
}

/** A volume split by the book's 集注 decision (made when first asked for), and what the split did in it. */
interface Split {
  volume: () => Volume;
  key: string;
  split: CommentatorSplit | null;
}

/** A value worked out once, when first asked for. */
function once<T>(work: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: work() }).value;
}

/** A volume as transformTree leaves it (but the charmap). */
interface Transformed {
  volume: Volume;
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

/** A turn of the event loop: a signal (Ctrl-C) is handled between two volumes' work. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const memos = new WeakMap<BuildCache, LoadMemo>();

/** The memo of a build cache (one per cache, so that a clean cache starts from nothing). */
export function loadMemo(cache: BuildCache): LoadMemo {
  let memo = memos.get(cache);
  if (!memo) memos.set(cache, (memo = createLoadMemo(cache)));
  return memo;
}

/** Entries kept per map: a session's edition, with room for a few versions of each volume. */
const MAX_ENTRIES = 256;

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, value);
  return value;
}

function createLoadMemo(cache?: BuildCache): LoadMemo {
  const parsed = new Map<string, ParseEntry>();
  const classified = new Map<string, Classified>();
  const split = new Map<string, Split>();
  const transformed = new Map<string, Transformed>();
  /** Keys of a parsed volume, by the volume (parsed volumes are shared between loads, never changed). */
  const volumeKeys = new WeakMap<Volume, string>();

  const parseOne = (file: VFile, fallbackTitle: string, options: ParseOptions): ParsedSource => {
    const bytes = file.value instanceof Uint8Array ? file.value : String(file.value ?? '');
    const key = hashKey('parse', toolVersion(), file.path ?? '', bytes, fallbackTitle, JSON.stringify(options));
    const known = parsed.get(key) ?? cache?.getJsonSync<ParseEntry>('parse', key);
    if (known) {
      remember(parsed, key, known);
      replay(file, known.messages);
      return { file, ...known.source };
    }
    const before = file.messages.length;
    const source = parseSource(file, fallbackTitle, options);
    const { file: _file, ...rest } = source;
    const entry = { source: rest, messages: keep(file, before) };
    cache?.putJsonSync('parse', key, entry);
    remember(parsed, key, entry);
    return source;
  };

  return {
    parseEdition(config, files, format) {
      return parseEdition(config, files, format, parseOne);
    },

    async transformTree(parsedTree, config, options) {
      const from = config.meta.sourceScript ?? config.meta.script;
      const to = config.meta.script;
      const tree: Root = { ...parsedTree, children: [...parsedTree.children], layers: parsedTree.layers ? [...parsedTree.layers] : undefined };
      if (!tree.layers) delete tree.layers;
      // Volumes are copied before a correction changes them; the others stay shared.
      const owned = new Set<number>();
      const own = (i: number): boolean => {
        if (owned.has(i)) return false;
        tree.children[i] = structuredClone(tree.children[i]);
        owned.add(i);
        return true;
      };
      if (options.corrections?.length && from !== to) {
        // The corrections convert their texts to compare them as printed: the converter is made between turns of
        // the event loop (Chromium, starting meanwhile, is answered; a signal is heard).
        await turn();
        prepareConversion(from, to);
        await turn();
      }
      if (options.corrections) applyCorrections(tree, options.corrections, { from, to, choices: config.conversion }, own);
      const salt = hashKey('transform', toolVersion(), JSON.stringify(config.layerRules), JSON.stringify(config.charmap), from, to, JSON.stringify(config.conversion ?? null), options.witness?.digest ?? '', JSON.stringify(parsedTree.layers ?? []));
      // What a volume's stages see of the book (not its volumes: a remembered stage keeps no other volume alive).
      const book: Root = { ...tree, children: [] };
      // Each volume's counts and split, kept on disk in one table a book (a work in a thousand 卷 is not a thousand files).
      const counts = keptTable<CommentatorCounts>(cache, 'classify', hashKey('classify', salt, tree.edition.id));
      const splitsKept = keptTable<CommentatorSplit>(cache, 'split', hashKey('split', salt, tree.edition.id));
      // 1. Layers told apart, a volume at a time.
      function classifyOne(volume: Volume, i: number): Classified {
        let id = owned.has(i) ? undefined : volumeKeys.get(volume);
        if (!id) {
          id = hashKey(JSON.stringify(volume));
          if (!owned.has(i)) volumeKeys.set(volume, id);
        }
        const key = hashKey(salt, id);
        const known = classified.get(key);
        if (known) {
          if (!counts.get(key)) counts.set(key, known.counts);
          return known;
        }
        const classify = once((): Volume => {
          const one: Root = { ...book, children: [owned.has(i) ? volume : structuredClone(volume)] };
          classifyLayers(one, config.layerRules);
          return one.children[0];
        });
        // The counts are all the book's decision needs of a volume: kept on disk, the volume is classified only if it must be converted.
        return remember(classified, key, { volume: classify, key, counts: counts.get(key) ?? counts.set(key, countCommentators(classify())) });
      }
      const stage1: Classified[] = [];
      for (const [i, volume] of tree.children.entries()) {
        await turn();
        stage1.push(classifyOne(volume, i));
      }
      counts.keep(stage1.map((c) => c.key));
      // 2. The 集注 decision over the whole book, then each volume split by it.
      const decision = decideCommentators(addCounts(stage1.map((c) => c.counts)));
      const stage2 = stage1.map((c): Split => {
        const key = hashKey(c.key, JSON.stringify(decision));
        const known = split.get(key);
        if (known) {
          if (known.split && !splitsKept.get(key)) splitsKept.set(key, known.split);
          return known;
        }
        // No 集注: nothing to split, and nothing changes the classified volume (the conversion works on a copy).
        if (!decision) return remember(split, key, { volume: c.volume, key, split: null });
        // The classified volume stays as it is (another decision may come): the split works on a copy.
        let made: CommentatorSplit | undefined;
        const volume = once((): Volume => {
          const one: Root = { ...book, children: [structuredClone(c.volume())] };
          made = splitByDecision(one, decision);
          return one.children[0];
        });
        let splitDone = splitsKept.get(key);
        if (!splitDone) {
          volume();
          splitDone = splitsKept.set(key, made!);
        }
        return remember(split, key, { volume, key, split: splitDone });
      });
      if (decision) splitsKept.keep(stage2.map((c) => c.key));
      const splits = stage2.map((t) => t.split ?? { counts: [] });
      // 3. Each volume converted, as transformTree converts: after the commentators are declared, so that their names are kept (○咸曰).
      const declared: Root = { ...tree, layers: tree.layers ? [...tree.layers] : undefined };
      if (decision) declareCommentators(declared, splits, decision, () => undefined);
      const layersKey = JSON.stringify(declared.layers ?? []);
      const stage3: Transformed[] = [];
      for (const c of stage2) {
        const key = hashKey(c.key, layersKey);
        const known = transformed.get(key) ?? cache?.getJsonSync<Transformed>('transform', key);
        if (known) {
          stage3.push(remember(transformed, key, known));
          continue;
        }
        await turn();
        const one: Root = { ...declared, children: [structuredClone(c.volume())] };
        convertCorrectionsOld(convertScript(one, from, to, config.conversion, { witness: options.witness }), from, to, config.conversion);
        const made = { volume: one.children[0] };
        cache?.putJsonSync('transform', key, made);
        stage3.push(remember(transformed, key, made));
      }
      tree.children = stage3.map((t) => t.volume);
      const report = reporterFor(options.files ?? []);
      // The charmap's messages count over the whole book (as in transformTree); it reads glyphs only, which the split and the conversion leave alone.
      applyCharmap(tree, config.charmap, report);
      if (decision) declareCommentators(tree, splits, decision, report);
      convertTreeNames(tree, from, to, protectNames(tree, config.conversion));
      return tree;
    },
  };
}
