import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import type { ActivityEntry, WorkspaceRole } from '@backsignal/contracts';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import type { Agent } from '../../../test/agent.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { fakeServer } from '../../../test/fake-http.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import type { Mail } from '../../integrations/mailer.ts';
import { appEngineRun, saveAccount } from '../delivery/delivery.test-helpers.ts';
import { mailSendNotices } from '../delivery/delivery.notices.ts';
import { tick } from '../sources/scheduler.ts';
import { runScheduled, sourceInput, sourceRunner, TOKEN } from '../sources/sources.test-helpers.ts';
import type { RunnerDeps } from '../sources/source-run.ts';

/**
 * Issue 31: what a send or a source's run needs from people reaches the workspace's owners and admins (and the
 * member who started the send), never one account; and the log records what runs did, by whom or the schedule.
 */
let ctx: TestContext;
let graph: FakeGraph;
let sheet: { url: string; close: () => Promise<void> };
let runner: RunnerDeps;
let clock = new Date();
const files = new Map<string, string>();
const queue = { send: async () => undefined } as unknown as PgBoss;

beforeAll(async () => {
  graph = await startFakeGraph({ tokens: [TOKEN] });
  ctx = await createTestContext({ deps: { queue }, env: { META_GRAPH_URL: graph.url } });
  sheet = await fakeServer((req, res) => {
    const body = files.get(req.url.split('?')[0]!);
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/csv' });
    res.end(body ?? '');
  });
  runner = sourceRunner(ctx, graph, () => clock);
});
afterAll(async () => {
  await sheet.close();
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());
afterEach(async () => {
  await ctx.db.query(`update sources set status = 'paused', run_requested_at = null`);
});

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));
const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
// Customer values: never in a mail nor in the log.
const emailOf = (n: number) => `customer${n}@example.net`;
const csv = (from: number, to: number, poison: number[] = [], header = 'Email,Event,When,Source') =>
  [
    header,
    ...Array.from({ length: to - from + 1 }, (_, i) => from + i).map(
      (n) => `${emailOf(n)},${poison.includes(n) ? 'PoisonRow' : 'Lead'},${when},physical_store`,
    ),
  ].join('\r\n');
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };

function expectNoCustomerValue(text: string) {
  for (let n = 1; n < 40; n++) expect(text).not.toContain(emailOf(n));
  expect(text).not.toContain(TOKEN);
}

/** An owner's workspace with an admin, a member and a viewer, each with their own session. */
async function team() {
  const owner = await loggedInAgent(ctx.app, ctx.db, { firstName: 'Olga' });
  const slug = (await owner.agent.get('/api/workspaces')).json().workspaces[0].slug as string;
  const people: Record<WorkspaceRole, { agent: Agent; userId: string; email: string }> = {
    owner,
  } as never;
  for (const role of ['admin', 'member', 'viewer'] as const) {
    const p = await loggedInAgent(ctx.app, ctx.db, { firstName: role });
    await ctx.db.query('insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)', [
      owner.userId,
      p.userId,
      role,
    ]);
    // Their requests land in the team's workspace, as after opening its address.
    await ctx.db.query('update users set current_workspace_id = $1 where id = $2', [owner.userId, p.userId]);
    people[role] = p;
  }
  return { ...people, slug, workspaceId: owner.userId };
}

/** Uploads, maps, validates and prepares a file as `agent`; answers its id. */
async function preparedFile(agent: Agent, name: string, content: string): Promise<string> {
  const up = await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile(name, content) });
  expect(up.statusCode, up.body).toBe(201);
  const id = up.json().file.id as string;
  const mapped = await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: MAPPING,
    hardcodedValues: {},
  });
  expect(mapped.statusCode, mapped.body).toBe(200);
  await agent.get(`/api/uploads/${id}/validate`);
  expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
  expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
  return id;
}

/** The mails sent while `fn` ran. */
async function mailsDuring(fn: () => Promise<unknown>): Promise<Mail[]> {
  const before = ctx.mailer.sent.length;
  await fn();
  return ctx.mailer.sent.slice(before);
}

