/**
 * Issue 33: the Insights query on a year of history for 50 pixels and 100 sources (target: p99 under 100 ms on
 * PostgreSQL; BENCH_DATABASE_URL). The real server (as `npm start` runs it) answers `GET /api/insights`; its
 * database gets, for the bench's workspace and 3 others like it, a year of daily counters as the ends of runs
 * write them: each of 100 sources (two per pixel) and each pixel's uploaded files sent, failed and skipped every
 * day with their identifiers (one row per day, pixel and source), a failure reason on one day in ten, and two source runs a day. N calls of each view
 * (30 and 90 days stacked by pixel and by source, a year, one pixel, one source), interleaved.
 */
import pg from 'pg';
import { startBenchServer } from './api-server.ts';

const N = Number(process.env.BENCH_INSIGHTS_N ?? 200);
const PIXELS = 50;
const SOURCES = 100;
const DAYS = 365;
const WORKSPACES = 4;

const { call, databaseUrl, stop } = await startBenchServer({
  name: 'insights',
  port: Number(process.env.BENCH_INSIGHTS_PORT ?? 3966),
  env: { RUN_WORKER: 'false' },
});

async function timed(path: string): Promise<number> {
  const t = performance.now();
  const r = await call(path);
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  return performance.now() - t;
}
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
  return { p50: at(0.5), p99: at(0.99) };
};

/** A year of one workspace's counters, written in a few set-based statements. */
async function fill(db: pg.Client, workspaceId: string) {
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
    `insert into insight_source_runs (workspace_id, day, source_id, status, runs)
     select $1, dd.day, s.id, r.status, r.runs from unnest($2::uuid[]) s (id) cross join ${days}
       cross join (values ('sent', 1), ('nothing_new', 1)) as r (status, runs)`,
    [workspaceId, sources],
  );
  return sources;
}

try {
  if (!databaseUrl) {
    console.log('The Insights bench runs with BENCH_DATABASE_URL (the issue asks it of PostgreSQL).');
  } else {
    const workspace = (await (await call('/api/workspace')).json()) as { id: string };
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const filled = performance.now();
    const sources = await fill(db, workspace.id);
    for (let w = 1; w < WORKSPACES; w++) {
      const id = crypto.randomUUID();
      await db.query(`insert into workspaces (id, name, slug) values ($1, 'Other', $2)`, [id, `other-${w}`]);
      await fill(db, id);
    }
    for (const t of ['insight_days', 'insight_failures', 'insight_source_runs'])
      await db.query(`analyze ${t}`);
    const counts = await db.query<{ t: string; n: number }>(
      `select 'insight_days' as t, count(*)::int as n from insight_days union all
       select 'insight_failures', count(*)::int from insight_failures union all
       select 'insight_source_runs', count(*)::int from insight_source_runs`,
    );
    await db.end();
    console.log(
      `${WORKSPACES} workspaces × ${DAYS} days × ${PIXELS} pixels × ${SOURCES} sources, written in ${((performance.now() - filled) / 1000).toFixed(1)} s:`,
      counts.rows.map((r) => `${r.t} ${r.n}`).join(', '),
    );
    const today = new Date().toISOString().slice(0, 10);
    const ago = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
    const views: [string, string][] = [
      ['30 days by pixel (the default)', '/api/insights'],
      ['90 days by pixel', `/api/insights?from=${ago(89)}&to=${today}`],
      ['90 days by source', `/api/insights?from=${ago(89)}&to=${today}&stack=source`],
      ['a year by source', `/api/insights?from=${ago(DAYS - 1)}&to=${today}&stack=source`],
      ['90 days, one pixel', `/api/insights?from=${ago(89)}&to=${today}&pixel=100000000007`],
      ['90 days, one source', `/api/insights?from=${ago(89)}&to=${today}&source=${sources[3]}`],
    ];
    for (let i = 0; i < 10; i++) for (const [, path] of views) await timed(path);
    const times = views.map(() => [] as number[]);
    for (let i = 0; i < N; i++)
      for (const [v, [, path]] of views.entries()) times[v]!.push(await timed(path));
    console.log(`\n${N} calls of each view, interleaved, PostgreSQL, through HTTP`);
    console.log('| view | p50 ms | p99 ms |');
    console.log('|---|---|---|');
    for (const [v, [name]] of views.entries()) {
      const { p50, p99 } = stats(times[v]!);
      console.log(`| ${name} | ${p50.toFixed(1)} | ${p99.toFixed(1)} |`);
    }
    const worst = Math.max(...views.slice(0, 3).map((_, v) => stats(times[v]!).p99));
    console.log(`worst p99 of the 30/90-day views: ${worst.toFixed(1)} ms (target < 100 ms)`);
  }
} finally {
  await stop();
}
