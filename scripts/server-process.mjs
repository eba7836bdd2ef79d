// How the server process starts: `npm start` and `npm run worker` (scripts/start.mjs), and the benches, which run
// it the same way. Both settings trade a little speed for memory
// (docs/decisions/0094-server-process-memory-settings.md).

/**
 * V8 flags. The API thread's young generation otherwise grows to ~16 MB semi-spaces while a send streams
 * batches through it, though little of that survives: at 4 MB, a 1M-row send on PostgreSQL peaked at 257 / 257 MB
 * against 291 / 292, at the same send speed, with upload and validate ~5% slower. (8 MB saved nothing.) Worker
 * threads that stream files set their own limit (lib/bundled-worker.ts).
 */
export const SERVER_NODE_ARGS = ['--enable-source-maps', '--max-semi-space-size=4'];

/**
 * glibc's malloc raises its mmap threshold each time a large block is freed (up to 32 MB), after which the
 * send's blocks of a few hundred KB to a few MB (the pipeline worker's answers, batch bodies, chunks read and
 * inflated) are carved from its arenas, which fragment and keep their pages. Fixed at 128 KB, such blocks are
 * mapped and unmapped whole. Measured at 1M rows, interleaved, same speed: PostgreSQL peak 324–329 → 280–281 MB;
 * PGlite idle 336–348 → 293–295 MB and peak 569–600 → 483–484 MB. Other C libraries ignore the variable.
 */
const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** `env` with the server's allocator settings added where `env` does not set them itself. */
export function serverEnv(env = process.env) {
  return { ...MALLOC_ENV, ...env };
}
