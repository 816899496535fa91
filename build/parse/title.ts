/**
 * The work's title and byline, found in the text when edition.yaml gives
 * none: the corpus's metadata (#+TITLE), the 提要 (臣等謹案X…), the 四庫
 * header, a `X目録` line, a heading or the first line. The byline after a
 * title (`儀禮注疏　漢鄭玄注、唐賈公彦疏`, `書名　（清）某某撰`) is split
 * off into its contributors (dynasty, name, role). Never a chapter name, a
 * category (儒家类, 集部一) or a contents line. Pure: text in, finding out.
 */
import { NUMERAL } from './formats.js';

/** Dynasties as bylines write them (both scripts); longer names first so that 後漢 is not 漢. */
export const DYNASTIES = [
  '中華民國', '民國', '民国', '先秦', '魏晉', '魏晋', '南北朝', '春秋', '戰國', '战国', '三國', '三国', '姚秦', '前秦', '後秦', '后秦', '南朝宋', '南朝齊', '南朝梁', '南朝陳', '北魏', '北齊', '北齐', '北周', '西漢', '西汉', '東漢', '东汉', '前漢', '前汉', '後漢', '后汉',
  '蜀漢', '蜀汉', '東晉', '东晋', '西晉', '西晋', '後魏', '后魏', '五代', '後唐', '后唐', '南唐', '後周', '后周', '北宋', '南宋',
  '周', '秦', '漢', '汉', '魏', '吳', '吴', '呉', '蜀', '晉', '晋', '宋', '齊', '齐', '梁', '陳', '陈', '隋', '唐', '遼', '辽', '金', '元', '明', '清',
];

/** What a contributor did, as a byline says it (longest first). */
export const ROLES = [
  '御注', '御註', '重修', '重述', '注釋', '注释', '集解', '集注', '集註', '集傳', '集传', '音義', '音义', '義疏', '义疏', '正義', '正义', '索隱', '索隐', '補注', '补注', '章句', '釋文', '释文', '校注', '校勘', '箋注', '笺注', '注疏', '傳',
  '撰', '譔', '注', '註', '疏', '箋', '笺', '传', '述', '輯', '辑', '編', '编', '著', '着', '纂', '校', '訂', '订', '解', '評', '评', '錄', '录', '序', '譯', '译',
];

export interface Contributor {
  dynasty?: string;
  name: string;
  role: string;
}

export type TitleSource = 'metadata' | 'tiyao' | 'siku header' | 'contents line' | 'heading' | 'first line' | 'volume line';

export interface TitleFinding {
  title: string;
  from: TitleSource;
  /** 1-based line of the text it was found on (none for metadata). */
  line?: number;
  contributors: Contributor[];
  /** The contributors were read from the 提要's 臣等謹案 (a description of the work), not from a byline of the text. */
  bylineFromTiyao?: true;
}

const alt = (list: readonly string[]) => list.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const BRACKETED_DYNASTY = new RegExp(`^[（(〔［\\[【﹝]\\s*(${alt(DYNASTIES)})\\s*[）)〕］\\]】﹞]`, 'u');
const BARE_DYNASTY = new RegExp(`^(${alt(DYNASTIES)})`, 'u');
const ROLE_AT_END = new RegExp(`(${alt(ROLES)})$`, 'u');
const SPACE = /[\s\u3000]+/gu;
const DYNASTY_ALONE = new RegExp(`^(?:${alt(DYNASTIES)})$`, 'u');
const ROLE_ALONE = new RegExp(`^等?(?:${alt(ROLES)})$`, 'u');
const BYLINE_PARTS = new RegExp(
  `[、，,；;]|[\\s\\u3000]+(?=[（(〔［\\[【])|(?<=\\S)(?=[（(〔［\\[【﹝](?:${alt(DYNASTIES)})[）)〕］\\]】﹞])|(?<=[^\\s\\u3000])[\\s\\u3000]+(?=\\S+?(?:撰|譔|注|註|疏|音義|音义|集解|正義|索隱|箋|傳|述|輯|編|著|纂|校|譯|译))|(?<=[\\s\\u3000](?:${alt(ROLES)}))[\\s\\u3000]+`,
  'u',
);

