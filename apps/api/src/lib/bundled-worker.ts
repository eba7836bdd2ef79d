import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

// A worker's young generation otherwise grows to ~30 MB of resident memory while it streams a file, though
// what survives a row is small: capped at 24 MB (8 MB semi-spaces) the two-thread bench peaks ~25 MB lower per
// worker at the same speed (docs/decisions/0013-bundled-worker-threads.md).
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 24 };

/**
 * Bundles the TypeScript module `entry` and everything it imports (workspace packages included) into one
 * script, now, and answers a function that starts worker threads running it
 * (docs/decisions/0013-bundled-worker-threads.md). Such a worker needs no TypeScript loader of its own: tsx in
 * a worker costs ~40 MB of memory each and wraps every function it creates in a naming call.
 *
 * Call it at module load: the build takes ~0.2 s of blocking work, which belongs in start-up, not in the
 * first request that needs a worker.
 */
export function bundledWorker(entry: URL): (workerData?: unknown) => Worker {
  const code = buildSync({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'error',
  }).outputFiles[0]!.text;
  return (workerData) => new Worker(code, { eval: true, workerData, resourceLimits: WORKER_LIMITS });
}
