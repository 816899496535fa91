/**
 * `npm run fuzz [-- --seed N --inputs N]`: the property run over generated
 * manuscripts (fuzz.ts). Prints the seed and the counts — crashes, hangs,
 * characters lost or garbled without a message, errors without a position —
 * and exits 1 if any is not 0.
 */
import { encode, runFuzz } from './fuzz.js';

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
if (f.firstProblem) {
  const { input, outcome } = f.firstProblem;
  process.stdout.write(`first problem: ${JSON.stringify({ ...outcome, crashed: outcome.crashed?.split('\n').slice(0, 4).join(' | ') })}\n  input (${input.encoding}, ${input.path}): ${JSON.stringify(encode(input).text.slice(0, 600))}\n`);
  process.exitCode = 1;
}
