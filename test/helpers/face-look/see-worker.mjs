// A worker thread's start (helpers/face-look/see-pool.ts): tsx registered here, as a worker does not take the
// `--import tsx` of a test runner's process, then the TypeScript worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./see-worker.ts');