const recipients = (mails: Mail[]) => mails.map((m) => m.to).sort();

describe('a send that finished with failures is mailed to the workspace, not to one account', () => {
  it('mails owners, admins and the member who started it, once, with counts and no customer value', async () => {
    const t = await team();
    const accountId = await saveAccount(t.owner.agent, TOKEN);
    const id = await preparedFile(t.member.agent, 'june.csv', csv(2, 6, [4]));
    const send = await t.member.agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect(send.statusCode, send.body).toBe(202);
    expect(await work(send.json().runId)).toBe('completed_with_errors');

    const mails = await mailsDuring(() => mailSendNotices(ctx));
    expect(recipients(mails)).toEqual([t.owner.email, t.admin.email, t.member.email].sort());
    const mail = mails[0]!;
    expect(mail.subject).toBe('Backsignal: 1 event failed in "june.csv"');
    expect(mail.text).toContain('4 events reached Meta, 1 event failed.');
    expect(mail.text).toContain(`/w/${t.slug}/summary?fileId=${id}`);
    for (const m of mails) expectNoCustomerValue(m.text + m.html + m.subject);
    // Claimed once: a second worker's sweep mails nobody.
    expect(await mailsDuring(() => mailSendNotices(ctx))).toEqual([]);
  });

  it('mails a send Meta stopped, to each address once, and nothing for a clean send', async () => {
    const t = await team();
    const accountId = await saveAccount(t.admin.agent, TOKEN);
    const clean = await preparedFile(t.owner.agent, 'clean.csv', csv(10, 12));
    const ok = await t.owner.agent.post(`/api/uploads/${clean}/send`, { selectedAccountId: accountId });
    expect(await work(ok.json().runId)).toBe('completed');
    expect(await mailsDuring(() => mailSendNotices(ctx))).toEqual([]);

    const id = await preparedFile(t.owner.agent, 'july.csv', csv(13, 15));
    const send = await t.owner.agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    graph.inject({ kind: 'graph', code: 190, subcode: 463, status: 401, message: 'Session has expired.' });
    expect(await work(send.json().runId)).toBe('stopped');
    const mails = await mailsDuring(() => mailSendNotices(ctx));
    // The owner started it and is an owner: one mail.
    expect(recipients(mails)).toEqual([t.owner.email, t.admin.email].sort());
    expect(mails[0]!.subject).toBe('Backsignal stopped sending "july.csv"');
    expect(mails[0]!.text).toContain('0 events reached Meta');
    expect(mails[0]!.text).not.toContain('Session has expired');
    for (const m of mails) expectNoCustomerValue(m.text + m.html);
  });

  it('does not mail a member who was removed before the send ended', async () => {
    const t = await team();
    const accountId = await saveAccount(t.owner.agent, TOKEN);
    const id = await preparedFile(t.member.agent, 'aug.csv', csv(16, 18, [17]));
    const send = await t.member.agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect((await t.owner.agent.delete(`/api/workspace/members/${t.member.userId}`)).statusCode).toBe(200);
    expect(await work(send.json().runId)).toBe('completed_with_errors');
    const mails = await mailsDuring(() => mailSendNotices(ctx));
    expect(recipients(mails)).toEqual([t.owner.email, t.admin.email].sort());
  });
});

