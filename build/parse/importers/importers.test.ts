import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block, Volume } from '../../tree/types.js';
import { importDaizhige, importWikisource } from './corpus.js';
import { importDocsify, importMarkdown, importWikisourceMarkdown } from './markdown.js';
import { importLines } from './lines.js';
import { conventionsOf } from '../formats.js';
import { detectFormat } from '../detect.js';
import type { Inline } from '../../tree/types.js';
import { classifyVerseParagraph, importVerse } from './verse.js';
import { sourceOf, treeText } from '../test-helpers.js';

/** Each block as kind:text for compact comparison. */
const outline = (volumes: Volume[]) =>
  volumes.map((v) => ({
    title: v.title,
    number: v.number,
    blocks: v.children.map((b: Block) => `${b.type === 'heading' ? `h${b.depth}` : b.role + (b.layer ? `:${b.layer}` : '')} ${treeText(b)}`),
  }));

test('daizhige: category line, banner, volume title with byline, heading, labels with 記, closing title', () => {
  const src = sourceOf(['<經部,禮類,通禮之屬,禮書綱目', '', '欽定四庫全書', '', '禮書綱目卷九       婺源江永撰', '', '鄉射禮    嘉禮十四', '', '主人戒賓【戒猶警也】賓禮辭', '', '右戒賓 記大夫與則公士為賓', '', '乏參侯道【容謂之乏】右張侯 記【凡侯】鄉侯上个五尋', '', '右賓酢【主人之俎】', '', '禮書綱目卷九'].join('\n'));
  const [volume] = importDaizhige(src, 'x').volumes;
  assert.deepEqual(outline([volume]), [
    {
      title: '禮書綱目卷九',
      number: 9,
      blocks: ['title 欽定四庫全書', 'title 禮書綱目卷九', 'byline 婺源江永撰', 'h1 鄉射禮    嘉禮十四', 'text 主人戒賓戒猶警也賓禮辭', 'label 右戒賓', 'ji 記大夫與則公士為賓', 'text 乏參侯道容謂之乏', 'label 右張侯', 'ji 記凡侯鄉侯上个五尋', 'label 右賓酢主人之俎', 'title 禮書綱目卷九'],
    },
  ]);
});

test('daizhige: short item lines are headings; 卷一百十 is volume 110', () => {
  const src = sourceOf('欽定四庫全書\n\n禮書卷一百十\n\n宋 陳祥道 撰\n\n<經部,禮類,通禮之屬,禮書,卷一百十>\n\n鹿中【中者前跪】\n\n兕中\n\n鄉射記曰君國中射則皮樹中');
  const volumes = importDaizhige(src, 'x').volumes;
  assert.deepEqual(outline(volumes)[0].blocks, ['title 欽定四庫全書', 'title 禮書卷一百十', 'byline 宋 陳祥道 撰', 'h2 鹿中中者前跪', 'h2 兕中', 'text 鄉射記曰君國中射則皮樹中']);
  assert.equal(volumes[0].number, 110);
});

