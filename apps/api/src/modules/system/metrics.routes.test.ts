import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount } from '../delivery/delivery.test-helpers.ts';
import { startQueue } from '../../jobs/queue.ts';

/** Issue 30: GET /metrics in Prometheus text, behind METRICS_TOKEN; a send moves its counters. */
const TOKEN = 'metrics-token-for-the-tests-0123456789';
let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => null } as unknown as PgBoss;
beforeAll(async () => {
  ctx = await createTestContext({ env: { METRICS_TOKEN: TOKEN }, deps: { queue } });
  graph = await startFakeGraph({ tokens: ['EAAB-good-token-123456'] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});

const scrape = async () => {
  const res = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
};
/** The value of one sample, by its name and labels as Prometheus writes them; 0 when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('GET /metrics', () => {
  it('needs the bearer token: 401 without it or with another, and no session or XSRF header', async () => {
    const none = await ctx.app.inject({ url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('backsignal_');
  });

  it('is not there without METRICS_TOKEN', async () => {
    const bare = await createTestContext();
    try {
      const res = await bare.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });

  it('moves the HTTP, events and batch counters with a send, and reports runs, queues, pool and memory', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const when = new Date(Date.now() - 3600_000).toISOString();
    const csv = ['Email,Event,When,Source', ...[1, 2, 3].map((i) => `m${i}@example.com,Lead,${when},email`)];
    const before = await scrape();
    const id = (
      await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('m.csv', csv.join('\r\n')) })
    ).json().file.id as string;
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' },
      hardcodedValues: {},
    });
    await agent.get(`/api/uploads/${id}/validate`);
    await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    await agent.get(`/api/uploads/${id}/prepare`);
    const sent = await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: await saveAccount(agent) });
    expect(sent.statusCode).toBe(202);
    const inFlight = await scrape();
    expect(sample(inFlight, 'backsignal_send_runs_in_flight')).toBe(1);
    const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));
    expect(await work(sent.json().runId)).toBe('completed');

    const after = await scrape();
    const events = 'backsignal_meta_events_total{outcome="sent"}';
    expect(sample(after, events) - sample(before, events)).toBe(3);
    const batches = 'backsignal_meta_batch_duration_seconds_count{answer="sent"}';
    expect(sample(after, batches) - sample(before, batches)).toBe(1);
    const sends = 'backsignal_http_requests_total{method="POST",route="/api/uploads/:id/send",status="202"}';
    expect(sample(after, sends) - sample(before, sends)).toBe(1);
    expect(after).toContain('backsignal_http_request_duration_seconds_bucket{le="0.005",method="POST"');
    expect(sample(after, 'backsignal_send_runs_in_flight')).toBe(0);
    expect(sample(after, 'backsignal_db_connections{state="total"}')).toBeGreaterThan(0);
    expect(sample(after, 'backsignal_process_resident_memory_bytes')).toBeGreaterThan(0);
    // Ids never become labels: the route pattern is counted, not the path.
    expect(after).not.toContain(id);
  });

  it('reports validation jobs waiting and scheduled source runs from the database', async () => {
    const { userId } = await loggedInAgent(ctx.app, ctx.db);
    const upload = await ctx.db.query<{ id: string }>(
      `insert into uploads (id, workspace_id, file_name, headers, row_count)
       values (gen_random_uuid(), $1, 'q.csv', '[]', 1) returning id`,
      [userId],
    );
    await ctx.db.query(
      `insert into upload_jobs (id, upload_id, workspace_id, kind, fingerprint, claim_token, rows_total, started_at)
       values (gen_random_uuid(), $1, $2, 'validate', 'f', 't', 1, now() - interval '30 seconds')`,
      [upload.rows[0]!.id, userId],
    );
    const source = await ctx.db.query<{ id: string }>(
      `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone)
       values (gen_random_uuid(), $1, 'Nightly', 'csv_url', '{}', '{}', '{}', 'UTC') returning id`,
      [userId],
    );
    await ctx.db.query(
      `insert into source_runs (id, source_id, workspace_id, trigger, status, due_at, started_at)
       values (gen_random_uuid(), $1, $2, 'schedule', 'sent', now() - interval '4 seconds', now())`,
      [source.rows[0]!.id, userId],
    );
    // A real pg-boss queue on the same database, with a job nobody works.
    const boss = await startQueue(ctx.db, ctx.dbUrl);
    try {
      await boss.createQueue('metrics-probe');
      await boss.send('metrics-probe', {});
      const text = await scrape();
      expect(sample(text, 'backsignal_job_queue_depth{queue="metrics-probe"}')).toBe(1);
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
    const text = await scrape();
    expect(sample(text, 'backsignal_job_queue_depth{queue="upload_jobs:validate"}')).toBe(1);
    expect(sample(text, 'backsignal_job_queue_oldest_seconds{queue="upload_jobs:validate"}')).toBeGreaterThan(
      29,
    );
    expect(sample(text, 'backsignal_source_runs_last_24h{outcome="sent"}')).toBe(1);
    expect(sample(text, 'backsignal_source_run_delay_seconds{stat="max"}')).toBeGreaterThan(3);
  });
});
