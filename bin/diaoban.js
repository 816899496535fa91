#!/usr/bin/env node
// Runs the compiled CLI in lib/ (scripts/build-lib.mjs: `npm ci`, `npm run prepare`).
// When build/ has changed since the compile, or nothing is compiled, it runs the
// TypeScript sources through tsx instead — slower to start, never an old program —
// and says so when a person is watching.
import { fileURLToPath } from 'node:url';
import { libState } from '../scripts/lib-state.mjs';

const state = libState(fileURLToPath(new URL('..', import.meta.url)));
if (process.env.DIAOBAN_DEBUG) process.setSourceMapsEnabled(true); // stack traces in build/*.ts
let main;
if (state === 'fresh' || state === 'no-sources') {
  ({ main } = await import('../lib/cli/main.js'));
} else {
  if (process.stderr.isTTY) process.stderr.write(`diaoban: lib/ is ${state === 'missing' ? 'not built' : 'older than build/'}; running the sources through tsx (slower to start). Run: npm run prepare\n`);
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../build/cli/main.ts'));
}
await main(process.argv);
