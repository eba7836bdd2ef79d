import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { startS3Server, type S3Server } from '../../../test/s3-server.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { tick } from './scheduler.ts';
import type { RunnerDeps } from './source-run.ts';
import { UNREACHABLE } from './url-fetch.ts';
import {
  leadsCsv,
  runScheduled,
  saveAccount,
  sentIds,
  sourceInput,
  sourceRunner,
  TOKEN,
} from './sources.test-helpers.ts';

// S3-compatible sources (issue 23) against s3rver on a loopback port: each object is sent once, oldest first.
let ctx: TestContext;
let graph: FakeGraph;
let s3: S3Server;
let clock = new Date();
let runner: RunnerDeps;
const setClock = (d: Date) => (clock = d);

beforeAll(async () => {
  ctx = await createTestContext();
  graph = await startFakeGraph({ tokens: [TOKEN] });
  s3 = await startS3Server(['drops', 'other']);
  runner = sourceRunner(ctx, graph, () => clock);
});
afterAll(async () => {
  await s3.close();
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());
afterEach(async () => {
  await ctx.db.query(`update sources set status = 'paused', run_requested_at = null`);
});

const conn = (extra: object = {}) => ({
  kind: 's3',
  endpoint: s3.endpoint,
  region: 'us-east-1',
  bucket: 'drops',
  prefix: '',
  accessKeyId: s3.accessKeyId,
  secret: s3.secretAccessKey,
  pathStyle: true,
  ...extra,
});

async function newSource(agent: Agent, accountId: string, prefix: string) {
  const res = await agent.post('/api/sources', sourceInput(accountId, conn({ prefix })));
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const runsOf = async (agent: Agent, id: string) =>
  (await agent.get(`/api/sources/${id}/runs`)).json().runs as {
    id: string;
    status: string;
    sent: number;
    itemName: string | null;
    message: string | null;
    alreadyDelivered: number;
  }[];

describe('S3 sources API guards', () => {
  it('answers 401 and 403 without a verified session, and 400 for a bad connection', async () => {
    const anon = new Agent(ctx.app);
    expect((await anon.post('/api/sources/test-fetch', { connection: conn() })).statusCode).toBe(401);
    const { agent: unverified } = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.post('/api/sources/test-fetch', { connection: conn() })).statusCode).toBe(403);

    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const post = (c: object) => agent.post('/api/sources', sourceInput(accountId, c));
    expect((await post(conn({ bucket: '' }))).statusCode).toBe(400);
    expect((await post(conn({ bucket: 'has space' }))).statusCode).toBe(400);
    expect((await post(conn({ accessKeyId: '' }))).statusCode).toBe(400);
    expect((await post(conn({ region: 'evil.example.com/' }))).statusCode).toBe(400);
    const noSecret = await post(conn({ secret: undefined }));
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json().message).toBe('Enter the secret access key.');
    const badEndpoint = await post(conn({ endpoint: 'ftp://bucket.example' }));
    expect(badEndpoint.statusCode).toBe(400);
    expect(badEndpoint.json().message).toBe(
      'Enter the endpoint as an https:// URL, or leave it empty for AWS S3.',
    );
  });

  it('stores the secret access key sealed, never returns it, and keeps it on edit', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await newSource(agent, accountId, 'keep/');
    const detail = await agent.get(`/api/sources/${id}`);
    expect(detail.json().connection).toEqual({
      kind: 's3',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: 'drops',
      prefix: 'keep/',
      accessKeyId: 'S3RVER',
      pathStyle: true,
      hasSecret: true,
    });
    expect(detail.json().kind).toBe('s3');
    const raw = await ctx.db.query<{ c: Uint8Array; conn: unknown }>(
      'select secret_ciphertext as c, connection as conn from sources where workspace_id = $1',
      [userId],
    );
    expect(Buffer.from(raw.rows[0]!.c).toString('latin1')).not.toContain('S3RVER');
    expect(JSON.stringify(raw.rows[0]!.conn)).not.toContain('secret');

    const edit = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, conn({ prefix: 'other/', secret: undefined }), { name: 'Renamed' }),
    );
    expect(edit.statusCode).toBe(200);
    expect((await agent.get(`/api/sources/${id}`)).json()).toMatchObject({
      name: 'Renamed',
      connection: { prefix: 'other/', hasSecret: true },
    });
    // Another kind does not inherit the stored secret.
    const toUrl = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, { kind: 'csv_url', url: 'http://127.0.0.1:1/a.csv', auth: 'header' }),
    );
    expect(toUrl.statusCode).toBe(400);
  });
});

describe('S3 stored secret', () => {
  it('is not kept, nor used by a test fetch, for another endpoint or access key ID', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await newSource(agent, accountId, 'ident/');
    const again =
      'Enter the secret access key again: the stored one is kept only for the same endpoint and access key ID.';
    for (const other of [{ endpoint: 'http://127.0.0.1:1' }, { accessKeyId: 'OTHERKEY' }]) {
      const c = conn({ prefix: 'ident/', secret: undefined, ...other });
      const edit = await agent.patch(`/api/sources/${id}`, sourceInput(accountId, c));
      expect(edit.statusCode).toBe(400);
      expect(edit.json().message).toBe(again);
      const test = await agent.post('/api/sources/test-fetch', { connection: c, sourceId: id });
      expect(test.statusCode).toBe(400);
      expect(test.json().fields).toEqual({ secret: again });
    }
    // The same endpoint and key ID (a trailing slash aside) keep it.
    const same = conn({ prefix: 'other/', secret: undefined, endpoint: `${s3.endpoint}/` });
    expect((await agent.patch(`/api/sources/${id}`, sourceInput(accountId, same))).statusCode).toBe(200);
  });
});

