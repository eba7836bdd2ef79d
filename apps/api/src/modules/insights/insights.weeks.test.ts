import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  INSIGHT_FIX_GROUPS,
  INSIGHT_MATCH_KEYS,
  INSIGHT_RUN_OUTCOMES,
  type Insights,
} from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent, type Agent } from '../../../test/agent.ts';
import { applyRetention } from '../system/retention.ts';
import { insightsCounters } from './insights-counters.repo.ts';

/**
 * Decision 0122: ranges over INSIGHT_DAILY_MAX_DAYS days are charted a bar per ISO week, whole weeks read from the
 * weekly counters and the cut ones at the ends from the days. Whatever the range, filter and counters, every
 * week's numbers are the sums of its days in the range, computed here from the rows themselves.
 */
let ctx: TestContext;
const DB = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const FIX_COLUMN_LIST = ['fixes_counted', ...INSIGHT_FIX_GROUPS.map((g) => `fixed_${g}`)];
const FIX_COLUMNS = FIX_COLUMN_LIST.join(', ');
const DAY_MS = 86_400_000;
const BASE = Date.parse('2025-03-01T00:00:00Z');
const dayAt = (n: number) => new Date(BASE + n * DAY_MS).toISOString().slice(0, 10);
const SPAN = 260;

interface Row {
  day: number;
  pixel: string;
  source: 0 | 1 | null;
  sent: number;
  failed: number;
  skipped: number;
  keyed: number;
  keys: number[];
  /** fixed_<group> in INSIGHT_FIX_GROUPS order; fixes_counted is `sent` or, for a row counted before, 0. */
  fixed: number[];
}
const row = fc
  .record({
    day: fc.integer({ min: 0, max: SPAN - 1 }),
    pixel: fc.constantFrom('1', '2'),
    source: fc.constantFrom(0 as const, 1 as const, null),
    sent: fc.integer({ min: 0, max: 50 }),
    failed: fc.integer({ min: 0, max: 5 }),
    skipped: fc.integer({ min: 0, max: 5 }),
    shares: fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 5, maxLength: 5 }),
    fixes: fc.option(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 8, maxLength: 8 })),
  })
  .map(({ shares, fixes, ...r }): Row => ({
    ...r,
    keyed: r.sent,
    keys: shares.map((n) => Math.min(n, r.sent)),
    fixed: (fixes ?? INSIGHT_FIX_GROUPS.map(() => -1)).map((n) => Math.min(n, r.sent)),
  }));
const run = fc.record({
  day: fc.integer({ min: 0, max: SPAN - 1 }),
  source: fc.constantFrom(0 as const, 1 as const),
  status: fc.constantFrom(...INSIGHT_RUN_OUTCOMES),
  runs: fc.integer({ min: 1, max: 3 }),
});

type Run = { day: number; source: 0 | 1; status: string; runs: number };
/** Writes the days, then their weeks and the workspace's rows as the statements that end runs write them. */
async function store(workspaceId: string, sources: string[], rows: Row[], runs: Run[]) {
  await ctx.db.query(
    `insert into insight_days (workspace_id, day, pixel_id, source_id, sent, failed, skipped, keyed, score_tenths,
                               with_email, with_phone, with_name, with_address, with_external_id, ${FIX_COLUMNS})
     select $1, r.day, r.pixel, r.source, r.sent, r.failed, r.skipped, r.keyed, r.keyed * 5, r.k[1], r.k[2], r.k[3],
            r.k[4], r.k[5], case when r.f[1] < 0 then 0 else r.sent end,
            ${INSIGHT_FIX_GROUPS.map((_, i) => `greatest(r.f[${i + 1}], 0)`).join(', ')}
       from jsonb_to_recordset($2::jsonb) as r (day date, pixel text, source uuid, sent int, failed int, skipped int,
                                                 keyed int, k int[], f int[])`,
    [
      workspaceId,
      JSON.stringify(
        rows.map((r) => ({
          ...r,
          day: dayAt(r.day),
          source: r.source === null ? null : sources[r.source],
          k: `{${r.keys.join(',')}}`,
          f: `{${r.fixed.join(',')}}`,
        })),
      ),
    ],
  );
  await ctx.db.query(
    `insert into insight_source_days (workspace_id, day, source_id, sent, nothing_new, paused, failed)
     select $1::uuid, r.day, r.source, ${INSIGHT_RUN_OUTCOMES.map(
       (o) => `coalesce(sum(r.runs) filter (where r.status = '${o}'), 0)`,
     ).join(', ')}
       from jsonb_to_recordset($2::jsonb) as r (day date, source uuid, status text, runs int) group by 1, 2, 3`,
    [workspaceId, JSON.stringify(runs.map((r) => ({ ...r, day: dayAt(r.day), source: sources[r.source] })))],
  );
  await insightsCounters.rebuildRollups(ctx.db, workspaceId);
}