/** Lines that are never a work's name: chapters, volumes, categories, the 四庫 banner, contents, front matter. */
const NOT_A_TITLE: readonly RegExp[] = [
  new RegExp(`第[${NUMERAL}]+$`, 'u'),
  new RegExp(`^[卷巻](?:第?[${NUMERAL}]+|[上中下])`, 'u'),
  /^(?:欽定四庫全書|钦定四库全书)/u,
  new RegExp(`^[經经史子集]部[${NUMERAL}]*$`, 'u'),
  /[类類]$/u,
  /^(?:●?目[录錄録]|序|提要|凡例|前言|總目|总目)$/u,
  /[，。；：、！？「」『』“”]/u,
];

/** Markup around a title line: heading marks, 國學導航's ●, full-width indents, the 《》 around a title that opens it. */
function bare(line: string): string {
  return line.replace(/^<!--\s*/u, '').replace(/\s*-->\s*$/u, '').replace(/^(?:[#＃]+|%)\s*/u, '').replace(/^[\s\u3000]*[●○◎]?/u, '').replace(/[¶\s\u3000]+$/u, '').replace(/^《([^《》]{1,20})》/u, '$1').trim();
}

/** The volume in a title (書名卷一, 書名·卷一, 書名卷上): what stands before it is the work. */
function withoutVolume(title: string): string {
  return title
    // 佛说盂兰盆经一卷: the count of its juan, as a catalogue gives it, is not the work's name.
    .replace(/(?<=\p{Script=Han})[\s\u3000]*[一二三四五六七八九十百]+卷$/u, '')
    .replace(new RegExp(`[·・\\s\\u3000]*[卷巻](?:[第之]?[${NUMERAL}]+|[上中下]).*$`, 'u'), '').replace(/[·・].*$/u, '').trim();
}

/**
 * A byline: `漢鄭氏注　唐陸德明音義　賈公彦疏`, `（清）某某撰`, `〔漢〕某某 撰 〔唐〕某某 注`,
 * `汉某某注、唐某某疏`. Null when the text is not one.
 */
export function parseByline(input: string): Contributor[] | null {
  // 鳩摩羅什奉　詔譯: the gap before 詔 is the print's honour to the emperor (擡頭), no gap between names.
  const text = input.replace(/奉[\s\u3000]+(?=[詔诏勑敕勅])/gu, '奉');
  // 目录 (書名目录) ends in 录, a role, but names no one.
  if (/目[录錄録]$/u.test(text.replace(SPACE, ''))) return null;
  // Names that share the last one's role (晋李轨、宋宋咸、吴秘注): each is given it.
  const shared = text.split('、');
  const sharedRole = shared.length > 1 ? ROLE_AT_END.exec(shared[shared.length - 1].replace(SPACE, '')) : null;
  if (sharedRole && shared.slice(0, -1).every((p) => /^\p{Script=Han}{2,8}$/u.test(p.replace(SPACE, '')) && !ROLE_AT_END.test(p.replace(SPACE, '')))) {
    return parseByline(shared.map((p, i) => (i < shared.length - 1 ? p + sharedRole[1] : p)).join('、'));
  }
  // Parts end at 、，；, before a bracketed dynasty, before a name with its role, and after a role standing alone (汉 赵岐 注 宋 孙奭 疏).
  const parts = text.split(BYLINE_PARTS);
  // Parts that carry only a dynasty or only a role are joined to the next / previous one; any other part with no role
  // before a part with a name (隱公第一　范甯集解: a chapter before the byline) makes the text no byline.
  const merged: string[] = [];
  for (const raw of parts.map((p) => p.trim()).filter(Boolean)) {
    const last = merged[merged.length - 1];
    if (last === undefined || ROLE_AT_END.test(last.replace(SPACE, ''))) {
      merged.push(raw);
      continue;
    }
    const lastBare = last.replace(SPACE, '');
    const onlyDynasty = BRACKETED_DYNASTY.exec(lastBare)?.[0] === lastBare || DYNASTY_ALONE.test(lastBare);
    const onlyRole = ROLE_ALONE.test(raw.replace(SPACE, ''));
    if (!onlyDynasty && !onlyRole && !/[\s\u3000]/u.test(last)) return null;
    merged[merged.length - 1] = last + raw;
  }
  const out: Contributor[] = [];
  let dynasty: string | undefined;
  for (const part of merged) {
    let rest = part.replace(SPACE, '');
    const bracketed = BRACKETED_DYNASTY.exec(rest);
    if (bracketed) {
      dynasty = bracketed[1];
      rest = rest.slice(bracketed[0].length);
    } else {
      const bareDynasty = BARE_DYNASTY.exec(rest);
      // A bare dynasty only when a name of two or more characters follows it (宋咸注 is 宋咸, not 宋 咸).
      if (bareDynasty && Array.from(rest.slice(bareDynasty[0].length).replace(ROLE_AT_END, '')).length >= 2) {
        dynasty = bareDynasty[1];
        rest = rest.slice(bareDynasty[0].length);
      }
    }
    // 汉·赵岐 注: a dot between the dynasty and the name.
    rest = rest.replace(/^[·・]/u, '');
    const role = ROLE_AT_END.exec(rest);
    if (!role) {
      // No role, but a dynasty set apart before a name (〔唐〕慧能, 清 王仕云, 汉·赵岐): the byline of a title line
      // that leaves the role out. A bare dynasty glued to what follows (唐詩三百首) is no byline.
      // A bracketed dynasty sets the name apart enough for a longer one (〔魏晉〕廬山夫人女婉); a bare one, a name
      // with no gap inside (明 帝 荀 朂 is a row of a list).
      if (!(bracketed || new RegExp(`^(?:${alt(DYNASTIES)})[\\s\\u3000·・]+\\S+$`, 'u').test(part.trim())) || !(bracketed ? /^\p{Script=Han}{2,6}$/u : /^\p{Script=Han}{2,5}$/u).test(rest)) return null;
      // 唐 王冰次: arranged (and annotated) by, a role only so placed (廄庫為次 is a sentence).
      const arranged = /^(\p{Script=Han}{2,4})次$/u.exec(rest);
      out.push({ ...(dynasty ? { dynasty } : {}), name: arranged ? arranged[1] : rest, role: arranged ? '次注' : '' });
      continue;
    }
    // 賈公彦等撰: the 等 (and others) is not part of the name.
    // 天竺三藏鳩摩羅什譯, 沙門某譯: a translator's title before the name is not the name.
    // 平陽沙門釋法顯譯, 京兆府靜法寺沙門慧菀述, 終南山釋道宣述: a monk's place, temple and 釋 before his name are not his name.
    // 上陽子陳觀吾註: a sobriquet ending in 子 before the name is not the name either.
    const name = rest
      .slice(0, rest.length - role[1].length)
      .replace(/等$/u, '')
      // 北周漢中郡守前司隸臣甄鸞 (重述), 唐朝議大夫…臣李淳風等奉勑 (注釋): the offices before 臣, and 奉勑, are no name.
      .replace(/(?:等)?奉[勑敕勅詔诏]$/u, '')
      .replace(/^\p{Script=Han}{2,24}臣(?=\p{Script=Han}{2,4}$)/u, '')
      .replace(/^(?:\p{Script=Han}{0,4}?三藏(?:法師|法师)?|\p{Script=Han}{0,8}?(?:沙門|沙门))(?=\p{Script=Han}{2})/u, '')
      .replace(/^\p{Script=Han}{0,6}?[釋释](?=\p{Script=Han}{2,3}$)/u, '')
      .replace(/^\p{Script=Han}{1,2}子(?=\p{Script=Han}{2,4}$)/u, '')
      // 梁通事舍人東莞劉勰, 唐四門助敎邢璹: after a dynasty, an office (and the place after it) before the name are not the
      // name; without one the line is more likely a title (送某學士奉詔歸省序, 某陽刺史挽詞某註).
      .replace(dynasty ? OFFICE_BEFORE_NAME : /^$/u, '');
    if (!name || Array.from(name).length > 6 || !/^\p{Script=Han}+$/u.test(name)) return null;
    out.push({ ...(dynasty ? { dynasty } : {}), name, role: role[1] });
  }
  return out.length > 0 ? out : null;
}

/** Offices and ranks a byline gives before a name (with the place after them): the name is the last two or three characters. */
const OFFICE_BEFORE_NAME = /^\p{Script=Han}{0,8}?(?:舍人|進士|进士|學士|学士|博士|助敎|助教|教授|侍郎|郎中|太守|刺史|大夫|貢士|贡士|庠生|處士|处士|門人|门人)(?:\p{Script=Han}{2}(?=\p{Script=Han}{2}$))?(?=\p{Script=Han}{2,3}$)/u;

/** A byline line, or one after a chapter's name and white space (隱公第一　范甯集解, as Kanripo's SBCK texts write it). */
export function bylineIn(line: string): Contributor[] | null {
  const chapter = CHAPTER_THEN_GAP.exec(line);
  // 周南關雎詁訓傳第一　毛詩國風　鄭氏箋: after the chapter, the part and then the byline, each after a gap.
  const last = chapter ? line.slice(chapter[0].length).split(/[\s\u3000]+/u).pop() : undefined;
  return parseByline(line) ?? authorLine(line) ?? (chapter ? parseByline(line.slice(chapter[0].length)) ?? (last ? parseByline(last) : null) : null);
}

/** A Wikisource or 中華文庫 author line: `作者：春秋 孫武`, `作者：桓寬（漢）`. The author wrote the work: 撰. */
function authorLine(line: string): Contributor[] | null {
  const m = /^作者[:：][\s\u3000]*(.+)$/u.exec(line);
  if (!m) return null;
  const rest = m[1].trim();
  const after = new RegExp(`^(\\p{Script=Han}{2,6})[（(〔]\\s*(${alt(DYNASTIES)})\\s*[）)〕]$`, 'u').exec(rest);
  if (after) return [{ dynasty: after[2], name: after[1], role: '撰' }];
  const before = new RegExp(`^(?:[（(〔]?(${alt(DYNASTIES)})[）)〕]?[\\s\\u3000]*)?(\\p{Script=Han}{2,6})$`, 'u').exec(rest);
  return before ? [{ ...(before[1] ? { dynasty: before[1] } : {}), name: before[2], role: '撰' }] : null;
}
const CHAPTER_THEN_GAP = new RegExp(`^\\S{1,12}第[${NUMERAL}]+[\\s\\u3000]+`, 'u');

/**
 * The work's name in a title part: without a separator left at its end (春秋繁露| of chtxt's `書名|〔漢〕某 撰`)
 * or the other name in brackets after it (文子〔通玄真經〕, 原本玉篇(殘卷)).
 */
function titlePart(part: string): string {
  const t = withoutVolume(part.replace(/[\s\u3000|｜/／\\\-－—:：]+$/u, ''));
  const alias = /^(\p{Script=Han}{2,20}?)[\s\u3000]*(?:〔[^〔〕]{1,12}〕|（[^（）]{1,12}）|\([^()]{1,12}\))$/u.exec(t);
  return alias && isTitle(alias[1]) ? alias[1] : t;
}

/** An author and the work in 〈〉 or 《》 after the name (司馬相如〈上林賦〉, a page's title). */
const NAME_THEN_WORK = /^(\p{Script=Han}{2,4})[〈《]([^〈〉《》]{1,20})[〉》]$/u;

/** A title line, perhaps with its byline: `書名　（清）某某撰`, `书名汉某某注、唐某某疏`, `書名|〔漢〕某某 撰`. */
export function splitTitleLine(line: string): { title: string; contributors: Contributor[] } | null {
  const text = bare(line);
  if (!text || Array.from(text).length > 60) return null;
  const named = NAME_THEN_WORK.exec(text);
  if (named && isTitle(named[2])) return { title: named[2], contributors: [{ name: named[1], role: '' }] };
  // The byline begins at the first place the rest of the line reads as one.
  const chars = Array.from(text);
  for (let i = 1; i < chars.length; i++) {
    const rest = chars.slice(i).join('');
    const separated = /^[|｜]/u.test(rest);
    if (!separated && !/^[\s\u3000（(〔［\[【﹝]/u.test(rest) && !BARE_DYNASTY.test(rest)) continue;
    const contributors = parseByline((separated ? rest.slice(1) : rest).trim());
    if (contributors) {
      const title = titlePart(chars.slice(0, i).join('').trim());
      return isTitle(title) ? { title, contributors } : null;
    }
  }
  const title = titlePart(text);
  return isTitle(title) ? { title, contributors: [] } : null;
}

export function isTitle(text: string): boolean {
  const n = Array.from(text).length;
  // A dynasty alone (宋, of a byline 宋　朱子　编) names no work.
  return n >= 1 && n <= 20 && !DYNASTY_ALONE.test(text) && /\p{Script=Han}/u.test(text) && !NOT_A_TITLE.some((r) => r.test(text)) && !/[<>()（）〔〕【】{}\[\]/~*@#&=]/u.test(text);
}

/** The 提要's byline: the first clause after the title and its count of juan that reads as one (…五卷，元李文仲撰。). */
function tiyaoByline(after: string): Contributor[] | null {
  const clause = /^[，,]?(?:舊本題|旧本题|舊題|旧题|題|题)?([^，。；,]{2,16})/u.exec(after);
  if (!clause) return null;
  // An unpunctuated 提要 runs on after the byline (秦呂不韋撰漢高誘注不韋事蹟…): the shortest start that is one, with its dynasty.
  const chars = Array.from(clause[1]);
  for (let n = 3; n <= chars.length; n++) {
    const found = parseByline(chars.slice(0, n).join(''));
    if (found && (found[0].dynasty || n === chars.length)) return found;
  }
  return null;
}

/** Lines that are no text: org and chtxt header lines (#+TITLE, #下載…), property drawers, a line of page markers. */
const HEADER_LINE = /^#[+ ]|^#$|^#[^#\s]|^:|^<[^>]*>[¶]?$/u;

/** How many lines of the text are headings of each kind: `#`, `##` … by level, chtxt's `○`. */
export function headingKinds(text: string): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const l of text.replace(/\r\n?/g, '\n').split('\n')) {
    const h = /^(#{1,6})\s|^[\s\u3000]*(○)/u.exec(l);
    if (h) kinds.set(h[1] ?? h[2], (kinds.get(h[1] ?? h[2]) ?? 0) + 1);
  }
  return kinds;
}

/**
 * Whether a heading line at the head names the work: one of a kind the text
 * repeats (## 第一章 … ## 第二章, ○ 題/作者 a poem) names a part, unless its
 * byline, not after a slash, shows it is the work's (## 周書〔唐〕令狐德棻).
 */
export function namesTheWorkHere(line: string, hasByline: boolean, kinds: ReadonlyMap<string, number>): boolean {
  const kind = /^(#{1,6})\s|^[\s\u3000]*(○)/u.exec(line);
  if (!kind) return true;
  const repeated = (kinds.get(kind[1] ?? kind[2]) ?? 0) >= (kind[2] ? 3 : 2);
  return !repeated || (hasByline && !/[/／]/u.test(line));
}

/** The work in a page's title that joins it to its part: 管子-形勢解, 紅樓夢．第一回, 徐霞客游记 楚游日记. */
function workOf(title: string): string {
  const parts = title.trim().split(/[\s\u3000]*[-－—|｜．]+[\s\u3000]*|[\s\u3000]+/u);
  return parts.length > 1 && Array.from(parts[0]).length >= 2 && isTitle(parts[0]) ? parts[0] : title;
}

/** A byline after the volume on the line that names the work (蒙求集註卷上　　唐　李　瀚　撰). */
function sameLineByline(line: string, title: string): Contributor[] | null {
  const m = new RegExp(`[卷巻](?:[第之]?[${NUMERAL}]+|[上中下])[\\s\\u3000]+(\\S.*)$`, 'u').exec(bare(line));
  return m ? bylineOf(m[1], title) : null;
}

/** The byline lines right under a line (宋　徐子光　註 under 唐　李瀚　撰), up to the first that is none. */
function bylinesUnder(lines: readonly string[], at: number, bylineAt: (l: string) => Contributor[] | null): Contributor[] {
  const out: Contributor[] = [];
  for (let k = at + 1; k < Math.min(lines.length, at + 4); k++) {
    // (Or one over two columns, with its dynasty: 後秦龜茲國三藏法師 / 鳩摩羅什奉　詔譯.)
    const two = k + 1 < lines.length && bare(lines[k]) !== '' && !/[，。；：]/u.test(lines[k]) ? bylineAt(bare(lines[k]) + bare(lines[k + 1])) : null;
    const b = bylineAt(lines[k]) ?? (two?.[0]?.dynasty ? two : null);
    if (b && b === two) k++;
    if (b) out.push(...b);
    else if (out.length > 0 || (bare(lines[k]) !== '' && !HEADER_LINE.test(lines[k].trim()))) break;
  }
  return out;
}

const TIYAO = /(?:[【(（]?臣\/?[】)）]?等[謹谨][案按])[，,]?[《〈]?([^\s\u3000，。《》〈〉]{1,20}?)[》〉]?(?:[一二三四五六七八九十百]+卷|，|。)/u;
const CONTENTS = /^(.{1,20}?)[\s\u3000]*目[录錄録]$/u;
const VOLUME_LINE = new RegExp(`^(\\p{Script=Han}{1,16}?)[卷巻][第之]?[${NUMERAL}]+$`, 'u');
const SIKU_PATH = /^<[經经史子集]部[,，][^<>\n]*[,，]([^,，<>\n]+)>$/u;

/**
 * Whether a byline's name is the work's title, not a person: a preface's or
 * a commentary's heading reads as a name and a role (孔子家語序, 鬻子原序,
 * 御製重刻通典序, 圣谕乐本原疏 in 圣谕乐本解说). A name that holds the
 * title, or that goes on past two or more characters it shares with the
 * title's start, names the work; one the title begins with is an author's
 * (韓非 撰 韓非子).
 */
export function namesTheWork(name: string, title: string): boolean {
  if (name.includes(title)) return true;
  const a = Array.from(name);
  const b = Array.from(title);
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return shared >= 2 && shared < a.length;
}

/**
 * A byline line of a work, not its preface's heading (namesTheWork); after
 * the work's title and a gap, what follows it (鬻子　　唐　逄行珪　注).
 */
function bylineOf(line: string, title: string): Contributor[] | null {
  const gap = line.startsWith(title) ? /^[\s\u3000]+/u.exec(line.slice(title.length)) : null;
  const found = bylineIn(gap ? line.slice(title.length + gap[0].length) : line);
  // 周易略例序: the work's name read as a dynasty (周) and a name (易略例), then a role (序).
  return found && !found.some((c) => namesTheWork(c.name, title) || namesTheWork((c.dynasty ?? '') + c.name, title)) ? found : null;
}

/** The byline after a gap on the work's volume title line (書經集傳卷一　　宋　蔡沈　撰), or null. */
function volumeByline(line: string, title: string): Contributor[] | null {
  const m = VOLUME_THEN_GAP.exec(line);
  if (!m) return null;
  if (m[1] === title) return parseByline(m[2]!);
  // The work's name the volumes give, shorter or longer than the metadata's (王氏農書: 農書卷一　元　王禎　撰): a byline with its dynasty.
  const related = Array.from(m[1]).length >= 2 && (title.includes(m[1]) || m[1].includes(title));
  const byline = related ? parseByline(m[2]!) : null;
  return byline?.[0]?.dynasty ? byline : null;
}
const VOLUME_THEN_GAP = new RegExp(`^(\\S{1,30}?)[卷巻][第之]?(?:[${NUMERAL}]+[上中下]?|[上中下])[\\s\\u3000]+(\\S.*)$`, 'u');

/**
 * The work's title and byline from the head of a text (its first 80 lines) and
 * the metadata the importer read. Null when the text names no work.
 */
export function findTitle(text: string, metaTitle?: string): TitleFinding | null {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').slice(0, 80);
  // The byline on the next lines, else the first in the head (a 四庫 text's stands under its volume title, after the 提要).
  const contributorsNear = (i: number, title: string): Contributor[] => {
    for (let k = i + 1; k < Math.min(lines.length, i + 4); k++) {
      const b = bylineOf(bare(lines[k]), title);
      if (b) return b;
    }
    // Not the title's own line: 南征錄 reads as a name (南征) and a role (錄). So far from the title, only a byline with
    // its dynasty: a line of text that ends in a role's character (解说此敬述) or a row of a contents list (相魯　始誅　王言解) is none.
    return lines.map((l, k) => (k === i ? null : bylineOf(bare(l), title))).find((b) => b !== null && b[0].dynasty !== undefined) ?? [];
  };
  // An importer's title may be a first line 書名目录: the work is what stands before 目录; a page's title may join the
  // work and its part (管子-形勢解, 徐霞客游记 楚游日记), or the author and the work (司馬相如〈上林賦〉).
  const metaLine = metaTitle ? splitTitleLine(workOf(withoutVolume(CONTENTS.exec(metaTitle)?.[1] ?? metaTitle))) : null;
  const meta = metaLine?.title;
  if (meta && isTitle(meta)) {
    // On the line that names the work (某傳卷第一　　宋　某某　撰) and right under it, else under the text's first line
    // (a heading, then 王弼注), else the 提要's, else anywhere with its dynasty; not the title's own line (尔雅注疏
    // reads as a name, 尔雅, and a role, 注疏).
    const names = (l: string): boolean => withoutVolume(bare(l)) === meta;
    const bylineAt = (l: string): Contributor[] | null => (names(l) ? null : bylineOf(bare(l), meta));
    const named = lines.findIndex(names);
    const first = lines.findIndex((l) => bare(l) !== '' && !HEADER_LINE.test(l.trim()));
    // A volume's title line with its byline after a gap (書經集傳卷一　　宋　蔡沈　撰, as 四庫 texts write it), and a second
    // contributor's line under it (魏　何晏　集解, then 梁　皇侃　義疏).
    const ownAt = lines.findIndex((l) => volumeByline(bare(l), meta) !== null);
    const own = ownAt >= 0 ? [...volumeByline(bare(lines[ownAt]), meta)!, ...bylinesUnder(lines, ownAt, bylineAt)] : [];
    // Under the line that names the work; else under the text's first line (a chapter's title) only when set low, as prints set
    // a byline (周易上經乾傳第一 / 　　　　　　王弼注): a line of text there ending in a role's character is none.
    const at = named >= 0 ? named : first >= 0 && /^\u3000{4,}/u.test(lines[first + 1] ?? '') ? first : -1;
    const near = own.length > 0 ? own : at >= 0 ? [...(sameLineByline(lines[at], meta) ?? []), ...bylinesUnder(lines, at, bylineAt)] : [];
    const tiyao = lines.map((l) => TIYAO.exec(l.replace(/[¶\s\u3000]/gu, ''))).find((m) => m !== null);
    const described = !near.length && !metaLine.contributors.length && tiyao ? tiyaoByline(tiyao.input.slice((tiyao.index ?? 0) + tiyao[0].length)) : null;
    // Anywhere, with its dynasty, but not under another's preface (《妙法蓮華經》弘傳序 / 唐終南山釋道宣述: the preface's author;
    // under 鬻子序, the work's own, 唐 逄行珪 注 is the work's byline).
    const prefaced = (k: number): boolean => {
      const heading = bare(lines.slice(0, k).reverse().find((l) => bare(l) !== '') ?? '');
      return /[序敘叙]$/u.test(heading) && heading.slice(0, -1) !== meta;
    };
    const far = lines.map((l, k) => (prefaced(k) ? null : bylineAt(l))).find((b) => b !== null && b[0].dynasty !== undefined);
    const found = near.length ? near : metaLine.contributors.length ? metaLine.contributors : (described ?? far);
    return { title: meta, from: 'metadata', contributors: found ?? [], ...(described ? { bylineFromTiyao: true as const } : {}) };
  }
  for (const [i, line] of lines.entries()) {
    const m = SIKU_PATH.exec(line.trim());
    if (m && isTitle(m[1])) return { title: m[1], from: 'siku header', line: i + 1, contributors: contributorsNear(i, m[1]) };
  }
  for (const [i, line] of lines.entries()) {
    const m = TIYAO.exec(line);
    if (m && isTitle(m[1])) return { title: m[1], from: 'tiyao', line: i + 1, contributors: tiyaoByline(line.slice((m.index ?? 0) + m[0].length)) ?? contributorsNear(i, m[1]) };
  }
  for (const [i, line] of lines.entries()) {
    const m = CONTENTS.exec(bare(line));
    if (m && isTitle(withoutVolume(m[1]))) return { title: withoutVolume(m[1]), from: 'contents line', line: i + 1, contributors: contributorsNear(i, withoutVolume(m[1])) };
  }
  // The 四庫 banner: the line after it names the work (and the volume).
  for (const [i, line] of lines.entries()) {
    if (!/^[\s\u3000]*(?:欽定四庫全書|钦定四库全书)/u.test(line)) continue;
    for (let k = i + 1; k < Math.min(lines.length, i + 4); k++) {
      const found = splitTitleLine(lines[k]);
      if (found) return { ...found, from: 'siku header', line: k + 1, contributors: found.contributors.length ? found.contributors : contributorsNear(k, found.title) };
    }
  }
  // The first line of text, or the first heading: one of a level that other headings share (## 第一章 … ## 第二章) only
  // with its byline (## 周書〔唐〕令狐德棻), else it names a part, not the work.
  const first = lines.findIndex((l) => bare(l) !== '' && !HEADER_LINE.test(l.trim()));
  const kinds = headingKinds(text);
  for (const [i, line] of lines.entries()) {
    if (i !== first && !/^#{1,3}\s/u.test(line)) continue;
    const found = splitTitleLine(line.replace(/<[^>]*>/gu, ''));
    if (found && !namesTheWorkHere(line, found.contributors.length > 0, kinds)) continue;
    if (found) return { ...found, from: /^#/u.test(line) ? 'heading' : 'first line', line: i + 1, contributors: found.contributors.length ? found.contributors : contributorsNear(i, found.title) };
  }
  // Last, a volume line that names its work (墨子卷之二, 某書卷第三) where nothing else does.
  for (const [i, line] of lines.entries()) {
    const m = VOLUME_LINE.exec(bare(line));
    if (m && isTitle(m[1])) return { title: m[1], from: 'volume line', line: i + 1, contributors: contributorsNear(i, m[1]) };
  }
  return null;
}

/** Roles of a commentator, an editor or a collator: who has one of them did not write the work. */
const COMMENTARY_ROLES = new Set(['重述', '注釋', '注释', '注', '註', '疏', '箋', '笺', '傳', '传', '解', '集解', '集注', '集註', '集傳', '集传', '音義', '音义', '正義', '正义', '索隱', '索隐', '補注', '补注', '章句', '釋文', '释文', '校注', '校勘', '箋注', '笺注', '注疏', '御注', '御註', '次注', '次', '校', '訂', '订', '評', '评', '重修', '序']);
/** A title that names a commentary (儀禮注疏, 楚辭集注, 難經本義): its commentator is its author. */
const COMMENTARY_WORK = /(?:注|註|疏|箋|笺|解|傳|传|章句|音義|音义|正義|正义|本義|本义|集說|集说|通解|考證|考证|評|评)$/u;

/**
 * Who wrote the work, of the byline's contributors: the first whose role is an
 * author's (撰, 著, 編, 譯, or none given); where all are commentators, the
 * first of them only when the title names the commentary itself (周易 王弼注:
 * no author named; 楚辭集注 朱子集註: 朱子).
 */
export function authorOf(title: string, contributors: readonly Contributor[]): Contributor | undefined {
  return contributors.find((c) => !COMMENTARY_ROLES.has(c.role)) ?? (COMMENTARY_WORK.test(title) ? contributors[0] : undefined);
}

/** Where the byline of a title line starts (the index in the line), when the line is a title and its byline. */
export function bylineStartIn(content: string): number | undefined {
  const found = splitTitleLine(content);
  if (!found?.contributors.length) return undefined;
  const at = content.indexOf(found.title);
  if (at < 0) return undefined;
  for (let i = at + found.title.length; i < content.length; i++) {
    if (/[\s\u3000]/u.test(content[i])) continue;
    if (parseByline(content.slice(i).trim())) return i;
  }
  return undefined;
}