test('wikisource: page header left out, front matter, volumes closed by their title, whole-line 〈〉 commentary, headings', () => {
  const src = sourceOf(['礼经本义_(四库全书本)/全览 中华文库', '礼经本义 全览 |', '钦定四库全书 经部四', '〈臣〉等谨案礼经本义', '钦定四库全书', '礼经本义卷一', '无锡蔡徳晋撰', '嘉礼', '士冠礼', '〈髙紫超曰加冠于首曰冠〉', '筮于庙门', '〈筮者以蓍问吉凶也〉', '右筮日', '礼经本义卷一', '<经部,礼类,仪礼之属,礼经本义>', '钦定四库全书', '礼经本义卷二', '无锡蔡徳晋撰', '嘉礼', '士昏礼', '昏礼下达〈句〉纳采用雁', '礼经本义卷二'].join('\n'));
  const volumes = importWikisource(src, 'x').volumes;
  assert.deepEqual(outline(volumes), [
    { title: '礼经本义卷一', number: 1, blocks: ['title 钦定四库全书 经部四', 'front 臣等谨案礼经本义', 'title 钦定四库全书', 'title 礼经本义卷一', 'byline 无锡蔡徳晋撰', 'h1 嘉礼', 'h2 士冠礼', 'commentary:zhu 髙紫超曰加冠于首曰冠', 'text 筮于庙门', 'commentary:zhu 筮者以蓍问吉凶也', 'label 右筮日', 'title 礼经本义卷一'] },
    { title: '礼经本义卷二', number: 2, blocks: ['title 钦定四库全书', 'title 礼经本义卷二', 'byline 无锡蔡徳晋撰', 'h1 嘉礼', 'h2 士昏礼', 'text 昏礼下达句纳采用雁', 'title 礼经本义卷二'] },
  ]);
  assert.deepEqual(src.file.messages.map((m) => `${m.line} ${m.ruleId}`), ['1 source-chrome', '2 source-chrome', '15 catalogue-line']);
});

test('wikisource: a short line of running text after text is not a heading', () => {
  const src = sourceOf('礼经本义卷一\n无锡蔡徳晋撰\n士冠礼\n筮于庙门\n降盥如主人礼\n右筮日\n吊礼\n礼经本义卷一');
  const blocks = outline(importWikisource(src, 'x').volumes)[0].blocks;
  assert.deepEqual(blocks, ['title 礼经本义卷一', 'byline 无锡蔡徳晋撰', 'h2 士冠礼', 'text 筮于庙门', 'text 降盥如主人礼', 'label 右筮日', 'h2 吊礼', 'title 礼经本义卷一']);
});

test('verse: bylines, headings, verse lines, commentary, 【附注】 paragraphs', () => {
  const src = sourceOf(['元 舒天民 撰', '', '舒 恭 注', '', '六艺条目', '', '五礼【见周礼春官大宗伯】', '', '春见曰朝犹朝之早【曰朝之朝音潮】', '', '朝者欲其来之早也', '', '【附注】朱子曰众覜曰同', '', '夏见曰宗尊王之道'].join('\n'));
  assert.deepEqual(outline(importVerse(src, '六藝綱目').volumes), [
    { title: '六藝綱目', number: null, blocks: ['byline 元 舒天民 撰', 'byline 舒 恭 注', 'h1 六艺条目', 'h2 五礼见周礼春官大宗伯', 'text 春见曰朝犹朝之早曰朝之朝音潮', 'commentary:zhu 朝者欲其来之早也', 'commentary:fuzhu 朱子曰众覜曰同', 'text 夏见曰宗尊王之道'] },
  ]);
});

test('verse: the classifier reads the signs of commentary', () => {
  assert.equal(classifyVerseParagraph('禴薄也易东隣杀牛不如西隣之禴祭', '夏享曰禴百物未成其祭尚薄乐以旌诚', true), 'commentary');
  assert.equal(classifyVerseParagraph('槱音酉○司中司命文昌第五第四星', '司中司命风师雨师柴牲并燔谓之槱燎', true), 'commentary');
  assert.equal(classifyVerseParagraph('秋享曰尝新糓既升荐其馨香', '', false), 'verse');
  assert.equal(classifyVerseParagraph('二曰六乐云门咸池大韶大夏大濩大武', '一曰五礼吉礼居先凶礼宾军嘉礼终焉', true), 'verse');
  // A stanza of four-character phrases parallel to the verse before (the same opening), long as it is: verse, not commentary set in the 夾注.
  const upper = '射自左膘逹于右腢中心速死是为上杀以为干豆荐之宗庙【膘普沼反】';
  const lower = '射自左膘逹于右脾远心死缓是谓次杀以待宾客射自左膘逹于右骼中其肠胃以汚其脬其死尤缓是为下杀以充君庖【骼音格骨也】';
  assert.equal(classifyVerseParagraph(upper, '射禽必左亦分三等能合厥度为射之正', true), 'verse');
  assert.equal(classifyVerseParagraph(lower, '射自左膘逹于右腢中心速死是为上杀以为干豆荐之宗庙', true), 'verse');
  // Negative control: the same stanza after commentary, or after verse that opens otherwise, reads as commentary (its length).
  assert.equal(classifyVerseParagraph(lower, '射禽必左亦分三等能合厥度为射之正', true), 'commentary');
});

