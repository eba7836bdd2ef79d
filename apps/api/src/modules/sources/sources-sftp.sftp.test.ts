import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { startSftpServer, type SftpServer } from '../../../test/sftp-server.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import type { RunnerDeps } from './source-run.ts';
import {
  leadsCsv,
  runScheduled,
  saveAccount,
  sentIds,
  sourceInput,
  sourceRunner,
  TOKEN,
} from './sources.test-helpers.ts';

// SFTP sources (issue 23) against Debian's sshd on a loopback port, with a throwaway chrooted user.
let ctx: TestContext;
let graph: FakeGraph;
let sftp: SftpServer;
let clock = new Date();
let runner: RunnerDeps;
const setClock = (d: Date) => (clock = d);
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);

beforeAll(async () => {
  ctx = await createTestContext();
  graph = await startFakeGraph({ tokens: [TOKEN] });
  sftp = await startSftpServer();
  runner = sourceRunner(ctx, graph, () => clock);
});
afterAll(async () => {
  await sftp?.close();
  await graph?.close();
  await ctx?.close();
});
beforeEach(() => graph.reset());
afterEach(async () => {
  await ctx.db.query(`update sources set status = 'paused', run_requested_at = null`);
});

const password = (extra: object = {}) => ({
  kind: 'sftp',
  host: sftp.host,
  port: sftp.port,
  username: sftp.user,
  auth: 'password',
  secret: sftp.password,
  folder: sftp.folder,
  pattern: '*.csv',
  afterProcessing: 'remember',
  ...extra,
});
const key = (extra: object = {}) =>
  password({ auth: 'key', secret: sftp.privateKey, passphrase: sftp.passphrase, ...extra });

const runsOf = async (agent: Agent, id: string) =>
  (await agent.get(`/api/sources/${id}/runs`)).json().runs as {
    id: string;
    status: string;
    sent: number;
    itemName: string | null;
    message: string | null;
  }[];
const testFetch = async (agent: Agent, connection: object, sourceId?: string) =>
  (await agent.post('/api/sources/test-fetch', { connection, sourceId })).json();

describe('SFTP sources API guards', () => {
  it('answers 401 and 403 without a verified session, and 400 for a bad connection', async () => {
    expect(
      (await new Agent(ctx.app).post('/api/sources/test-fetch', { connection: password() })).statusCode,
    ).toBe(401);
    const { agent: unverified } = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.post('/api/sources/test-fetch', { connection: password() })).statusCode).toBe(
      403,
    );

    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const post = (c: object) => agent.post('/api/sources', sourceInput(accountId, c));
    expect((await post(password({ host: '' }))).statusCode).toBe(400);
    expect((await post(password({ port: 70000 }))).statusCode).toBe(400);
    expect((await post(password({ pattern: '' }))).statusCode).toBe(400);
    expect((await post(password({ host: 'sftp.example.com/exports' }))).json().message).toBe(
      'Enter the server name without spaces or slashes.',
    );
    const noSecret = await post(password({ secret: undefined }));
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json().message).toBe('Enter the password or private key.');

    // The stored password stays only with the same server, port, user and auth.
    const id = (await post(password())).json().id as string;
    const again =
      'Enter the password or private key again: the stored one is kept only for the same server, port and user.';
    for (const other of [{ host: 'localhost' }, { port: 2222 }, { username: 'root' }, { auth: 'key' }]) {
      const c = password({ secret: undefined, ...other });
      const edit = await agent.patch(`/api/sources/${id}`, sourceInput(accountId, c));
      expect(edit.json().message).toBe(again);
      expect((await testFetch(agent, c, id)).message).toBe(again);
    }
    const moved = password({ secret: undefined, folder: `${sftp.folder}/elsewhere` });
    expect((await agent.patch(`/api/sources/${id}`, sourceInput(accountId, moved))).statusCode).toBe(200);
  });
});

