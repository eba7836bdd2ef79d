import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appDeliverySource } from './delivery.source.ts';
import { appEngineRun, saveAccount } from './delivery.test-helpers.ts';
import type { EngineOptions } from './delivery.engine.ts';
import { precountSkipped } from './delivery.precount.ts';
import { deliveryRepo } from './delivery.repo.ts';

let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => null } as unknown as PgBoss;

beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  graph = await startFakeGraph({ tokens: ['EAAB-good-token-123456'] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());

const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
/** Rows get the event name in `names` (by CSV row number), else Lead. */
function csv(rows: number, names: Record<number, string> = {}) {
  const lines = ['Email,Event,When,Source'];
  for (let i = 0; i < rows; i++)
    lines.push(`user${i + 2}@example.com,${names[i + 2] ?? 'Lead'},${when},physical_store`);
  return lines.join('\r\n');
}
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };

async function prepared(agent: Agent, content: string, name = 'leads.csv') {
  const up = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile(name, content, 'text/csv'),
  });
  const id = up.json().file.id as string;
  await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  await agent.get(`/api/uploads/${id}/validate`);
  await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
  expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
  return id;
}

const account = saveAccount;

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));

async function sent(agent: Agent, content: string, extra: Partial<EngineOptions> = {}, name?: string) {
  const id = await prepared(agent, content, name);
  const accountId = await account(agent);
  const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
  return { id, runId, status: await work(runId, extra) };
}

type Progress = {
  eventsSent: number;
  eventsFailed: number;
  eventsRemaining: number;
  batchesSent: number;
  batchesFailed: number;
};

