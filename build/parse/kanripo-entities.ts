/**
 * Kanripo entities (`&KR0002;`) whose character is known: the standard form
 * the Kanripo character list (KR-Gaiji) gives for each, checked against its
 * context in the corpus texts (之屬&KR0002;羣吏 → 若, 歸&KR0114;其吉凶 → 卜).
 * An edition maps more in its charmap (`&KR0433;: 字`); the rest print as 〓
 * and `check` lists them.
 */
export const KANRIPO_ENTITIES: Readonly<Record<string, string>> = {
  KR0002: '若',
  KR0003: '說',
  KR0013: '被',
  KR0017: '鬼',
  KR0022: '邦',
  KR0078: '姬',
  KR0093: '絲',
  KR0111: '忘',
  KR0114: '卜',
  KR0701: '醢',
};
