/**
 * npm run bench -- conversion: the script conversion measured by round trip
 * (issue 30). Every traditional text of ../shared/corpora
 * (scripts/conversion-corpus.ts) is made simplified by OpenCC (t → cn) and
 * converted back; a character set as another distinct traditional
 * character of its simplified form counts as wrong (script-measure.ts
 * roundTrip; variant forms such as 為/爲 do not). Cross-validated by work:
 * texts grouped by the passages they share, ten folds, each fold converted
 * by the context model made of the other nine (pruned as the shipped table
 * is). Beside it in the same run: plain opencc-js, and diaoban without the
 * model (the fixed decisions of one-to-many.ts, as before issue 30), and the
 * model with habits known from the original (what better habits could give at
 * most: 48.4 against 65.7 when this was written), and the bound of this kind
 * of model: a table made from the very texts it converts (33.2 with habits,
 * 27.6 with habits known: more text of the same kind could not reach 20). With a
 * witness: each text of a work that has a second traditional copy here
 * (Kanripo's SBCK master and WYG branch of 潛夫論 and 貞觀政要; 文心雕龍 and
 * 華陽國志 卷十 from another corpus) converted with the other as witness.
 */
import { performance } from 'node:perf_hooks';
import { DOUBTFUL_PER_10K } from '../build/parse/import-report.js';
import { ContextCounts, habitsOf, type HabitEvidence } from '../build/transform/context-model.js';
import { convertParts, convertPlain, DOUBTFUL_BELOW, habitsOfText, type Decision } from '../build/transform/script.js';
import { distinctReadings } from '../build/transform/one-to-many.js';
import { emptyRoundTrip, roundTrip, type RoundTrip } from '../build/transform/script-measure.js';
import { prepareWitness, witnessAgreement, type Witness } from '../build/transform/witness.js';
import { foldsOf, traditionalTexts, type CorpusText } from '../scripts/conversion-corpus.js';
import { countsOf, MIN_COUNT } from '../scripts/context-model.js';

const FOLDS = 10;

/** Texts with a witness in the corpora: the text's file (a prefix: every juan) → the other copy (its files, whole). */
const WITNESS_PAIRS: ReadonlyArray<[string, string]> = [
  ['witnesses/KR3a0010-WYG/', 'kanripo/KR3a0010/'],
  ['kanripo/KR3a0010/', 'witnesses/KR3a0010-WYG/'],
  ['witnesses/KR2e0006-WYG/', 'kanripo/KR2e0006/'],
  ['kanripo/KR2e0006/', 'witnesses/KR2e0006-WYG/'],
  ['dev/chtxt_wenxin-diaolong.txt', 'kanripo/KR4i0001/'],
  ['kanripo/KR4i0001/', 'dev/chtxt_wenxin-diaolong.txt'],
  ['dev/wshugo_huayang-guozhi_juan10.md', 'kanripo/KR2i0003/KR2i0003_010.txt'],
  ['kanripo/KR2i0003/KR2i0003_010.txt', 'dev/wshugo_huayang-guozhi_juan10.md'],
];

const per10k = (r: RoundTrip) => (r.characters === 0 ? 0 : (r.wrong / r.characters) * 10000);
const top = (r: RoundTrip, n = 12) => [...r.confusions].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([k, c]) => `${k} ${c}`).join(', ');

/**
 * The witness of `file`: the other copy whole (the volume is found in it, as a witness named in edition.yaml is
 * searched). Not juan by juan: WYG 貞觀政要's juan file 010 holds the whole book again, the master's juan 10 alone.
 */
function witnessOf(file: string, texts: readonly CorpusText[]): CorpusText[] | undefined {
  const pair = WITNESS_PAIRS.find(([a]) => file.startsWith(a));
  if (!pair) return undefined;
  const copy = texts.filter((t) => t.file.startsWith(pair[1]));
  return copy.length > 0 ? copy : undefined;
}

/**
 * The habits a text really has: the proportions of its readings known from its original at every place the model
 * weighs (a conversion never has them: what better habits could give at most).
 */
function knownHabits(model: ContextCounts, text: CorpusText): ReturnType<typeof habitsOf> {
  const known: HabitEvidence[] = [];
  for (const stream of text.streams) convertParts([convertPlain(stream, 'traditional', 'simplified')], 'simplified', 'traditional', undefined, (d) => {
    const original = stream.slice(d.index, d.index + d.char.length);
    if (d.weighed?.some((w) => w.reading === original)) known.push({ char: d.char, known: original });
  }, 'text', { model });
  return habitsOf(model, known);
}

/** `text` round-tripped by `model` alone, with the habits estimated as a volume's are, and with its habits known. */
function roundTrips(text: CorpusText, model: ContextCounts, into: { model: RoundTrip; habits: RoundTrip; known: RoundTrip }): void {
  const habits = habitsOfText(text.streams.map((s) => [convertPlain(s, 'traditional', 'simplified')]), 'simplified', 'traditional', undefined, { model });
  const known = knownHabits(model, text);
  for (const stream of text.streams) {
    roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model })[0], into.model);
    roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model, habits })[0], into.habits);
    roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model, habits: known })[0], into.known);
  }
}

