// Starts the EPUB worker (epub-worker.ts) with the TypeScript loader the CLI runs under.
import { register } from 'tsx/esm/api';

register();
await import('./epub-worker.ts');
