import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0870 adds the weekly rollups and fills them from the daily counters kept so far: the days stay as they
 * were, and each week is the sum of its days (ISO weeks, Monday first, whatever the session's time zone). Source
 * runs, a row per day, source and outcome before, become a row per day and source with every count kept.
 */
let db: Db;
let drop: () => Promise<void>;
const ws = randomUUID();
const source = randomUUID();

async function rows(sql: string) {
  return (await db.query(sql)).rows;
}

beforeAll(async () => {
  ({ db, drop } = await openTestDb({ before: '0870_insight_weeks.sql' }));
  await db.query(`insert into workspaces (id, name, slug) values ($1, 'Weeks', 'weeks')`, [ws]);
  // Sunday 1 June 2025 ends a week; Monday 2 June and Sunday 8 June are the next one.
  for (const [day, pixel, src, sent] of [
    ['2025-06-01', '1', source, 5],
    ['2025-06-02', '1', source, 7],
    ['2025-06-08', '1', source, 11],
    ['2025-06-08', '1', null, 13],
    ['2025-06-08', '2', null, 17],
  ] as const)
    await db.query(
      `insert into insight_days (workspace_id, day, pixel_id, source_id, sent, failed, keyed, with_phone)
       values ($1, $2, $3, $4, $5, 1, $5, 2)`,
      [ws, day, pixel, src, sent],
    );
  for (const [day, status, runs] of [
    ['2025-06-01', 'sent', 1],
    ['2025-06-02', 'sent', 2],
    ['2025-06-02', 'nothing_new', 5],
    ['2025-06-03', 'failed', 3],
    ['2025-06-08', 'sent', 4],
  ] as const)
    await db.query(
      `insert into insight_source_runs (workspace_id, day, source_id, status, runs) values ($1, $2, $3, $4, $5)`,
      [ws, day, source, status, runs],
    );
  const before = await rows(`select * from insight_days order by day, pixel_id, source_id`);
  // A session far east of UTC: a week's Monday must not move with it.
  if (db.kind === 'postgres') await db.query(`set timezone = 'Pacific/Kiritimati'`);
  await migrate(db, { before: '0871' });
  expect(await rows(`select * from insight_days order by day, pixel_id, source_id`)).toEqual(before);
});
afterAll(() => drop());

describe('migration 0870: weekly Insights counters', () => {
  it('fills each week with the sum of its days', async () => {
    expect(
      await rows(`select to_char(week, 'YYYY-MM-DD') as week, pixel_id, source_id, sent, failed, keyed, with_phone
                    from insight_weeks order by week, pixel_id, source_id nulls first`),
    ).toEqual([
      { week: '2025-05-26', pixel_id: '1', source_id: source, sent: 5, failed: 1, keyed: 5, with_phone: 2 },
      { week: '2025-06-02', pixel_id: '1', source_id: null, sent: 13, failed: 1, keyed: 13, with_phone: 2 },
      { week: '2025-06-02', pixel_id: '1', source_id: source, sent: 18, failed: 2, keyed: 18, with_phone: 4 },
      { week: '2025-06-02', pixel_id: '2', source_id: null, sent: 17, failed: 1, keyed: 17, with_phone: 2 },
    ]);
    expect(
      await rows(`select to_char(week, 'YYYY-MM-DD') as week, sent, nothing_new, paused, failed
                    from insight_source_weeks order by week`),
    ).toEqual([
      { week: '2025-05-26', sent: 1, nothing_new: 0, paused: 0, failed: 0 },
      { week: '2025-06-02', sent: 6, nothing_new: 5, paused: 0, failed: 3 },
    ]);
  });

  it('keeps every source run, as a row per day and source with a count per outcome', async () => {
    expect(
      await rows(`select to_char(day, 'YYYY-MM-DD') as day, source_id, sent, nothing_new, paused, failed
                    from insight_source_days order by day`),
    ).toEqual([
      { day: '2025-06-01', source_id: source, sent: 1, nothing_new: 0, paused: 0, failed: 0 },
      { day: '2025-06-02', source_id: source, sent: 2, nothing_new: 5, paused: 0, failed: 0 },
      { day: '2025-06-03', source_id: source, sent: 0, nothing_new: 0, paused: 0, failed: 3 },
      { day: '2025-06-08', source_id: source, sent: 4, nothing_new: 0, paused: 0, failed: 0 },
    ]);
  });

  it('takes only Mondays as weeks', async () => {
    await expect(
      db.query(`insert into insight_weeks (workspace_id, week, pixel_id) values ($1, '2025-06-03', '1')`, [
        ws,
      ]),
    ).rejects.toThrow();
  });
});
