/** Waiting in tests for something another process or thread does. */

/** Resolves once `check` holds, looking every `every` ms; fails naming `what` after `ms`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, { ms = 600_000, every = 100 }: { ms?: number; every?: number } = {}): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
