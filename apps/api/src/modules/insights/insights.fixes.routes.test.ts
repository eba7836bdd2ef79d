import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { insightsCounters } from './insights-counters.repo.ts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent, type Agent } from '../../../test/agent.ts';
import {
  POISON_EVENT_NAME,
  startFakeGraph,
  type FakeGraph,
} from '../../../../../e2e/fake-graph/fake-graph.ts';
import { deliveryRepo } from '../delivery/delivery.repo.ts';
import { appEngineRun, saveAccount } from '../delivery/delivery.test-helpers.ts';
import { readInsightsAs, sendFile } from './insights.test-helpers.ts';

/**
 * Decision 0123: what validation fixed automatically, counted per sent event by the send itself (the fix codes the
 * pipeline worker packs beside each event, summed per batch as it commits, then per run into the day's counters).
 */
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
const today = () => new Date().toISOString().slice(0, 10);
const hourAgo = Date.now() - 3600_000;
const ISO = new Date(hourAgo).toISOString();
const MS = String(hourAgo);
const HEADER = 'Email,Phone,Name,Birth,State,Event,When,Value,Currency';
const MAPPING = {
  Email: 'email',
  Phone: 'phone',
  Name: 'first_name',
  Birth: 'db',
  State: 'state',
  Event: 'event_name',
  When: 'event_time',
  Value: 'value',
  Currency: 'currency',
};
const ZERO = {
  email: 0,
  phone: 0,
  name: 0,
  date_of_birth: 0,
  address: 0,
  event_time: 0,
  value: 0,
  other: 0,
};

const send = (agent: Agent, accountId: string, name: string, rows: string[][]) =>
  sendFile(agent, work, {
    name,
    body: [HEADER, ...rows.map((r) => r.join(','))].join('\r\n'),
    accountId,
    mapping: {
      mappings: MAPPING,
      hardcodedValues: { action_source: 'physical_store' },
      settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
    },
  });
const insights = readInsightsAs;