test('docsify: comments skipped, one paragraph a line, labels inside and at the head of lines', () => {
  const src = sourceOf('<!-- { "loadSidebar": true } -->\n　　乃张侯【侯谓所射布也　射食亦反】右张侯　记凡侯天子熊侯\n　　右速宾　记其牲狗也', 'p.md');
  assert.deepEqual(outline(importDocsify(src, '儀禮注疏').volumes)[0].blocks, ['text 乃张侯侯谓所射布也　射食亦反', 'label 右张侯', 'ji 记凡侯天子熊侯', 'label 右速宾', 'ji 记其牲狗也']);
});

test('markdown: # volumes, ## headings, {role} paragraphs, > commentary with {layer}', () => {
  const src = sourceOf('# 禮書綱目卷九\n\n{題}禮書綱目卷九\n\n## 鄉射禮\n\n主人戒賓【{音義}戒音界】\n\n> {附注}補注\n\n{記}記大夫與\n', 'm.md');
  assert.deepEqual(outline(importMarkdown(src, 'x').volumes), [
    { title: '禮書綱目卷九', number: 9, blocks: ['title 禮書綱目卷九', 'h1 鄉射禮', 'text 主人戒賓戒音界', 'commentary:fuzhu 補注', 'ji 記大夫與'] },
  ]);
});

/** Blocks with their notes shown: (layer|label:text), anchors as ¶ and <leaf>, glyphs as [value→replacement]. */
const shown = (nodes: readonly Inline[]): string =>
  nodes
    .map((n) => {
      switch (n.type) {
        case 'note':
          return `(${n.label ? n.label + '|' : ''}${n.layer}${n.footnote ? '^' + n.footnote : ''}:${shown(n.children)})`;
        case 'anchor':
          return n.kind === 'line' ? '¶' : `<${n.edition}:${n.juan}:${n.leaf}>`;
        case 'glyph':
          return `[${n.value}${n.replacement ? '→' + n.replacement : ''}${n.description ? '=' + n.description : ''}]`;
        case 'small':
          return `{small:${shown(n.children)}}`;
        case 'text':
          return n.data ? `${n.value}@${JSON.stringify(n.data)}` : n.value;
        default:
          return 'children' in n ? shown(n.children as Inline[]) : 'value' in n ? String(n.value) : '';
      }
    })
    .join('');
const blocksOf = (volumes: Volume[]) => volumes.flatMap((v) => v.children.map((b) => `${b.type === 'heading' ? `h${b.depth}` : b.role + (b.layer ? `:${b.layer}` : '')} ${shown(b.children)}`));