describe('SFTP test fetch and runs', () => {
  it('with a password: shows the file and host key, sends each matching file once, a new file alone', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    sftp.put('pw/leads-1.csv', leadsCsv(1, 3), ago(30));
    sftp.put('pw/leads-2.csv', leadsCsv(4, 5), ago(20));
    sftp.put('pw/notes.txt', 'not a csv', ago(25));
    const conn = password({ folder: '/drop/pw' });

    const test = await testFetch(agent, conn);
    expect(test).toMatchObject({
      ok: true,
      rowCount: 3,
      item: { name: '/drop/pw/leads-1.csv', waiting: 2 },
    });
    expect(test.hostKey).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);

    const res = await agent.post('/api/sources', sourceInput(accountId, { ...conn, hostKey: test.hostKey }));
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    const detail = await agent.get(`/api/sources/${id}`);
    expect(detail.json().connection).toEqual({
      kind: 'sftp',
      host: sftp.host,
      port: sftp.port,
      username: sftp.user,
      auth: 'password',
      folder: '/drop/pw',
      pattern: '*.csv',
      afterProcessing: 'remember',
      hostKey: test.hostKey,
      hasSecret: true,
    });
    expect(detail.body).not.toContain(sftp.password);
    const raw = await ctx.db.query<{ c: Uint8Array }>(
      'select secret_ciphertext as c from sources where workspace_id = $1',
      [userId],
    );
    expect(Buffer.from(raw.rows[0]!.c).toString('latin1')).not.toContain(sftp.password);

    const first = await runScheduled(agent, runner, id, setClock);
    expect(first.map((r) => r.status)).toEqual(['sent', 'sent']);
    const byId = new Map((await runsOf(agent, id)).map((r) => [r.id, [r.itemName, r.sent]]));
    expect(first.map((r) => byId.get(r.runId))).toEqual([
      ['/drop/pw/leads-1.csv', 3],
      ['/drop/pw/leads-2.csv', 2],
    ]);
    expect(sentIds(graph)).toHaveLength(5);
    // The files stay where they are, remembered.
    expect(sftp.exists('pw/leads-1.csv')).toBe(true);

    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['nothing_new']);
    expect((await runsOf(agent, id))[0]!.message).toBe(
      'Every file matching *.csv in /drop/pw was already sent.',
    );

    sftp.put('pw/leads-3.csv', leadsCsv(6, 6), ago(1));
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['sent']);
    expect((await runsOf(agent, id))[0]).toMatchObject({ itemName: '/drop/pw/leads-3.csv', sent: 1 });
    expect(sentIds(graph)).toHaveLength(6);
  });

  it('with a private key and passphrase: moves each sent file into processed/ and trusts the first host key', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    sftp.put('key/a.csv', leadsCsv(10, 12), ago(10));
    sftp.put('key/b.CSV', leadsCsv(13, 13), ago(5));
    const conn = key({ folder: '/drop/key', afterProcessing: 'move' });
    expect(await testFetch(agent, conn)).toMatchObject({ ok: true, item: { name: '/drop/key/a.csv' } });

    // Saved without a host key (as through the API): the first run trusts the one it sees.
    const id = (await agent.post('/api/sources', sourceInput(accountId, conn))).json().id as string;
    expect((await agent.get(`/api/sources/${id}`)).json().connection.hostKey).toBeNull();
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['sent', 'sent']);
    expect((await agent.get(`/api/sources/${id}`)).json().connection.hostKey).toMatch(/^SHA256:/);
    expect(sftp.exists('key/a.csv')).toBe(false);
    expect(sftp.exists('key/processed/a.csv')).toBe(true);
    expect(sftp.exists('key/processed/b.CSV')).toBe(true);
    expect(sentIds(graph)).toHaveLength(4);
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['nothing_new']);
    // The folder is empty now: "Test fetch" of the saved source shows the newest processed file's columns.
    expect(await testFetch(agent, { ...conn, secret: undefined }, id)).toMatchObject({
      ok: true,
      item: { name: '/drop/key/processed/b.CSV', waiting: 0 },
    });

    // A wrong passphrase is a reason, not a crash.
    expect(await testFetch(agent, key({ folder: '/drop/key', passphrase: 'wrong' }))).toEqual({
      ok: false,
      reason:
        'The private key could not be read: check that it is complete and that the passphrase is right.',
    });
  });

  it('skips a file it cannot read after a few runs, so the files after it are still sent', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    sftp.put('locked/1-locked.csv', leadsCsv(70, 71), ago(30));
    sftp.lock('locked/1-locked.csv');
    sftp.put('locked/2-good.csv', leadsCsv(72, 73), ago(20));
    const res = await agent.post(
      '/api/sources',
      sourceInput(accountId, password({ folder: '/drop/locked' })),
    );
    const id = res.json().id as string;
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await runScheduled(agent, runner, id, setClock)).map((r) => r.status));
    expect(statuses).toEqual([['failed'], ['failed'], ['failed', 'sent']]);
    const runs = await runsOf(agent, id);
    const locked = runs.filter((r) => r.itemName === '/drop/locked/1-locked.csv').map((r) => r.message);
    expect(locked.at(-1)).toMatch(/ The next run tries this file again\.$/);
    expect(locked[0]).toMatch(
      / It could not be read in 3 runs and was skipped; it will not be read again\.$/,
    );
    expect(sentIds(graph)).toHaveLength(2);
  });

  it('gives the reason for a wrong password, a missing folder and no matching file', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    expect(await testFetch(agent, password({ secret: 'wrong-password' }))).toEqual({
      ok: false,
      reason: `The server refused the user name or password for user "${sftp.user}".`,
    });
    expect(await testFetch(agent, password({ folder: '/drop/missing' }))).toMatchObject({
      ok: false,
      reason: 'The folder /drop/missing does not exist on the server.',
    });
    sftp.put('empty/readme.txt', 'x');
    expect(await testFetch(agent, password({ folder: '/drop/empty' }))).toMatchObject({
      ok: false,
      reason: 'No file in /drop/empty matches *.csv.',
    });
    // A relative folder is inside the user's home folder (here the chroot's /).
    expect(await testFetch(agent, password({ folder: 'drop/empty/' }))).toMatchObject({
      ok: false,
      reason: 'No file in drop/empty matches *.csv.',
    });

    // A run with a wrong password fails with the same reason and keeps the schedule.
    const accountId = await saveAccount(agent);
    const id = (
      await agent.post('/api/sources', sourceInput(accountId, password({ secret: 'wrong-password' })))
    ).json().id as string;
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['failed']);
    expect((await runsOf(agent, id))[0]!.message).toBe(
      `The server refused the user name or password for user "${sftp.user}".`,
    );
    expect((await agent.get(`/api/sources/${id}`)).json().status).toBe('active');
  });

  it('refuses a changed host key: the run pauses the source and mails the owner until the new key is trusted', async () => {
    const { agent, email } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    sftp.put('hk/one.csv', leadsCsv(20, 21), ago(10));
    const conn = password({ folder: '/drop/hk' });
    const before = (await testFetch(agent, conn)).hostKey as string;
    const id = (await agent.post('/api/sources', sourceInput(accountId, { ...conn, hostKey: before }))).json()
      .id as string;

    await sftp.newHostKey();
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['paused']);
    expect(sentIds(graph)).toHaveLength(0);
    const detail = (await agent.get(`/api/sources/${id}`)).json();
    expect(detail.status).toBe('paused');
    expect(detail.pauseReason).toContain(`Backsignal trusted ${before}, the server now shows SHA256:`);
    expect(ctx.mailer.last(email)!.subject).toBe(
      'Backsignal paused your source "Leads drop": the SFTP server’s key changed',
    );
    expect(ctx.mailer.last(email)!.text).toContain('trust the new key');

    // Test fetch of the saved source says the same, with the new key to trust.
    const check = await testFetch(agent, { ...conn, secret: undefined, hostKey: before }, id);
    expect(check.ok).toBe(false);
    expect(check.reason).toContain("The SFTP server's host key changed");
    expect(check.hostKey).toMatch(/^SHA256:/);
    expect(check.hostKey).not.toBe(before);
    // The owner trusts the new key (edit), resumes, and the file goes out.
    const edit = await agent.patch(
      `/api/sources/${id}`,
      sourceInput(accountId, { ...conn, secret: undefined, hostKey: check.hostKey }),
    );
    expect(edit.statusCode).toBe(200);
    expect((await agent.post(`/api/sources/${id}/resume`)).statusCode).toBe(200);
    expect((await runScheduled(agent, runner, id, setClock)).map((r) => r.status)).toEqual(['sent']);
    expect(sentIds(graph)).toHaveLength(2);
  });
});
