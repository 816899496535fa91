// Starts a collection build process (collection-child.ts) with the TypeScript loader the CLI runs under.
import { register } from 'tsx/esm/api';

register();
await import('./collection-child.ts');
