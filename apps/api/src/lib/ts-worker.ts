import { Worker } from 'node:worker_threads';

const BOOTSTRAP = new URL('./ts-worker.mjs', import.meta.url);

/** Starts a worker thread running a TypeScript module; its workerData is `data` plus the entry URL. */
export function startTsWorker(entry: URL, data: object): Worker {
  return new Worker(BOOTSTRAP, { workerData: { ...data, entry: entry.href } });
}
