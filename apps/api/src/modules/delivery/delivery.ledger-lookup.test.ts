import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, openTestDb } from '../../../test/context.ts';
import type { Db } from '../../db/db.ts';
import { DELIVERED_BEFORE_SQL, deliveryRepo, ledgerKey } from './delivery.repo.ts';

/**
 * The skip lookup on a ledger that was never analysed (autovacuum off, a fresh table): its plan must probe the
 * (pixel, event_id) key prefix, not scan the pixel's history. On the old `event_id = any($3)` query PostgreSQL
 * chose the shorter prefix (Index Cond without event_id, event_id as a Filter), which this test catches.
 */
let db: Db;
let drop: () => Promise<void>;
const user = randomUUID();
const ROWS = 20_000;

beforeAll(async () => {
  ({ db, drop } = await openTestDb());
  await insertUser(db, user, 'ledger@example.com');
  // Keep the table without statistics whatever the server's autovacuum does while the test runs.
  if (db.kind === 'postgres') await db.exec('alter table delivery_ledger set (autovacuum_enabled = false)');
  await db.query(
    `insert into delivery_ledger (workspace_id, pixel_id, event_name, event_id, test, delivered_at)
     select $1, 'px', 'Purchase', 'e' || g, g % 10 = 0, now() - interval '1 hour' from generate_series(1, $2::int) g`,
    [user, ROWS],
  );
});
afterAll(() => drop());

describe(`ledger lookup (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  const ids = Array.from({ length: 1000 }, (_, i) => `e${ROWS - 500 + i}`);

  it('probes the full key on a never-analysed ledger', async () => {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`explain ${DELIVERED_BEFORE_SQL}`, [
      'px',
      ids,
      new Date(),
    ]);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Cond: .*pixel_id = .*event_id = /);
    expect(plan).not.toMatch(/Filter: .*event_id/);
  });

  it('answers live and test deliveries, each id once, only those before the cut-off', async () => {
    const withDuplicates = [...ids, ...ids.slice(0, 10), 'unknown'];
    const got = await deliveryRepo.deliveredBefore(db, 'px', withDuplicates, new Date());
    const inLedger = ids.filter((id) => Number(id.slice(1)) <= ROWS);
    const test = inLedger.filter((id) => Number(id.slice(1)) % 10 === 0);
    const live = inLedger.filter((id) => Number(id.slice(1)) % 10 !== 0);
    expect([...got.live].sort()).toEqual(live.map((id) => ledgerKey('Purchase', id)).sort());
    expect([...got.test].sort()).toEqual(test.map((id) => ledgerKey('Purchase', id)).sort());
    const earlier = await deliveryRepo.deliveredBefore(db, 'px', ids, new Date(Date.now() - 7200_000));
    expect(earlier.live.size + earlier.test.size).toBe(0);
  });
});
