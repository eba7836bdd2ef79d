import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { ACTIVITY_KINDS, type ActivityEntry, type WorkspaceRole } from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount, testPixelId } from '../delivery/delivery.test-helpers.ts';
import { applyRetention } from '../system/retention.ts';
import { noteSignIn } from './activity.service.ts';

/** Issue 31: the workspace activity log, read through the API as its owners and admins read it. */
let ctx: TestContext;
let graph: FakeGraph;
const TOKEN = 'EAAB-good-token-123456';
const queue = { send: async () => undefined } as unknown as PgBoss;
beforeAll(async () => {
  graph = await startFakeGraph({ tokens: [TOKEN, 'EAAB-other-token-654321'] });
  ctx = await createTestContext({ deps: { queue }, env: { META_GRAPH_URL: graph.url } });
});
afterAll(async () => {
  await ctx.close();
  await graph.close();
});
beforeEach(() => graph.reset());

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));
const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
// Customer values that must never reach the log.
const CUSTOMERS = [
  ['ann.customer@example.net', '+1 602 555 0147'],
  ['bob.customer@example.net', '+44 7400 123456'],
];
const CSV = [
  'Email,Phone,Event,When,Source',
  ...CUSTOMERS.map(([e, p]) => `${e},${p},Lead,${when},physical_store`),
].join('\r\n');
const MAPPING = {
  Email: 'email',
  Phone: 'phone',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
};

