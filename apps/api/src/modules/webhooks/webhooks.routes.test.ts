import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { Webhook } from 'standardwebhooks';
import type { WebhookDelivery, WebhookEndpoint, WorkspaceRole } from '@backsignal/contracts';
import { createTestContext, testConfig, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { fakeServer, type Recorded } from '../../../test/fake-http.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount } from '../delivery/delivery.test-helpers.ts';
import {
  leadsCsv,
  MAPPING,
  runScheduled,
  sourceInput,
  sourceRunner,
  TOKEN,
} from '../sources/sources.test-helpers.ts';
import { UNREACHABLE } from '../sources/url-fetch.ts';
import { pixelsRepo } from '../pixels/pixels.repo.ts';
import { applyRetention } from '../system/retention.ts';
import { emitWebhook } from './webhook-outbox.repo.ts';
import { DISABLED_REASON, dispatchDue, type DispatchDeps } from './webhook-dispatch.ts';

/** Issue 32: webhook endpoints through the API, the outbox, signing and delivery to a loopback receiver. */
let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => undefined } as unknown as PgBoss;
let answer = 200;
const receiver = await fakeServer((_req: Recorded, res: ServerResponse) => {
  res.writeHead(answer, { 'content-type': 'text/plain' });
  res.end(answer === 200 ? 'ok' : `failure ${'x'.repeat(3000)}`);
});

beforeAll(async () => {
  graph = await startFakeGraph({ tokens: [TOKEN] });
  ctx = await createTestContext({ deps: { queue }, env: { META_GRAPH_URL: graph.url } });
});
afterAll(async () => {
  await ctx.close();
  await graph.close();
  await receiver.close();
});
beforeEach(() => {
  answer = 200;
  receiver.requests.length = 0;
  graph.reset();
});

/** The dispatcher with the test's clock, and a fixed jitter draw (the middle: no jitter). */
/**
 * Now, rounded up to the next millisecond: the database stamps a delivery due at its now() in microseconds, which a
 * Date made in the same millisecond would come before (a quiet machine did, and found nothing due).
 */
const justAfterNow = () => new Date(Date.now() + 1);

const dispatch = (now = justAfterNow(), deps: Partial<DispatchDeps> = {}) =>
  dispatchDue({ ...ctx, now: () => now, ...deps }, { random: () => 0.5 });

