/**
 * A year of Insights counters for one workspace, as the ends of runs write them (bench/insights.bench.ts): each of
 * 100 sources (two per pixel) and each of 50 pixels' uploaded files sent, failed and skipped every day with their
 * identifiers, a failure reason on one day in ten, and two source runs a day (sent, and nothing new). Set-based statements, a few seconds.
 */
import type pg from 'pg';
import type { Queryable } from '../apps/api/src/db/db.ts';
import { insightsCounters } from '../apps/api/src/modules/insights/insights-counters.repo.ts';

export const PIXELS = 50;
export const SOURCES = 100;
export const DAYS = 365;

/** A year of one workspace's counters, written in a few set-based statements. */
export async function fillInsightsHistory(db: pg.ClientBase, workspaceId: string) {
  const sources = Array.from({ length: SOURCES }, () => crypto.randomUUID());
  await db.query(
    `insert into pixel_accounts (id, workspace_id, name, pixel_id, token_ciphertext, token_iv, token_tag, key_version, token_last4)
     select gen_random_uuid(), $1, 'Pixel ' || p, (100000000000 + p)::text, '\\x01', '\\x02', '\\x03', 1, 'abcd'
       from generate_series(0, $2::int - 1) p`,
    [workspaceId, PIXELS],
  );
  await db.query(
    `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone, next_run_at)
     select s.id, $1, 'Source ' || s.n, 'csv_url', '{"url":"https://example.com/a.csv"}', '{}', '{"every":"day"}', 'UTC',
            now() + interval '1 hour'
       from unnest($2::uuid[]) with ordinality as s (id, n)`,
    [workspaceId, sources],
  );
  // Streams: every source (pixel n % 50) and every pixel's uploaded files (source null).
  const streams = `(select s.id as source_id, (100000000000 + (s.n % ${PIXELS}))::text as pixel_id
                      from unnest($2::uuid[]) with ordinality as s (id, n)
                    union all
                    select null, (100000000000 + p)::text from generate_series(0, ${PIXELS - 1}) p) st`;
  const days = `(select (current_date - d) as day, d from generate_series(0, ${DAYS - 1}) d) dd`;
  await db.query(
    `insert into insight_days (workspace_id, day, pixel_id, source_id, sent, failed, skipped, keyed, score_tenths,
                               with_email, with_phone, with_name, with_address, with_external_id)
     select $1, dd.day, st.pixel_id, st.source_id, v.sent, dd.d % 7, 40 + dd.d % 30, v.sent, v.sent * 62,
            v.sent * 95 / 100, v.sent * 70 / 100, v.sent * 60 / 100, v.sent * 40 / 100, v.sent * 20 / 100
       from ${streams} cross join ${days} cross join lateral (select 800 + dd.d % 400 as sent) v`,
    [workspaceId, sources],
  );
  await db.query(
    `insert into insight_failures (workspace_id, day, pixel_id, source_id, run_id, upload_id, verdict, error_code,
                                   error_subcode, error_title, error_message, error_raw, events)
     select $1, dd.day, st.pixel_id, st.source_id, gen_random_uuid(), gen_random_uuid(), 'bad_rows', 100, 2804003,
            'Event too old', 'Invalid parameter', '{"error":{"code":100,"error_subcode":2804003}}', 3
       from ${streams} cross join ${days} where (dd.d + coalesce(length(st.source_id::text), 0)) % 10 = 0`,
    [workspaceId, sources],
  );
  await db.query(
    `insert into insight_source_days (workspace_id, day, source_id, sent, nothing_new)
     select $1, dd.day, s.id, 1, 1 from unnest($2::uuid[]) s (id) cross join ${days}`,
    [workspaceId, sources],
  );
  // The weeks and the workspace's rows, as the same statements write them beside the days.
  const queryable = {
    query: (sql: string, params?: readonly unknown[]) => db.query(sql, params as unknown[]),
    exec: (sql: string) => db.query(sql),
  } as unknown as Queryable;
  await insightsCounters.rebuildRollups(queryable, workspaceId);
  return sources;
}
