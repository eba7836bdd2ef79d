import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent, type Agent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { runSend } from '../delivery/delivery.engine.ts';
import { appDeliverySource } from '../delivery/delivery.source.ts';

let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => null } as unknown as PgBoss;

beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  graph = await startFakeGraph();
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});

const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
const csv = (rows: number, poison: number[] = []) =>
  [
    'Email,Event,When,Source',
    ...Array.from(
      { length: rows },
      (_, i) =>
        `user${i + 2}@example.com,${poison.includes(i + 2) ? 'PoisonRow' : 'Lead'},${when},physical_store`,
    ),
  ].join('\r\n');
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };
const SETTINGS = { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' };

async function upload(agent: Agent, name: string, content: string) {
  const up = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile(name, content, 'text/csv'),
  });
  return up.json().file.id as string;
}

async function prepare(agent: Agent, id: string) {
  await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
    settings: SETTINGS,
  });
  await agent.get(`/api/uploads/${id}/validate`);
  await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
  expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
}

const listed = async (agent: Agent) =>
  (await agent.get('/api/uploads')).json().uploads as {
    id: string;
    fileName: string;
    status: string;
    corrected?: boolean;
    rowCount: number;
    createdAt: string;
    sourceName?: string | null;
    delivery?: {
      status: string;
      sent: number;
      failed: number;
      skipped?: number | null;
      pixel?: { name: string; pixelId: string };
    } | null;
  }[];

const engine = (runId: string) =>
  runSend(
    {
      db: ctx.db,
      source: appDeliverySource(ctx.db, ctx.config),
      fetch,
      graphUrl: graph.url,
      apiVersion: 'v25.0',
      batchSize: 100,
      concurrency: 2,
      backoff: { maxAttempts: 3, baseMs: 1, capMs: 2 },
    },
    runId,
  );

