/**
 * Simplified characters that stand for several traditional ones. The set is
 * OpenCC's own (opencc-js's dictionaries): every simplified character that
 * TSCharacters, read backwards, gives two or more traditional sources, plus
 * those that are also a traditional character of their own (the traditional
 * side of STPhrases or TSPhrases writes them: 卷 beside 捲, 咸 beside 鹹).
 * OpenCC picks one reading (by phrase where its dictionary knows the phrase);
 * for a classical text some picks are wrong as a rule (占 is not 佔, 云 "to
 * say" is not 雲), others depend on the edition (于 or 於, 為 or 爲): those
 * are the decisions below. `classical` is the reading taken when the edition
 * says nothing, where it is the better bet for classical text in general;
 * without it OpenCC's pick stands. An edition decides the rest in
 * edition.yaml (`conversion: keep / prefer / phrases`), and `check --script`
 * shows them all.
 */
import STCharacters from 'opencc-js/dict/STCharacters';
import STPhrases from 'opencc-js/dict/STPhrases';
import TSCharacters from 'opencc-js/dict/TSCharacters';
import TSPhrases from 'opencc-js/dict/TSPhrases';

export interface OneToMany {
  simplified: string;
  /** The traditional readings, the usual one first. */
  readings: string[];
  /** The reading for classical text when the edition does not choose; OpenCC's pick when absent. */
  classical?: string;
  /** Contexts that decide, before the default: the reading where `pattern` matches at the character. */
  contexts?: ReadonlyArray<{ pattern: RegExp; reading: string }>;
  why: string;
}

