/** Chinese numerals as books print them: leaf 12 → 十二, 21 → 二十一, 105 → 一百〇五, 112 → 一百一十二. */
const DIGITS = '〇一二三四五六七八九';

export function chineseNumeral(n: number): string {
  if (!Number.isInteger(n) || n < 0) return String(n);
  if (n < 10) return DIGITS[n];
  if (n < 20) return '十' + (n % 10 ? DIGITS[n % 10] : '');
  if (n < 100) return DIGITS[Math.floor(n / 10)] + '十' + (n % 10 ? DIGITS[n % 10] : '');
  if (n < 1000) {
    const h = Math.floor(n / 100);
    const r = n % 100;
    if (r === 0) return DIGITS[h] + '百';
    if (r < 10) return DIGITS[h] + '百〇' + DIGITS[r];
    return DIGITS[h] + '百' + (r < 20 ? '一' + chineseNumeral(r) : chineseNumeral(r));
  }
  return Array.from(String(n), (d) => DIGITS[Number(d)]).join('');
}
