import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findTitle, parseByline, splitTitleLine } from './title.js';

const found = (text: string, meta?: string) => {
  const f = findTitle(text, meta);
  return f ? `${f.title}|${f.from}|${f.contributors.map((c) => [c.dynasty, c.name, c.role].filter(Boolean).join(' ')).join(';')}` : null;
};

test('the title and byline from the first line: the work alone, each contributor with dynasty and role', () => {
  assert.equal(found('仪礼注疏汉郑玄注、唐贾公彦疏\n●卷一士冠礼第一\n'), '仪礼注疏|first line|汉 郑玄 注;唐 贾公彦 疏');
  assert.equal(found('周易正义　（唐）孔颖达撰\n●目录\n卷一\n'), '周易正义|first line|唐 孔颖达 撰');
  assert.equal(found('## 書名 〔漢〕某某 撰 〔唐〕某甲 注\n\n正文。\n'), '書名|heading|漢 某某 撰;唐 某甲 注');
  assert.equal(found('論語集解目録\n學而第一\n'), '論語集解|contents line|');
  // The volume 卷上 is not the work's; 《》 around the name, 等撰 and 御注 as bylines write them.
  assert.equal(found('扬子法言卷上\n宋司马光集注\n学行卷第一\n'), '扬子法言|first line|宋 司马光 集注');
  assert.equal(found('《周礼注疏》 唐 贾公彦 等撰\n\n　　●周礼正义序\n'), '周礼注疏|first line|唐 贾公彦 撰');
  assert.equal(found('欽定四庫全書\n　孝經注疏卷一¶\n　　唐玄宗明皇帝御注　宋邢昺疏¶\n'), '孝經注疏|siku header|唐 玄宗明皇帝 御注;宋 邢昺 疏');
  // Each name and its role apart (汉 赵岐 注 宋 孙奭 疏); a chapter before the byline (隱公第一　范甯集解) is no part of a name;
  // an importer's title line 書名目录 is the work before 目录.
  assert.equal(found('《孟子注疏》 汉 赵岐 注 宋 孙奭 疏\n\n　　●卷一上\n'), '孟子注疏|first line|汉 赵岐 注;宋 孙奭 疏');
  assert.equal(found('#+TITLE: 某傳\n某傳卷第一¶\n隱公第一　　范甯集解¶\n', '某傳'), '某傳|metadata|范甯 集解');
  assert.equal(found('荀子集解目录\n　　●卷一\n', '荀子集解目录'), '荀子集解|metadata|');
});

test('the 提要, the 四庫 header and the corpus metadata name the work; a byline on the next lines is read too', () => {
  assert.equal(found('欽定四庫全書\n提要\n臣等謹案春秋集傳十卷宋某某撰\n'), '春秋集傳|tiyao|宋 某某 撰');
  assert.equal(found('# 干祿字書\n\n## 提要\n\n臣等謹案，干祿字書一卷，唐顔元孫撰。\n'), '干祿字書|tiyao|唐 顔元孫 撰');
  // Negative control: a 提要 whose next clause is not a byline names no contributor.
  assert.equal(found('臣等謹案，某書三卷，不著撰人名氏。\n'), '某書|tiyao|');
  assert.equal(found('欽定四庫全書\n　儀禮注疏卷五¶\n　　漢鄭氏注　唐陸德明音義　賈公彦疏¶\n'), '儀禮注疏|siku header|漢 鄭氏 注;唐 陸德明 音義;唐 賈公彦 疏');
  assert.equal(found('<經部,禮類,儀禮之屬,儀禮注疏>\n正文\n'), '儀禮注疏|siku header|');
  // The byline under the volume title, after the 提要, lines below the header.
  assert.equal(found('<史部,正史類,某書>\n欽定四庫全書\n　史部二\n某書　　史部\n提要\n臣等謹案某書二十卷明某某撰某某字某\n某書卷一\n　　明　某某　撰\n'), '某書|siku header|明 某某 撰');
  assert.equal(found('# -*- mode: mandoku-view -*-\n#+TITLE: 儀禮\n', '儀禮'), '儀禮|metadata|');
});

test('never a chapter, a volume, a category, the 四庫 banner, a contents line or a sentence (negative controls)', () => {
  assert.equal(found('## 卷一·五帝本紀第一\n\n文。\n'), null);
  assert.equal(found('儒家类\n集部一\n'), null);
  assert.equal(found('●卷二士冠礼第一\n陈服于房中。\n'), null);
  assert.equal(found('●目录\n'), null);
  assert.equal(found('某书\n●目录\n卷一\n'), '某书|first line|', '目录 is no byline');
  assert.equal(found('卷上\n甲乙丙。\n'), null);
  assert.equal(found('子曰：學而時習之，不亦說乎？\n'), null);
  assert.equal(found('#下載最新版本，請訪問: https://example.org/x\n# 某書\n'), '某書|heading|');
  assert.equal(splitTitleLine('士冠禮第一'), null);
});