async function join(workspaceId: string, userId: string, role: WorkspaceRole) {
  await ctx.db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

const log = async (agent: Agent, query = '') => {
  const r = await agent.get(`/api/workspace/activity${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { entries: ActivityEntry[]; next: string | null };
};
const kinds = (entries: ActivityEntry[]) => entries.map((e) => e.kind).reverse();

function expectNoCustomerValue(text: string) {
  for (const [email, phone] of CUSTOMERS) {
    expect(text).not.toContain(email);
    expect(text).not.toContain(phone);
    expect(text).not.toContain(phone!.replace(/\D/g, ''));
  }
  expect(text).not.toContain(TOKEN);
}

describe('the activity log records who did what', () => {
  it('records a file from upload to send finished, and pixel accounts, with the actor and no customer value', async () => {
    const { agent, userId, email } = await loggedInAgent(ctx.app, ctx.db, { firstName: 'Olga' });
    const up = await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('june.csv', CSV) });
    expect(up.statusCode).toBe(201);
    const id = up.json().file.id as string;
    expect(
      (
        await agent.patch(`/api/uploads/${id}/status`, {
          status: 'mapped',
          mappings: MAPPING,
          hardcodedValues: {},
        })
      ).statusCode,
    ).toBe(200);
    expect((await agent.get(`/api/uploads/${id}/validate`)).json().rowsWithErrors).toBe(0);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
    expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');

    const pixelId = testPixelId();
    const accountId = await saveAccount(agent, TOKEN, pixelId);
    expect((await agent.post(`/api/meta/accounts/${accountId}/test`)).json().ok).toBe(true);
    const send = await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect(send.statusCode).toBe(202);
    expect(await work(send.json().runId)).toBe('completed');
    expect(
      (await agent.patch(`/api/meta/accounts/${accountId}`, { accessToken: 'EAAB-other-token-654321' }))
        .statusCode,
    ).toBe(200);
    expect((await agent.patch(`/api/meta/accounts/${accountId}`, { name: 'Shop' })).statusCode).toBe(200);
    expect((await agent.delete(`/api/meta/accounts/${accountId}`)).statusCode).toBe(200);
    expect((await agent.patch('/api/workspace', { name: 'Olga & Co' })).statusCode).toBe(200);

    const { entries } = await log(agent);
    expect(kinds(entries)).toEqual([
      'workspace.signed_in',
      'file.uploaded',
      'mapping.saved',
      'validation.started',
      'file.validated',
      'pixel.added',
      'pixel.tested',
      'send.started',
      'send.finished',
      'pixel.token_replaced',
      'pixel.edited',
      'pixel.removed',
      'workspace.renamed',
    ]);
    for (const e of entries) {
      expect(e.actorUserId).toBe(userId);
      expect(e.actorLabel).toBe(`Olga Tester <${email}>`);
    }
    const byKind = (k: string) => entries.find((e) => e.kind === k)!;
    expect(byKind('file.uploaded')).toMatchObject({ subject: 'june.csv', details: { rows: 2 } });
    expect(byKind('send.started')).toMatchObject({ subject: 'june.csv', details: { pixelId } });
    expect(byKind('send.finished')).toMatchObject({
      subject: 'june.csv',
      details: { pixelId, status: 'completed', sent: 2, failed: 0 },
    });
    expect(byKind('pixel.added')).toMatchObject({ subject: 'Main store', details: { pixelId } });
    expect(byKind('pixel.tested').details).toMatchObject({ ok: true });
    expect(byKind('pixel.removed')).toMatchObject({ subject: 'Shop' });
    expect(byKind('workspace.renamed')).toMatchObject({ subject: 'Olga & Co' });
    // The client's address, as the rate limiter counts it.
    expect(byKind('file.uploaded').ip).toBe(agent.ip);

    const csv = await agent.get('/api/workspace/activity.csv');
    expect(csv.statusCode).toBe(200);
    expectNoCustomerValue(JSON.stringify(entries));
    expectNoCustomerValue(csv.body);
  });

  it('records sources, "Run now" by the person and a scheduled run by the schedule', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent, TOKEN);
    const input = {
      name: 'Nightly leads',
      connection: { kind: 'csv_url', url: 'http://127.0.0.1:9/leads.csv', auth: 'none' },
      mappings: MAPPING,
      hardcodedValues: {},
      settings: { timeZone: 'UTC', dateOrder: 'MDY', defaultCountry: 'US' },
      pixelAccountId: accountId,
      schedule: { every: 'hour', minute: 0 },
      timeZone: 'UTC',
    };
    const created = await agent.post('/api/sources', input);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect((await agent.patch(`/api/sources/${id}`, { ...input, name: 'Leads' })).statusCode).toBe(200);
    expect((await agent.post(`/api/sources/${id}/pause`)).statusCode).toBe(200);
    expect((await agent.post(`/api/sources/${id}/resume`)).statusCode).toBe(200);
    expect((await agent.post(`/api/sources/${id}/run`)).statusCode).toBe(202);
    // The scheduler claims it as due (without running it here): the schedule's entry.
    await ctx.db.query(
      `update sources set run_requested_at = null, next_run_at = now() - interval '1 minute' where id = $1`,
      [id],
    );
    const { claimDueRuns } = await import('../sources/scheduler.ts');
    expect(await claimDueRuns(ctx.db, new Date(), 10)).toEqual([
      expect.objectContaining({ trigger: 'schedule' }),
    ]);
    await ctx.db.query(`update source_runs set status = 'failed', finished_at = now() where source_id = $1`, [
      id,
    ]);
    expect((await agent.delete(`/api/sources/${id}`)).statusCode).toBe(200);

    const { entries } = await log(agent, '?limit=200');
    const sources = entries.filter((e) => e.kind.startsWith('source.')).reverse();
    expect(sources.map((e) => [e.kind, e.subject, e.actorUserId, e.actorLabel.startsWith('Test')])).toEqual([
      ['source.created', 'Nightly leads', userId, true],
      ['source.edited', 'Leads', userId, true],
      ['source.paused', 'Leads', userId, true],
      ['source.resumed', 'Leads', userId, true],
      ['source.run_requested', 'Leads', userId, true],
      ['source.run_started', 'Leads', null, false],
      ['source.deleted', 'Leads', userId, true],
    ]);
    expect(sources[5]).toMatchObject({ actorLabel: 'schedule', ip: null });
  });

  it('records a send a source made as finished by the schedule', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const up = await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('feed.csv', CSV) });
    const accountId = await saveAccount(agent, TOKEN);
    const id = up.json().file.id as string;
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: MAPPING,
      hardcodedValues: {},
    });
    await agent.get(`/api/uploads/${id}/validate`);
    await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    await agent.get(`/api/uploads/${id}/prepare`);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    // As a source's run leaves it: nobody started it.
    await ctx.db.query('update send_runs set started_by = null where id = $1', [runId]);
    graph.inject({ kind: 'graph', code: 190, subcode: 463, status: 401, message: 'Session has expired.' });
    expect(await work(runId)).toBe('stopped');
    const finished = (await log(agent, '?kind=send.finished')).entries;
    expect(finished).toEqual([
      expect.objectContaining({
        actorUserId: null,
        actorLabel: 'schedule',
        subject: 'feed.csv',
        details: expect.objectContaining({ status: 'stopped', sent: 0, failed: 2 }),
      }),
    ]);
    expect((await log(agent, `?person=${userId}&kind=send.finished`)).entries).toEqual([]);
  });

  it('records a sign-in to a workspace at most once in 12 hours', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    await agent.get('/api/uploads');
    await agent.get('/api/mappings');
    const signIns = async () =>
      (
        await ctx.db.query<{ at: Date }>(
          `select at from workspace_activity where workspace_id = $1 and kind = 'workspace.signed_in'`,
          [userId],
        )
      ).rows;
    expect(await signIns()).toHaveLength(1);
    const later = (h: number) => new Date(Date.now() + h * 3600 * 1000);
    const e = { workspaceId: userId, userId, ip: '192.0.2.7' };
    expect(await noteSignIn(ctx.db, { ...e, now: later(11) })).toBe(false);
    expect(await noteSignIn(ctx.db, { ...e, now: later(12.1) })).toBe(true);
    expect(await noteSignIn(ctx.db, { ...e, now: later(13) })).toBe(false);
    expect(await signIns()).toHaveLength(2);
  });

  it('never fails the action when the entry cannot be written', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    await ctx.db.query('alter table workspace_activity rename to workspace_activity_away');
    try {
      const r = await agent.patch('/api/workspace', { name: 'Still renamed' });
      expect(r.statusCode).toBe(200);
      expect((await agent.get('/api/workspace')).json().name).toBe('Still renamed');
    } finally {
      await ctx.db.query('alter table workspace_activity_away rename to workspace_activity');
    }
  });
});

describe('reading the log', () => {
  it('filters by person, kind and date, pages newest first, and downloads as CSV', async () => {
    const { agent: owner, userId: ownerId } = await loggedInAgent(ctx.app, ctx.db, { firstName: 'Owen' });
    const { agent: admin, userId: adminId } = await loggedInAgent(ctx.app, ctx.db, { firstName: 'Ada' });
    const slug = (await owner.get('/api/workspaces')).json().workspaces[0].slug as string;
    await join(ownerId, adminId, 'admin');
    const inWs = { headers: { 'x-workspace': slug } };
    const withWs = (m: ReturnType<typeof multipartFile>) => ({
      method: 'POST' as const,
      url: '/api/upload',
      ...m,
      headers: { ...m.headers, 'x-workspace': slug },
    });
    for (let i = 0; i < 3; i++)
      await owner.post('/api/mappings', { name: `T${i}`, mappings: {}, hardcoded: {} }); // not logged
    for (const name of ['one.csv', '=cmd.csv', 'three.csv'])
      await admin.request(withWs(multipartFile(name, CSV)));

    const all = (await admin.get('/api/workspace/activity', inWs)).json();
    expect(kinds(all.entries)).toEqual([
      'workspace.signed_in',
      'workspace.signed_in',
      'file.uploaded',
      'file.uploaded',
      'file.uploaded',
    ]);
    const mine = (await owner.get(`/api/workspace/activity?person=${adminId}&kind=file.uploaded`)).json();
    expect(mine.entries.map((e: ActivityEntry) => e.subject)).toEqual(['three.csv', '=cmd.csv', 'one.csv']);
    expect((await log(owner, `?person=${ownerId}`)).entries.map((e) => e.kind)).toEqual([
      'workspace.signed_in',
    ]);

    // Pages of two, newest first, each page after the one before.
    const p1 = await log(owner, '?limit=2');
    expect(p1.entries.map((e) => e.subject)).toEqual(['three.csv', '=cmd.csv']);
    const p2 = await log(owner, `?limit=2&before=${encodeURIComponent(p1.next!)}`);
    expect(p2.entries.map((e) => e.subject)).toEqual(['one.csv', null]);
    const p3 = await log(owner, `?limit=2&before=${encodeURIComponent(p2.next!)}`);
    expect(p3).toMatchObject({ entries: [{ kind: 'workspace.signed_in' }], next: null });

    // Dates: a day is whole (UTC); an entry moved back 3 days falls out of today's range.
    await ctx.db.query(
      `update workspace_activity set at = at - interval '3 days' where workspace_id = $1 and subject = 'one.csv'`,
      [ownerId],
    );
    const today = new Date().toISOString().slice(0, 10);
    const old = new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    expect((await log(owner, `?kind=file.uploaded&from=${today}`)).entries).toHaveLength(2);
    expect((await log(owner, `?kind=file.uploaded&to=${today}`)).entries).toHaveLength(3);
    expect(
      (await log(owner, `?kind=file.uploaded&from=${old}&to=${old}`)).entries.map((e) => e.subject),
    ).toEqual(['one.csv']);

    const people = (await owner.get('/api/workspace/activity/people')).json().people;
    expect(people.map((p: { userId: string }) => p.userId).sort()).toEqual([ownerId, adminId].sort());

    const csv = await owner.get(`/api/workspace/activity.csv?kind=file.uploaded`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="activity.csv"');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"Time (UTC)","Person","What","Subject","Details","IP address"');
    expect(lines).toHaveLength(4);
    // A name a spreadsheet would run is escaped like every CSV the app writes.
    expect(lines[2]).toContain(`"File uploaded","'=cmd.csv","rows: 2"`);
    expect(lines[2]).toContain('Ada Tester <');
    expectNoCustomerValue(csv.body);
  });

  it('answers 401 logged out, 403 to members and viewers and without XSRF, 400 for bad filters', async () => {
    const anon = new Agent(ctx.app);
    expect((await anon.get('/api/workspace/activity')).statusCode).toBe(401);
    expect((await anon.get('/api/workspace/activity.csv')).statusCode).toBe(401);
    const { agent: owner, userId: ownerId } = await loggedInAgent(ctx.app, ctx.db);
    const slug = (await owner.get('/api/workspaces')).json().workspaces[0].slug as string;
    for (const role of ['member', 'viewer'] as const) {
      const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
      await join(ownerId, userId, role);
      const inWs = { headers: { 'x-workspace': slug } };
      for (const url of [
        '/api/workspace/activity',
        '/api/workspace/activity.csv',
        '/api/workspace/activity/people',
      ]) {
        const r = await agent.get(url, inWs);
        expect(r.statusCode).toBe(403);
        expect(r.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    }
    expect(
      (await owner.request({ method: 'GET', url: '/api/workspace/activity.csv', xsrf: false })).statusCode,
    ).toBe(403);
    for (const q of [
      'kind=file.exploded',
      'person=not-a-uuid',
      'from=yesterday',
      'to=2026-13-45',
      'before=abc',
      'limit=0',
      'limit=201',
    ]) {
      const r = await owner.get(`/api/workspace/activity?${q}`);
      expect(r.statusCode, q).toBe(400);
      expect(r.json().code).toBe('VALIDATION_FAILED');
    }
  });

  it('every kind has a label for the web', async () => {
    const { ACTIVITY_KIND_LABELS } = await import('@backsignal/contracts');
    for (const k of ACTIVITY_KINDS) expect(ACTIVITY_KIND_LABELS[k]).toBeTruthy();
  });
});

describe('retention', () => {
  it('deletes entries older than RETENTION_DAYS and keeps younger ones', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    await agent.patch('/api/workspace', { name: 'Kept' });
    const count = async () =>
      (
        await ctx.db.query<{ n: number }>(
          'select count(*)::int as n from workspace_activity where workspace_id = $1',
          [userId],
        )
      ).rows[0]!.n;
    expect(await count()).toBe(2);
    const DAY = 24 * 3600 * 1000;
    const policy = { retentionDays: 365, analyticsRetentionDays: 90 };
    await applyRetention(ctx.db, new Date(Date.now() + 364 * DAY), policy);
    expect(await count()).toBe(2);
    const r = await applyRetention(ctx.db, new Date(Date.now() + 366 * DAY), policy);
    expect(await count()).toBe(0);
    expect(r.activity).toBeGreaterThanOrEqual(2);
  });
});
