/** Helpers of the convention tests: a text through parseSource as a user's file, and its import report. */
import type { ConventionOverrides, SourceFormat } from '../tree/edition.js';
import type { Inline, Note, Volume } from '../tree/types.js';
import { parseSource, workTitle, type ParsedSource } from './index.js';
import { importReport, type ImportReport } from './import-report.js';
import { fileOf } from './test-helpers.js';

export function parsed(text: string, options: { format?: SourceFormat; conventions?: ConventionOverrides; path?: string } = {}): ParsedSource {
  return parseSource(fileOf(text, options.path ?? 'own.txt'), '', { format: options.format, conventions: options.conventions });
}

export function reportOf(source: ParsedSource): ImportReport {
  return importReport({ source, title: workTitle([source]), messages: source.file.messages });
}

/** 三國志-like: 〔N〕 markers, then the 〔N〕 paragraphs of a later commentary. */
export const NUMBERED = [
  '# 某志',
  '',
  '## 卷一 某紀第一',
  '',
  '　　某者，某郡人也。〔一〕少有大志，〔二〕好讀書。',
  '',
  '　　〔一〕　某書曰：某郡在河南。',
  '',
  '　　〔二〕　某傳曰：某少時不治產業，好讀書。',
  '',
  '　　及長，仕郡為吏。〔一〕',
  '',
  '　　〔一〕　臣某案：吏，郡吏也。',
  '',
].join('\n');


/** Texts of our own in each convention: the test set of import-report.test.ts and of scripts/import-table.ts. */
export const CHTXT_ZISHU = ['#下載最新版本，請訪問: https://example.org/chtxt', '', '# 某字書', '', ...Array.from({ length: 12 }, (_, k) => `字${k}異${k} ○ 上通；下正。【案】陳本脫，今補。`), ''].join('\n');
export const NUMBERING = '# 周易\n\n○ ䷀乾(1)：元亨利貞。(乾，健也。)\n\n○ ䷁坤(2)：元亨。\n\n○ ䷂屯(3)：元亨。\n';
export const PANDOC = '# 某書\n\n*孔子*曰：學而時習之~習，溫習也~。\n\n*曾子*曰：吾日三省吾身~省，察也~。\n';
export const REVERSED = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經', '<pb:KR0000_SBCK_001-1a>¶', ...['筵', '几', '尊', '洗', '席', '豆', '籩', '俎', '鼎', '爵', '觶', '篚'].flatMap((w) => [`主人設${w}(之處也/${w}者某物)賓入¶`, ''])].join('\n');

export const DESCRIBED = '其草〈艹嚣〉生於野，其木〈木咸〉其名。\n〈艹虑〉者，草名也。\n又有〈金冬〉焉。\n';
export const WYG_ZHU = ['# -*- mode: mandoku-view -*-', '#+TITLE: 某經注疏', '<pb:KR0000_WYG_001-1a>¶', '欽定四庫全書¶', '　某經注疏卷一¶', ...Array.from({ length: 6 }, (_, k) => [`經文第${'一二三四五六'[k]}句注此注文也音義(某音/某反)疏(注釋曰/某某)¶`, '']).flat()].join('\n');

/** Every note of the volumes, in reading order (a note inside a note too). */
export const notesOf = (volumes: readonly Volume[]): Note[] => {
  const out: Note[] = [];
  const walk = (nodes: readonly Inline[]) => {
    for (const n of nodes) {
      if (n.type === 'note') out.push(n);
      if ('children' in n) walk(n.children as Inline[]);
    }
  };
  for (const v of volumes) for (const b of v.children) walk(b.children);
  return out;
};
