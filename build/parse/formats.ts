/**
 * The source formats and their conventions: one declarative row a corpus.
 * Detection, the importers and `check` read this table; an edition names a
 * format (`format:`) and overrides entries (`conventions:`) in edition.yaml.
 * A new corpus is a new row; new code only where its structure is new.
 */
import type { LayerId } from '../tree/types.js';
import type { ConventionOverrides, SourceFormat } from '../tree/edition.js';
import { DEFAULT_INLINE, type InlineOptions, type LayerLabel, type NoteBracket } from './inline.js';
import { editionPattern, type TextPattern } from './pattern.js';

const NUMERAL = '〇零一二三四五六七八九十百千';

export interface HeadingRule {
  /** Group 1: the heading's text; group 2 (optional): a byline after it. */
  pattern: TextPattern;
  depth: 1 | 2 | 3;
  /** Group 2 is the author whatever it reads as (chtxt's `○ 題 / 作者`: a poem's title, its poet after the slash). */
  byline?: boolean;
  /** A top heading whose text has 卷N opens a volume, unless the corpus's files are its volumes (false: Kanripo's org headings name sections). */
  volumes?: false;
}

export interface CommentaryBlock {
  /** The line that opens the block (`[疏]“陳服”至“北上”。`); group 1 is its label, left out of the text. */
  start: RegExp;
  /** Lines that continue it (`○釋曰…`); the block ends at the first line that does not. */
  continues: RegExp;
  layer: LayerId;
}

export interface FormatConventions {
  format: SourceFormat;
  /** What `check` and `init` call it. */
  name: string;
  /** File names of this format (Markdown importers). */
  extensions?: RegExp;
  /** Signs in the head of a file: the format whose signs weigh most is detected. */
  signs: ReadonlyArray<{ pattern: RegExp; weight: number }>;
  inline: InlineOptions;
  /** Whole lines that are data, never text (org header, `# src:`). Group 1 the key, group 2 the value. */
  metadata?: ReadonlyArray<TextPattern>;
  /**
   * `line`: one paragraph a line; `blank`: lines run on until a blank line;
   * `auto`: decided from the whole text (a file that writes most lines without
   * a blank line between them, an entry a line, is read a paragraph a line).
   */
  paragraphs?: 'line' | 'blank' | 'auto';
  /** Lines set one cell down (a full-width space) are commentary of this layer, where the whole text writes them so (四庫's 注 below the 經). */
  indentedCommentary?: LayerId;
  /** `〔一〕` markers in the text and the `〔一〕　…` paragraphs they call (decide.ts linkNumberedCommentary). */
  numberedCommentary?: boolean;
  /** Labels in mid-line that start a layer running to the paragraph's end (chtxt `……音某。【案】「……」……`). */
  midLineLabels?: ReadonlyArray<LayerLabel>;
  /** Heading lines, tried in order. A heading whose text has 卷N opens a volume. */
  headings?: ReadonlyArray<HeadingRule>;
  /** Whole lines in one of these bracket pairs are commentary on the line before (if the file uses them so). */
  commentaryLines?: ReadonlyArray<readonly [string, string]>;
  /** Runs of lines that are one commentary (國學導航's [疏] + ○釋曰). */
  commentaryBlocks?: ReadonlyArray<CommentaryBlock>;
  /** A paragraph that starts with an inner label (【集解】…) is commentary. */
  labelledParagraphs?: boolean;
  /** Blocks of verse between two marker lines (org `#+BEGIN_VERSE` … `#+END_VERSE`): each line inside a verse line, its own paragraph. */
  verseBlocks?: { begin: RegExp; end: RegExp };
  /** Table rows (org `| 新羅 | 高麗 |`): from a line that opens with the mark to one that ends with it, the cells parted by a gap. */
  tableRows?: { mark: string };
  /** A line that transliterates the term set after a tab on the line before (`\tMahāmaudgalyāyana.`): a gloss (ruby) on that term. */
  transliterations?: RegExp;
}

/** Labels of the 三家注 and of the built-in layers, as they stand inside a note. */
const SANJIA_LABELS: LayerLabel[] = [
  ['集解', 'jijie'],
  ['索隱', 'suoyin'],
  ['索隐', 'suoyin'],
  ['正義', 'zhengyi'],
  ['正义', 'zhengyi'],
  ['注', 'zhu'],
  ['鄭注', 'zhu'],
  ['音義', 'yinyi'],
  ['音义', 'yinyi'],
  ['釋文', 'yinyi'],
  ['疏', 'shu'],
  ['案', 'an'],
].map(([label, layer]) => ({ text: `【${label}】`, layer, label: label.replace('索隐', '索隱').replace('正义', '正義').replace('音义', '音義') }));

