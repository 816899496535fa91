#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so that there is no compile step to forget.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../build/cli/main.ts');
await main(process.argv);