describe(`what was fixed automatically, in GET /api/insights (${DB})`, () => {
  it('counts the sent events with a value of each group corrected, and not the events that failed', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent, TOKEN);
    const { summary, rowsCorrected } = await send(agent, accountId, 'fixes.csv', [
      // A national phone given the default country's code, an event time in milliseconds, a dashed birth date.
      ['ann@example.net', '(602) 555-0147', 'Ann', '1990-01-31', 'AZ', 'Lead', MS, '', ''],
      // A state name made its two-letter code.
      ['bob@example.net', '+1 602 555 0148', 'Bob', '19900131', 'California', 'Lead', ISO, '', ''],
      // Nothing to fix.
      ['cy@example.net', '+1 602 555 0149', 'Cy', '', '', 'Lead', ISO, '', ''],
      // An email in a mailto: link, a currency symbol, and a standard event name's case (an "other" field).
      ['mailto:dee@example.net', '', 'Dee', '', '', 'purchase', ISO, '25', '$'],
      // Its phone is fixed too, but Meta refuses the event: the split leaves it failed, and it is not counted.
      ['eve@example.net', '602 555 0150', 'Eve', '', '', POISON_EVENT_NAME, MS, '', ''],
    ]);
    expect(rowsCorrected).toBe(4);
    expect(summary).toMatchObject({ status: 'completed_with_errors', totalSent: 4, totalFailed: 1 });

    const r = await insights(agent);
    expect(r.totals).toMatchObject({ sent: 4, failed: 1, fixesCounted: 4 });
    expect(r.totals.fixed).toEqual({
      ...ZERO,
      email: 1,
      phone: 1,
      date_of_birth: 1,
      address: 1,
      event_time: 1,
      value: 1,
      other: 1,
    });
    // A range charted by week reads the weekly counters the same run end wrote.
    const from = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const weekly = await insights(agent, `?from=${from}&to=${today()}`);
    expect(weekly.bucket).toBe('week');
    expect(weekly.totals).toMatchObject({ sent: 4, fixesCounted: 4, fixed: r.totals.fixed });
    // The filters apply: another day range holds none of it.
    const before = await insights(agent, '?from=2025-01-01&to=2025-01-07');
    expect(before.totals).toMatchObject({ fixesCounted: 0, fixed: ZERO });

    // Batches are summed per run, and runs per day: a second send adds its own.
    await send(agent, accountId, 'more.csv', [
      ['fay@example.net', '(602) 555-0151', 'Fay', '', '', 'Lead', MS, '', ''],
    ]);
    const both = await insights(agent);
    expect(both.totals).toMatchObject({ sent: 5, fixesCounted: 5 });
    expect(both.totals.fixed).toMatchObject({ phone: 2, event_time: 2, email: 1 });
  });

  it('tells sends whose corrections were not counted from sends with nothing to fix', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    // Counted before corrections were: a day row as the backfill or an older release left it.
    await ctx.db.query(
      `insert into insight_days (workspace_id, day, pixel_id, sent, keyed) values ($1, $2, '1', 6, 6)`,
      [userId, today()],
    );
    await insightsCounters.rebuildRollups(ctx.db, userId);
    const old = await insights(agent);
    expect(old.totals).toMatchObject({ sent: 6, fixesCounted: 0, fixed: ZERO });

    const accountId = await saveAccount(agent, TOKEN);
    await send(agent, accountId, 'clean.csv', [
      ['gil@example.net', '+1 602 555 0152', 'Gil', '19900131', 'AZ', 'Lead', ISO, '', ''],
    ]);
    const r = await insights(agent);
    expect(r.totals).toMatchObject({ sent: 7, fixesCounted: 1, fixed: ZERO });
  });

  it("writes each sent batch's counts on its row, and counts only the batches that have them", async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent, TOKEN);
    const { id } = await send(agent, accountId, 'a.csv', [
      ['hal@example.net', '(602) 555-0153', 'Hal', '', '', 'Lead', ISO, '', ''],
    ]);
    const batches = await ctx.db.query<Record<string, number | null>>(
      `select b.event_count, b.fixed_phone, b.fixed_email from send_batches b join send_runs r on r.id = b.run_id
        where r.upload_id = $1 and b.status = 'sent'`,
      [id],
    );
    expect(batches.rows).toEqual([{ event_count: 1, fixed_phone: 1, fixed_email: 0 }]);

    // A run whose first batch was sent by the release before (fixed_* null) ends after the update.
    const runId = randomUUID();
    await ctx.db.query(
      `insert into send_runs (id, workspace_id, upload_id, pixel_id, status, planned, total_events)
       values ($1, $2, $3, '1', 'running', true, 5)`,
      [runId, userId, id],
    );
    const batch = (idx: number, events: number, fixed: (number | null)[]) =>
      ctx.db.query(
        `insert into send_batches (id, run_id, workspace_id, idx, part, row_numbers, first_row, last_row, event_count,
           status, payload_hash, fixed_email, fixed_phone, fixed_name, fixed_date_of_birth, fixed_address,
           fixed_event_time, fixed_value, fixed_other)
         values ($1, $2, $3, $4, '', '{2}', 2, 2, $5, 'sent', 'h', $6, $7, $8, $9, $10, $11, $12, $13)`,
        [randomUUID(), runId, userId, idx, events, ...fixed],
      );
    await batch(0, 3, [null, null, null, null, null, null, null, null]);
    await batch(1, 2, [1, 2, 0, 0, 0, 1, 0, 0]);
    expect(await deliveryRepo.tryFinish(ctx.db, runId)).toBe('completed');
    const r = await insights(agent);
    expect(r.totals).toMatchObject({ sent: 6, fixesCounted: 3 });
    expect(r.totals.fixed).toEqual({ ...ZERO, email: 1, phone: 3, event_time: 1 });
  });
});