/** Our decisions for some of them (readings here add to OpenCC's, for characters it lists with one). */
export const DECISIONS: readonly OneToMany[] = [
  { simplified: '于', readings: ['於', '于'], why: '於 in most 四庫 texts; the 經 of 儀禮 writes 于 (keep: [于])' },
  { simplified: '为', readings: ['為', '爲'], why: '為 in 四庫 texts, 爲 in 康熙-style and 四部叢刊 editions (prefer: { 为: 為 })' },
  { simplified: '后', readings: ['後', '后'], contexts: [{ pattern: /(?<=[皇王天帝夫太元])后|后(?=[妃稷土夫])/u, reading: '后' }, { pattern: /后(?=[汉漢魏周唐晋晉梁蜀秦燕赵趙])/u, reading: '後' }], why: '后 "sovereign, queen" (皇后, 后稷) stays 后; "after" is 後' },
  { simplified: '云', readings: ['雲', '云'], classical: '云', why: '云 "to say" (鄭司農云) far outnumbers 雲 "cloud" in classical text' },
  { simplified: '余', readings: ['餘', '余'], classical: '余', why: '余 "I" stays 余; 餘 "remainder" by phrase or choice' },
  { simplified: '干', readings: ['幹', '乾', '干'], why: '干 (干戈), 乾 (乾坤, dry), 幹 (trunk)' },
  { simplified: '发', readings: ['發', '髮'], why: '發 "send out", 髮 "hair"' },
  { simplified: '复', readings: ['復', '複', '覆'], why: '復 "again, return", 複 "double", 覆 "cover"' },
  { simplified: '占', readings: ['佔', '占'], classical: '占', why: '占 "to divine" (占筮); 佔 "occupy" is modern' },
  { simplified: '注', readings: ['註', '注'], classical: '注', why: 'commentary is 注 in 經 editions (鄭注, 注疏), not 註' },
  { simplified: '里', readings: ['裏', '里'], classical: '里', contexts: [{ pattern: /里(?=[面頭头边邊])/u, reading: '裏' }], why: '里 "village, li" stays 里; 裏 "inside" before 面/頭/邊' },
  { simplified: '采', readings: ['採', '采', '綵'], classical: '采', why: '采 (五采, 采侯) stays 采' },
  { simplified: '个', readings: ['個', '个'], classical: '个', why: '个 (上个, the side of a target) is not 個 in 經 texts' },
  { simplified: '辟', readings: ['闢', '辟'], classical: '辟', why: '辟 (少辟, 辟婢亦反) "step aside" is not 闢' },
  { simplified: '迹', readings: ['跡', '蹟', '迹'], classical: '迹', why: '迹 stays 迹' },
  { simplified: '伪', readings: ['僞', '偽'], why: '偽 in 四庫 texts, 僞 in 康熙-style ones' },
  { simplified: '台', readings: ['臺', '台', '檯', '颱'], why: '臺 "terrace", 台 (三台, 台鼎)' },
  { simplified: '系', readings: ['係', '繫', '系'], why: '繫 "tie", 係 "be", 系 "lineage"' },
  { simplified: '谷', readings: ['谷', '穀'], why: '谷 "valley", 穀 "grain"' },
  { simplified: '征', readings: ['征', '徵'], why: '征 "campaign", 徵 "summon, evidence"' },
  { simplified: '历', readings: ['歷', '曆'], why: '歷 "pass through", 曆 "calendar"' },
  { simplified: '几', readings: ['幾', '几'], contexts: [{ pattern: /(?<=[设設授受右左拂彻徹改奠凭憑隐隱玉燕漆])几|几(?=[筵席校])/u, reading: '几' }], why: '幾 "how many"; 几 "armrest" where a rite sets, hands or wipes it (設几, 授几, 几筵)' },
  { simplified: '只', readings: ['只', '隻', '祇'], why: '只 "only", 隻 "single"' },
  { simplified: '须', readings: ['須', '鬚'], why: '須 "must", 鬚 "beard"' },
  { simplified: '冲', readings: ['沖', '衝'], why: '沖 "infant, empty", 衝 "rush"' },
  { simplified: '获', readings: ['獲', '穫'], why: '獲 "catch" (釋獲), 穫 "harvest"' },
  { simplified: '尽', readings: ['盡', '儘'], why: '盡 "exhaust"' },
  { simplified: '钟', readings: ['鐘', '鍾'], why: '鐘 "bell", 鍾 "cup, gather"' },
  { simplified: '丑', readings: ['醜', '丑'], why: '丑 (the branch), 醜 "ugly"' },
  { simplified: '御', readings: ['御', '禦'], why: '御 "drive, imperial", 禦 "resist"' },
  { simplified: '游', readings: ['遊', '游'], why: '游 "swim", 遊 "roam"' },
  { simplified: '郁', readings: ['鬱', '郁'], why: '郁 "fragrant", 鬱 "dense"' },
  { simplified: '志', readings: ['志', '誌'], why: '志 "will, record", 誌 "record"' },
  { simplified: '并', readings: ['並', '併', '并'], why: '並 "together", 併 "merge", 并 (the province)' },
  { simplified: '范', readings: ['範', '范'], why: '范 (the surname), 範 "model"' },
  { simplified: '致', readings: ['致', '緻'], why: '致 "bring about", 緻 "fine"' },
  { simplified: '面', readings: ['面', '麵'], why: '面 "face", 麵 "flour"' },
  { simplified: '凶', readings: ['凶', '兇'], why: '凶 "ill-omened" (凶禮)' },
  { simplified: '斗', readings: ['斗', '鬥'], why: '斗 "dipper, measure", 鬥 "fight"' },
  { simplified: '咸', readings: ['咸', '鹹'], classical: '咸', why: '咸 "all" (and 宋咸, a 集注 commentator) far outnumbers 鹹 "salty" in classical text' },
  { simplified: '卷', readings: ['卷', '捲'], contexts: [{ pattern: /卷(?=第?[上中下首末〇零一二三四五六七八九十百]|之[上中下首末〇零一二三四五六七八九十百])/u, reading: '卷' }], why: '卷 "scroll" (卷上, 卷第一: a volume, never 捲上), 捲 "roll up"' },
  { simplified: '舍', readings: ['舍', '捨'], why: '舍 "lodge", 捨 "give up"' },
  { simplified: '借', readings: ['借', '藉'], why: '借 "borrow", 藉 "mat, rely on"' },
  { simplified: '蒙', readings: ['蒙', '矇', '濛', '懞'], why: '蒙 in classical text' },
  { simplified: '向', readings: ['向', '嚮'], why: '嚮 "face toward" in some editions' },
  { simplified: '才', readings: ['才', '纔'], why: '才 "talent", 纔 "just"' },
];

function entries(dict: string): string[][] {
  return dict.split('|').map((e) => e.split(' '));
}

/**
 * The characters of one side of an OpenCC dictionary (`source target…|…`),
 * scanned in place: STPhrases is 400,000 characters, and splitting it into
 * entries cost a cold rebuild ~30 ms.
 */
