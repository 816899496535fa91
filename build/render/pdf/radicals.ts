/**
 * Radicals that share a glyph with a unified ideograph in our fonts.
 *
 * Chromium writes a glyph's ToUnicode entry from the font's cmap read
 * backwards, so where the cmap maps a radical and an ideograph to one glyph
 * it may write the radical (大 → ⼤ U+2F24, 民 → ⺠ U+2EA0). Kangxi radicals
 * (U+2F00–2FD5) decompose to their ideograph (NFKC); the CJK radicals
 * supplement (U+2E80–2EF3) mostly does not, so its glyph-sharing pairs are
 * listed here — read from the cmaps of Noto Serif CJK TC/SC and HanaMinA
 * (code points mapped to the same glyph id).
 */
export const SUPPLEMENT_RADICALS: ReadonlyMap<number, string> = new Map<number, string>([
  [0x2E82, "乛"], // ⺂
  [0x2E83, "乚"], // ⺃
  [0x2E85, "亻"], // ⺅
  [0x2E87, "𠘨"], // ⺇
  [0x2E89, "刂"], // ⺉
  [0x2E8D, "𭕄"], // ⺍
  [0x2E8E, "兀"], // ⺎
  [0x2E8F, "尣"], // ⺏
  [0x2E90, "尢"], // ⺐
  [0x2E92, "巳"], // ⺒
  [0x2E93, "幺"], // ⺓
  [0x2E94, "彑"], // ⺔
  [0x2E95, "彐"], // ⺕
  [0x2E96, "忄"], // ⺖
  [0x2E98, "扌"], // ⺘
  [0x2E99, "攵"], // ⺙
  [0x2E9B, "旡"], // ⺛
  [0x2E9E, "歺"], // ⺞
  [0x2E9F, "母"], // ⺟
  [0x2EA0, "民"], // ⺠
  [0x2EA1, "氵"], // ⺡
  [0x2EA3, "灬"], // ⺣
  [0x2EA6, "丬"], // ⺦
  [0x2EA8, "犭"], // ⺨
  [0x2EA9, "𤣩"], // ⺩
  [0x2EAB, "罒"], // ⺫
  [0x2EAD, "礻"], // ⺭
  [0x2EAF, "糹"], // ⺯
  [0x2EB0, "纟"], // ⺰
  [0x2EB1, "罓"], // ⺱
  [0x2EB2, "罒"], // ⺲
  [0x2EB9, "耂"], // ⺹
  [0x2EBA, "肀"], // ⺺
  [0x2EBD, "𦥑"], // ⺽
  [0x2EBE, "艹"], // ⺾
  [0x2EBF, "艹"], // ⺿
  [0x2EC1, "虎"], // ⻁
  [0x2EC2, "衤"], // ⻂
  [0x2EC3, "覀"], // ⻃
  [0x2EC5, "见"], // ⻅
  [0x2EC6, "角"], // ⻆
  [0x2EC7, "𧢲"], // ⻇
  [0x2EC8, "讠"], // ⻈
  [0x2EC9, "贝"], // ⻉
  [0x2ECB, "车"], // ⻋
  [0x2ECC, "辶"], // ⻌
  [0x2ECE, "辶"], // ⻎
  [0x2ED0, "钅"], // ⻐
  [0x2ED1, "長"], // ⻑
  [0x2ED2, "镸"], // ⻒
  [0x2ED3, "长"], // ⻓
  [0x2ED4, "门"], // ⻔
  [0x2ED5, "𨸏"], // ⻕
  [0x2ED6, "阝"], // ⻖
  [0x2ED8, "青"], // ⻘
  [0x2ED9, "韦"], // ⻙
  [0x2EDA, "页"], // ⻚
  [0x2EDB, "风"], // ⻛
  [0x2EDC, "飞"], // ⻜
  [0x2EDD, "食"], // ⻝
  [0x2EDE, "𩙿"], // ⻞
  [0x2EDF, "飠"], // ⻟
  [0x2EE0, "饣"], // ⻠
  [0x2EE1, "𩠐"], // ⻡
  [0x2EE2, "马"], // ⻢
  [0x2EE3, "骨"], // ⻣
  [0x2EE4, "鬼"], // ⻤
  [0x2EE5, "鱼"], // ⻥
  [0x2EE6, "鸟"], // ⻦
  [0x2EE7, "卤"], // ⻧
  [0x2EE8, "麦"], // ⻨
  [0x2EE9, "黄"], // ⻩
  [0x2EEA, "黾"], // ⻪
  [0x2EEB, "斉"], // ⻫
  [0x2EEC, "齐"], // ⻬
  [0x2EEE, "齿"], // ⻮
  [0x2EEF, "竜"], // ⻯
  [0x2EF0, "龙"], // ⻰
  [0x2EF1, "龜"], // ⻱
  [0x2EF2, "亀"], // ⻲
  [0x2EF3, "龟"], // ⻳
]);

/** Is this code point a Kangxi radical or a CJK radicals supplement character? */
export function isRadical(cp: number): boolean {
  return (cp >= 0x2e80 && cp <= 0x2ef3) || (cp >= 0x2f00 && cp <= 0x2fd5);
}

/**
 * The ideographs a radical's glyph may stand for, most likely first: the
 * NFKC decomposition, then the glyph-sharing table.
 */
export function ideographsForRadical(cp: number): string[] {
  const out: string[] = [];
  const ch = String.fromCodePoint(cp);
  const nfkc = ch.normalize('NFKC');
  if (nfkc !== ch) out.push(nfkc);
  for (const c of SUPPLEMENT_RADICALS.get(cp) ?? '') if (!out.includes(c)) out.push(c);
  return out;
}

/**
 * What a radical in a ToUnicode entry should read as, given the characters
 * the page text really has: the candidate that occurs in the text, else the
 * most likely one; the radical itself only when the text has that radical
 * (then it is real).
 */
export function repairRadical(cp: number, textChars: ReadonlySet<string>): string {
  const ch = String.fromCodePoint(cp);
  if (!isRadical(cp) || textChars.has(ch)) return ch;
  const candidates = ideographsForRadical(cp);
  return candidates.find((c) => textChars.has(c)) ?? candidates[0] ?? ch;
}
