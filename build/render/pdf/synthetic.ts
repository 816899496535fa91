/**
 * A synthetic BookLayout for tests and the benchmark: full pages of text
 * with jiazhu chunks, deterministic (no randomness), several volumes.
 */
import type { BookLayout, Column, Page, PageSpec, Run, VolumeLayout } from '../../layout/types.js';

const TEXT =
  '鄉射之禮主人戒賓賓出迎再拜主人答再拜乃請賓禮辭許主人再拜賓答再拜主人退賓送再拜無介乃席賓南面東上衆賓之席繼而西席主人於阼階上西面尊於賓席之東兩壺斯禁左玄酒皆加勺篚在其南東肆設洗于阼階東南南北以堂深東西當東榮水在洗東篚在洗西南肆縣于洗東北西面乃張侯下綱不及地武不繫左下綱中掩束之乏參侯道居侯黨之一西五步羹定主人朝服乃速賓賓朝服出迎再拜主人答再拜退賓送再拜賓及衆賓皆從之';
const NOTE = '戒警也告也請告之以其事也鄉大夫將射必先戒賓此謂州長春秋習射於序之禮也今文無而字古文禮作醴大夫士之射禮';

function take(source: string, at: number, n: number): string {
  const chars = Array.from(source);
  let out = '';
  for (let i = 0; i < n; i++) out += chars[(at + i) % chars.length];
  return out;
}

/** One page's columns: mostly main text, a jiazhu chunk in every third column. */
export function syntheticColumns(spec: PageSpec, seed: number): Column[] {
  const columns: Column[] = [];
  for (let c = 0; c < spec.columns; c++) {
    const runs: Run[] = [];
    const k = seed * spec.columns + c;
    if (k % 3 === 1) {
      const head = Math.floor(spec.cells / 3);
      const noteCells = Math.min(spec.cells - head, 5 + (k % 4));
      const n = noteCells * 2 - (k % 2);
      const right = Math.ceil(n / 2);
      runs.push({ type: 'text', start: 0, text: take(TEXT, k * 7, head) });
      runs.push({
        type: 'note',
        start: head,
        cells: right,
        right: [{ layer: 'zhu', depth: 1, text: take(NOTE, k * 5, right) }],
        left: [{ layer: 'zhu', depth: 1, text: take(NOTE, k * 5 + right, n - right) }],
      });
      const rest = spec.cells - head - right;
      if (rest > 0) runs.push({ type: 'text', start: head + right, text: take(TEXT, k * 7 + head, rest) });
    } else {
      runs.push({ type: 'text', start: 0, text: take(TEXT, k * 11, spec.cells) });
    }
    columns.push({ index: c, role: 'text', runs });
  }
  return columns;
}

/** `pages` full pages in `volumes` volumes, titled 〈title〉卷一, 卷二 … */
export function syntheticLayout(spec: PageSpec, pages: number, volumes = 1, title = '禮經本義'): BookLayout {
  const numerals = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二', '十三', '十四', '十五', '十六', '十七', '十八', '十九', '二十'];
  const out: VolumeLayout[] = [];
  let number = 1;
  for (let v = 0; v < volumes; v++) {
    const count = Math.floor(pages / volumes) + (v < pages % volumes ? 1 : 0);
    const volumeTitle = `${title}卷${numerals[v] ?? String(v + 1)}`;
    const list: Page[] = [];
    for (let p = 0; p < count; p++) {
      list.push({
        number: number++,
        pageInVolume: p + 1,
        leaf: Math.floor(p / 2) + 1,
        side: p % 2 === 0 ? 'recto' : 'verso',
        volume: v + 1,
        volumeTitle,
        bookmarks: p === 0 ? [{ level: 1, title: volumeTitle }] : p === 2 ? [{ level: 2, title: '鄉射禮' }] : [],
        columns: syntheticColumns(spec, number),
      });
    }
    out.push({ index: v, title: volumeTitle, pages: list });
  }
  return { spec, volumes: out };
}