function charactersOf(dict: string, side: 'source' | 'targets', into: Set<string>): void {
  let field = 0;
  for (let i = 0; i < dict.length; i++) {
    const c = dict.charCodeAt(i);
    if (c === 0x7c) field = 0;
    else if (c === 0x20) field++;
    else if ((field === 0) === (side === 'source')) {
      const surrogate = c >= 0xd800 && c <= 0xdbff;
      into.add(dict.slice(i, surrogate ? i + 2 : i + 1));
      if (surrogate) i++;
    }
  }
}

/** OpenCC's one-to-many set: simplified → its traditional readings, OpenCC's own pick first. */
export function openccOneToMany(): Map<string, string[]> {
  const sources = new Map<string, Set<string>>();
  for (const [traditional, ...simplified] of entries(TSCharacters)) {
    for (const s of simplified) {
      let set = sources.get(s);
      if (!set) sources.set(s, (set = new Set()));
      set.add(traditional);
    }
  }
  // A character the traditional side of a phrase writes is a traditional character of its own.
  const traditionalToo = new Set<string>();
  charactersOf(STPhrases, 'targets', traditionalToo);
  charactersOf(TSPhrases, 'source', traditionalToo);
  const pick = new Map(entries(STCharacters).map(([s, t]) => [s, t]));
  const set = new Map<string, string[]>();
  for (const [s, readings] of sources) {
    if (traditionalToo.has(s)) readings.add(s);
    if (readings.size < 2) continue;
    const first = pick.get(s) ?? s;
    set.set(s, [first, ...[...readings].filter((r) => r !== first).sort()]);
  }
  return set;
}

function oneToManyTable(): Map<string, OneToMany> {
  const table = new Map<string, OneToMany>();
  for (const [simplified, readings] of openccOneToMany()) table.set(simplified, { simplified, readings, why: `OpenCC lists ${readings.join(', ')}` });
  for (const d of DECISIONS) {
    const known = table.get(d.simplified)?.readings ?? [];
    table.set(d.simplified, { ...d, readings: [...new Set([...d.readings, ...known])] });
  }
  return table;
}

/**
 * The readings that are distinct characters: for each simplified character
 * of the one-to-many set, the traditional characters OpenCC's own
 * simplified → traditional conversion writes for it (STCharacters, or a
 * phrase of STPhrases at that character), when there are two or more. A
 * form OpenCC never writes is a variant spelling of one it does (卽 of 即,
 * 爲 written 為 by TWVariants): never a reading to choose, never an error to
 * count. So 于 → 於/于, 干 → 幹/乾/干/榦, 注 → 注/註, 为 → none (爲 only).
 * The context model chooses among these; the conversion benchmark counts a
 * character set as another of them as wrong (script-measure.ts).
 */
export function distinctReadings(): ReadonlyMap<string, readonly string[]> {
  return (distinct ??= distinctReadingsOf(oneToManyByChar()));
}
let distinct: ReadonlyMap<string, readonly string[]> | undefined;

function distinctReadingsOf(set: ReadonlyMap<string, OneToMany>): Map<string, string[]> {
  const written = new Map<string, Set<string>>();
  const add = (s: string, t: string) => {
    if (!set.has(s)) return;
    let w = written.get(s);
    if (!w) written.set(s, (w = new Set()));
    w.add(t);
  };
  for (const [s, ...ts] of entries(STCharacters)) for (const t of ts) add(s, t);
  for (const [s, ...ts] of entries(STPhrases)) {
    const from = Array.from(s);
    for (const t of ts) {
      const to = Array.from(t);
      if (to.length === from.length) from.forEach((c, i) => add(c, to[i]));
    }
  }
  const out = new Map<string, string[]>();
  for (const [s, w] of written) {
    if (w.size < 2) continue;
    // In the order of the one-to-many table (its usual reading first), then any other OpenCC writes.
    out.set(s, set.get(s)!.readings.filter((r) => w.has(r)).concat([...w].filter((r) => !set.get(s)!.readings.includes(r)).sort()));
  }
  return out;
}

let toSimplified: Map<string, string> | undefined;
/** A traditional character's simplified form, character by character (TSCharacters); the character itself when it has none. */
export function simplifiedChar(c: string): string {
  toSimplified ??= new Map(entries(TSCharacters).map(([t, s]) => [t, s]));
  return toSimplified.get(c) ?? c;
}

let byChar: ReadonlyMap<string, OneToMany> | undefined;

/** The one-to-many set by simplified character, made on first use (it reads OpenCC's phrase tables: not at every start, nor in a process that never converts). */
export function oneToManyByChar(): ReadonlyMap<string, OneToMany> {
  return (byChar ??= oneToManyTable());
}