async function join(workspaceId: string, userId: string, role: WorkspaceRole) {
  await ctx.db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

async function create(agent: Agent, events: string[], url = `${receiver.url}/hooks`) {
  const r = await agent.post('/api/webhooks', { url, description: 'CRM', events });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { endpoint: WebhookEndpoint; secret: string };
}
const deliveries = async (agent: Agent, id: string) => {
  const r = await agent.get(`/api/webhooks/${id}/deliveries`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { deliveries: WebhookDelivery[]; total: number };
};

/**
 * The Standard Webhooks verification, written from the specification (not the signer under test): the
 * secret's base64 after "whsec_" is the HMAC-SHA256 key; the signed content is "<id>.<timestamp>.<body>"; the
 * header lists space-separated "v1,<base64>" signatures, one of which must match.
 */
function specVerifies(secret: string, r: Recorded): boolean {
  const id = r.headers['webhook-id'] as string;
  const ts = r.headers['webhook-timestamp'] as string;
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest();
  return (r.headers['webhook-signature'] as string).split(' ').some((s) => {
    const [version, sig] = s.split(',');
    const got = Buffer.from(sig ?? '', 'base64');
    return version === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
  });
}
const libraryVerifies = (secret: string, r: Recorded) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

describe('webhook endpoints: who may manage them', () => {
  it('answers 401 without a session and 403 to members and viewers, 404 in another workspace', async () => {
    const anon = new Agent(ctx.app);
    expect((await anon.get('/api/webhooks')).statusCode).toBe(401);
    const { agent: owner, userId: ownerId } = await loggedInAgent(ctx.app, ctx.db);
    const { endpoint } = await create(owner, ['send.completed']);
    for (const role of ['member', 'viewer'] as const) {
      const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
      await join(ownerId, userId, role);
      const inWs = { headers: { 'x-workspace': `test-${ownerId}` } };
      expect((await agent.get('/api/webhooks', inWs)).statusCode).toBe(403);
      expect(
        (await agent.post('/api/webhooks', { url: receiver.url, events: ['send.completed'] }, inWs))
          .statusCode,
      ).toBe(403);
      expect((await agent.get(`/api/webhooks/${endpoint.id}/deliveries`, inWs)).statusCode).toBe(403);
      expect(
        (await agent.post(`/api/webhooks/${endpoint.id}/rotate-secret`, undefined, inWs)).statusCode,
      ).toBe(403);
    }
    const { agent: admin, userId: adminId } = await loggedInAgent(ctx.app, ctx.db);
    await join(ownerId, adminId, 'admin');
    const asAdmin = await admin.get('/api/webhooks', { headers: { 'x-workspace': `test-${ownerId}` } });
    expect(asAdmin.json().endpoints.map((e: WebhookEndpoint) => e.id)).toEqual([endpoint.id]);
    // In the admin's own workspace the owner's endpoint does not exist.
    expect((await admin.get(`/api/webhooks/${endpoint.id}/deliveries`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/webhooks/${endpoint.id}`)).statusCode).toBe(404);
  });

  it('refuses a URL that is not http(s), an empty event list and unknown events with 400', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    for (const body of [
      { url: 'ftp://example.com/x', events: ['send.completed'] },
      { url: 'not a url', events: ['send.completed'] },
      { url: 'https://user:pw@example.com/x', events: ['send.completed'] },
      { url: 'https://example.com/x', events: [] },
      { url: 'https://example.com/x', events: ['send.everything'] },
    ]) {
      const r = await agent.post('/api/webhooks', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await agent.get('/api/webhooks/not-a-uuid/deliveries')).statusCode).toBe(404);
    expect((await agent.get('/api/webhooks/x/deliveries?limit=0')).statusCode).toBe(400);
  });
});

describe('secrets', () => {
  it('shows the secret once, stores it sealed, and rotates it with the old one signing beside it for a day', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const { endpoint, secret } = await create(agent, ['send.completed', 'source.paused']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const list = await agent.get('/api/webhooks');
    expect(list.body).not.toContain(secret.slice(6, 20));
    expect(list.json().endpoints[0]).toMatchObject({
      url: `${receiver.url}/hooks`,
      description: 'CRM',
      enabled: true,
    });
    const row = await ctx.db.query<{ secret_ciphertext: Uint8Array }>(
      'select secret_ciphertext from webhook_endpoints where id = $1',
      [endpoint.id],
    );
    expect(Buffer.from(row.rows[0]!.secret_ciphertext).toString('latin1')).not.toContain(secret.slice(6));

    const rotated = await agent.post(`/api/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect((await agent.post(`/api/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
    await dispatch();
    const [got] = receiver.requests;
    expect((got!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(specVerifies(fresh, got!) && specVerifies(secret, got!)).toBe(true);
    // A day later only the new secret signs.
    receiver.requests.length = 0;
    await agent.post(`/api/webhooks/${endpoint.id}/test`);
    await dispatch(new Date(Date.now() + 25 * 3600_000));
    expect(specVerifies(fresh, receiver.requests[0]!)).toBe(true);
    expect(specVerifies(secret, receiver.requests[0]!)).toBe(false);

    const kinds = (await agent.get('/api/workspace/activity'))
      .json()
      .entries.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['webhook.added', 'webhook.secret_rotated']));
    expect(JSON.stringify((await agent.get('/api/workspace/activity')).json())).not.toContain(fresh.slice(6));
  });
});

describe('delivery', () => {
  it('delivers send.completed once, signed, after a real send, to the endpoints subscribed to it', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const { endpoint, secret } = await create(agent, ['send.completed', 'send.failed']);
    const other = await create(agent, ['source.paused'], `${receiver.url}/other`);
    const up = await agent.request({
      method: 'POST',
      url: '/api/upload',
      ...multipartFile('leads.csv', leadsCsv(1, 150)),
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
    const accountId = await saveAccount(agent, TOKEN);
    const send = await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect(await appEngineRun(() => ({ ctx, graphUrl: graph.url }))(send.json().runId)).toBe('completed');

    expect(await dispatch()).toBe(1);
    expect(await dispatch()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
    const got = receiver.requests[0]!;
    expect(got.url).toBe('/hooks');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(specVerifies(secret, got)).toBe(true);
    expect(libraryVerifies(secret, got)).toMatchObject({ type: 'send.completed' });
    expect(specVerifies(other.secret, got)).toBe(false);
    const body = JSON.parse(got.body);
    expect(body).toEqual({
      type: 'send.completed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: {
        workspaceId: expect.any(String),
        runId: send.json().runId,
        uploadId: id,
        status: 'completed',
        stopReason: null,
        pixelAccountId: accountId,
        pixelId: expect.any(String),
        test: false,
        sourceId: null,
        eventsSent: 150,
        eventsFailed: 0,
        eventsSkipped: 0,
      },
    });
    // Ids and counts only: no customer's value.
    expect(got.body).not.toContain('@example.com');
    expect(got.body).not.toContain(TOKEN);

    const log = await deliveries(agent, endpoint.id);
    expect(log.deliveries).toEqual([
      expect.objectContaining({
        eventType: 'send.completed',
        status: 'succeeded',
        attempts: 1,
        responseStatus: 200,
        responseBody: 'ok',
      }),
    ]);
    expect(log.deliveries[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect((await deliveries(agent, other.endpoint.id)).total).toBe(0);
  });

  it('retries a failing endpoint with growing delays for 24 hours, then redelivers the same message', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const { endpoint, secret } = await create(agent, ['pixel.token_refused']);
    answer = 500;
    await emitWebhook(ctx.db, userId, 'pixel.token_refused', { pixelAccountId: 'a' });
    const t0 = justAfterNow();
    expect(await dispatch(t0)).toBe(1);
    let [d] = (await deliveries(agent, endpoint.id)).deliveries;
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    expect(d!.responseBody).toHaveLength(1024);
    // Due again 30 s later (the jitter's middle), then 60 s, 120 s: nothing before.
    expect(Date.parse(d!.nextAttemptAt!) - t0.getTime()).toBe(30_000);
    expect(await dispatch(new Date(t0.getTime() + 29_000))).toBe(0);
    const t1 = new Date(t0.getTime() + 30_000);
    expect(await dispatch(t1)).toBe(1);
    [d] = (await deliveries(agent, endpoint.id)).deliveries;
    expect(d).toMatchObject({ status: 'pending', attempts: 2 });
    expect(Date.parse(d!.nextAttemptAt!) - t1.getTime()).toBe(60_000);
    // A retry that would come past its 24 hours does not: the message is given up.
    expect(await dispatch(new Date(t0.getTime() + 23.99 * 3600_000))).toBe(1);
    [d] = (await deliveries(agent, endpoint.id)).deliveries;
    expect(d).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null });
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);

    answer = 200;
    const again = await agent.post(`/api/webhooks/${endpoint.id}/deliveries/${d!.id}/redeliver`);
    expect(again.statusCode).toBe(202);
    expect(
      (await agent.post(`/api/webhooks/${endpoint.id}/deliveries/${endpoint.id}/redeliver`)).statusCode,
    ).toBe(404);
    expect(await dispatch()).toBe(1);
    const last = receiver.requests.at(-1)!;
    expect(last.headers['webhook-id']).toBe(receiver.requests[0]!.headers['webhook-id']);
    expect(libraryVerifies(secret, last)).toMatchObject({ type: 'pixel.token_refused' });
    const log = (await deliveries(agent, endpoint.id)).deliveries;
    expect(log.map((x) => x.status)).toEqual(['succeeded', 'failed']);
    // A success ends the run of failures.
    expect((await agent.get('/api/webhooks')).json().endpoints[0].failingSince).toBeNull();
  });

  it('disables an endpoint after three days of failures and mails the owners and admins once', async () => {
    const { agent, userId, email } = await loggedInAgent(ctx.app, ctx.db);
    const { agent: admin, userId: adminId, email: adminEmail } = await loggedInAgent(ctx.app, ctx.db);
    await join(userId, adminId, 'admin');
    void admin;
    const { endpoint } = await create(agent, ['source.paused']);
    answer = 503;
    await emitWebhook(ctx.db, userId, 'source.paused', { sourceId: 's' });
    const t0 = justAfterNow();
    await dispatch(t0);
    expect((await agent.get('/api/webhooks')).json().endpoints[0].failingSince).toBe(t0.toISOString());
    await emitWebhook(ctx.db, userId, 'source.paused', { sourceId: 's' });
    const before = ctx.mailer.sent.length;
    await dispatch(new Date(t0.getTime() + 71 * 3600_000));
    expect((await agent.get('/api/webhooks')).json().endpoints[0].enabled).toBe(true);
    await emitWebhook(ctx.db, userId, 'source.paused', { sourceId: 's' });
    await dispatch(new Date(t0.getTime() + 72 * 3600_000 + 1000));
    const [e] = (await agent.get('/api/webhooks')).json().endpoints as WebhookEndpoint[];
    expect(e).toMatchObject({ enabled: false, disabledReason: DISABLED_REASON });
    const mails = ctx.mailer.sent.slice(before);
    expect(mails.map((m) => m.to).sort()).toEqual([email, adminEmail].sort());
    expect(mails[0]!.text).toContain(endpoint.url);
    // Disabled: new events queue nothing for it, and a test event is refused.
    const count = (await deliveries(agent, endpoint.id)).total;
    await emitWebhook(ctx.db, userId, 'source.paused', { sourceId: 's' });
    expect((await deliveries(agent, endpoint.id)).total).toBe(count);
    expect((await agent.post(`/api/webhooks/${endpoint.id}/test`)).statusCode).toBe(409);
    // Enabled again by hand: the count of failures starts over.
    const on = await agent.patch(`/api/webhooks/${endpoint.id}`, { enabled: true });
    expect(on.json().endpoint).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it('applies the sources address rule: loopback is refused unless SOURCES_ALLOW_NETWORKS lists it', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const { endpoint } = await create(
      agent,
      ['send.completed'],
      `http://localhost:${new URL(receiver.url).port}/x`,
    );
    await agent.post(`/api/webhooks/${endpoint.id}/test`);
    await dispatch(justAfterNow(), { config: testConfig({ SOURCES_ALLOW_NETWORKS: '' }) });
    expect(receiver.requests).toHaveLength(0);
    const [d] = (await deliveries(agent, endpoint.id)).deliveries;
    expect(d).toMatchObject({ status: 'pending', responseStatus: null, error: UNREACHABLE });
  });

  it('keeps the delivery log 30 days', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const { endpoint } = await create(agent, ['send.failed']);
    await emitWebhook(ctx.db, userId, 'send.failed', { runId: 'r' });
    await dispatch();
    await applyRetention(ctx.db, new Date(Date.now() + 29 * 86_400_000), {
      retentionDays: 365,
      analyticsRetentionDays: 90,
    });
    expect((await deliveries(agent, endpoint.id)).total).toBe(1);
    await applyRetention(ctx.db, new Date(Date.now() + 31 * 86_400_000), {
      retentionDays: 365,
      analyticsRetentionDays: 90,
    });
    expect((await deliveries(agent, endpoint.id)).total).toBe(0);
  });
});

describe('events', () => {
  it('emits source.run.completed for a source run, source.paused on a pause, pixel.token_refused once', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const { endpoint } = await create(agent, [
      'source.run.completed',
      'source.paused',
      'pixel.token_refused',
    ]);
    const csv = await fakeServer((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(leadsCsv(1, 5));
    });
    try {
      const accountId = await saveAccount(agent, TOKEN);
      const created = await agent.post(
        '/api/sources',
        sourceInput(accountId, { kind: 'csv_url', url: `${csv.url}/leads.csv`, auth: 'none' }),
      );
      expect(created.statusCode, created.body).toBe(201);
      const sourceId = created.json().id as string;
      let clock = justAfterNow();
      const runner = sourceRunner(ctx, graph, () => clock);
      const [run] = await runScheduled(agent, runner, sourceId, (d) => (clock = d));
      expect(run!.status).toBe('sent');
      expect((await agent.post(`/api/sources/${sourceId}/pause`)).statusCode).toBe(200);
      // Paused again: nothing new to tell.
      await agent.post(`/api/sources/${sourceId}/pause`);
      await pixelsRepo.markTokenRefused(ctx.db, accountId);
      await pixelsRepo.markTokenRefused(ctx.db, accountId);
      void userId;

      const rows = await ctx.db.query<{ event_type: string; data: Record<string, unknown> }>(
        'select event_type, data from webhook_deliveries where endpoint_id = $1 order by created_at, event_type',
        [endpoint.id],
      );
      expect(rows.rows.map((r) => r.event_type)).toEqual([
        'source.run.completed',
        'source.paused',
        'pixel.token_refused',
      ]);
      expect(rows.rows[0]!.data).toMatchObject({
        sourceId,
        status: 'sent',
        trigger: 'schedule',
        rowsRead: 5,
        rowsSkipped: 0,
      });
      expect(rows.rows[1]!.data).toEqual({ sourceId, reason: 'manual' });
      expect(rows.rows[2]!.data).toMatchObject({ pixelAccountId: accountId });
    } finally {
      await csv.close();
    }
  });
});
