import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import type { Insights } from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import {
  POISON_EVENT_NAME,
  startFakeGraph,
  type FakeGraph,
} from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount, testPixelId } from '../delivery/delivery.test-helpers.ts';
import { sourcesRepo } from '../sources/sources.repo.ts';
import { applyRetention } from '../system/retention.ts';
import { insightsCounters } from './insights-counters.repo.ts';
import { readInsightsAs, sendFile } from './insights.test-helpers.ts';

/** Issue 33: Insights read from the daily counters that ending a send or a source run writes. */
let ctx: TestContext;
let graph: FakeGraph;
const TOKEN = 'EAAB-good-token-123456';
const queue = { send: async () => undefined } as unknown as PgBoss;
const DB = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
beforeAll(async () => {
  graph = await startFakeGraph({ tokens: [TOKEN] });
  ctx = await createTestContext({ deps: { queue }, env: { META_GRAPH_URL: graph.url } });
});
afterAll(async () => {
  await ctx.close();
  await graph.close();
});
beforeEach(() => graph.reset());

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));
const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
const today = () => new Date().toISOString().slice(0, 10);
const MAPPING = {
  Email: 'email',
  Phone: 'phone',
  First: 'first_name',
  Zip: 'zip',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
};
const csv = (rows: string[][]) =>
  [
    'Email,Phone,First,Zip,Event,When,Source',
    ...rows.map((r) => [...r, when, 'physical_store'].join(',')),
  ].join('\r\n');

const send = (agent: Agent, accountId: string, name: string, body: string, extra: object = {}) =>
  sendFile(agent, work, {
    name,
    body,
    accountId,
    mapping: { mappings: MAPPING, hardcodedValues: {} },
    send: extra,
  });
const insights = readInsightsAs;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** What ending runs wrote to the weekly counters is what it wrote to the days, week by week (decision 0122). */
async function expectWeeksOfDays(workspaceId: string) {
  const monday = `day - (extract(isodow from day)::int - 1)`;
  const q = (sql: string) => ctx.db.query(sql, [workspaceId]).then((r) => r.rows);
  const counters =
    'sum(sent)::int as sent, sum(failed)::int as failed, sum(skipped)::int as skipped, sum(keyed)::int as keyed, sum(score_tenths)::int as tenths, sum(with_email)::int as email, sum(with_phone)::int as phone';
  expect(
    await q(`select to_char(week, 'YYYY-MM-DD') as week, pixel_id, source_id, ${counters} from insight_weeks
              where workspace_id = $1 group by 1, 2, 3 order by 1, 2, 3`),
  ).toEqual(
    await q(`select to_char(${monday}, 'YYYY-MM-DD') as week, pixel_id, source_id, ${counters} from insight_days
              where workspace_id = $1 group by 1, 2, 3 order by 1, 2, 3`),
  );
  const runs =
    'sum(sent)::int as sent, sum(nothing_new)::int as nothing_new, sum(paused)::int as paused, sum(failed)::int as failed';
  expect(
    await q(`select to_char(week, 'YYYY-MM-DD') as week, source_id, ${runs}
               from insight_source_weeks where workspace_id = $1 group by 1, 2 order by 1, 2`),
  ).toEqual(
    await q(`select to_char(${monday}, 'YYYY-MM-DD') as week, source_id, ${runs}
               from insight_source_days where workspace_id = $1 group by 1, 2 order by 1, 2`),
  );
}

