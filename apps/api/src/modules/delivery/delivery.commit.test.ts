import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, openTestDb } from '../../../test/context.ts';
import type { Db } from '../../db/db.ts';
import { deliveryRepo, type RunRow } from './delivery.repo.ts';
import { seedUploadAndAccount } from './delivery.test-helpers.ts';

/**
 * The send's three writes of a batch (issue 22: one round trip each): the batch recorded already claimed, and the
 * outcome with its ledger rows in one statement that writes nothing unless the lease is still ours.
 */
let db: Db;
let drop: () => Promise<void>;
let run: RunRow;
const userId = randomUUID();
const token = randomUUID();

beforeAll(async () => {
  ({ db, drop } = await openTestDb());
  await insertUser(db, userId, 'commit@example.com');
  const { uploadId, accountId } = await seedUploadAndAccount(db, userId, { pixelId: 'px' });
  run = await deliveryRepo.createRun(db, {
    workspaceId: userId,
    uploadId,
    accountId,
    pixelId: 'px',
    accountName: 'Main pixel',
    testEventCode: null,
    skipDelivered: true,
  });
});
afterAll(() => drop());

const record = (idx: number, payloadHash: string, by = token) =>
  deliveryRepo.ensureBatch(db, {
    runId: run.id,
    workspaceId: userId,
    idx,
    rowNumbers: [2, 3, 4],
    payloadHash,
    token: by,
    leaseMs: 60_000,
  });
const ledgerIds = async () =>
  (
    await db.query<{ event_id: string }>(
      `select event_id from delivery_ledger where workspace_id = $1 order by event_id`,
      [userId],
    )
  ).rows.map((r) => r.event_id);
const commit = (batchId: string, by: string, ids: string[]) =>
  deliveryRepo.commitSent(
    db,
    { batchId, token: by, eventsReceived: ids.length, fbtraceId: 'trace', tally: null, fixed: null },
    {
      workspaceId: userId,
      pixelId: 'px',
      runId: run.id,
      test: false,
      events: ids.map((id) => ({ name: 'Lead', id })),
    },
  );

describe(`batch commit (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('records a new batch claimed by its worker; a second worker gets the stored hash and no claim', async () => {
    const first = await record(0, 'h0');
    expect(first.payloadHash).toBe('h0');
    expect(first.claimed).toMatchObject({ idx: 0, part: '', status: 'sending', lease_token: token });
    expect(first.claimed!.row_numbers).toEqual([2, 3, 4]);
    const second = await record(0, 'other', randomUUID());
    expect(second).toEqual({ payloadHash: 'h0', claimed: null });
    // Claimed already: nobody can claim it again while the lease holds.
    expect(await deliveryRepo.claim(db, run.id, 0, randomUUID(), 60_000)).toBeNull();
  });

  it('writes the ledger with the outcome, once per distinct event, only under the lease', async () => {
    const { claimed } = await record(1, 'h1');
    expect(await commit(claimed!.id, randomUUID(), ['lost-1', 'lost-2'])).toBe(false);
    expect(await ledgerIds()).toEqual([]);
    expect((await deliveryRepo.findPart(db, run.id, 1, ''))!.status).toBe('sending');

    // A file's duplicate rows share an event id: one ledger row.
    expect(await commit(claimed!.id, token, ['a', 'b', 'a'])).toBe(true);
    expect(await ledgerIds()).toEqual(['a', 'b']);
    expect(await deliveryRepo.findPart(db, run.id, 1, '')).toMatchObject({
      status: 'sent',
      events_received: 3,
      fbtrace_id: 'trace',
      lease_token: null,
    });
    // Committed once: a second commit (a worker that lost the batch meanwhile) changes nothing.
    expect(await commit(claimed!.id, token, ['c'])).toBe(false);
    expect(await ledgerIds()).toEqual(['a', 'b']);
  });

  it('keeps every event id as it was, whatever its characters', async () => {
    const { claimed } = await record(2, 'h2');
    const odd = ['q"uote', 'back\\slash', '{brace,comma}', 'NULL', 'é😀', ' spaced ', "it's"];
    expect(await commit(claimed!.id, token, odd)).toBe(true);
    expect((await ledgerIds()).filter((id) => !['a', 'b'].includes(id)).sort()).toEqual([...odd].sort());
  });
});