describe('summary progress, grouped failures and the all-failed-rows download', () => {
  it('never counts backwards while batches are split (sampled at every step of the send)', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    // Rows Meta refuses without naming them: their batch is halved, and a first half is held as failed until its
    // sibling settles. Failed on the old code: the held half counted as failed, then went back to remaining.
    const names = { 20: 'PoisonRowUnnamed', 70: 'PoisonRowUnnamed', 150: 'PoisonRow' };
    const id = await prepared(agent, csv(200, names));
    const accountId = await account(agent);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    const samples: Progress[] = [];
    const sample = async () => {
      samples.push((await agent.get(`/api/uploads/${id}/summary`)).json().progress);
    };
    expect(await work(runId, { onPoint: sample })).toBe('completed_with_errors');
    await sample();
    expect(samples.length).toBeGreaterThan(10);
    for (let i = 1; i < samples.length; i++) {
      const [a, b] = [samples[i - 1]!, samples[i]!];
      expect(b.eventsSent).toBeGreaterThanOrEqual(a.eventsSent);
      expect(b.eventsFailed).toBeGreaterThanOrEqual(a.eventsFailed);
      expect(b.eventsRemaining).toBeLessThanOrEqual(a.eventsRemaining);
      expect(b.batchesSent).toBeGreaterThanOrEqual(a.batchesSent);
      expect(b.batchesFailed).toBeGreaterThanOrEqual(a.batchesFailed);
    }
    expect(samples.at(-1)).toMatchObject({ eventsSent: 197, eventsFailed: 3, eventsRemaining: 0 });
  });

  it('shows skipped as 0 from the first poll when nothing can be skipped, and estimates the time left', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(agent, csv(250));
    const accountId = await account(agent);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    // A new pixel: nothing was delivered to it before, so nothing is skipped (known before the file is read).
    expect((await agent.get(`/api/uploads/${id}/summary`)).json().progress).toMatchObject({
      eventsSkipped: 0,
      secondsLeft: null,
    });
    let mid: { secondsLeft: number | null } | null = null;
    await work(runId, {
      onPoint: async (point, batch) => {
        if (point === 'after-commit' && batch.idx === 0)
          mid = (await agent.get(`/api/uploads/${id}/summary`)).json().progress;
      },
    });
    expect(mid!.secondsLeft).toEqual(expect.any(Number));
    expect((await agent.get(`/api/uploads/${id}/summary`)).json().progress.secondsLeft).toBeNull();

    // Now this pixel has live deliveries: the same 250 rows plus 50 new ones. How many are skipped is counted
    // beside the send (the job's precount), before a single batch is planned.
    const again = await prepared(agent, csv(300));
    const second = (await agent.post(`/api/uploads/${again}/send`, { selectedAccountId: accountId })).json();
    const lookups = vi.spyOn(deliveryRepo, 'anyLiveDelivery');
    expect((await agent.get(`/api/uploads/${again}/summary`)).json().progress.eventsSkipped).toBeNull();
    expect((await agent.get(`/api/uploads/${again}/summary`)).json().progress.eventsSkipped).toBeNull();
    // The pixel's ledger is scanned once per run, not on every poll.
    expect(lookups).toHaveBeenCalledTimes(1);
    lookups.mockRestore();
    await precountSkipped(ctx.db, appDeliverySource(ctx.db, ctx.config), second.runId);
    expect((await agent.get(`/api/uploads/${again}/summary`)).json().progress).toMatchObject({
      eventsSkipped: 250,
      totalEvents: 50,
      eventsRemaining: 50,
      eventsSent: 0,
    });
    await work(second.runId);
    expect((await agent.get(`/api/uploads/${again}/summary`)).json().progress).toMatchObject({
      eventsSkipped: 250,
      totalEvents: 50,
      eventsSent: 50,
    });
    // Sending anyway skips nothing, known at once.
    const third = await prepared(agent, csv(10));
    await agent.post(`/api/uploads/${third}/send`, { selectedAccountId: accountId, skipDelivered: false });
    expect((await agent.get(`/api/uploads/${third}/summary`)).json().progress.eventsSkipped).toBe(0);
  });

  it('groups failures by reason with counts, explanation, fix and sample rows; lists batches a filtered page at a time', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    graph.reset();
    const names: Record<number, string> = {};
    for (const r of [5, 30, 31, 120, 121, 122]) names[r] = 'PoisonRow';
    for (const r of [200, 250]) names[r] = 'StaleRow';
    const { id, status } = await sent(agent, csv(300, names), { batchSize: 10 });
    expect(status).toBe('completed_with_errors');
    const s = (await agent.get(`/api/uploads/${id}/summary`)).json();
    // One card per reason, the largest first, with only a few sample rows.
    expect(s.failureGroups).toMatchObject([
      {
        events: 6,
        batches: 6,
        sampleRows: [5, 30, 31, 120, 121],
        explanation: { title: 'Meta rejected these rows', metaTitle: 'Invalid parameter' },
      },
      {
        events: 2,
        batches: 2,
        sampleRows: [200, 250],
        explanation: { title: 'Event too old', metaTitle: 'Event Timestamp Too Old' },
      },
    ]);
    expect(s.failureGroups[1].explanation.fix).toMatch(/^Remove rows older than the window/);

    const failed = (await agent.get(`/api/uploads/${id}/batches?status=failed`)).json();
    expect(failed).toMatchObject({ total: 8, offset: 0, limit: 20 });
    expect(failed.batches.map((b: { firstRow: number }) => b.firstRow)).toEqual([
      5, 30, 31, 120, 121, 122, 200, 250,
    ]);
    const all = (await agent.get(`/api/uploads/${id}/batches?offset=20&limit=5`)).json();
    expect(all.total).toBe(s.totalBatches);
    expect(all.batches).toHaveLength(5);
    expect(all.batches.map((b: { index: number }) => b.index)).toEqual([20, 21, 22, 23, 24]);
    const open = (await agent.get(`/api/uploads/${id}/batches?status=open`)).json();
    expect(open).toMatchObject({ total: 0, batches: [] });
    expect((await agent.get(`/api/uploads/${id}/batches?status=nope`)).statusCode).toBe(400);
  });

  it('downloads every failed row of the run in one CSV, with its reason', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const names: Record<number, string> = { 3: 'PoisonRow', 150: 'PoisonRowUnnamed', 151: 'PoisonRow' };
    const { id } = await sent(agent, csv(200, names), {}, 'März leads.csv');
    const dl = await agent.get(`/api/uploads/${id}/failed-rows`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toMatch(/^text\/csv/);
    expect(dl.headers['content-disposition']).toBe('attachment; filename="M_rz_leads-failed-rows.csv"');
    const lines = dl.body.trim().split('\r\n');
    expect(lines[0]).toBe('"Email","Event","When","Source","reason"');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([
      '"user3@example.com"',
      '"user150@example.com"',
      '"user151@example.com"',
    ]);
    expect(lines[1]).toContain('Meta rejected these rows');
  });

  it('refuses the download and the batch list to strangers (401), unverified users (403) and other accounts (404)', async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const { id } = await sent(a.agent, csv(5));
    const b = await loggedInAgent(ctx.app, ctx.db);
    const unverified = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    for (const url of [`/api/uploads/${id}/failed-rows`, `/api/uploads/${id}/batches`]) {
      expect((await new Agent(ctx.app).get(url)).statusCode).toBe(401);
      expect((await unverified.agent.get(url)).statusCode).toBe(403);
      expect((await b.agent.get(url)).statusCode).toBe(404);
      expect((await a.agent.get(url)).statusCode).toBe(200);
    }
    // Not sent yet: nothing to download.
    const fresh = await prepared(a.agent, csv(3));
    expect((await a.agent.get(`/api/uploads/${fresh}/failed-rows`)).statusCode).toBe(409);
  });
});
