/**
 * The commentary layers and the rules that recognise them: one table, used by
 * the parser (labels such as 【附注】 and {tags}), the layer classifier
 * (build/transform/layers.ts) and both renderers (labels, classes).
 * An edition adds rules of its own in edition.yaml (`layers:`); they are tried
 * before these.
 */
import type { LayerId } from './types.js';
import { own } from './append.js';

export interface LayerRule {
  layer: LayerId;
  /** A note segment (a run of note text between spaces) matching this is in the layer (an edition's rules run on RE2: parse/pattern.ts). */
  pattern: { test(text: string): boolean; exec(text: string): RegExpExecArray | null };
  /** Only the last segment of a note that has more than one (a trailing citation). */
  trailing?: boolean;
  /** What the pattern matches at the head of a note is the label the source prints (疏曰, 案): the 四庫 template sets it 陰文. */
  label?: boolean;
}

export interface LayerDef {
  id: LayerId;
  /** The name readers know: 注, 音義, 疏 … */
  label: string;
  /** One line for the EPUB legend and the docs. */
  description: string;
}

export const LAYERS: readonly LayerDef[] = [
  { id: 'zhu', label: '注', description: '注：正文之注（鄭玄注、作者自注）' },
  { id: 'yinyi', label: '音義', description: '音義：字音與字義（反切、音某、如字），如陸德明《經典釋文》' },
  { id: 'shu', label: '疏', description: '疏：疏解注文（疏曰……），如賈公彦疏' },
  { id: 'fuzhu', label: '附注', description: '附注：後人補充之注' },
  { id: 'chuchu', label: '出處', description: '出處：引文所出之篇（地官、王制……）' },
  { id: 'an', label: '案', description: '案：編者按語（案、按、今按）' },
  { id: 'jiao', label: '校', description: '校：校勘（異文、訛脫衍倒）；今本據他本所改、補、刪、乙之處，各卷末校勘記列出' },
  { id: 'jijie', label: '集解', description: '集解：裴駰《史記集解》' },
  { id: 'suoyin', label: '索隱', description: '索隱：司馬貞《史記索隱》' },
  { id: 'zhengyi', label: '正義', description: '正義：張守節《史記正義》' },
  { id: 'meipi', label: '眉批', description: '眉批：書眉上的批語（評點本）' },
  { id: 'cepi', label: '側批', description: '側批：行間的批語（評點本）' },
];

/** 眉批 and 側批: annotations outside the running text (tree `annotation`), layers in the EPUB. */
export const ANNOTATION_LAYERS = { meipi: 'meipi', cepi: 'cepi' } as const;

/**
 * A Markdown footnote's layer, by its content: a variant reading or an
 * editor's correction is 校; a reference to where a passage comes from is 出處.
 */
export const FOOTNOTE_RULES: ReadonlyArray<{ layer: LayerId; pattern: RegExp }> = [
  { layer: 'jiao', pattern: /一本|一作|原作|原本|本作|[諸各]本|當作|疑[是作當為爲衍脫]|[訛譌誤衍脫倒]|據.{1,12}[改補刪删]|校/u },
  { layer: 'chuchu', pattern: /^[見见出引語语]|^《[^》]{1,20}》|出自|語出|见于|見於/u },
];

export function footnoteLayer(text: string): LayerId {
  return FOOTNOTE_RULES.find((r) => r.pattern.test(text))?.layer ?? 'jiao';
}

/** Tried in order, first match wins; a segment nothing matches stays 注. */
export const LAYER_RULES: readonly LayerRule[] = [
  { layer: 'shu', pattern: /^疏曰/u, label: true },
  { layer: 'an', pattern: /^(?:今|謹|谨|愚)?[案按]/u, label: true },
  // 反切 (食亦反), 音某, 如字 at the head of a short segment: 射食亦反, 為于偽反獲如字, 拭音式.
  // After the ○ (or 〇, as transcribers type it) that opens the 音 after a 注: ○女音汝, ○語去聲 (a reading by its tone).
  { layer: 'yinyi', pattern: /^[○〇]?(?=\S{2,24}$)\p{Script=Han}{1,2}(?:\p{Script=Han}{2}反|音\p{Script=Han}|如字|[平上去入]聲)/u },
  // A short last segment names the source: 地官, 王制, 同上 (not a count such as 附補九條).
  { layer: 'chuchu', pattern: /^\p{Script=Han}{1,4}(?<![条條])$/u, trailing: true },
];

/** Where a note's text is split into segments besides white space: before 疏曰, and before a ○ (or 〇 not in a numeral) that opens a part (爲德本○夫音符). */
export const SEGMENT_BREAK_BEFORE = /(?<=\S)(?=疏曰)|(?<=[^\s〇零一二三四五六七八九十百千])(?=[○〇])/gu;

export const DEFAULT_LAYER: LayerId = 'zhu';

/** Label or id → layer id: 附注 → fuzhu, 音义 → yinyi, yinyi → yinyi. */
export function layerFromTag(tag: string, extra: readonly LayerDef[] = []): LayerId | undefined {
  const simplified: Record<string, string> = { 音义: '音義', 出处: '出處', 附註: '附注', 註: '注', 按: '案', 索隐: '索隱', 正义: '正義', 校勘: '校', 侧批: '側批', 眉批: '眉批' };
  const label = own(simplified, tag) ?? tag;
  return [...LAYERS, ...extra].find((d) => d.id === tag || d.label === label)?.id;
}

/**
 * A layer tag as the Markdown convention writes it: `{音義}` the layer,
 * `{【附注】}` the layer of a label the source prints (and the label),
 * `{注【鄭注】}` a layer and the label printed for it.
 */
export function readLayerTag(tag: string, extra: readonly LayerDef[] = []): { layer: LayerId | undefined; name: string; label?: string } {
  const m = /^([^【】]*)(?:【([^【】]+)】)?$/u.exec(tag);
  const name = (m?.[1] || m?.[2]) ?? tag;
  const layer = layerFromTag(name, extra);
  return m?.[2] ? { layer, name, label: m[2] } : { layer, name };
}

/**
 * A layer the source itself names (a 集注's commentator: 祕, 光) has the id
 * `x-` + its label's code points in hex, so that ids stay ASCII (CSS classes,
 * file names) and every stage can show the label without the tree.
 */
export function sourceLayerId(label: string): LayerId {
  return 'x-' + Array.from(label, (c) => (c.codePointAt(0) as number).toString(16)).join('-');
}

/** The label a source layer's id was made from (x-54b8 → 咸), as the source wrote it; null for other ids. */
export function sourceLayerLabel(id: LayerId): string | null {
  if (!id.startsWith('x-')) return null;
  const points = id.slice(2).split('-').map((h) => Number.parseInt(h, 16));
  return points.length > 0 && points.every((p) => Number.isInteger(p) && p > 0 && p <= 0x10ffff) ? String.fromCodePoint(...points) : null;
}

/** How many characters at the head of a note of `layer` are the label the source prints in its text (疏曰 → 2), or 0. */
export function textLabelLength(layer: LayerId, text: string): number {
  const rule = LAYER_RULES.find((r) => r.label && r.layer === layer);
  const m = rule?.pattern.exec(text);
  return m ? Array.from(m[0]).length : 0;
}

export function layerLabel(id: LayerId): string {
  const known = LAYERS.find((d) => d.id === id)?.label;
  if (known) return known;
  const source = /^x((?:-[0-9a-f]{4,6})+)$/.exec(id);
  return source ? source[1].slice(1).split('-').map((h) => String.fromCodePoint(parseInt(h, 16))).join('') : id;
}
