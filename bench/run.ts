/**
 * npm run bench [-- name …]: runs the benchmarks in bench/ one after another
 * in one process and prints their figures. Each module exports
 * `run(): Promise<Record<string, number | string>>`. Figures that compare
 * (ratios) are measured in the same run, since the machine is shared.
 */
const ALL = ['parse', 'layout', 'epub', 'pdf', 'rebuild', 'rebuild-cold', 'volumes', 'input', 'startup', 'standards', 'collate'] as const;
/** Run only when named (a collection built three ways takes many minutes; the conversion round trip reads the whole corpus). */
const NAMED_ONLY = ['collection', 'conversion'] as const;
const KNOWN: readonly string[] = [...ALL, ...NAMED_ONLY];

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? KNOWN.filter((n) => wanted.includes(n)) : [...ALL];
if (wanted.length > 0 && names.length === 0) {
  process.stderr.write(`bench: no benchmark named ${wanted.join(', ')}; known: ${KNOWN.join(', ')}\n`);
  process.exit(2);
}

function show(value: number | string): string {
  if (typeof value === 'string') return value;
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 3 : 1);
}

let failed = false;
for (const name of names) {
  const module = (await import(`./${name}.ts`)) as { run(): Promise<Record<string, number | string>> };
  process.stdout.write(`\n## ${name}\n`);
  try {
    const figures = await module.run();
    for (const [key, value] of Object.entries(figures)) process.stdout.write(`${key.padEnd(34)} ${show(value)}\n`);
  } catch (error) {
    failed = true;
    process.stdout.write(`failed: ${(error as Error).message}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
