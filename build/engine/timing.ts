/**
 * Phase timings of a build, printed to stderr when DIAOBAN_TIMING is set
 * (for the benchmarks and for whoever wonders where a rebuild's time goes).
 */
const on = (): boolean => Boolean(process.env.DIAOBAN_TIMING);

export function phase<T>(name: string, work: () => Promise<T>): Promise<T>;
export function phase<T>(name: string, work: () => T): T;
export function phase<T>(name: string, work: () => T | Promise<T>): T | Promise<T> {
  if (!on()) return work();
  const t0 = performance.now();
  const done = (): void => {
    process.stderr.write(`timing ${name} ${Math.round(performance.now() - t0)} ms (started at ${Math.round(t0)} ms)\n`);
  };
  const result = work();
  if (result instanceof Promise) return result.finally(done);
  done();
  return result;
}
