import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { Queryable } from '../../db/db.ts';
import { filesRepo } from './files.repo.ts';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/**
 * Bytes per stored chunk. Small enough that one embedded-database write stays a few ms, so other statements
 * queued on PGlite's one thread keep moving during an upload; 256 KB chunks took ~40 ms each.
 */
export const CHUNK_BYTES = 64 * 1024;
// Chunks read per query. When PGlite ran on the API's thread, 8 (512 KB) put /api/health's p99 at 110–123 ms
// and 2 were chosen; on its own thread, with deflated chunks (~14 KB stored each), 8 a query took a 1M-row
// validation on PGlite from 8.6 to 6.4 s (one run each).
const CHUNKS_PER_READ = 8;

/**
 * Stores chunk `seq` of an upload, deflated at zlib's fastest level on libuv's thread pool (~0.6 ms a chunk, off
 * the event loop): the database neither compresses it (pglz in PGlite's WASM tripled the write) nor stores it
 * whole (migration 0750).
 */
export async function storeChunk(db: Queryable, uploadId: string, seq: number, data: Uint8Array) {
  await filesRepo.addChunk(db, uploadId, seq, await deflate(data, { level: 1 }), true);
}

/** Streams an upload's bytes from the database, a few chunks at a time. */
export async function* readUploadBytes(db: Queryable, uploadId: string): AsyncGenerator<Uint8Array> {
  let next = 0;
  for (;;) {
    const chunks = await filesRepo.readChunks(db, uploadId, next, CHUNKS_PER_READ);
    const bytes = await Promise.all(chunks.map((c) => (c.deflated ? inflate(c.data) : c.data)));
    yield* bytes;
    if (chunks.length < CHUNKS_PER_READ) return;
    next = chunks[chunks.length - 1]!.seq + 1;
  }
}

/** Re-cuts an incoming byte stream into CHUNK_BYTES pieces. */
export async function* rechunk(
  source: AsyncIterable<Uint8Array>,
  size = CHUNK_BYTES,
): AsyncGenerator<Uint8Array> {
  let buf = new Uint8Array(size);
  let fill = 0;
  for await (const part of source) {
    let offset = 0;
    while (offset < part.length) {
      const n = Math.min(size - fill, part.length - offset);
      buf.set(part.subarray(offset, offset + n), fill);
      fill += n;
      offset += n;
      if (fill === size) {
        yield buf;
        buf = new Uint8Array(size);
        fill = 0;
      }
    }
  }
  if (fill > 0) yield buf.subarray(0, fill);
}