test('a byline: a bare dynasty only before a name of two characters or more (宋咸注 is 宋咸); not a byline when a part has no role', () => {
  assert.deepEqual(parseByline('宋咸注'), [{ name: '宋咸', role: '注' }]);
  assert.deepEqual(parseByline('宋司馬光集注'), [{ dynasty: '宋', name: '司馬光', role: '集注' }]);
  assert.equal(parseByline('天子之禮'), null);
  assert.equal(parseByline('漢鄭玄注、某某'), null);
  // Names that share one role; a name with no dynasty of its own takes the one before it (as 賈公彦 takes 唐).
  assert.deepEqual(parseByline('晋李轨、宋宋咸、吴秘注'), [{ dynasty: '晋', name: '李轨', role: '注' }, { dynasty: '宋', name: '宋咸', role: '注' }, { dynasty: '宋', name: '吴秘', role: '注' }]);
  // Negative controls: a chapter name glued to a byline, a title line's metadata key, 書名目录.
  assert.equal(parseByline('隱公第一　范甯集解'), null);
  assert.equal(found('#+TITLE: 某傳\n正文\n', '某傳'), '某傳|metadata|');
  assert.equal(parseByline('荀子集解目录'), null);
});

test('more places a work and its byline stand: a running volume line, pandoc\'s % block, 作者： lines, an unpunctuated 提要, a part before the byline, a translator', () => {
  // A volume line names the work when nothing else does (an excerpt that starts in mid-volume).
  assert.equal(found('入國而不存其士，則亡國矣。\n墨子卷之二\n尚賢上第八\n子墨子言曰：「某。」\n'), '墨子|volume line|');
  // Negative control: a text that names no work and has no volume line stays untitled.
  assert.equal(found('入國而不存其士，則亡國矣。\n尚賢上第八\n'), null);
  assert.equal(found('% 論衡\n% 〔漢〕王充 撰\n\n## 逢遇篇\n'), '論衡|first line|漢 王充 撰');
  assert.equal(found('孫子兵法\n作者：春秋 孫武\n\n計篇\n'), '孫子兵法|first line|春秋 孫武 撰');
  assert.equal(found('《鹽鐵論》\n　　作者：桓寬（漢）\n\n本議第一\n'), '鹽鐵論|first line|漢 桓寬 撰');
  // Negative control: an 作者 line with no name the rules can read names no one.
  assert.equal(found('某書\n作者：不詳，見某某書序\n\n某篇\n'), '某書|first line|');
  assert.equal(found('欽定四庫全書\n提要\n臣等謹案呂氏春秋二十六卷舊本題秦呂不韋撰漢高\n誘注不韋事蹟具史記本傳\n'), '呂氏春秋|tiyao|秦 呂不韋 撰');
  assert.equal(found('#+TITLE: 毛詩\n毛詩卷第一¶\n周南關雎詁訓傳第一　　毛詩國風　　鄭氏箋¶\n', '毛詩'), '毛詩|metadata|鄭氏 箋');
  // Negative control: a chapter and a part with no byline after them name no one.
  assert.equal(found('#+TITLE: 毛詩\n毛詩卷第一¶\n周南關雎詁訓傳第一　　毛詩國風¶\n', '毛詩'), '毛詩|metadata|');
  assert.deepEqual(parseByline('姚秦天竺三藏鳩摩羅什譯'), [{ dynasty: '姚秦', name: '鳩摩羅什', role: '譯' }]);
  // The title's own line is no byline (尔雅注疏 ends in 注疏, 南征錄 in 錄); the byline under it is.
  assert.equal(found('尔雅注疏\n晋郭璞注　宋邢昺疏\n　　●卷一释诂第一\n', '尔雅注疏'), '尔雅注疏|metadata|晋 郭璞 注;宋 邢昺 疏');
  assert.equal(found('# 南征錄\n\n## 卷一 武帝紀第一\n\n某某。\n'), '南征錄|heading|');
});

