import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0830 adds Insights' daily counters and fills them from the runs kept so far. The database is built as
 * the release before left it, filled with sends (completed, with errors, stopped with a held first half, a test
 * send, one still running) and source runs, then migrated: every row of every table is still there with the same
 * values, and the counters say what the summaries said.
 */
let db: Db;
let drop: () => Promise<void>;
const ws = randomUUID();
const source = randomUUID();
const upload = randomUUID();
const runs = {
  done: randomUUID(),
  errors: randomUUID(),
  stopped: randomUUID(),
  test: randomUUID(),
  live: randomUUID(),
};

async function run(
  id: string,
  status: string,
  finished: string | null,
  extra: { test?: boolean; skipped?: number } = {},
) {
  await db.query(
    `insert into send_runs (id, workspace_id, upload_id, pixel_id, status, test_event_code, skipped_events, finished_at, total_events)
     values ($1, $2, $3, '111', $4, $5, $6, $7, 10)`,
    [id, ws, upload, status, extra.test ? 'TEST1' : null, extra.skipped ?? 0, finished],
  );
}
async function batch(
  runId: string,
  idx: number,
  part: string,
  status: string,
  events: number,
  error: number | null = null,
) {
  await db.query(
    `insert into send_batches (id, run_id, workspace_id, idx, part, row_numbers, first_row, last_row, event_count, status,
       payload_hash, verdict, error_code, error_raw)
     values ($1, $2, $3, $4, $5, '{2}', 2, 2, $6, $7, 'h', $8, $9, $10)`,
    [
      randomUUID(),
      runId,
      ws,
      idx,
      part,
      events,
      status,
      error ? 'bad_rows' : null,
      error,
      error ? `{"error":{"code":${error},"message":"Invalid parameter"}}` : null,
    ],
  );
}

async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await db.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'`,
  );
  const out: Record<string, string[]> = {};
  for (const { table_name } of tables.rows) {
    if (table_name.startsWith('insight_')) continue;
    const rows = await db.query<{ j: Record<string, unknown> }>(
      `select to_jsonb(t) as j from ${table_name} t`,
    );
    out[table_name] = rows.rows
      .map(({ j }) => {
        // The batches' new columns start null: the values they had are what must not change.
        const kept = Object.entries(j).filter(([k]) => !/^(match_|with_)/.test(k) || j[k] !== null);
        return JSON.stringify(kept.sort());
      })
      .sort();
  }
  return out;
}

let before: Record<string, string[]>;

beforeAll(async () => {
  ({ db, drop } = await openTestDb({ before: '0830_insights.sql' }));
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
    `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone)
     values ($1, $2, 'CRM', 'csv_url', '{"url":"https://example.com/a.csv"}', '{}', '{"every":"day"}', 'UTC')`,
    [source, ws],
  );
  await run(runs.done, 'completed', '2026-03-01T10:00:00Z', { skipped: 3 });
  await batch(runs.done, 0, '', 'sent', 5);
  await batch(runs.done, 1, '', 'sent', 2);
  await run(runs.errors, 'completed_with_errors', '2026-03-01T23:59:00Z');
  await batch(runs.errors, 0, '', 'sent', 4);
  await batch(runs.errors, 1, '', 'failed', 1, 100);
  // Stopped while a first half was held (failed like its parent until its sibling settles): open, not failed.
  await run(runs.stopped, 'stopped', '2026-03-02T08:00:00Z');
  await batch(runs.stopped, 0, '', 'split', 4, 100);
  await batch(runs.stopped, 0, '0', 'failed', 2, 100);
  await batch(runs.stopped, 0, '1', 'sent', 2);
  await run(runs.test, 'completed', '2026-03-02T09:00:00Z');
  await db.query(`update send_runs set test_event_code = 'TEST1' where id = $1`, [runs.test]);
  await batch(runs.test, 0, '', 'sent', 9);
  await run(runs.live, 'running', null);
  await batch(runs.live, 0, '', 'sent', 8);
  await db.query(
    `insert into source_runs (id, source_id, workspace_id, trigger, status, started_at, finished_at, send_run_id)
     values ($1, $2, $3, 'schedule', 'sent', '2026-03-01T09:00:00Z', '2026-03-01T10:00:00Z', $4),
            ($5, $2, $3, 'schedule', 'nothing_new', '2026-03-02T09:00:00Z', '2026-03-02T09:01:00Z', null),
            ($6, $2, $3, 'schedule', 'running', '2026-03-03T09:00:00Z', null, null)`,
    [randomUUID(), source, ws, runs.done, randomUUID(), randomUUID()],
  );
  before = await snapshot();
  await migrate(db, { before: '0831' });
});
afterAll(() => drop());

describe('0830_insights', () => {
  it('keeps every row of every table with its values', async () => {
    const after = await snapshot();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect(before.send_batches!.length).toBe(9);
  });

  it('fills the daily counters from the finished live runs, as their summaries counted them', async () => {
    const days = await db.query<Record<string, unknown>>(
      `select day::text, source_id, sent::int, failed::int, skipped::int, keyed::int, with_email::int
         from insight_days order by day, source_id nulls first`,
    );
    expect(days.rows).toEqual([
      // The source's run and the upload's run on 1 March, apart; identifiers were not counted before (0).
      { day: '2026-03-01', source_id: null, sent: 4, failed: 1, skipped: 0, keyed: 0, with_email: 0 },
      { day: '2026-03-01', source_id: source, sent: 7, failed: 0, skipped: 3, keyed: 0, with_email: 0 },
      // The stopped run's held first half is open, not failed; the test send and the running one are left out.
      { day: '2026-03-02', source_id: null, sent: 2, failed: 0, skipped: 0, keyed: 0, with_email: 0 },
    ]);
    const failures = await db.query<{ run_id: string; events: number; error_code: number }>(
      'select run_id, events, error_code from insight_failures',
    );
    expect(failures.rows).toEqual([{ run_id: runs.errors, events: 1, error_code: 100 }]);
    const sourceRuns = await db.query<{ day: string; status: string; runs: number }>(
      'select day::text, status, runs from insight_source_runs order by day',
    );
    expect(sourceRuns.rows).toEqual([
      { day: '2026-03-01', status: 'sent', runs: 1 },
      { day: '2026-03-02', status: 'nothing_new', runs: 1 },
    ]);
  });
});
