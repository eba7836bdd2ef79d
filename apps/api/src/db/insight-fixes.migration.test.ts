import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHT_FIX_GROUPS } from '@backsignal/contracts';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0880 adds what was fixed automatically: per sent batch (null: sent before, not counted) and per day and
 * week (0, with fixes_counted 0: the screen says such sends were not counted). Nothing kept so far changes.
 */
let db: Db;
let drop: () => Promise<void>;
const ws = randomUUID();
const upload = randomUUID();
const run = randomUUID();
const FIXED = INSIGHT_FIX_GROUPS.map((g) => `fixed_${g}`);

const all = async (sql: string) => (await db.query<Record<string, unknown>>(sql)).rows;
const without = (rows: Record<string, unknown>[], cols: string[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !cols.includes(k))));
let before: Record<string, Record<string, unknown>[]>;
const TABLES = {
  send_batches: 'select * from send_batches order by idx',
  insight_days: 'select * from insight_days order by day',
  insight_weeks: 'select * from insight_weeks order by week',
};

beforeAll(async () => {
  ({ db, drop } = await openTestDb({ before: '0880_insight_fixes.sql' }));
  await db.query(
    `insert into users (id, email, first_name, last_name, password_hash, email_verified) values ($1, 'a@example.com', 'A', 'B', 'x', true)`,
    [ws],
  );
  await db.query(`insert into workspaces (id, name, slug) values ($1, 'A', 'a')`, [ws]);
  await db.query(
    `insert into uploads (id, workspace_id, file_name, status, complete, headers) values ($1, $2, 'leads.csv', 'submitted', true, '[]')`,
    [upload, ws],
  );
  await db.query(
    `insert into send_runs (id, workspace_id, upload_id, pixel_id, status, finished_at, total_events)
     values ($1, $2, $3, '111', 'completed', '2026-03-02T10:00:00Z', 7)`,
    [run, ws, upload],
  );
  await db.query(
    `insert into send_batches (id, run_id, workspace_id, idx, part, row_numbers, first_row, last_row, event_count, status,
       payload_hash, match_events, with_phone)
     values ($1, $2, $3, 0, '', '{2}', 2, 2, 7, 'sent', 'h', 7, 3)`,
    [randomUUID(), run, ws],
  );
  await db.query(
    `insert into insight_days (workspace_id, day, pixel_id, sent, keyed, with_phone) values ($1, '2026-03-02', '111', 7, 7, 3)`,
    [ws],
  );
  await db.query(
    `insert into insight_weeks (workspace_id, week, pixel_id, sent, keyed, with_phone) values ($1, '2026-03-02', '111', 7, 7, 3)`,
    [ws],
  );
  before = Object.fromEntries(
    await Promise.all(Object.entries(TABLES).map(async ([t, sql]) => [t, await all(sql)] as const)),
  );
  await migrate(db, { before: '0881' });
});
afterAll(() => drop());

describe('migration 0880: what was fixed automatically', () => {
  it('keeps every batch and counter as it was', async () => {
    for (const [t, sql] of Object.entries(TABLES))
      expect(without(await all(sql), ['fixes_counted', ...FIXED]), t).toEqual(before[t]);
  });

  it('leaves the batches sent before uncounted (null), and the days and weeks at 0 counted', async () => {
    const [batch] = await all(`select ${FIXED.join(', ')} from send_batches`);
    expect(batch).toEqual(Object.fromEntries(FIXED.map((c) => [c, null])));
    const zero = Object.fromEntries(['fixes_counted', ...FIXED].map((c) => [c, 0]));
    for (const t of ['insight_days', 'insight_weeks'])
      expect(await all(`select fixes_counted, ${FIXED.join(', ')} from ${t}`), t).toEqual([zero]);
  });

  it('adds the counters as integers that a new row starts at 0', async () => {
    await db.query(
      `insert into insight_days (workspace_id, day, pixel_id, sent) values ($1, '2026-03-03', '111', 1)`,
      [ws],
    );
    const [r] = await all(`select fixes_counted, fixed_phone from insight_days where day = '2026-03-03'`);
    expect(r).toEqual({ fixes_counted: 0, fixed_phone: 0 });
  });
});