describe(`GET /api/insights (${DB})`, () => {
  it('answers 401 without a session and 400 for a bad range or filter', async () => {
    expect((await new Agent(ctx.app).get('/api/insights')).statusCode).toBe(401);
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    for (const q of [
      '?from=2026-05-10&to=2026-05-01',
      '?from=yesterday',
      '?from=2024-01-01&to=2026-01-01',
      '?source=nope',
      '?stack=day',
    ])
      expect((await agent.get(`/api/insights${q}`)).statusCode, q).toBe(400);
  });

  it('shows an empty workspace as 30 days of zeros', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const r = await insights(agent);
    expect(r.days).toHaveLength(30);
    expect(r.to).toBe(today());
    expect(r.totals).toMatchObject({ sent: 0, failed: 0, skipped: 0, keyed: 0, score: null });
    expect(r.volume.series).toEqual([]);
    expect(r.failures).toEqual([]);
    expect(r.sourceRuns).toEqual([]);
    expect(sum(r.matchKeys.keyed)).toBe(0);
  });

  it("counts a send's events, identifiers and failures as its summary does, for the workspace's members only", async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const pixelId = testPixelId();
    const accountId = await saveAccount(agent, TOKEN, pixelId);
    const first = await send(
      agent,
      accountId,
      'june.csv',
      csv([
        ['ann@example.net', '+1 602 555 0147', 'Ann', '85001', 'Lead'],
        ['bob@example.net', '', 'Bob', '', 'Lead'],
        ['cy@example.net', '+1 602 555 0148', '', '', POISON_EVENT_NAME],
      ]),
    );
    expect(first.summary).toMatchObject({ status: 'completed_with_errors', totalSent: 2, totalFailed: 1 });
    // Sent again: the pixel has both events, so they are skipped; the poisoned row fails again.
    const again = await send(
      agent,
      accountId,
      'june-again.csv',
      csv([
        ['ann@example.net', '+1 602 555 0147', 'Ann', '85001', 'Lead'],
        ['bob@example.net', '', 'Bob', '', 'Lead'],
        ['cy@example.net', '+1 602 555 0148', '', '', POISON_EVENT_NAME],
      ]),
    );
    expect(again.summary).toMatchObject({ totalSent: 0, totalFailed: 1 });
    await expectWeeksOfDays(userId);

    const r = await insights(agent);
    const d = r.days.indexOf(today());
    expect(r.totals).toMatchObject({ sent: 2, failed: 2, skipped: 2, keyed: 2 });
    expect(r.totals.keys).toEqual({ email: 2, phone: 1, name: 2, address: 1, external_id: 0 });
    // Ann: email 4 + phone 3 + first name 0.6 + zip 0.5 = 8.1; Bob: 4 + 0.6 = 4.6.
    expect(r.totals.score).toBe(6.4);
    expect(r.matchKeys.score[d]).toBe(6.4);
    expect(r.matchKeys.keys.phone[d]).toBe(1);
    expect(r.volume.series).toEqual([
      { key: pixelId, label: `Main store (${pixelId})`, sent: r.days.map((x) => (x === today() ? 2 : 0)) },
    ]);
    expect(r.volume.failed[d]).toBe(2);
    expect(r.volume.skipped[d]).toBe(2);
    expect(r.options.pixels).toEqual([{ pixelId, name: `Main store (${pixelId})` }]);

    // The summary's groups, over both sends, each linking to its send.
    expect(r.failures).toHaveLength(1);
    const [group] = r.failures;
    expect(group!.key).toBe(first.summary.failureGroups[0]!.key);
    expect(group!.explanation).toEqual(first.summary.failureGroups[0]!.explanation);
    expect(group!.events).toBe(2);
    expect(group!.sends.map((s) => s.uploadId).sort()).toEqual([first.id, again.id].sort());
    expect(group!.sends.map((s) => s.fileName).sort()).toEqual(['june-again.csv', 'june.csv']);

    // Stacked by source: files uploaded by hand are one series.
    const bySource = await insights(agent, '?stack=source');
    expect(bySource.volume.series.map((s) => [s.key, s.label, sum(s.sent)])).toEqual([
      ['manual', 'Uploaded files', 2],
    ]);
    // Filters: another pixel, or a source, shows nothing.
    expect((await insights(agent, `?pixel=${testPixelId()}`)).totals.sent).toBe(0);
    expect((await insights(agent, `?source=${randomUUID()}`)).totals.sent).toBe(0);
    expect((await insights(agent, `?source=manual&pixel=${pixelId}`)).totals.sent).toBe(2);
    // A range that ends before today holds none of it.
    expect((await insights(agent, '?from=2025-01-01&to=2025-01-07')).days).toHaveLength(7);
    expect((await insights(agent, '?from=2025-01-01&to=2025-01-07')).totals.sent).toBe(0);

    // A viewer of the workspace reads the same; another workspace's member sees none of it.
    const viewer = await loggedInAgent(ctx.app, ctx.db);
    await ctx.db.query(
      `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'viewer')`,
      [userId, viewer.userId],
    );
    expect((await insights(viewer.agent)).totals.sent).toBe(0);
    const { rows } = await ctx.db.query<{ slug: string }>('select slug from workspaces where id = $1', [
      userId,
    ]);
    const r2 = await viewer.agent.get('/api/insights', { headers: { 'x-workspace': rows[0]!.slug } });
    expect(r2.statusCode).toBe(200);
    expect((r2.json() as Insights).totals.sent).toBe(2);
  });

  it('leaves a test send out: its events are not conversions', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent, TOKEN);
    const { summary } = await send(
      agent,
      accountId,
      'test.csv',
      csv([['ann@example.net', '', '', '', 'Lead']]),
      {
        testEventCode: 'TEST123',
      },
    );
    expect(summary.totalSent).toBe(1);
    expect((await insights(agent)).totals.sent).toBe(0);
  });

  it("counts each source run once when it ends, in the source's timeline", async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const sourceId = randomUUID();
    await ctx.db.query(
      `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone, next_run_at)
       values ($1, $2, 'CRM export', 'csv_url', '{"url":"https://example.com/a.csv"}', '{}', '{"every":"day"}', 'UTC',
               now() + interval '1 hour')`,
      [sourceId, userId],
    );
    const runs = ['sent', 'nothing_new', 'nothing_new', 'failed'] as const;
    for (const status of runs) {
      const runId = randomUUID();
      await ctx.db.query(
        `insert into source_runs (id, source_id, workspace_id, trigger, status) values ($1, $2, $3, 'schedule', 'running')`,
        [runId, sourceId, userId],
      );
      await sourcesRepo.finishRun(ctx.db, runId, { status, message: null });
      // Ending it twice counts it once.
      await sourcesRepo.finishRun(ctx.db, runId, { status, message: null });
    }
    await expectWeeksOfDays(userId);
    const r = await insights(agent);
    expect(r.sourceRuns).toEqual([
      {
        sourceId,
        name: 'CRM export',
        status: 'active',
        nextRunAt: expect.any(String),
        runs: {
          sent: r.days.map((d) => (d === today() ? 1 : 0)),
          nothing_new: r.days.map((d) => (d === today() ? 2 : 0)),
          paused: r.days.map(() => 0),
          failed: r.days.map((d) => (d === today() ? 1 : 0)),
        },
      },
    ]);
    expect(r.options.sources).toEqual([{ id: sourceId, name: 'CRM export' }]);
  });

  it('notes a source whose share of an identifier fell, from the day it fell', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const sourceId = randomUUID();
    await ctx.db.query(
      `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone)
       values ($1, $2, 'Shop export', 'csv_url', '{"url":"https://example.com/a.csv"}', '{}', '{"every":"day"}', 'UTC')`,
      [sourceId, userId],
    );
    // 30 days of 100 events a day, all with email and phone; phone gone from the last 3 days.
    const days = Array.from({ length: 30 }, (_, i) =>
      new Date(Date.now() - (29 - i) * 86_400_000).toISOString().slice(0, 10),
    );
    for (const [i, day] of days.entries())
      await ctx.db.query(
        `insert into insight_days (workspace_id, day, pixel_id, source_id, sent, keyed, score_tenths, with_email, with_phone)
         values ($1, $2, '1', $3, 100, 100, 7000, 100, $4)`,
        [userId, day, sourceId, i >= 27 ? 2 : 100],
      );
    await insightsCounters.rebuildRollups(ctx.db, userId);
    const r = await insights(agent);
    expect(r.drops).toEqual([
      {
        sourceId,
        sourceName: 'Shop export',
        key: 'phone',
        since: days[27],
        before: 1,
        after: expect.any(Number),
      },
    ]);
    expect(r.drops[0]!.after).toBeLessThan(0.5);
    expect(r.matchKeys.keys.phone.slice(-3)).toEqual([2, 2, 2]);
    expect(r.matchKeys.score.at(-1)).toBe(7);
  });

  it('stacks the 7 pixels with the most sent events and sums the rest as Other', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    // Ten pixels: pixel n sends n × 10 events today and n yesterday.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    for (let n = 1; n <= 10; n++)
      await ctx.db.query(
        `insert into insight_days (workspace_id, day, pixel_id, sent) values ($1, $2, $3, $4), ($1, $5, $3, $6)`,
        [userId, today(), String(n), n * 10, yesterday, n],
      );
    await insightsCounters.rebuildRollups(ctx.db, userId);
    const r = await insights(agent);
    const at = (day: string) => r.days.indexOf(day);
    expect(r.volume.series.map((s) => s.key)).toEqual(['10', '9', '8', '7', '6', '5', '4', 'other']);
    const other = r.volume.series.at(-1)!;
    expect(other.label).toBe('Other (3)');
    expect([other.sent[at(yesterday)], other.sent[at(today())]]).toEqual([1 + 2 + 3, 10 + 20 + 30]);
    expect(sum(r.volume.series.flatMap((s) => s.sent))).toBe(r.totals.sent);
  });

  it("adds up a file's runs that failed for one reason as one send, on its last day", async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const [file, other] = [randomUUID(), randomUUID()];
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    for (const [upload, day, events] of [
      [file, yesterday, 2],
      [file, today(), 3],
      [other, yesterday, 4],
    ] as const)
      await ctx.db.query(
        `insert into insight_failures (workspace_id, day, pixel_id, run_id, upload_id, verdict, error_code, events)
         values ($1, $2, '1', $3, $4, 'bad_rows', 100, $5)`,
        [userId, day, randomUUID(), upload, events],
      );
    const [reason] = (await insights(agent)).failures;
    expect(reason!.events).toBe(9);
    expect(reason!.sends).toEqual([
      { uploadId: file, fileName: null, day: today(), events: 5 },
      { uploadId: other, fileName: null, day: yesterday, events: 4 },
    ]);
  });

  it('forgets counters older than RETENTION_DAYS', async () => {
    const { userId } = await loggedInAgent(ctx.app, ctx.db);
    await ctx.db.query(
      `insert into insight_days (workspace_id, day, pixel_id, sent) values ($1, '2020-01-01', '1', 5), ($1, $2, '1', 7)`,
      [userId, today()],
    );
    await applyRetention(ctx.db, new Date(), { retentionDays: 30, analyticsRetentionDays: 30 });
    const left = await ctx.db.query<{ sent: string }>(
      'select sent::text from insight_days where workspace_id = $1',
      [userId],
    );
    expect(left.rows).toEqual([{ sent: '7' }]);
  });
});