test('a preface\'s or a commentary\'s heading is no byline, though it ends in 序 or 疏; a byline after the work\'s title and a gap is', () => {
  // 書名序, 書名原序, 御製重刻書名序, and 書名原疏 in a work called 書名解說: the work, not a person, before the role.
  assert.equal(found('#+TITLE: 某子\n某子序¶\n　某子者某國人也¶\n', '某子'), '某子|metadata|');
  assert.equal(found('#+TITLE: 某子\n某子原序¶\n文¶\n', '某子'), '某子|metadata|');
  assert.equal(found('#+TITLE: 某典\n御製重刻某典序¶\n文¶\n', '某典'), '某典|metadata|');
  assert.equal(found('# 某樂本解說\n\n　　某樂本原疏\n\n文。\n'), '某樂本解說|heading|');
  // The byline under the preface heading is still read.
  assert.equal(found('#+TITLE: 某子\n某子序¶\n　　唐　某甲　注¶\n', '某子'), '某子|metadata|唐 某甲 注');
  // Negative control: an author whose name the title begins with (韓非 撰 韓非子) is a person.
  assert.equal(found('韓非子　韓非撰\n文。\n'), '韓非子|first line|韓非 撰');
  // The title, a gap, the byline (鬻子　　唐　逄行珪　注): the byline alone.
  assert.equal(found('#+TITLE: 某子\n欽定四庫全書¶\n　某子　　　　唐　某甲　注¶\n', '某子'), '某子|metadata|唐 某甲 注');
});

test('far from the title, only a byline with its dynasty: not a sentence ending in a role\'s character, nor a row of contents', () => {
  const body = Array.from({ length: 8 }, () => '文文文文文文文文。').join('\n');
  assert.equal(found(`#+TITLE: 某書\n${body}\n　　解說此敬述\n`, '某書'), '某書|metadata|');
  assert.equal(found(`#+TITLE: 某書\n${body}\n　　相魯　始誅　王言解¶\n`, '某書'), '某書|metadata|');
  // Control: the same place, a byline with its dynasty, is read.
  assert.equal(found(`#+TITLE: 某書\n${body}\n　　明　某某　撰\n`, '某書'), '某書|metadata|明 某某 撰');
});

test('a 提要 as 殆知閣 writes it in simplified script (【臣】等谨按) names the work; a count of juan (一卷) and a dynasty alone are no title', () => {
  assert.equal(found('　　钦定四库全书　　　经部六\n　　某经刋误　　　　孝经类\n　　提要\n　　【臣】等谨按某经刋误一卷宋某子撰书成于某年\n　　宋　某子　编\n'), '某经刋误|tiyao|宋 某子 撰');
  assert.equal(found('佛说某某经一卷\n\n西晋三藏法师某某某译\n'), '佛说某某经|first line|西晋 某某某 译');
  // A dynasty alone is never the title (宋, of a byline line 宋　朱子　编).
  assert.equal(found('宋\n某某某某。\n'), null);
});

test('a whole work\'s juan: the byline on its volume line after a gap, a second contributor under it, one set low under the first chapter', () => {
  const head = '#+TITLE: 書經集傳\n<pb:KR1b0017_WYG_001-1a>¶\n欽定四庫全書¶\n　書經集傳卷一　　　　　　宋　蔡沈　撰¶\n　虞書(虞舜氏因以為有天下之號也)¶\n';
  assert.equal(found(head, '書經集傳'), '書經集傳|metadata|宋 蔡沈 撰');
  assert.equal(found('　　論語集解義疏卷三　　　魏　何晏　集解¶\n¶\n　　梁　皇侃　義疏¶\n', '論語集解義疏'), '論語集解義疏|metadata|魏 何晏 集解;梁 皇侃 義疏');
  assert.equal(found('　蒙求集註卷上　　　　　唐　李　瀚　撰¶\n　　　　　　　　　　　　宋　徐子光　註¶\n王戎簡要裴楷清通¶\n', '蒙求集註'), '蒙求集註|metadata|唐 李瀚 撰;宋 徐子光 註');
  assert.equal(found('<pb:KR1a0006_SBCK_001-1a>¶\n周易上經乾傳第一¶\n　　　　　　　　　　王弼注¶\n䷀(乾下/乾上)乾元亨利貞¶\n', '周易'), '周易|metadata|王弼 注');
  // Negative controls: 周 of 逸周書 is no dynasty; the volume line without a byline after its gap has none; a byline not set
  // low under the first line needs its dynasty.
  assert.equal(found('　逸周書卷一　　　　　　　晉　孔晁　注¶\n', '逸周書'), '逸周書|metadata|晉 孔晁 注');
  assert.equal(found('　書經集傳卷一　　虞書¶\n', '書經集傳'), '書經集傳|metadata|');
  assert.equal(found('周易上經乾傳第一¶\n王弼注¶\n', '周易'), '周易|metadata|');
  assert.equal(found('* 序品第一¶\n　　天竺三藏鳩摩羅什譯¶\n', '妙法蓮華經'), '妙法蓮華經|metadata|');
});

