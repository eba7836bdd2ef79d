import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0890 adds each workspace's counters per day and per week, all pixels and sources together, filled from
 * the days and weeks kept so far; those stay as they were.
 */
let db: Db;
let drop: () => Promise<void>;
const [a, b] = [randomUUID(), randomUUID()];
const source = randomUUID();
const rows = async (sql: string) => (await db.query(sql)).rows;

beforeAll(async () => {
  ({ db, drop } = await openTestDb({ before: '0890_insight_workspace_totals.sql' }));
  for (const ws of [a, b])
    await db.query(`insert into workspaces (id, name, slug) values ($1, 'W', $2)`, [
      ws,
      `w-${ws.slice(0, 8)}`,
    ]);
  for (const [ws, day, pixel, src, sent] of [
    [a, '2025-06-01', '1', source, 5],
    [a, '2025-06-02', '1', source, 7],
    [a, '2025-06-02', '2', null, 11],
    [b, '2025-06-02', '1', null, 13],
  ] as const) {
    await db.query(
      `insert into insight_days (workspace_id, day, pixel_id, source_id, sent, failed, fixed_phone)
       values ($1, $2, $3, $4, $5, 1, 2)`,
      [ws, day, pixel, src, sent],
    );
    await db.query(
      `insert into insight_weeks (workspace_id, week, pixel_id, source_id, sent, failed, fixed_phone)
       values ($1, $2::date - (extract(isodow from $2::date)::int - 1), $3, $4, $5, 1, 2)
       on conflict (workspace_id, week, pixel_id, source_id) do update
         set sent = insight_weeks.sent + excluded.sent, failed = insight_weeks.failed + 1,
             fixed_phone = insight_weeks.fixed_phone + 2`,
      [ws, day, pixel, src, sent],
    );
  }
  const before = await rows('select * from insight_days order by workspace_id, day, pixel_id');
  await migrate(db, { before: '0891' });
  expect(await rows('select * from insight_days order by workspace_id, day, pixel_id')).toEqual(before);
});
afterAll(() => drop());

describe('migration 0890: a workspace’s Insights counters per day and week', () => {
  it('sums each workspace’s days and weeks', async () => {
    const sums = (table: string, at: string) =>
      rows(`select workspace_id = '${a}' as a, to_char(${at}, 'YYYY-MM-DD') as at, sent, failed, fixed_phone
              from ${table} order by 1 desc, 2`);
    expect(await sums('insight_workspace_days', 'day')).toEqual([
      { a: true, at: '2025-06-01', sent: 5, failed: 1, fixed_phone: 2 },
      { a: true, at: '2025-06-02', sent: 18, failed: 2, fixed_phone: 4 },
      { a: false, at: '2025-06-02', sent: 13, failed: 1, fixed_phone: 2 },
    ]);
    expect(await sums('insight_workspace_weeks', 'week')).toEqual([
      { a: true, at: '2025-05-26', sent: 5, failed: 1, fixed_phone: 2 },
      { a: true, at: '2025-06-02', sent: 18, failed: 2, fixed_phone: 4 },
      { a: false, at: '2025-06-02', sent: 13, failed: 1, fixed_phone: 2 },
    ]);
  });
});
