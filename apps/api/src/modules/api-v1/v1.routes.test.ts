import type PgBoss from 'pg-boss';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent, type Agent } from '../../../test/agent.ts';
import { bearer, createApiKey } from '../../../test/api-key.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount, testPixelId } from '../delivery/delivery.test-helpers.ts';
import { leadsCsv, MAPPING, sourceInput } from '../sources/sources.test-helpers.ts';

let ctx: TestContext;
let graph: FakeGraph;
const queued: { runId: string }[] = [];
const queue = {
  send: async (_n: string, data: { runId: string }) => void queued.push(data),
} as unknown as PgBoss;

let owner: Agent;
let keys: Record<'read' | 'send' | 'admin', string>;
let accountId: string;
let templateId: string;

beforeAll(async () => {
  graph = await startFakeGraph({ tokens: ['EAAB-good-token-123456'] });
  ctx = await createTestContext({ env: { META_GRAPH_URL: graph.url }, deps: { queue } });
  owner = (await loggedInAgent(ctx.app, ctx.db)).agent;
  keys = {
    read: (await createApiKey(owner, 'read')).secret,
    send: (await createApiKey(owner, 'send')).secret,
    admin: (await createApiKey(owner, 'admin')).secret,
  };
  accountId = await saveAccount(owner, undefined, testPixelId());
  const t = await owner.post('/api/mappings', { name: 'Shopify orders', mappings: MAPPING, hardcoded: {} });
  templateId = t.json().id;
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const v1 = (
  key: string,
  method: Method,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  ctx.app.inject({
    method,
    url,
    headers: bearer(key, headers),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function waitJob(key: string, id: string, kind: 'validate' | 'prepare') {
  for (;;) {
    const job = (await v1(key, 'GET', `/api/v1/uploads/${id}/jobs/${kind}`)).json().job;
    if (job?.stage === 'finished') return job;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const when = new Date(Date.now() - 3600_000).toISOString();
const row = (email: string, extra: Record<string, string | null> = {}) => ({
  Email: email,
  Event: 'Lead',
  When: when,
  Source: 'physical_store',
  ...extra,
});

describe('a file through the API, as a program sends it', () => {
  it('uploads, maps by template name, validates, prepares, sends, summarises and lists failed rows', async () => {
    const file = multipartFile('leads.csv', leadsCsv(1, 30), 'text/csv');
    const up = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      ...file,
      headers: { ...file.headers, ...bearer(keys.send) },
    });
    expect(up.statusCode).toBe(201);
    const id = up.json().file.id as string;
    expect(up.json().headers).toEqual(['Email', 'Event', 'When', 'Source']);

    const mapped = await v1(keys.send, 'PUT', `/api/v1/uploads/${id}/mapping`, {
      template: 'shopify ORDERS',
      settings: { timeZone: 'UTC' },
    });
    expect([mapped.statusCode, mapped.json().status]).toEqual([200, 'mapped']);

    expect((await v1(keys.send, 'POST', `/api/v1/uploads/${id}/jobs/validate`, {})).statusCode).toBe(202);
    expect((await waitJob(keys.send, id, 'validate')).result).toMatchObject({ rowsChecked: 30 });
    expect((await v1(keys.send, 'POST', `/api/v1/uploads/${id}/jobs/prepare`, {})).statusCode).toBe(202);
    expect((await waitJob(keys.send, id, 'prepare')).status).toBe('done');

    const sent = await v1(keys.send, 'POST', `/api/v1/uploads/${id}/send`, { selectedAccountId: accountId });
    expect(sent.statusCode).toBe(202);
    await appEngineRun(() => ({ ctx, graphUrl: graph.url }))(sent.json().runId);
    const summary = await v1(keys.read, 'GET', `/api/v1/uploads/${id}/summary`);
    expect(summary.statusCode).toBe(200);
    expect(summary.json().progress).toMatchObject({ eventsSent: 30 });

    const failed = await v1(keys.send, 'GET', `/api/v1/uploads/${id}/failed-rows`);
    expect(failed.statusCode).toBe(200);
    expect(failed.headers['content-type']).toContain('text/csv');

    expect((await v1(keys.read, 'GET', `/api/v1/uploads/${id}`)).json()).toMatchObject({
      id,
      status: 'submitted',
    });
    // The screens' log names the key.
    const log = (await owner.get('/api/workspace/activity')).json().entries;
    expect(log.find((e: { kind: string }) => e.kind === 'send.started').actorLabel).toBe(
      'API key "send key"',
    );
  });

  it('a mapping names a template or columns, not both, and an unknown template is a 404 on the field', async () => {
    const up = multipartFile('a.csv', leadsCsv(1, 2), 'text/csv');
    const r = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/uploads',
      ...up,
      headers: { ...up.headers, ...bearer(keys.send) },
    });
    const id = r.json().file.id;
    const both = await v1(keys.send, 'PUT', `/api/v1/uploads/${id}/mapping`, {
      template: 'x',
      mappings: MAPPING,
    });
    expect([both.statusCode, both.json().field]).toEqual([400, 'template']);
    const none = await v1(keys.send, 'PUT', `/api/v1/uploads/${id}/mapping`, { template: 'Nope' });
    expect([none.statusCode, none.json().field]).toEqual([404, 'template']);
    const cols = await v1(keys.send, 'PUT', `/api/v1/uploads/${id}/mapping`, { mappings: MAPPING });
    expect(cols.json().status).toBe('mapped');
    expect((await v1(keys.send, 'DELETE', `/api/v1/uploads/${id}`)).json()).toEqual({
      message: 'File deleted!',
    });
    expect((await v1(keys.read, 'GET', `/api/v1/uploads/${id}`)).statusCode).toBe(404);
  });

  it('lists uploads by cursor, newest first, each once', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const key = (await createApiKey(agent, 'send')).secret;
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const up = multipartFile(`f${i}.csv`, leadsCsv(1, 1), 'text/csv');
      const r = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/uploads',
        ...up,
        headers: { ...up.headers, ...bearer(key) },
      });
      made.unshift(r.json().file.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/v1/uploads?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await v1(key, 'GET', url)).json() as {
        data: { id: string }[];
        nextCursor: string | null;
      };
      seen.push(...page.data.map((u: { id: string }) => u.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(made);
    const bad = await v1(key, 'GET', '/api/v1/uploads?cursor=nope');
    expect([bad.statusCode, bad.json().field]).toEqual([400, 'cursor']);
  });
});

describe('pixel accounts, templates and sources', () => {
  it('lists with a read key; creates and replaces a token only with an admin key', async () => {
    const list = (await v1(keys.read, 'GET', '/api/v1/pixel-accounts')).json();
    expect(list.data.map((a: { id: string }) => a.id)).toContain(accountId);
    expect(JSON.stringify(list)).not.toContain('good-token');
    const input = { name: 'Second', pixelId: testPixelId(), accessToken: 'EAAB-another-token-1234' };
    expect((await v1(keys.send, 'POST', '/api/v1/pixel-accounts', input)).statusCode).toBe(403);
    const made = await v1(keys.admin, 'POST', '/api/v1/pixel-accounts', input);
    expect([made.statusCode, made.json().accessToken]).toEqual([201, expect.stringMatching(/1234$/)]);
    const replaced = await v1(keys.admin, 'PUT', `/api/v1/pixel-accounts/${made.json().id}/token`, {
      accessToken: 'EAAB-replaced-token-9876',
    });
    expect(replaced.json().accessToken).toMatch(/9876$/);
  });

  it('reads templates', async () => {
    const list = (await v1(keys.read, 'GET', '/api/v1/templates')).json();
    expect(list).toEqual({ data: [{ id: templateId, name: 'Shopify orders' }], nextCursor: null });
    const t = (await v1(keys.read, 'GET', `/api/v1/templates/${templateId}`)).json();
    expect(t.mappings).toEqual(MAPPING);
  });

  it('lists sources, pauses, resumes, runs now and reads runs', async () => {
    const s = await owner.post(
      '/api/sources',
      sourceInput(accountId, { kind: 'csv_url', url: 'http://127.0.0.1:9/leads.csv', auth: 'none' }),
    );
    const id = s.json().id;
    const list = (await v1(keys.read, 'GET', '/api/v1/sources')).json();
    expect(list.data[0]).toMatchObject({ id, name: 'Leads drop', status: 'active' });
    expect((await v1(keys.read, 'POST', `/api/v1/sources/${id}/pause`)).statusCode).toBe(403);
    expect((await v1(keys.send, 'POST', `/api/v1/sources/${id}/pause`)).json()).toEqual({
      message: 'Source paused',
    });
    expect((await v1(keys.send, 'POST', `/api/v1/sources/${id}/resume`)).json()).toEqual({
      message: 'Source resumed',
    });
    expect((await v1(keys.send, 'POST', `/api/v1/sources/${id}/run`)).statusCode).toBe(202);
    expect((await v1(keys.read, 'GET', `/api/v1/sources/${id}/runs`)).json()).toEqual({
      data: [],
      nextCursor: null,
    });
  });
});

describe('POST /api/v1/events', () => {
  it('sends rows through the pipeline and answers per row: sent, corrected, refused, failed', async () => {
    const rows = [
      row(`a-${Date.now()}@example.com`),
      row(`b-${Date.now()}@example.com`, { Event: 'lead', Phone: 'call me' }),
      row('', { When: 'not a date' }),
      row(`c-${Date.now()}@example.com`, { Event: 'PoisonRow' }),
    ];
    const r = await v1(keys.send, 'POST', '/api/v1/events', {
      rows,
      mappings: { ...MAPPING, Phone: 'phone' },
      pixelAccount: 'Main store',
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.rows.map((x: { status: string }) => x.status)).toEqual(['sent', 'sent', 'refused', 'failed']);
    expect(body.rows[1].corrected).toEqual([
      { field: 'event_name', message: expect.stringContaining('"Lead"') },
    ]);
    expect(body.rows[1].dropped).toEqual([expect.objectContaining({ field: 'phone', reason: 'invalid' })]);
    expect(body.rows[2].errors.length).toBeGreaterThan(0);
    expect(body.rows[3].reason).toEqual(expect.any(String));
    expect(body.counts).toEqual({
      rows: 4,
      sent: 2,
      refused: 1,
      failed: 1,
      corrected: 1,
      dropped: 1,
      skipped: 0,
      pending: 0,
    });
    expect(body.status).toBe('completed_with_errors');
    // Hashed on the way: no address reached Meta in clear.
    expect(JSON.stringify(graph.requests)).not.toContain('example.com');
    // The call is a file like any other: its summary reads.
    expect((await v1(keys.read, 'GET', `/api/v1/uploads/${body.uploadId}/summary`)).statusCode).toBe(200);

    // The same rows again: the pixel's ledger has them, nothing goes twice.
    graph.reset();
    const again = (
      await v1(keys.send, 'POST', '/api/v1/events', {
        rows: rows.slice(0, 2),
        template: 'Shopify orders',
        pixelAccount: accountId,
      })
    ).json();
    expect(again.rows.map((x: { status: string }) => x.status)).toEqual(['skipped', 'skipped']);
    expect(graph.requests).toEqual([]);
  });

  it('with an Idempotency-Key, a retry answers the first answer and sends nothing', async () => {
    const rows = [row(`idem-${Date.now()}@example.com`)];
    const body = { rows, mappings: MAPPING, pixelAccount: accountId };
    const first = await v1(keys.send, 'POST', '/api/v1/events', body, { 'idempotency-key': 'events-1' });
    graph.reset();
    const retry = await v1(keys.send, 'POST', '/api/v1/events', body, { 'idempotency-key': 'events-1' });
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(graph.requests).toEqual([]);
  });

  it('refuses an unknown pixel account, a read key, and more than 10,000 rows, leaving no file', async () => {
    const before = (await v1(keys.read, 'GET', '/api/v1/uploads?limit=100')).json().data.length;
    const unknown = await v1(keys.send, 'POST', '/api/v1/events', {
      rows: [row('x@example.com')],
      mappings: MAPPING,
      pixelAccount: 'Nope',
    });
    expect([unknown.statusCode, unknown.json().field]).toEqual([400, 'pixelAccount']);
    expect((await v1(keys.read, 'POST', '/api/v1/events', {})).statusCode).toBe(403);
    const many = await v1(keys.send, 'POST', '/api/v1/events', {
      rows: Array.from({ length: 10_001 }, () => ({ a: '1' })),
      mappings: MAPPING,
      pixelAccount: accountId,
    });
    expect([many.statusCode, many.json().field]).toEqual([400, 'rows']);
    expect((await v1(keys.read, 'GET', '/api/v1/uploads?limit=100')).json().data.length).toBe(before);
  });
});

describe('a key never reaches another workspace', () => {
  it('answers 404 for every resource of another workspace, whatever header it sends', async () => {
    const { agent: them } = await loggedInAgent(ctx.app, ctx.db);
    const theirSlug = (await them.get('/api/workspace')).json().slug;
    const up = await them.request({
      method: 'POST',
      url: '/api/upload',
      ...multipartFile('t.csv', leadsCsv(1, 2), 'text/csv'),
    });
    const uploadId = up.json().file.id;
    const theirAccount = await saveAccount(them, undefined, testPixelId());
    const t = (await them.post('/api/mappings', { name: 'Theirs', mappings: MAPPING, hardcoded: {} })).json()
      .id;
    const s = (
      await them.post(
        '/api/sources',
        sourceInput(theirAccount, { kind: 'csv_url', url: 'http://127.0.0.1:9/x.csv', auth: 'none' }),
      )
    ).json().id;
    const h = { 'x-workspace': theirSlug };
    const calls: [Method, string, unknown?][] = [
      ['GET', `/api/v1/uploads/${uploadId}`],
      ['DELETE', `/api/v1/uploads/${uploadId}`],
      ['PUT', `/api/v1/uploads/${uploadId}/mapping`, { mappings: MAPPING }],
      ['POST', `/api/v1/uploads/${uploadId}/jobs/validate`, {}],
      ['GET', `/api/v1/uploads/${uploadId}/jobs/validate`],
      ['POST', `/api/v1/uploads/${uploadId}/send`, { selectedAccountId: theirAccount }],
      ['GET', `/api/v1/uploads/${uploadId}/summary`],
      ['GET', `/api/v1/uploads/${uploadId}/failed-rows`],
      ['PUT', `/api/v1/pixel-accounts/${theirAccount}/token`, { accessToken: 'EAAB-mine-0000' }],
      ['GET', `/api/v1/templates/${t}`],
      ['GET', `/api/v1/sources/${s}/runs`],
      ['POST', `/api/v1/sources/${s}/pause`],
      ['POST', `/api/v1/sources/${s}/resume`],
      ['POST', `/api/v1/sources/${s}/run`],
    ];
    for (const [method, url, payload] of calls) {
      const r = await v1(keys.admin, method, url, payload, h);
      expect([r.statusCode, r.json().code], `${method} ${url}`).toEqual([404, 'NOT_FOUND']);
    }
    const events = await v1(
      keys.admin,
      'POST',
      '/api/v1/events',
      { rows: [row('z@example.com')], template: 'Theirs', pixelAccount: theirAccount },
      h,
    );
    expect(events.statusCode).toBe(400);
    for (const list of [
      '/api/v1/uploads',
      '/api/v1/pixel-accounts',
      '/api/v1/templates',
      '/api/v1/sources',
    ]) {
      const body = (await v1(keys.admin, 'GET', list, undefined, h)).body;
      for (const theirs of [uploadId, theirAccount, t, s]) expect(body, list).not.toContain(theirs);
    }
    expect((await them.get(`/api/uploads/${uploadId}`)).statusCode).toBe(200);
  });
});