test('a preface named after the work with a dynasty\'s name in it (周易略例序) is no byline; a monk\'s place and 釋 are not his name', () => {
  assert.equal(found('周易略例序¶\n', '周易'), '周易|metadata|');
  assert.equal(found('周髀算經序¶\n', '周髀算經'), '周髀算經|metadata|');
  assert.deepEqual(parseByline('東晉平陽沙門釋法顯譯'), [{ dynasty: '東晉', name: '法顯', role: '譯' }]);
  assert.deepEqual(parseByline('京兆府靜法寺沙門　慧宛　述'), [{ name: '慧宛', role: '述' }]);
  assert.deepEqual(parseByline('呉陸璣撰'), [{ dynasty: '呉', name: '陸璣', role: '撰' }]);
  // An office, and the place after it, before the name (梁通事舍人東莞劉勰撰); not in a preface to someone (送某學士…序).
  assert.deepEqual(parseByline('梁通事舍人東莞劉勰撰'), [{ dynasty: '梁', name: '劉勰', role: '撰' }]);
  assert.deepEqual(parseByline('唐四門助敎邢璹注'), [{ dynasty: '唐', name: '邢璹', role: '注' }]);
  assert.equal(parseByline('送冯用韫学士奉诏归省序'), null);
  assert.equal(parseByline('陽刺史挽詞青松註'), null);
  // Negative control: a name that only ends in 釋's sound is kept whole; 釋 with one character after it is a name's.
  assert.deepEqual(parseByline('宋釋惠洪撰'), [{ dynasty: '宋', name: '惠洪', role: '撰' }]);
  assert.deepEqual(parseByline('釋名撰'), [{ name: '釋名', role: '撰' }]);
});

test('a translator\'s byline with the 擡頭 gap before 詔, over two columns, is read; a preface\'s author under another\'s preface is not the work\'s', () => {
  assert.deepEqual(parseByline('後秦龜茲國三藏法師鳩摩羅什奉　詔譯'), [{ dynasty: '後秦', name: '鳩摩羅什', role: '譯' }]);
  assert.equal(found('#+TITLE: 妙法蓮華經\n《妙法蓮華經》卷第二¶\n¶\n後秦龜茲國三藏法師¶\n鳩摩羅什奉　詔譯¶\n爾時舍利弗踊躍歡喜¶\n', '妙法蓮華經'), '妙法蓮華經|metadata|後秦 鳩摩羅什 譯');
  assert.equal(found('#+TITLE: 妙法蓮華經\n* 《妙法蓮華經》弘傳序¶\n¶\n唐終南山釋道宣述¶\n妙法蓮華經者統諸佛降靈之本致也¶\n', '妙法蓮華經'), '妙法蓮華經|metadata|');
  // Negative controls: under the work's own preface the byline is the work's; two lines of text are no byline.
  assert.equal(found('#+TITLE: 某子\n某子序¶\n　　唐　某甲　注¶\n', '某子'), '某子|metadata|唐 某甲 注');
  assert.equal(found('#+TITLE: 某經\n某經卷第二¶\n爾時舍利弗¶\n踊躍歡喜即起合掌¶\n', '某經'), '某經|metadata|');
});

test('a volume line naming the work shorter than its metadata (王氏農書: 農書卷一　元　王禎　撰) gives the byline, with its dynasty only', () => {
  const text = (line: string) => ['#+TITLE: 王氏農書', '<pb:KR3d0005_WYG_001-1a>¶', '欽定四庫全書¶', line, '　農桑通訣一¶', '神農氏姜姓母曰女登有媧氏之女為少典妃感神¶'].join('\n');
  assert.deepEqual(findTitle(text('　農書卷一　　　　　　　　元　王禎　撰¶'), '王氏農書')?.contributors, [{ dynasty: '元', name: '王禎', role: '撰' }]);
  // Controls: no dynasty after the gap, or another work's volume line: no byline from it.
  assert.deepEqual(findTitle(text('　農書卷一　　　　　　　　王禎　撰¶'), '王氏農書')?.contributors, []);
  assert.deepEqual(findTitle(text('　茶經卷一　　　　　　　　唐　陸羽　撰¶'), '王氏農書')?.contributors, []);
});
