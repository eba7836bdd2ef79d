// The environment the server process starts with: `npm start` (scripts/start.mjs) and the benches that start it
// the same way (docs/decisions/0094-fixed-malloc-mmap-threshold.md).

/**
 * glibc's malloc raises its mmap threshold each time a large block is freed (up to 32 MB), after which the
 * send's blocks of a few hundred KB to a few MB (the pipeline worker's answers, batch bodies, chunks read and
 * inflated) are carved from its arenas, which fragment and keep their pages. Fixed at 128 KB, such blocks are
 * mapped and unmapped whole. Measured at 1M rows, interleaved, same speed: PostgreSQL peak 324–329 → 280–281 MB;
 * PGlite idle 336–348 → 293–295 MB and peak 569–600 → 483–484 MB. Other C libraries ignore the variable; an
 * operator's own value wins.
 */
const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '131072' };

/** `env` with the server's allocator settings added where `env` does not set them itself. */
export function serverEnv(env = process.env) {
  return { ...MALLOC_ENV, ...env };
}
