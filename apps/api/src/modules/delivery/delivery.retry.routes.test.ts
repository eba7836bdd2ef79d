import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount } from './delivery.test-helpers.ts';

// POST /api/uploads/:id/send/retry (docs/decisions/0099): after Meta refuses a token halfway through a send, a
// new token and one retry deliver the events the first run did not, with their own event_ids, each once.

let ctx: TestContext;
let graph: FakeGraph;
const queued: { name: string; data: { runId: string } }[] = [];
const queue = {
  send: async (name: string, data: { runId: string }) => void queued.push({ name, data }),
} as unknown as PgBoss;

/** Accepted for its first 100 events, then refused with code 190 (the fake Graph's `expires-after-N-`). */
const EXPIRING = 'EAAB-expires-after-100-token-aaaa';
const GOOD = 'EAAB-good-token-123456';

beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  graph = await startFakeGraph({ tokens: [GOOD, EXPIRING] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());

const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
function csv(rows: number, tag = 'a') {
  const lines = ['Email,Event,When,Source'];
  for (let i = 0; i < rows; i++) lines.push(`${tag}${i + 2}@example.com,Lead,${when},physical_store`);
  return lines.join('\r\n');
}
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };

async function prepared(agent: Agent, content: string) {
  const up = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile('leads.csv', content, 'text/csv'),
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

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));

/** A file of `rows` rows sent with a token Meta refuses after 100 events: the run stops on the token. */
async function stoppedOnToken(agent: Agent, rows: number, tag: string) {
  const id = await prepared(agent, csv(rows, tag));
  const accountId = await saveAccount(agent, EXPIRING);
  const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
  expect(await work(runId)).toBe('stopped');
  return { id, accountId, runId };
}

const retry = (agent: Agent, id: string, opts?: { xsrf?: boolean }) =>
  agent.post(`/api/uploads/${id}/send/retry`, {}, opts);

describe('retrying a send Meta stopped', () => {
  it('sends only the events not delivered, with their original event_ids, each once', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const { id, accountId, runId } = await stoppedOnToken(agent, 250, 'once');
    // The events of the refused request: the retry must send these very ids.
    const refusedIds = graph.requests
      .filter((r) => r.outcome !== 'accepted')
      .flatMap((r) => r.events.map((e) => e.event_id));
    expect(refusedIds.length).toBe(100);

    const stopped = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(stopped).toMatchObject({
      status: 'stopped',
      stopReason: 'token',
      totalSent: 100,
      pixelAccount: { accountId },
      retry: { allowed: true, isRetry: false, sentBefore: 0 },
    });

    // The saved token is the refused one: a retry now would only be refused again.
    const early = await retry(agent, id);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(
      "Meta refused this pixel account's access token. Replace the token first, then retry.",
    );

    expect((await agent.patch(`/api/meta/accounts/${accountId}`, { accessToken: GOOD })).statusCode).toBe(
      200,
    );
    const res = await retry(agent, id);
    expect(res.statusCode).toBe(202);
    const retryRun = res.json().runId as string;
    expect(retryRun).not.toBe(runId);
    expect(queued.at(-1)).toEqual({ name: 'send-run', data: { runId: retryRun } });

    expect(await work(retryRun)).toBe('completed');
    const sentByRetry = graph.requests
      .filter((r) => r.outcome === 'accepted')
      .slice(1)
      .flatMap((r) => r.events.map((e) => e.event_id));
    expect(sentByRetry.length).toBe(150);
    expect(sentByRetry.slice(0, 100)).toEqual(refusedIds);
    // Every one of the 250 events reached Meta exactly once.
    expect(graph.deliveredCount.size).toBe(250);
    expect([...graph.deliveredCount.values()].every((n) => n === 1)).toBe(true);

    const done = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(done).toMatchObject({
      runId: retryRun,
      status: 'completed',
      totalSent: 150,
      progress: { eventsSkipped: 100, eventsRemaining: 0 },
      retry: { allowed: false, isRetry: true, sentBefore: 100 },
    });
    // The pixel has every event of the file now: a new upload of it would send nothing new.
    expect((await agent.get(`/api/uploads/${id}/delivered?accountId=${accountId}`)).json()).toEqual({
      alreadyDelivered: 250,
      alreadyDeliveredTest: 0,
    });
    // The dashboard counts the file's events over both runs.
    const listed = (await agent.get('/api/uploads')).json().uploads.find((u: { id: string }) => u.id === id);
    expect(listed.delivery).toMatchObject({ status: 'completed', sent: 250, failed: 0 });

    // A completed retry is not retried again.
    const again = await retry(agent, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/^Only a send that Meta stopped/);
  });

  it('starts one retry for two clicks at once', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const { id, accountId } = await stoppedOnToken(agent, 150, 'twice');
    await agent.patch(`/api/meta/accounts/${accountId}`, { accessToken: GOOD });
    const before = queued.length;
    const [a, b] = await Promise.all([retry(agent, id), retry(agent, id)]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect(a.json().runId).toBe(b.json().runId);
    expect(queued.length).toBe(before + 1);
    const { rows } = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from send_runs where upload_id = $1',
      [id],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('counts the retry against the daily send quota', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const { id, accountId } = await stoppedOnToken(agent, 150, 'quota');
    await agent.patch(`/api/meta/accounts/${accountId}`, { accessToken: GOOD });
    await ctx.db.query(
      `insert into usage_events (workspace_id, action, amount, at) values ($1, 'send', $2, now())`,
      [userId, ctx.config.quotas.rows],
    );
    const refused = await retry(agent, id);
    expect(refused.statusCode).toBe(429);
    expect((await agent.get(`/api/uploads/${id}/summary`)).json().retry.allowed).toBe(true);
  });

  it('refuses files never sent, bad ids, strangers, other users and missing XSRF', async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    const { id, accountId } = await stoppedOnToken(a.agent, 120, 'guards');
    await a.agent.patch(`/api/meta/accounts/${accountId}`, { accessToken: GOOD });

    expect((await retry(new Agent(ctx.app), id)).statusCode).toBe(401);
    expect((await retry(a.agent, id, { xsrf: false })).statusCode).toBe(403);
    const foreign = await retry(b.agent, id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('File not found.');
    expect((await retry(a.agent, 'not-a-uuid')).statusCode).toBe(400);

    const fresh = await prepared(a.agent, csv(3, 'never'));
    const never = await retry(a.agent, fresh);
    expect(never.statusCode).toBe(409);
    expect(never.json().message).toMatch(/^Only a send that Meta stopped/);
    // Nothing was started by the refusals.
    const { rows } = await ctx.db.query<{ n: number }>(
      'select count(*)::int as n from send_runs where upload_id = $1',
      [id],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