describe('S3 test fetch', () => {
  it('names the object it read and shows its first rows, or the exact reason', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    await s3.put('drops', 'preview/2026-01-01.csv', leadsCsv(1, 7));
    await s3.put('drops', 'preview/2026-01-02.csv', leadsCsv(8, 9));
    const test = async (c: object) =>
      (await agent.post('/api/sources/test-fetch', { connection: conn(c) })).json();

    const ok = await test({ prefix: 'preview/' });
    expect(ok).toMatchObject({
      ok: true,
      headers: ['Email', 'Event', 'When', 'Source'],
      rowCount: 7,
      item: { name: 'preview/2026-01-01.csv', waiting: 2 },
    });
    expect(ok.rows[0][0]).toBe('user1@example.com');

    expect(await test({ prefix: 'nothing-here/' })).toEqual({
      ok: false,
      reason: 'The bucket "drops" has no object under "nothing-here/".',
    });
    expect(await test({ bucket: 'missing' })).toEqual({
      ok: false,
      reason: 'The bucket "missing" does not exist at this endpoint.',
    });
    expect(await test({ accessKeyId: 'WRONGKEY' })).toEqual({
      ok: false,
      reason: 'The bucket does not know this access key ID (InvalidAccessKeyId): check it.',
    });
    expect(await test({ endpoint: 'http://127.0.0.1:1' })).toEqual({
      ok: false,
      reason: UNREACHABLE,
    });
  });
});

describe('scheduled S3 runs', () => {
  it('sends each object once, oldest first, one object per run, then only a new one', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    await s3.put('drops', 'daily/a.csv', leadsCsv(1, 3));
    await s3.put('drops', 'daily/b.csv', leadsCsv(4, 8));
    await s3.put('drops', 'daily/folder/', '');
    const id = await newSource(agent, accountId, 'daily/');

    // One tick drains the backlog: a run per object, each asking for the next.
    const first = await runScheduled(agent, runner, id, setClock);
    expect(first.map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(sentIds(graph)).toHaveLength(8);
    let runs = await runsOf(agent, id);
    const byId = new Map(runs.map((r) => [r.id, [r.itemName, r.status, r.sent]]));
    expect(first.map((r) => byId.get(r.runId))).toEqual([
      ['daily/a.csv', 'sent', 3],
      ['daily/b.csv', 'sent', 5],
    ]);

    // Nothing new: nothing fetched, nothing sent.
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['nothing_new']);
    expect((await runsOf(agent, id))[0]!.message).toBe(
      'Every object in the bucket under "daily/" was already sent.',
    );
    expect(sentIds(graph)).toHaveLength(8);

    // A new object later is sent alone.
    await s3.put('drops', 'daily/c.csv', leadsCsv(9, 10));
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['sent']);
    runs = await runsOf(agent, id);
    expect(runs[0]).toMatchObject({ itemName: 'daily/c.csv', sent: 2 });
    const ids = sentIds(graph);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);

    // The same key uploaded again with new content (a new ETag) is a new object: its rows already sent stay out.
    await s3.put('drops', 'daily/c.csv', leadsCsv(9, 11));
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['sent']);
    expect((await runsOf(agent, id))[0]).toMatchObject({ sent: 1, alreadyDelivered: 2 });
  });

  it('skips an object over the size limit for good and goes on with the next', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    await s3.put('drops', 'big/1-large.csv', leadsCsv(1, 40));
    await s3.put('drops', 'big/2-small.csv', leadsCsv(41, 41));
    const id = await newSource(agent, accountId, 'big/');
    const small = { ...runner, config: { ...runner.config, maxUploadBytes: 1000 } };
    const next = (await agent.get(`/api/sources/${id}`)).json().nextRunAt as string;
    clock = new Date(next);
    expect((await tick(small)).map((r) => r.status)).toEqual(['failed', 'sent']);
    const runs = await runsOf(agent, id);
    expect(runs.find((r) => r.itemName === 'big/1-large.csv')!.message).toMatch(
      /^big\/1-large\.csv is 0\.0MB\. File is too large\. Max size is 0MB\. It was skipped and will not be read again\.$/,
    );
    expect(sentIds(graph)).toHaveLength(1);
    clock = new Date(clock.getTime() + 3600_000);
    expect((await tick(small)).map((r) => r.status)).toEqual(['nothing_new']);
  });

  it('skips an object that is not a CSV for good, so the objects after it are still sent', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    await s3.put('drops', 'unreadable/1-empty.csv', '');
    await s3.put('drops', 'unreadable/2-good.csv', leadsCsv(50, 51));
    const id = await newSource(agent, accountId, 'unreadable/');
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual([
      'failed',
      'sent',
    ]);
    const runs = await runsOf(agent, id);
    expect(runs.find((r) => r.itemName === 'unreadable/1-empty.csv')!.message).toBe(
      'The file is empty. Export your data again and make sure it has a header row and at least one row of data. It was skipped and will not be read again.',
    );
    expect(sentIds(graph)).toHaveLength(2);
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['nothing_new']);
  });

  it('fails a run with the reason when the credentials are refused, and tries again next time', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    await s3.put('other', 'x.csv', leadsCsv(1, 2));
    const res = await agent.post(
      '/api/sources',
      sourceInput(accountId, conn({ bucket: 'other', accessKeyId: 'REVOKED' })),
    );
    const id = res.json().id as string;
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['failed']);
    expect((await runsOf(agent, id))[0]!.message).toBe(
      'The bucket does not know this access key ID (InvalidAccessKeyId): check it.',
    );
    expect((await agent.get(`/api/sources/${id}`)).json().status).toBe('active');
  });
});
