import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertUser, openTestDb } from '../../../test/context.ts';
import type { Db } from '../../db/db.ts';
import { CHUNK_BYTES, readUploadBytes } from './file-store.ts';
import { filesRepo } from './files.repo.ts';
import { ingest } from './ingest.ts';

/** An upload's chunks are written while the next ones are read: every byte lands once, or nothing does. */
let db: Db;
let drop: () => Promise<void>;
const userId = randomUUID();

beforeAll(async () => {
  ({ db, drop } = await openTestDb());
  await insertUser(db, userId, 'ingest@example.com');
});
afterAll(() => drop());
afterEach(() => vi.restoreAllMocks());

// ~10 chunks of CSV, handed over in odd-sized pieces.
const csv = Buffer.from(
  'email,value\n' +
    Array.from({ length: 30_000 }, (_, i) => `person${i}@example.com,${i}.5`).join('\n') +
    '\n',
);
async function* pieces(bytes: Buffer, size = 50_000) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const uploadsOfUser = async () =>
  (await db.query('select id from uploads where workspace_id = $1', [userId])).rowCount;

describe('ingest', () => {
  it('stores every chunk once and in order, whatever the pieces it arrives in', async () => {
    const r = await ingest(db, userId, 'leads.csv', pieces(csv), csv.length);
    expect(r.rowCount).toBe(30_000);
    expect(r.sizeBytes).toBe(csv.length);
    const stored: Uint8Array[] = [];
    for await (const c of readUploadBytes(db, r.id)) stored.push(c);
    expect(stored.length).toBe(Math.ceil(csv.length / CHUNK_BYTES));
    expect(Buffer.concat(stored).equals(csv)).toBe(true);
    // Stored deflated, and smaller for it (the database is told not to compress them again).
    const rows = await db.query<{ deflated: boolean; n: number }>(
      'select deflated, octet_length(data) as n from upload_chunks where upload_id = $1',
      [r.id],
    );
    expect(rows.rows.every((c) => c.deflated)).toBe(true);
    expect(rows.rows.reduce((sum, c) => sum + c.n, 0)).toBeLessThan(csv.length / 2);
    await filesRepo.delete(db, r.id);
  });

  it('reads chunks stored before they were deflated (migration 0750) beside deflated ones', async () => {
    const r = await ingest(db, userId, 'leads.csv', pieces(csv), csv.length);
    // An older upload's first chunk, as it was written then: the bytes themselves.
    await db.query('update upload_chunks set data = $3, deflated = false where upload_id = $1 and seq = $2', [
      r.id,
      0,
      csv.subarray(0, CHUNK_BYTES),
    ]);
    const stored: Uint8Array[] = [];
    for await (const c of readUploadBytes(db, r.id)) stored.push(c);
    expect(Buffer.concat(stored).equals(csv)).toBe(true);
    await filesRepo.delete(db, r.id);
  });

  it('fails whole on a chunk that cannot be written, once the writes after it have ended', async () => {
    const write = filesRepo.addChunk.bind(filesRepo);
    let written = 0;
    let inFlight = 0;
    vi.spyOn(filesRepo, 'addChunk').mockImplementation(async (d, id, seq, data, deflated) => {
      inFlight++;
      try {
        // Fails only once the writes started after it are under way, some of them done.
        if (seq === 2) await new Promise((r) => setTimeout(r, 50));
        if (seq === 2) throw new Error('disk full');
        await write(d, id, seq, data, deflated);
        written++;
      } finally {
        inFlight--;
      }
    });
    const remove = filesRepo.delete.bind(filesRepo);
    const inFlightAtDelete: number[] = [];
    vi.spyOn(filesRepo, 'delete').mockImplementation((d, id) => {
      inFlightAtDelete.push(inFlight);
      return remove(d, id);
    });
    const before = await uploadsOfUser();
    await expect(ingest(db, userId, 'leads.csv', pieces(csv), csv.length)).rejects.toThrow('disk full');
    expect(written).toBeGreaterThan(2);
    // The upload is deleted only once its last write has ended: none can land after it.
    expect(inFlightAtDelete).toEqual([0]);
    expect(await uploadsOfUser()).toBe(before);
  });

  it('leaves nothing of a file that turns out too large, its writes in flight included', async () => {
    const before = await uploadsOfUser();
    await expect(ingest(db, userId, 'leads.csv', pieces(csv), CHUNK_BYTES * 4)).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(await uploadsOfUser()).toBe(before);
  });
});