export async function run(): Promise<Record<string, number | string>> {
  const t0 = performance.now();
  const texts = traditionalTexts();
  const fold = foldsOf(texts, FOLDS);
  const t1 = performance.now();
  const foldCounts = Array.from({ length: FOLDS }, (_, f) => countsOf(texts.filter((t) => fold.get(t.file) === f)));
  const total = new ContextCounts();
  for (const c of foldCounts) total.addAll(c);
  const t2 = performance.now();
  const plain = emptyRoundTrip();
  const before = emptyRoundTrip();
  const after = emptyRoundTrip();
  const oracle = emptyRoundTrip();
  const noHabits = emptyRoundTrip();
  const selfModel = total.pruned(MIN_COUNT);
  const selfBound = { model: emptyRoundTrip(), habits: emptyRoundTrip(), known: emptyRoundTrip() };
  const sameCopy = emptyRoundTrip();
  const withWitness = { plain: emptyRoundTrip(), before: emptyRoundTrip(), after: emptyRoundTrip(), witness: emptyRoundTrip() };
  // Calibration: the model's choices, how many doubtful, how many of them wrong, how many wrong ones not flagged.
  let choices = 0;
  let doubtful = 0;
  let doubtfulWrong = 0;
  let sureWrong = 0;
  let witnessDiffers = 0;
  const witnessWrong = { taken: 0, differs: 0, absent: 0 };
  const distinct = distinctReadings();
  let convertMs = 0;
  let textsMeasured = 0;
  let textsFlagged = 0;
  for (let f = 0; f < FOLDS; f++) {
    const model = total.minus(foldCounts[f]).pruned(MIN_COUNT);
    for (const text of texts.filter((t) => fold.get(t.file) === f)) {
      const t3 = performance.now();
      const flaggedBefore = doubtful;
      const charactersBefore = after.characters;
      // The text's own habits, as a volume's are: a first pass over all its streams.
      const habits = habitsOfText(text.streams.map((s) => [convertPlain(s, 'traditional', 'simplified')]), 'simplified', 'traditional', undefined, { model });
      // The ceiling of habits: the proportions the text really has, not a reading the conversion can make.
      const oracleHabits = knownHabits(model, text);
      for (const stream of text.streams) roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model, habits: oracleHabits })[0], oracle);
      for (const stream of text.streams) {
        roundTrip(stream, (s) => convertPlain(s, 'simplified', 'traditional'), plain);
        roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model: false })[0], before);
        roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model })[0], noHabits);
        const decisions: Decision[] = [];
        const converted = roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, (d) => decisions.push(d), 'text', { model, habits })[0], after);
        void converted;
        // Which of the model's choices were wrong: compare with the original at each decision.
        for (const d of decisions) {
          const original = stream.slice(d.index, d.index + d.char.length);
          // Only where the original is one of the readings weighed (not a variant form the round trip does not count).
          if (d.how !== 'model' || !d.weighed?.some((w) => w.reading === original)) continue;
          choices++;
          const right = original === d.reading;
          if (d.doubtful) {
            doubtful++;
            if (!right) doubtfulWrong++;
          } else if (!right) sureWrong++;
        }
      }
      convertMs += performance.now() - t3;
      // The bound of this kind of model: a table made from the texts themselves (the text's own contexts counted), with and without its habits.
      roundTrips(text, selfModel, selfBound);
      const characters = after.characters - charactersBefore;
      if (characters >= 1000) {
        textsMeasured++;
        if ((doubtful - flaggedBefore) * 10000 > DOUBTFUL_PER_10K * characters) textsFlagged++;
      }
      // The same text as witness, as another copy of one edition would give it: punctuation gone, one character in fifty changed or dropped.
      const copy = text.streams.map((s) => Array.from(s.replace(/[^\p{Script=Han}]/gu, '')).filter((_, i) => i % 97 !== 13).map((c, i) => (i % 61 === 7 ? '□' : c)).join(''));
      const sameAgreement = witnessAgreement(text.streams.map((s) => [{ value: convertPlain(s, 'traditional', 'simplified') }]), prepareWitness(copy.join('')));
      const sameHabits = habitsOfText(text.streams.map((s) => [convertPlain(s, 'traditional', 'simplified')]), 'simplified', 'traditional', undefined, { model }, (k) => (i) => sameAgreement[k].get(i));
      text.streams.forEach((stream, k) => void roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model, habits: sameHabits, witnessAt: (i) => sameAgreement[k].get(i) })[0], sameCopy));
      const witnessTexts = witnessOf(text.file, texts);
      if (!witnessTexts) continue;
      const witness: Witness = prepareWitness(witnessTexts.flatMap((t) => t.streams).join(''));
      // The text's streams as one volume, aligned once with the witness; each stream simplified first.
      const simplified = text.streams.map((s) => convertPlain(s, 'traditional', 'simplified'));
      const agreement = witnessAgreement(simplified.map((s) => [{ value: s }]), witness);
      const witnessHabits = habitsOfText(simplified.map((s) => [s]), 'simplified', 'traditional', undefined, { model }, (k) => (i) => agreement[k].get(i));
      text.streams.forEach((stream, k) => {
        roundTrip(stream, (s) => convertPlain(s, 'simplified', 'traditional'), withWitness.plain);
        roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model: false })[0], withWitness.before);
        roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, undefined, 'text', { model, habits })[0], withWitness.after);
        roundTrip(stream, (s) => convertParts([s], 'simplified', 'traditional', undefined, (d) => {
          if (d.witness !== undefined) witnessDiffers++;
          // Where the wrong ones stand: the witness's character taken (its edition writes the other), the witness differing there, or no witness at the place.
          const original = stream.slice(d.index, d.index + d.char.length);
          if (d.reading === original || !distinct.get(d.char)?.includes(original) || !distinct.get(d.char)?.includes(d.reading)) return;
          const where = d.how === 'witness' ? 'taken' : d.witness !== undefined ? 'differs' : 'absent';
          witnessWrong[where]++;
        }, 'text', { model, habits: witnessHabits, witnessAt: (i) => agreement[k].get(i) })[0], withWitness.witness);
      });
    }
  }
  const t4 = performance.now();
  return {
    'texts (works, groups by shared passages)': `${texts.length} (${new Set(texts.map((t) => t.work)).size} works, ${FOLDS} folds)`,
    'Han characters compared': after.characters,
    'wrong per 10,000: plain opencc-js': per10k(plain),
    'wrong per 10,000: diaoban before (no model)': per10k(before),
    'wrong per 10,000: diaoban, context model without the text\'s habits': per10k(noHabits),
    'wrong per 10,000: diaoban, context model': per10k(after),
    'wrong per 10,000: context model, habits known from the original (their ceiling)': per10k(oracle),
    'wrong per 10,000, a table made from the texts themselves (not cross-validated: the bound of this kind of model): model / + habits / + habits known':
      [selfBound.model, selfBound.habits, selfBound.known].map((r) => per10k(r).toFixed(1)).join(' / '),
    'wrong: plain / before / model': `${plain.wrong} / ${before.wrong} / ${after.wrong}`,
    'most frequent errors, model without habits': top(noHabits),
    'most frequent errors, plain': top(plain),
    'most frequent errors, before': top(before),
    'most frequent errors, model': top(after),
    [`model choices doubtful (< ${DOUBTFUL_BELOW})`]: `${doubtful} of ${choices} (${((doubtful / Math.max(1, after.characters)) * 10000).toFixed(1)} per 10,000 characters)`,
    'wrong among doubtful / among sure': `${doubtfulWrong} (${((doubtfulWrong / Math.max(1, doubtful)) * 100).toFixed(1)}%) / ${sureWrong} (${((sureWrong / Math.max(1, choices - doubtful)) * 100).toFixed(2)}%)`,
    [`texts of 1,000 characters or more with over ${DOUBTFUL_PER_10K} doubtful per 10,000 (verdict check)`]: `${textsFlagged} of ${textsMeasured}`,
    'share of model errors flagged doubtful': doubtfulWrong / Math.max(1, doubtfulWrong + sureWrong),
    'wrong per 10,000: model + the same text as witness (a copy: no punctuation, 1 in 97 dropped, 1 in 61 a □)': per10k(sameCopy),
    'most frequent errors, model + same-text witness': top(sameCopy),
    'witness texts (another edition or corpus): Han characters': withWitness.witness.characters,
    'witness texts, wrong per 10,000: plain opencc-js': per10k(withWitness.plain),
    'witness texts, wrong per 10,000: before': per10k(withWitness.before),
    'witness texts, wrong per 10,000: model': per10k(withWitness.after),
    'witness texts, wrong per 10,000: model + witness': per10k(withWitness.witness),
    'witness: places it differs (listed)': witnessDiffers,
    'witness texts, wrong per 10,000 by place: the witness taken (its edition writes the other) / the witness differs there / no witness there': Object.values(witnessWrong).map((n) => ((n / Math.max(1, withWitness.witness.characters)) * 10000).toFixed(1)).join(' / '),
    'most frequent errors, model + witness': top(withWitness.witness),
    'corpus read and grouped, s': (t1 - t0) / 1000,
    'counts (ten folds), s': (t2 - t1) / 1000,
    'conversions (4 ways, all folds), s': convertMs / 1000,
    'total, s': (t4 - t0) / 1000,
  };
}