describe("a source's runs: mails to owners and admins, and the log", () => {
  const log = async (agent: Agent, query = '') =>
    ((await agent.get(`/api/workspace/activity?limit=200${query}`)).json() as { entries: ActivityEntry[] })
      .entries;
  const newSource = async (agent: Agent, accountId: string, path: string, name: string) => {
    const res = await agent.post(
      '/api/sources',
      sourceInput(accountId, { kind: 'csv_url', url: `${sheet.url}${path}`, auth: 'none' }, { name }),
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  it('logs each run with its outcome and the send it started, by the schedule or by who asked', async () => {
    const t = await team();
    const accountId = await saveAccount(t.owner.agent, TOKEN);
    files.set('/a.csv', csv(20, 23));
    const id = await newSource(t.admin.agent, accountId, '/a.csv', 'Shop leads');
    await runScheduled(t.owner.agent, runner, id, (d) => (clock = d)); // sends 4
    await runScheduled(t.owner.agent, runner, id, (d) => (clock = d)); // nothing new
    // "Run now" by the member; the file is gone.
    files.delete('/a.csv');
    expect((await t.member.agent.post(`/api/sources/${id}/run`)).statusCode).toBe(202);
    await tick(runner);

    const entries = (await log(t.owner.agent)).filter((e) =>
      [
        'source.run_started',
        'source.run_requested',
        'source.run_finished',
        'send.started',
        'send.finished',
      ].includes(e.kind),
    );
    const rows = entries.reverse().map((e) => [e.kind, e.actorLabel.split(' ')[0], e.details.status ?? null]);
    expect(rows).toEqual([
      ['source.run_started', 'schedule', null],
      ['send.started', 'schedule', null],
      ['send.finished', 'schedule', 'completed'],
      ['source.run_finished', 'schedule', 'sent'],
      ['source.run_started', 'schedule', null],
      // The rows are read again, the pixel's ledger leaves them all out.
      ['send.started', 'schedule', null],
      ['send.finished', 'schedule', 'completed'],
      ['source.run_finished', 'schedule', 'nothing_new'],
      ['source.run_requested', 'member', null],
      ['source.run_finished', 'member', 'failed'],
    ]);
    const sentRun = entries.find((e) => e.kind === 'source.run_finished' && e.details.status === 'sent')!;
    expect(sentRun).toMatchObject({
      subject: 'Shop leads',
      actorUserId: null,
      details: { rows: 4, sent: 4 },
    });
    expect(entries.find((e) => e.kind === 'send.started')!.details).toMatchObject({ source: 'Shop leads' });
    expect(entries.at(-1)!.actorUserId).toBe(t.member.userId);
    expectNoCustomerValue(JSON.stringify(entries));
  });

  it("mails a source's pause to owners and admins with the workspace's link, and logs the pause's cause", async () => {
    const t = await team();
    const accountId = await saveAccount(t.owner.agent, TOKEN);
    files.set('/b.csv', csv(24, 25, [], 'E-mail,Event,When,Source'));
    const id = await newSource(t.owner.agent, accountId, '/b.csv', 'Store visits');
    const mails = await mailsDuring(() => runScheduled(t.owner.agent, runner, id, (d) => (clock = d)));
    expect(recipients(mails)).toEqual([t.owner.email, t.admin.email].sort());
    expect(mails[0]!.text).toContain(`/w/${t.slug}/sources/${id}`);
    for (const m of mails) expectNoCustomerValue(m.text + m.html);
    const [paused] = await log(t.owner.agent, '&kind=source.auto_paused');
    expect(paused).toMatchObject({
      actorLabel: 'schedule',
      subject: 'Store visits',
      details: { reason: 'mapped columns are gone' },
    });
  });

  it('mails a refused token once to owners and admins, not as a failed send too', async () => {
    const t = await team();
    const accountId = await saveAccount(t.owner.agent, TOKEN);
    files.set('/c.csv', csv(26, 27));
    const id = await newSource(t.owner.agent, accountId, '/c.csv', 'Calls');
    graph.inject({ kind: 'graph', code: 190, subcode: 463, status: 401, message: 'Session has expired.' });
    const mails = await mailsDuring(() => runScheduled(t.owner.agent, runner, id, (d) => (clock = d)));
    expect(recipients(mails)).toEqual([t.owner.email, t.admin.email].sort());
    expect(mails[0]!.subject).toContain('reconnect "Main store"');
    expect(await mailsDuring(() => mailSendNotices(ctx))).toEqual([]);
    const [paused] = await log(t.owner.agent, '&kind=source.auto_paused');
    expect(paused).toMatchObject({
      subject: 'Calls',
      details: { reason: 'Meta refused the pixel account’s token' },
    });
  });
});