test('kanripo: header as metadata, ¶ and <pb:> anchors, (…/…) notes with their split, continued notes, 音義 and 疏 labels, entities', () => {
  const text = ['# -*- mode: mandoku-view -*-', '#+TITLE: 儀禮注疏', '#+PROPERTY: JUAN 5', '<pb:KR1d0028_WYG_005-1a>¶', '鄉射之禮(主人/州長)乃請¶', '注戒猶警也音義(長丁/大反)疏(釋曰/自此)¶', '<pb:KR1d0028_WYG_005-1b>¶', '(至無/介論)&KR0002;&KR0433;賓¶'].join('\n');
  const src = sourceOf(text);
  const result = importLines(src, '', conventionsOf('kanripo'));
  assert.equal(result.meta?.title, '儀禮注疏');
  // 注 before full-size text is the 注's label: the text up to the next note is the 注 (the row's runLabels; parseSource decides from the whole text whether the file writes it so).
  assert.deepEqual(blocksOf(result.volumes), ['text <WYG:5:1a>¶鄉射之禮(zhu:主人州長)乃請¶(注|zhu:戒猶警也)(音義|yinyi:長丁大反)(疏|shu:釋曰自此¶<WYG:5:1b>¶至無介論)[&KR0002;][&KR0433;]賓¶']);
  assert.equal(result.volumes[0].title, '儀禮注疏卷五');
  assert.equal(result.volumes[0].number, 5);
  const shu = result.volumes[0].children[0].children.find((n) => n.type === 'note' && n.layer === 'shu');
  assert.deepEqual(shu?.type === 'note' && [shu.split, shu.splits], [2, [2, 2]]);
});

test('kanripo: ** headings, # src: lines as data, TLS paragraph numbers as data', () => {
  const src = sourceOf(['#+TITLE: 禮記', '', '# src: LIJI 02.01.01', '# dating: 8110', '** 2 曲禮下', '', '2.1凡奉者當心，¶', '提者當帶。¶'].join('\n'));
  const result = importLines(src, '', conventionsOf('kanripo'));
  assert.deepEqual(blocksOf(result.volumes), ['h2 曲禮下', 'text 凡奉者當心，¶提者當帶。¶']);
  assert.deepEqual(result.volumes[0].children[1].data, { src: 'LIJI 02.01.01', dating: '8110', section: '2.1' });
});

test('chtxt: ## volume heading, (…) notes cut at 【集解】【索隱】【正義】 into layers, a bare labelled paragraph as notes', () => {
  const src = sourceOf('## 卷一·五帝本紀第一\n\n【集解】凡是徐氏義。【索隱】紀者，記也。\n\n黃帝者，(【集解】徐廣曰：「號有熊。」【索隱】案：有土德。)少典之子。\n');
  const result = importLines(src, '', conventionsOf('chtxt'));
  assert.deepEqual(blocksOf(result.volumes), ['title 卷一·五帝本紀第一', 'text (集解|jijie:凡是徐氏義。)(索隱|suoyin:紀者，記也。)', 'text 黃帝者，(集解|jijie:徐廣曰：「號有熊。」)(索隱|suoyin:案：有土德。)少典之子。']);
  assert.equal(result.volumes[0].number, 1);
});

test('國學導航: ●卷 volume and chapter, （…） 注, [疏] and ○釋曰 lines as 疏 up to the next 經 line, {…} compositions', () => {
  const lines = ['　　●卷二士冠礼第一', '　　陈服于房中。（墉，{艹虑}墙。）', '　　[疏]“陈服”至“北上”。', '　　○释曰：自此至“东面”。', '　　爵弁服，<匚算>裳。'];
  // CRLF, and blank lines between (a file converted twice): the same blocks.
  for (const end of ['\r\n', '\r\r\n']) {
    const result = importLines(sourceOf(lines.join(end)), '', conventionsOf('guoxue'));
    assert.deepEqual(blocksOf(result.volumes), ['title 卷二', 'h2 士冠礼第一', 'text 陈服于房中。(zhu:墉，[{艹虑}=艹虑]墙。)', 'commentary:shu “陈服”至“北上”。', 'commentary:shu ○释曰：自此至“东面”。', 'text 爵弁服，[<匚算>=匚算]裳。']);
  }
});