const SIKU_HEADINGS: HeadingRule[] = [
  // 士昬禮第二　儀禮　鄭氏注 / 鄉射禮第五: a chapter, perhaps with the work and its commentator after it; 紀孝行章第十(○行下/孟反):
  // with the note on its title (the heading holds the note, as a title's 注 stands in the print); 論語公冶長第五疏(公冶長者…¶:
  // the title's 疏 running on to later lines (importers/lines.ts takes them into the heading).
  { pattern: new RegExp(`^([^\\s\\u3000()（）【】〈〉]{1,10}第[${NUMERAL}]+(?:\\([^()\\n]{1,60}\\)|[疏注]?\\([^()\\n]*$)?)(?:[\\s\\u3000]+(\\S.{0,30}))?$`, 'u'), depth: 2 },
];

export const FORMATS: readonly FormatConventions[] = [
  {
    format: 'kanripo',
    name: 'Kanripo (mandoku)',
    signs: [
      { pattern: /^# -\*- mode: mandoku/mu, weight: 10 },
      { pattern: /^#\+TITLE:/mu, weight: 3 },
      { pattern: /<pb:[^<>\n]{1,80}>/u, weight: 5 },
      { pattern: /¶$/mu, weight: 5 },
      { pattern: /&KR\d{4,};/u, weight: 3 },
    ],
    inline: {
      notes: [{ open: '(', close: ')' }],
      smallWords: new Set(),
      split: '/',
      lineAnchor: '¶',
      pageAnchor: /<(?:pb|md):([^>\s]+)>/y,
      entity: /&(KR\d+);/y,
      // CBETA-derived texts write a character they could not encode as its 組字式: [女*省].
      formulas: ['[', ']'],
      continuedNotes: true,
      numbering: /\(\d{1,3}\)/y,
      // 四庫 注疏: the 音義 and the 疏 are notes after their labels.
      noteLabels: [
        { text: '音義', layer: 'yinyi', label: '音義' },
        { text: '疏', layer: 'shu', label: '疏' },
      ],
      // 四庫 注疏: `注` before full-size text opens the 注, up to the next note (decided from the whole text: decide.ts).
      runLabels: [{ text: '注', layer: 'zhu', label: '注' }],
    },
    // `@fw…`: forme-work (the 版心's text) of a 道藏輯要 transcription: the source's layout, not text.
    // `No. 235`, `No. 7 [No. 1(2), Nos. 5, 6]`: a CBETA text's number in the Taishō canon (and its parallels), data.
    metadata: [/^@(fw)\S*[ \t:：]*(.*)$/u, /^(No)\.[ \t]*(\d+\S*(?:[ \t]+\[[^\]\n]*\])?)$/u, /^#\+([A-Z_]+):?[ \t]*(.*)$/u, /^#[ \t]+(src|dating|-\*-)[: \t]*(.*)$/u, /^#(-\*-)[ \t]*(.*)$/u, /^#(?:[ \t]+(\S*)[ \t]*(.*))?$/u, /^:(PROPERTIES|END):$/u],
    paragraphs: 'blank',
    // CBETA-derived texts (KR6): org verse blocks, tables and tab-set transliterations of a term.
    verseBlocks: { begin: /^#\+BEGIN_VERSE\b/iu, end: /^#\+END_VERSE\b/iu },
    tableRows: { mark: '|' },
    transliterations: /^[\p{Script=Latin}\p{M}][\p{Script=Latin}\p{M} .,'’-]*$/u,
    indentedCommentary: 'zhu',
    // Org headings (TLS, CBETA-derived texts): sections of the juan the file is (* 經卷第四十一 in an 音義: the sutra's juan, no volume).
    headings: [{ pattern: /^\*\*\*+[ \t]+(?:\d+[ \t]+)?(\S.*)$/u, depth: 3 }, { pattern: /^\*\*[ \t]+(?:\d+[ \t]+)?(\S.*)$/u, depth: 2 }, { pattern: /^\*[ \t]+(?:\d+[ \t]+)?(\S.*)$/u, depth: 1, volumes: false }, ...SIKU_HEADINGS],
  },
  {
    format: 'chtxt',
    name: 'chtxt (ctext-like)',
    signs: [
      { pattern: /^## \S/mu, weight: 4 },
      // The chtxt file header: `#下載最新版本，請訪問: https://github.com/…`.
      { pattern: /^#[^#\s][^\n]{0,60}https?:\/\//mu, weight: 8 },
      { pattern: /\(【(?:集解|索隱|正義)】/u, weight: 8 },
      { pattern: /^【(?:集解|索隱|正義)】/mu, weight: 4 },
      { pattern: /[\p{Script=Han}，。]\([^()\n]{2,500}\)/u, weight: 3 },
    ],
    // `○ ䷀乾(1)`: numbering in parentheses is text. Notes in ASCII and full-width parentheses (金史's （…）) and in 【】
    // (九經字樣's 【凡一十四字】, 敦煌歌辭's 【上闕】), but not （刪）〔補〕 nor a short （曰）, an editor's corrections; a commentator's label alone in 【】 or 〔〕 (【按語】, 【野王案】) opens
    // that layer to the paragraph's end; 〔…〕 otherwise is the text's (an editor's insertion: 韓詩外傳).
    inline: { notes: [{ open: '(', close: ')' }, { open: '（', close: '）', notBefore: '〔', minLength: 4 }, { open: '【', close: '】' }], smallWords: new Set(), innerLabels: SANJIA_LABELS, numbering: /\(\d{1,3}\)/y, labelBrackets: [['〔', '〕']] },
    numberedCommentary: true,
    // The file header (`#下載最新版本，請訪問: https://…`, `#創建日期: …`), bare URL lines and the end mark 〔全文完〕: data, never text.
    // An org-style `#+TITLE:` header line keeps its key (TITLE), as in Kanripo's files.
    metadata: [/^#\+?(?![#\s+])([^:：\n]{1,40})[:：][ \t]*(.*)$/u, /^()(https?:\/\/\S+)$/u, /^〔(全文完)〕()$/u],
    paragraphs: 'auto',
    midLineLabels: [{ text: '【案】', layer: 'an', label: '案' }, { text: '【按】', layer: 'an', label: '按' }],
    // `○ 題`: a section, a joke's or a poem's title (its poet after a slash: `○ 木蘭花 / 錢惟演`, `○ 百志詩/〔魏晉〕干寶`), a
    // numbered entry; `〔守虛〕` alone on its line: a sub-section's title.
    headings: [
      { pattern: /^#[ \t]+(\S.*)$/u, depth: 1 },
      { pattern: /^##[ \t]+(\S.*)$/u, depth: 2 },
      { pattern: /^###+[ \t]+(\S.*)$/u, depth: 3 },
      { pattern: /^○[ \t\u3000]*(\S.*?)[ \t\u3000]*[/／][ \t\u3000]*(\S.*)$/u, depth: 2, byline: true },
      // Without a poet: a ○ line whose colon opens its text (○ ䷀乾(1)：元亨利貞。) is an entry of text, not a heading.
      { pattern: /^○[ \t\u3000]*((?:[^\s：:(（【]|[(（【][^)）】]*[)）】]|[ \t\u3000])+?)$/u, depth: 2 },
      { pattern: /^〔([^〔〕，。；：、！？\s]{1,10})〕$/u, depth: 3 },
      // A chapter's name alone (序致第一, with its numbered note's marker 〔一〕: 顏氏家訓集解).
      { pattern: new RegExp(`^([^\\s\\u3000，。；：、！？「」【】()（）〔〕]{1,12}[第弟][${NUMERAL}]+(?:〔[${NUMERAL}]+〕)?)$`, 'u'), depth: 2 },
    ],
    labelledParagraphs: true,
  },
  {
    format: 'guoxue',
    name: '國學導航',
    signs: [
      { pattern: /^[ \t\u3000]*●卷/mu, weight: 8 },
      { pattern: /^[ \t\u3000]*\[疏\]/mu, weight: 8 },
      { pattern: /^[ \t\u3000]*○[释釋]曰/mu, weight: 4 },
    ],
    inline: { notes: [{ open: '（', close: '）' }], smallWords: new Set(), compositions: [['{', '}'], ['<', '>']] },
    paragraphs: 'line',
    // ●卷一 (●卷一上: the volume in two parts) opens a volume; ◎ a chapter or section (◎天官冢宰第一, ◎序周礼废兴).
    // A chapter's name alone on its line (劝学篇第一 under ●卷一) is a chapter heading.
    headings: [
      { pattern: new RegExp(`^●((?:[^\\s卷]{0,12})?卷[${NUMERAL}]+[上中下]?)(?:[\\s\\u3000]*(\\S.*))?$`, 'u'), depth: 1 },
      { pattern: /^◎[\s\u3000]*(\S.*)$/u, depth: 2 },
      { pattern: new RegExp(`^([^\\s\\u3000●◎，。；：、！？（）“”「」]{1,12}第[${NUMERAL}]+)$`, 'u'), depth: 2 },
    ],
    // A ○ line that glosses a sound (○正月，音征…; ○陆曰：…反) is the 音義 after the 經 line, not the 疏's.
    commentaryBlocks: [
      { start: /^(○)(?=陆曰|陸曰|陆氏《音义》|陸氏《音義》|[^\s，。○]{1,8}[，,](?:音|[^\s，。]{2}反))/u, continues: /$^/u, layer: 'yinyi' },
      { start: /^(\[疏\])/u, continues: /^○/u, layer: 'shu' },
    ],
  },
  {
    format: 'wikisource-md',
    name: 'Wikisource (pandoc Markdown)',
    extensions: /\.(md|markdown)$/i,
    signs: [
      { pattern: /^---\n[\s\S]*?\bsource_url:/u, weight: 10 },
      { pattern: /\[\^[^\]\s[]{1,20}\]/u, weight: 3 },
      { pattern: /<cn-era\b/u, weight: 8 },
      { pattern: /<sub>/u, weight: 2 },
    ],
    inline: { notes: [{ open: '〔', close: '〕' }], smallWords: new Set(), compositions: [['{', '}']] },
    commentaryLines: [['〔', '〕'], ['〈', '〉']],
  },
  {
    // Wikisource texts as sites publish them (Hugo, Jekyll pages; pandoc's Wikisource HTML): front matter with its
    // title, `##` headings, 目录 lists; the author's notes inline in （…） or 〔…〕 (but 「嚴」〔莊〕 is an editor's
    // correction, and a one-character （石） a variant, text); a paragraph wholly in （…） a note of its own (陸績注,
    // （原註：…）).
    format: 'site-md',
    name: 'Wikisource Markdown of a site (Hugo, Jekyll, pandoc)',
    extensions: /\.(md|markdown)$/i,
    signs: [
      { pattern: /^---\r?\n(?:[^\n]*\n){0,12}?(?:weight|layout|showToc|draft):/u, weight: 6 },
      { pattern: /^##[ \t]+目[录錄]\s*\n\s*\n-[ \t]+\d+[ \t]/mu, weight: 6 },
      { pattern: /\{%[ \t]*(?:include|capture)\b/u, weight: 3 },
    ],
    inline: { ...DEFAULT_INLINE, notes: [{ open: '（', close: '）', minLength: 2 }, { open: '〔', close: '〕', notAfter: '」' }], tags: false },
    commentaryLines: [['（', '）']],
  },
  {
    format: 'bracketed',
    name: 'plain text with commentary lines in brackets',
    signs: [
      { pattern: /^〔[^〔〕\n]{1,500}〕$/mu, weight: 3 },
      { pattern: /^〈[^〈〉\n]{1,500}〉$/mu, weight: 2 },
    ],
    inline: { notes: [{ open: '〔', close: '〕' }, { open: '〈', close: '〉', citation: true }], smallWords: new Set(['臣']) },
    paragraphs: 'line',
    headings: [{ pattern: /^((?:[〔〈][^〔〕〈〉\n]{1,20}[〕〉]){1,3}第[一二三四五六七八九十百]+)$/u, depth: 2 }],
    commentaryLines: [['〔', '〕'], ['〈', '〉']],
  },
  {
    format: 'pandoc-txt',
    name: 'plain text with pandoc-like marks (~gloss~, *name*)',
    signs: [
      // A gloss is often a sentence of its own (~範，法也~): Han first, then anything to the closing ~ on the line.
      { pattern: /(?<![~\w])~\p{Script=Han}[^~\n]{0,40}~(?![~\w])/u, weight: 3 },
      { pattern: /(?<![*\w])\*\p{Script=Han}{1,30}\*(?![*\w])/u, weight: 3 },
      // pandoc's title block: `% 書名` as the file's first line (then `% 作者`, `% 日期`).
      { pattern: /^% \p{Script=Han}/u, weight: 3 },
    ],
    // pandoc's inline footnote ^[「糧」，或本作「囊」。] (讀經本's collation notes): a note of the 校 layer, the ^ its mark.
    inline: { ...DEFAULT_INLINE, notes: [...DEFAULT_INLINE.notes, { open: '[', close: ']' }], noteLabels: [{ text: '^', layer: 'jiao', label: '' }], spans: [{ open: '~', close: '~', as: 'small' }, { open: '**', close: '**', as: 'proper' }, { open: '*', close: '*', as: 'proper' }] },
    // The title block's lines are data (title.ts reads the work and its byline from them), never text; so are HTML
    // comments (<!--% 孟子 … -->, <!--# 孟子-->, a title block hidden in one) and `---` rules.
    metadata: [/^%()[ \t]+(.*)$/u, /^<!--()(.*?)(?:-->)?$/u, /^()(.*?)-->$/u, /^(-{3,})()$/u],
    paragraphs: 'auto',
    headings: [{ pattern: /^#[ \t]+(\S.*)$/u, depth: 1 }, { pattern: /^##[ \t]+(\S.*)$/u, depth: 2 }, { pattern: /^###+[ \t]+(\S.*)$/u, depth: 3 }],
  },
  // The 四庫 banner alone on its line (Kanripo's ends in ¶) marks a 四庫 text as these corpora write it.
  {
    format: 'daizhige',
    name: '殆知閣 (四庫全書)',
    signs: [{ pattern: /^<[經经史子集]部[,，]/mu, weight: 4 }, { pattern: /^[ \t\u3000]*(?:欽定四庫全書|钦定四库全书)[ \t\u3000]*$/mu, weight: 3 }, { pattern: /【[^】【\n]{1,200}】/u, weight: 1 }],
    // 【…】 notes, and （…） (音释 徐闰切，病也; a 注) and ASCII […] (物理小識's [暄曰…], 脂批) where the texts write them
    // so; （臣） is small text, （二十四） an editor's note number, text; 〔一〕 numbered commentary.
    inline: { ...DEFAULT_INLINE, notes: [...DEFAULT_INLINE.notes, { open: '（', close: '）' }, { open: '[', close: ']' }], numbering: /（[〇一二三四五六七八九十百]{1,4}）/y, described: { mark: '■', open: '〈', close: '〉' } },
    numberedCommentary: true,
  },
  { format: 'wikisource', name: '中華文庫 (四庫全書)', signs: [{ pattern: /中[华華]文[库庫]/u, weight: 10 }], inline: DEFAULT_INLINE },
  { format: 'verse', name: 'verse with commentary', signs: [{ pattern: /^【附[注註]】/mu, weight: 6 }], inline: DEFAULT_INLINE },
  { format: 'docsify', name: 'docsify Markdown', extensions: /\.(md|markdown)$/i, signs: [{ pattern: /^\u3000/mu, weight: 1 }], inline: DEFAULT_INLINE },
  { format: 'markdown', name: 'diaoban Markdown', extensions: /\.(md|markdown)$/i, signs: [{ pattern: /^#\s/mu, weight: 1 }], inline: DEFAULT_INLINE },
];

export const FORMAT_NAMES: readonly SourceFormat[] = FORMATS.map((f) => f.format);

export function conventionsOf(format: SourceFormat): FormatConventions {
  return FORMATS.find((f) => f.format === format) ?? FORMATS[FORMATS.length - 1];
}

/** The format's row with an edition's overrides applied. */
export function withOverrides(row: FormatConventions, overrides: ConventionOverrides | undefined): FormatConventions {
  if (!overrides) return row;
  const inline: InlineOptions = { ...row.inline };
  if (overrides.notes) inline.notes = overrides.notes.map(([open, close]): NoteBracket => ({ open, close }));
  if (overrides.split !== undefined) inline.split = overrides.split || undefined;
  if (overrides.labels) {
    const labels = Object.entries(overrides.labels).map(([label, layer]) => ({ text: `【${label}】`, layer, label }));
    inline.innerLabels = [...labels, ...(inline.innerLabels ?? [])];
  }
  return {
    ...row,
    inline,
    ...(overrides.paragraphs ? { paragraphs: overrides.paragraphs } : {}),
    commentaryLines: overrides.commentaryLines ?? row.commentaryLines,
    headings: overrides.headings ? [...overrides.headings.map((p) => ({ pattern: editionPattern(p), depth: 2 as const })), ...(row.headings ?? [])] : row.headings,
    metadata: overrides.metadata ? [...overrides.metadata.map(editionPattern), ...(row.metadata ?? [])] : row.metadata,
  };
}

export { NUMERAL };
