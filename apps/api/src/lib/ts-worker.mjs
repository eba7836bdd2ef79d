// Worker-thread bootstrap: Node 20 cannot start a worker from a .ts file even with `--import tsx`, so this
// plain module registers tsx and then imports the TypeScript entry named in workerData.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