test('bracketed text: whole lines in 〔…〕 are commentary; a 〈citation〉云 line is main text; a 〔…〕〈…〉第一 line a heading', () => {
  const src = sourceOf(['〔《鬼谷子》卷上〕〈捭闔〉第一', '粵若稽古聖人之在天地間也', '〔捭開也闔閉也〕', '為眾生之先', '〔聖人之所以為先〕', '〈左傳哀元年〉云：在國逢天'].join('\n'));
  assert.equal(detectFormat('x.txt', src.text), 'bracketed');
  const result = importLines(src, '', conventionsOf('bracketed'));
  assert.deepEqual(blocksOf(result.volumes), ['h2 〔《鬼谷子》卷上〕〈捭闔〉第一', 'text 粵若稽古聖人之在天地間也', 'commentary:zhu 捭開也闔閉也', 'text 為眾生之先', 'commentary:zhu 聖人之所以為先', 'text 〈左傳哀元年〉云：在國逢天']);
  assert.ok(src.file.messages.some((m) => m.ruleId === 'bracket-reading' && /〔…〕: 2 whole lines read as commentary/u.test(m.reason)));
});

test('a text with 〈citation〉云 lines and no commentary keeps 〈…〉 as text', () => {
  const src = sourceOf('禮書卷一\n〈左傳哀元年〉云：在國逢天\n〈周禮〉曰：王者之制禄爵\n');
  const result = importDaizhige(src, '');
  assert.deepEqual(blocksOf(result.volumes).slice(1), ['text 〈左傳哀元年〉云：在國逢天', 'text 〈周禮〉曰：王者之制禄爵']);
});

test('Wikisource Markdown: front matter as metadata, [^n] as a note at its reference in 校 or 出處, <sub> small, <cn-era> with its year, {分廾} a glyph', () => {
  const src = sourceOf(['---', 'title:', '  zh-hant: 鬼谷子', '  zh-hans: 鬼谷子', 'source: 維基文庫', 'source_url: https://zh.wikisource.org/wiki/鬼谷子', '---', '', '粵若稽古[^1]，<sub>小字</sub>於<cn-era ce="1037">景祐四年</cn-era>{分廾}見[^2]。', 'wrapped line', '', '[^1]: 一本作「曰若」。', '[^2]: 見《尚書》。'].join('\n'), 'g.md');
  assert.equal(detectFormat('g.md', src.text), 'wikisource-md');
  const result = importWikisourceMarkdown(src, '', conventionsOf('wikisource-md'));
  assert.equal(result.meta?.title, '鬼谷子');
  assert.equal(result.meta?.data.source_url, 'https://zh.wikisource.org/wiki/鬼谷子');
  assert.deepEqual(blocksOf(result.volumes), ['text 粵若稽古(jiao^1:一本作「曰若」。)，{small:小字}於景祐四年@{"era":1037}[{分廾}=分廾]見(chuchu^2:見《尚書》。)。wrapped line']);
  assert.deepEqual(src.file.messages.map((m) => m.ruleId), []);
});

test('Markdown: a wrapped paragraph joins its lines (no space between CJK), CR line ends work, an HTML block keeps its text, a link definition its text, each said', () => {
  const src = sourceOf('# 卷一\r\r主人戒賓\r賓禮辭\r\r<div>漢字在此</div>\r\r[鏈]: 網址\r', 'm.md');
  const result = importMarkdown(src, 'x');
  assert.deepEqual(blocksOf(result.volumes), ['text 主人戒賓賓禮辭', 'text 漢字在此', 'text [鏈]: 網址']);
  assert.deepEqual(src.file.messages.map((m) => m.ruleId), ['html-tag', 'html-tag', 'markdown-unsupported']);
});

test('國學導航: a short first line before the first 卷 line is the work\'s title', () => {
  const src = sourceOf('仪礼注疏\n　　●卷一士冠礼第一\n　　筮于庙门。（筮者，以蓍问吉凶于易也。）\n');
  const result = importLines(src, '', conventionsOf('guoxue'));
  assert.equal(result.meta?.title, '仪礼注疏');
  assert.deepEqual(blocksOf(result.volumes), ['title 仪礼注疏', 'title 卷一', 'h2 士冠礼第一', 'text 筮于庙门。(zhu:筮者，以蓍问吉凶于易也。)']);
});
