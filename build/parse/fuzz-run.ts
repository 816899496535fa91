/**
 * `npm run fuzz [-- --seed N --inputs N --editions N]`: the property run over
 * generated manuscripts (fuzz.ts) and generated edition.yaml files
 * (edition-fuzz.ts). Prints the seed and the counts — crashes, hangs,
 * characters lost or garbled without a message, errors without a position,
 * values the schema let through that a later stage refused — and exits 1 if
 * any is not 0.
 */
import { encode, runFuzz } from './fuzz.js';
import { runEditionFuzz } from './edition-fuzz.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
};
const seed = arg('seed') ?? Number(process.env.FUZZ_SEED ?? 20261123);
const inputs = arg('inputs') ?? 300;
const t0 = performance.now();
const f = runFuzz(seed, inputs);
process.stdout.write(
  `fuzz: seed ${f.seed}, ${f.inputs} generated manuscripts (${f.characters} characters, the largest ${f.largest}) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n` +
    `  crashes ${f.crashes}, hangs ${f.hangs}, characters lost ${f.lost} and garbled ${f.garbled} (in ${f.badInputs} inputs), errors without a position ${f.unpositioned}\n` +
    `  slowest ${f.slowestMsPerKChar.toFixed(2)} ms per 1000 characters\n`,
);
const editions = arg('editions') ?? 400;
const t1 = performance.now();
const e = runEditionFuzz(seed, editions);
process.stdout.write(
  `edition fuzz: seed ${e.seed}, ${e.inputs} generated edition.yaml files (the largest ${e.largest} characters; ${e.messages} messages) in ${((performance.now() - t1) / 1000).toFixed(1)} s\n` +
    `  internal errors ${e.crashes}, hangs ${e.hangs}, errors without a position ${e.unpositioned}, values accepted then refused ${e.accepted}; slowest ${e.slowestMs.toFixed(0)} ms\n`,
);
if (e.firstProblem) {
  const { input, outcome } = e.firstProblem;
  process.stdout.write(`first edition problem: ${JSON.stringify({ ...outcome, crashed: outcome.crashed?.split('\n').slice(0, 4).join(' | ') })}\n  edition.yaml: ${JSON.stringify(input.slice(0, 600))}\n`);
  process.exitCode = 1;
}
if (f.firstProblem) {
  const { input, outcome } = f.firstProblem;
  process.stdout.write(`first problem: ${JSON.stringify({ ...outcome, crashed: outcome.crashed?.split('\n').slice(0, 4).join(' | ') })}\n  input (${input.encoding}, ${input.path}): ${JSON.stringify(encode(input).text.slice(0, 600))}\n`);
  process.exitCode = 1;
}
