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
import { DAYS, PIXELS, SOURCES, fillInsightsHistory as fill } from './insights-history.ts';

const N = Number(process.env.BENCH_INSIGHTS_N ?? 200);
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

try {
  if (!databaseUrl) {
    console.log('The Insights bench runs with BENCH_DATABASE_URL (the issue asks it of PostgreSQL).');
  } else {
    const workspace = (await (await call('/api/workspace')).json()) as { id: string };
    const db = new pg.Client({ connectionString: databaseUrl });
    db.on('error', () => undefined);
    await db.connect();
    const filled = performance.now();
    const sources = await fill(db, workspace.id);
    for (let w = 1; w < WORKSPACES; w++) {
      const id = crypto.randomUUID();
      await db.query(`insert into workspaces (id, name, slug) values ($1, 'Other', $2)`, [id, `other-${w}`]);
      await fill(db, id);
    }
    for (const t of [
      'insight_days',
      'insight_failures',
      'insight_source_days',
      'insight_weeks',
      'insight_source_weeks',
    ])
      await db.query(`analyze ${t}`);
    const counts = await db.query<{ t: string; n: number }>(
      `select 'insight_days' as t, count(*)::int as n from insight_days union all
       select 'insight_failures', count(*)::int from insight_failures union all
       select 'insight_source_days', count(*)::int from insight_source_days`,
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
    const worst = Math.max(...views.map((_, v) => stats(times[v]!).p99));
    console.log(`worst p99: ${worst.toFixed(1)} ms (target < 100 ms)`);
  }
} catch (err) {
  // Logged before `stop` drops the database: dropping it ends this client's connection, whose error would hide it.
  console.error(err);
  process.exitCode = 1;
} finally {
  await stop();
}