async function insights(agent: Agent, query: string) {
  const r = await agent.get(`/api/insights?${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Insights;
}

describe(`Insights by week (${DB})`, () => {
  it('answers every week as the sum of its days in the range, for any filter', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const sources = [randomUUID(), randomUUID()];
    for (const [n, id] of sources.entries())
      await ctx.db.query(
        `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone)
         values ($1, $2, $3, 'csv_url', '{"url":"https://example.com/a.csv"}', '{}', '{"every":"day"}', 'UTC')`,
        [id, userId, `Source ${n}`],
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 120 }),
        fc.array(run, { maxLength: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 93, max: 215 }),
        fc.constantFrom('pixel', 'source'),
        fc.constantFrom(null, '1'),
        fc.constantFrom(null, 0, 1, 'manual'),
        async (raw, runs, start, length, stack, pixel, source) => {
          // The rollups go with `store`'s rebuild.
          await ctx.db.query('delete from insight_days where workspace_id = $1', [userId]);
          await ctx.db.query('delete from insight_source_days where workspace_id = $1', [userId]);
          // One row per day, pixel and source, as the unique key keeps them.
          const rows = [...new Map(raw.map((r) => [`${r.day} ${r.pixel} ${r.source}`, r])).values()];
          const runRows = [...new Map(runs.map((r) => [`${r.day} ${r.source} ${r.status}`, r])).values()];
          await store(userId, sources, rows, runRows);
          const from = start;
          const to = start + length - 1;
          const sourceId = typeof source === 'number' ? sources[source]! : source;
          const q = new URLSearchParams({ from: dayAt(from), to: dayAt(to), stack });
          if (pixel) q.set('pixel', pixel);
          if (sourceId) q.set('source', sourceId);
          const r = await insights(agent, q.toString());

          // Buckets: the range's first day, then every Monday after it.
          const monday = (n: number) => n - ((new Date(BASE + n * DAY_MS).getUTCDay() + 6) % 7);
          const starts = [from];
          for (let m = monday(from) + 7; m <= to; m += 7) starts.push(m);
          expect(r.bucket).toBe('week');
          expect(r.days).toEqual(starts.map(dayAt));
          const bucketOf = (day: number) => (monday(day) - monday(from)) / 7;

          const kept = rows.filter(
            (x) =>
              x.day >= from &&
              x.day <= to &&
              (!pixel || x.pixel === pixel) &&
              (source === null || (source === 'manual' ? x.source === null : x.source === source)),
          );
          const zeros = () => starts.map(() => 0);
          const add = (into: number[], day: number, n: number) => (into[bucketOf(day)]! += n);
          const failed = zeros();
          const skipped = zeros();
          const keyed = zeros();
          const keys = INSIGHT_MATCH_KEYS.map(zeros);
          const series = new Map<string, number[]>();
          for (const x of kept) {
            add(failed, x.day, x.failed);
            add(skipped, x.day, x.skipped);
            add(keyed, x.day, x.keyed);
            x.keys.forEach((n, k) => add(keys[k]!, x.day, n));
            const key = stack === 'pixel' ? x.pixel : x.source === null ? 'manual' : sources[x.source]!;
            if (!series.has(key)) series.set(key, zeros());
            add(series.get(key)!, x.day, x.sent);
          }
          for (const [k, s] of series) if (s.every((n) => n === 0)) series.delete(k);
          expect(new Map(r.volume.series.map((s) => [s.key, s.sent]))).toEqual(series);
          expect(r.volume.failed).toEqual(failed);
          expect(r.volume.skipped).toEqual(skipped);
          expect(r.matchKeys.keyed).toEqual(keyed);
          INSIGHT_MATCH_KEYS.forEach((k, i) => expect(r.matchKeys.keys[k], k).toEqual(keys[i]));
          // What was fixed (decision 0123): totals over the range, rows counted before fixes were left out.
          const counted = kept.filter((x) => x.fixed[0]! >= 0);
          expect(r.totals.fixesCounted).toBe(counted.reduce((n, x) => n + x.sent, 0));
          expect(r.totals.fixed).toEqual(
            Object.fromEntries(
              INSIGHT_FIX_GROUPS.map((g, i) => [g, counted.reduce((n, x) => n + x.fixed[i]!, 0)]),
            ),
          );

          // Source runs: every source in scope, its runs per week and outcome.
          if (source === 'manual' || pixel) return;
          for (const [n, id] of sources.entries()) {
            if (sourceId && sourceId !== id) continue;
            const timeline = r.sourceRuns.find((s) => s.sourceId === id)!;
            for (const status of INSIGHT_RUN_OUTCOMES) {
              const want = zeros();
              for (const x of runRows)
                if (x.source === n && x.status === status && x.day >= from && x.day <= to)
                  add(want, x.day, x.runs);
              expect(timeline.runs[status], status).toEqual(want);
            }
          }
        },
      ),
      { numRuns: 10 },
    );
  });

  it('keeps a bar per day up to 92 days', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const r = await insights(agent, `from=${dayAt(0)}&to=${dayAt(91)}`);
    expect(r.bucket).toBe('day');
    expect(r.days).toHaveLength(92);
    const w = await insights(agent, `from=${dayAt(0)}&to=${dayAt(92)}`);
    expect(w.bucket).toBe('week');
    expect(w.days[0]).toBe(dayAt(0));
  });

  it('takes the days RETENTION_DAYS deletes off their week, and deletes the weeks before', async () => {
    const { userId } = await loggedInAgent(ctx.app, ctx.db);
    const source = randomUUID();
    // Monday 2 June 2025 to Sunday 8 June, and the week before; the cutoff falls on Thursday 5 June.
    const days = ['2025-05-28', '2025-06-02', '2025-06-04', '2025-06-05', '2025-06-08'];
    for (const [i, day] of days.entries()) {
      await ctx.db.query(
        `insert into insight_days (workspace_id, day, pixel_id, source_id, sent, keyed, with_email, fixes_counted,
                                   fixed_phone)
         values ($1, $2, '1', $3, $4, $4, 1, $4, 1)`,
        [userId, day, source, 10 ** i],
      );
      await ctx.db.query(
        `insert into insight_source_days (workspace_id, day, source_id, sent, failed) values ($1, $2, $3, $4, 1)`,
        [userId, day, source, i + 1],
      );
    }
    await insightsCounters.rebuildRollups(ctx.db, userId);
    const now = new Date('2025-07-05T12:00:00Z');
    await applyRetention(ctx.db, now, { retentionDays: 30, analyticsRetentionDays: 30 });
    const weeks = await ctx.db.query<{ week: string; sent: number; keyed: number; with_email: number }>(
      `select to_char(week, 'YYYY-MM-DD') as week, sent, keyed, with_email, fixes_counted, fixed_phone
         from insight_weeks where workspace_id = $1`,
      [userId],
    );
    // The workspace's own rows lose the same days.
    const all = await ctx.db.query(
      `select 'day' as kind, to_char(day, 'YYYY-MM-DD') as at, sent from insight_workspace_days where workspace_id = $1
       union all
       select 'week', to_char(week, 'YYYY-MM-DD'), sent from insight_workspace_weeks where workspace_id = $1
       order by 1, 2`,
      [userId],
    );
    expect(all.rows).toEqual([
      { kind: 'day', at: '2025-06-05', sent: 1000 },
      { kind: 'day', at: '2025-06-08', sent: 10000 },
      { kind: 'week', at: '2025-06-02', sent: 11000 },
    ]);
    expect(weeks.rows).toEqual([
      {
        week: '2025-06-02',
        sent: 11000,
        keyed: 11000,
        with_email: 2,
        fixes_counted: 11000,
        fixed_phone: 2,
      },
    ]);
    const runWeeks = await ctx.db.query<{ week: string; sent: number; failed: number }>(
      `select to_char(week, 'YYYY-MM-DD') as week, sent, failed from insight_source_weeks where workspace_id = $1`,
      [userId],
    );
    expect(runWeeks.rows).toEqual([{ week: '2025-06-02', sent: 9, failed: 2 }]);
  });
});