describe('the dashboard list', () => {
  it("gives each file its latest send's outcome: sent and failed counts", async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 'leads.csv', csv(300, [10, 20, 30]));
    await prepare(agent, id);
    const other = await upload(agent, 'new.csv', csv(3));
    const account = (
      await agent.post('/api/meta/accounts', {
        name: 'P',
        pixelId: '123456789',
        accessToken: 'EAAB-token-1234',
      })
    ).json();
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: account.id })).json();
    expect((await listed(agent)).find((f) => f.id === id)?.delivery).toEqual({
      status: 'running',
      sent: 0,
      failed: 0,
      skipped: null,
      pixel: { name: 'P', pixelId: '123456789' },
    });
    await runSend(
      {
        db: ctx.db,
        source: appDeliverySource(ctx.db, ctx.config),
        fetch,
        graphUrl: graph.url,
        apiVersion: 'v25.0',
        batchSize: 100,
        concurrency: 2,
        backoff: { maxAttempts: 3, baseMs: 1, capMs: 2 },
      },
      runId,
    );
    const files = await listed(agent);
    expect(files.find((f) => f.id === id)).toMatchObject({
      status: 'submitted',
      delivery: { status: 'completed_with_errors', sent: 297, failed: 3 },
    });
    expect(files.find((f) => f.id === other)?.delivery).toBeNull();
  });

  it('keeps a corrected file as one file with its name, marked corrected', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 'leads.csv', csv(3));
    expect((await listed(agent))[0]).toMatchObject({ fileName: 'leads.csv', corrected: false });
    const fixed = await agent.request({
      method: 'POST',
      url: `/api/uploads/${id}/fixed`,
      ...multipartFile('leads (fixed).csv', csv(4), 'text/csv'),
    });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().file).toMatchObject({ id, fileName: 'leads.csv', corrected: true, rowCount: 4 });
    const files = await listed(agent);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ id, fileName: 'leads.csv', corrected: true });
  });

  it('does not move a file back to uploaded when the mapping screen re-saves the same mapping', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await upload(agent, 'leads.csv', csv(3));
    await prepare(agent, id);
    // Opening /map-columns without editing: the auto-save sends the stored mapping back (keys in another order).
    const same = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      mappings: Object.fromEntries(Object.entries(MAPPING).reverse()),
      hardcodedValues: {},
      autoMapped: { email: 'Email' },
      settings: SETTINGS,
    });
    expect(same.statusCode).toBe(200);
    // Failed on the old code: 'uploaded'.
    expect(same.json().status).toBe('prepared');
    expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
    // An edit does reset it.
    const edited = await agent.patch(`/api/uploads/${id}/status`, {
      status: 'uploaded',
      mappings: { ...MAPPING, Email: 'email' },
      hardcodedValues: { currency: 'USD' },
      settings: SETTINGS,
    });
    expect(edited.json().status).toBe('uploaded');
  });

  it('tells two files of the same name apart: rows, time, the pixel sent to; a source file is under its source', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const first = await upload(agent, 'leads.csv', csv(4));
    await prepare(agent, first);
    const account = (
      await agent.post('/api/meta/accounts', {
        name: 'Shop pixel',
        pixelId: '555000111',
        accessToken: 'EAAB-tok-1',
      })
    ).json();
    const { runId } = (
      await agent.post(`/api/uploads/${first}/send`, { selectedAccountId: account.id })
    ).json();
    expect(await engine(runId)).toBe('completed');
    const second = await upload(agent, 'leads.csv', csv(6));
    // A third came from a scheduled source (its run row names the upload): listed under the source, not here.
    const third = await upload(agent, 'leads.csv', csv(8));
    const sourceId = crypto.randomUUID();
    await ctx.db.query(
      `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone)
       values ($1, $2, 'Nightly CRM export', 'csv_url', '{}', '{}', '{}', 'UTC')`,
      [sourceId, userId],
    );
    await ctx.db.query(
      `insert into source_runs (id, source_id, workspace_id, trigger, upload_id) values ($1, $2, $3, 'manual', $4)`,
      [crypto.randomUUID(), sourceId, userId, third],
    );
    const files = await listed(agent);
    const a = files.find((f) => f.id === first)!;
    const b = files.find((f) => f.id === second)!;
    expect(files.find((f) => f.id === third)).toBeUndefined();
    expect(a).toMatchObject({
      fileName: 'leads.csv',
      rowCount: 4,
      delivery: {
        status: 'completed',
        sent: 4,
        skipped: 0,
        pixel: { name: 'Shop pixel', pixelId: '555000111' },
      },
    });
    expect(b).toMatchObject({ fileName: 'leads.csv', rowCount: 6, delivery: null });
    const underSource = (await agent.get(`/api/sources/${sourceId}/uploads`)).json();
    expect(underSource.uploads.map((u: { id: string }) => u.id)).toEqual([third]);
    expect(a.createdAt).not.toBe(b.createdAt);
  });

  it('says a send of a file the pixel already had sent nothing, with the events skipped', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const account = (
      await agent.post('/api/meta/accounts', { name: 'P', pixelId: '777000111', accessToken: 'EAAB-tok-2' })
    ).json();
    const rows = csv(5).replace(/user/g, 'again');
    const first = await upload(agent, 'leads.csv', rows);
    await prepare(agent, first);
    const one = (await agent.post(`/api/uploads/${first}/send`, { selectedAccountId: account.id })).json();
    expect(await engine(one.runId)).toBe('completed');
    const second = await upload(agent, 'leads.csv', rows);
    await prepare(agent, second);
    const two = (await agent.post(`/api/uploads/${second}/send`, { selectedAccountId: account.id })).json();
    expect(await engine(two.runId)).toBe('completed');
    expect((await listed(agent)).find((f) => f.id === second)?.delivery).toMatchObject({
      status: 'completed',
      sent: 0,
      skipped: 5,
    });
  });
});
