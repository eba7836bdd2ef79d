import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { fakeServer } from '../../../test/fake-http.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { claimDueRuns, INTERRUPTED, tick } from './scheduler.ts';
import { SEND_IN_PROGRESS, type RunnerDeps } from './source-run.ts';
import {
  leadsCsv,
  runScheduled,
  saveAccount,
  sentIds,
  sourceInput,
  sourceRunner,
  TOKEN,
} from './sources.test-helpers.ts';

let ctx: TestContext;
let graph: FakeGraph;
let sheet: {
  url: string;
  requests: { url: string; headers: Record<string, unknown> }[];
  close: () => Promise<void>;
};
let clock = new Date();
const files = new Map<string, string>();
let runner: RunnerDeps;

const csv = leadsCsv;
const setClock = (d: Date) => (clock = d);

beforeAll(async () => {
  // The app keeps the real clock (sessions); the scheduler runs on the test clock.
  ctx = await createTestContext();
  graph = await startFakeGraph({ tokens: [TOKEN] });
  sheet = await fakeServer((req, res) => {
    const path = req.url.split('?')[0]!;
    if (path.startsWith('/redirect/')) {
      const n = Number(path.split('/')[2]);
      res.writeHead(302, { location: n > 0 ? `/redirect/${n - 1}` : '/open.csv' });
      return void res.end();
    }
    if (path === '/private.csv' && req.headers['x-api-key'] !== 'sheet-secret-1') {
      res.writeHead(401);
      return void res.end('no');
    }
    const body = files.get(path);
    if (body === undefined) {
      res.writeHead(404, 'Not Found');
      return void res.end();
    }
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(body);
  });
  runner = sourceRunner(ctx, graph, () => clock);
});
afterAll(async () => {
  await sheet.close();
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());
// Each test's scheduler sees only its own sources.
afterEach(async () => {
  await ctx.db.query(`update sources set status = 'paused', run_requested_at = null`);
});

const input = (accountId: string, path: string, extra: object = {}) =>
  sourceInput(
    accountId,
    { kind: 'csv_url', url: `${sheet.url}${path}`, auth: 'none' },
    { name: 'Leads sheet', ...extra },
  );

async function newSource(agent: Agent, accountId: string, path: string, extra: object = {}) {
  const res = await agent.post('/api/sources', input(accountId, path, extra));
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

describe('sources API guards', () => {
  it('answers 401 without a session, 403 before verification, 400 for a bad body, 404 for another user', async () => {
    const anon = new Agent(ctx.app);
    expect((await anon.get('/api/sources')).statusCode).toBe(401);
    const { agent: unverified } = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.get('/api/sources')).statusCode).toBe(403);

    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const bad = await agent.post('/api/sources', {
      ...input(accountId, '/a.csv'),
      schedule: { every: 'day', time: '25:00' },
    });
    expect(bad.statusCode).toBe(400);
    const noUrl = await agent.post(
      '/api/sources',
      input(accountId, '', { connection: { kind: 'csv_url', url: 'ftp://x', auth: 'none' } }),
    );
    expect(noUrl.statusCode).toBe(400);
    const id = await newSource(agent, accountId, '/a.csv');

    const { agent: other } = await loggedInAgent(ctx.app, ctx.db);
    expect((await other.get(`/api/sources/${id}`)).statusCode).toBe(404);
    expect((await other.post(`/api/sources/${id}/run`)).statusCode).toBe(404);
    expect((await other.delete(`/api/sources/${id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/sources/${id}/runs`)).statusCode).toBe(404);
    expect((await other.post(`/api/sources/${id}/pause`)).statusCode).toBe(404);
    expect((await other.post(`/api/sources/${id}/resume`)).statusCode).toBe(404);
    const theirAccount = await saveAccount(other);
    expect((await other.patch(`/api/sources/${id}`, input(theirAccount, '/a.csv'))).statusCode).toBe(404);
    // Test fetch with someone else's source id: neither their stored secret nor a fetch.
    const peek = await other.post('/api/sources/test-fetch', {
      connection: input(theirAccount, '/a.csv').connection,
      sourceId: id,
    });
    expect(peek.statusCode).toBe(404);
    expect((await other.get('/api/sources')).json().sources).toEqual([]);
    // A pixel account of someone else cannot be bound.
    const theirs = await other.post('/api/sources', input(accountId, '/a.csv'));
    expect(theirs.statusCode).toBe(400);
  });

  it('stores the token sealed and never returns it', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await newSource(agent, accountId, '/private.csv', {
      connection: {
        kind: 'csv_url',
        url: `${sheet.url}/private.csv`,
        auth: 'header',
        headerName: 'X-Api-Key',
        secret: 'sheet-secret-1',
      },
    });
    const detail = await agent.get(`/api/sources/${id}`);
    expect(detail.json().connection).toEqual({
      kind: 'csv_url',
      url: `${sheet.url}/private.csv`,
      auth: 'header',
      headerName: 'X-Api-Key',
      username: null,
      hasSecret: true,
    });
    expect(detail.body).not.toContain('sheet-secret-1');
    expect((await agent.get('/api/sources')).body).not.toContain('sheet-secret-1');
    const raw = await ctx.db.query<{ c: Uint8Array }>(
      'select secret_ciphertext as c from sources where workspace_id = $1',
      [userId],
    );
    expect(Buffer.from(raw.rows[0]!.c).toString('latin1')).not.toContain('sheet-secret-1');

    // Test fetch of the saved source uses the stored secret.
    files.set('/private.csv', csv(2, 4));
    const test = await agent.post('/api/sources/test-fetch', {
      connection: {
        kind: 'csv_url',
        url: `${sheet.url}/private.csv`,
        auth: 'header',
        headerName: 'X-Api-Key',
      },
      sourceId: id,
    });
    expect(test.json()).toMatchObject({
      ok: true,
      headers: ['Email', 'Event', 'When', 'Source'],
      rowCount: 3,
    });
    // Editing without a secret keeps the stored one.
    const edit = await agent.patch(
      `/api/sources/${id}`,
      input(accountId, '/private.csv', {
        name: 'Renamed',
        connection: {
          kind: 'csv_url',
          url: `${sheet.url}/private.csv`,
          auth: 'header',
          headerName: 'X-Api-Key',
        },
      }),
    );
    expect(edit.statusCode).toBe(200);
    expect((await agent.get(`/api/sources/${id}`)).json()).toMatchObject({
      name: 'Renamed',
      connection: { hasSecret: true },
    });
  });
});

describe('stored secrets follow only the same file', () => {
  it('asks for the token again when an edit or a test fetch points the source at another origin or path', async () => {
    const elsewhere = await fakeServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(csv(2, 3));
    });
    try {
      const { agent } = await loggedInAgent(ctx.app, ctx.db);
      const accountId = await saveAccount(agent);
      const header = (url: string) => ({ kind: 'csv_url', url, auth: 'header', headerName: 'X-Api-Key' });
      const id = await newSource(agent, accountId, '/private.csv', {
        connection: { ...header(`${sheet.url}/private.csv`), secret: 'sheet-secret-1' },
      });
      const again =
        'Enter the token or password again: the stored one is kept only for the same URL and sign-in.';

      // "Test fetch" of the saved source against another server: the stored token is not sent there.
      const test = await agent.post('/api/sources/test-fetch', {
        connection: header(`${elsewhere.url}/steal.csv`),
        sourceId: id,
      });
      expect(test.statusCode).toBe(400);
      expect(test.json()).toMatchObject({ message: again, fields: { secret: again } });
      expect(elsewhere.requests).toHaveLength(0);

      // Saving another origin, or another header name, without typing the token again is refused.
      for (const c of [
        header(`${elsewhere.url}/steal.csv`),
        { ...header(`${sheet.url}/private.csv`), headerName: 'X-Log-Me' },
      ]) {
        const edit = await agent.patch(`/api/sources/${id}`, input(accountId, '', { connection: c }));
        expect(edit.statusCode).toBe(400);
        expect(edit.json().message).toBe(again);
      }
      // Another path on the same site is another file, perhaps someone else's (issue 30): neither a test fetch
      // nor an edit sends the stored token there. The same file with another query keeps it.
      const before = sheet.requests.length;
      const otherPath = await agent.post('/api/sources/test-fetch', {
        connection: header(`${sheet.url}/other.csv`),
        sourceId: id,
      });
      expect(otherPath.statusCode).toBe(400);
      expect(otherPath.json().message).toBe(again);
      expect(sheet.requests.length).toBe(before);
      const otherPathEdit = await agent.patch(
        `/api/sources/${id}`,
        input(accountId, '', { connection: header(`${sheet.url}/other.csv`) }),
      );
      expect(otherPathEdit.statusCode).toBe(400);
      const samePlace = await agent.patch(
        `/api/sources/${id}`,
        input(accountId, '', { connection: header(`${sheet.url}/private.csv?week=48`) }),
      );
      expect(samePlace.statusCode).toBe(200);
      // With the token typed again, another site is fine.
      const typed = await agent.patch(
        `/api/sources/${id}`,
        input(accountId, '', { connection: { ...header(`${elsewhere.url}/a.csv`), secret: 'new-token' } }),
      );
      expect(typed.statusCode).toBe(200);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('test fetch', () => {
  it('shows the first rows, or the exact reason the fetch failed', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    files.set('/open.csv', csv(2, 9));
    const conn = (path: string, extra: object = {}) => ({
      connection: { kind: 'csv_url', url: `${sheet.url}${path}`, auth: 'none', ...extra },
    });
    const ok = (await agent.post('/api/sources/test-fetch', conn('/open.csv'))).json();
    expect(ok).toMatchObject({ ok: true, rowCount: 8, headers: ['Email', 'Event', 'When', 'Source'] });
    expect(ok.rows).toHaveLength(5);
    expect(ok.rows[0][0]).toBe('user2@example.com');

    expect((await agent.post('/api/sources/test-fetch', conn('/missing.csv'))).json()).toEqual({
      ok: false,
      reason: 'The server answered HTTP 404 Not Found.',
    });
    expect((await agent.post('/api/sources/test-fetch', conn('/private.csv'))).json()).toEqual({
      ok: false,
      reason: 'The server refused access (HTTP 401): check the token or password.',
    });
    // Three redirects are followed, a fourth is not.
    expect((await agent.post('/api/sources/test-fetch', conn('/redirect/2'))).json().ok).toBe(true);
    expect((await agent.post('/api/sources/test-fetch', conn('/redirect/3'))).json()).toEqual({
      ok: false,
      reason: 'The URL redirected more than 3 times.',
    });
  });
});

describe('scheduled runs', () => {
  it('sends each row of a growing sheet exactly once over three scheduled runs', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/grow.csv', csv(2, 11));
    const id = await newSource(agent, accountId, '/grow.csv');

    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ sourceId: id, status: 'sent' }),
    ]);
    expect(sentIds(graph)).toHaveLength(10);

    files.set('/grow.csv', csv(2, 21));
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'sent' }),
    ]);
    expect(sentIds(graph)).toHaveLength(20);

    files.set('/grow.csv', csv(2, 26));
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'sent' }),
    ]);
    const ids = sentIds(graph);
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);

    // Nothing new: nothing goes out, and no upload is left behind.
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'nothing_new' }),
    ]);
    expect(sentIds(graph)).toHaveLength(25);

    const runs = (await agent.get(`/api/sources/${id}/runs`)).json().runs;
    expect(runs.map((r: { status: string; sent: number }) => [r.status, r.sent])).toEqual([
      ['nothing_new', 0],
      ['sent', 5],
      ['sent', 10],
      ['sent', 10],
    ]);
    expect(runs[1].alreadyDelivered).toBe(20);
    // Each run opens the same summary as a manual send.
    const summary = await agent.get(`/api/uploads/${runs[1].uploadId}/summary`);
    expect(summary.json()).toMatchObject({ status: 'completed', totalSent: 5 });
    const list = (await agent.get('/api/sources')).json().sources[0];
    expect(list).toMatchObject({
      id,
      status: 'active',
      scheduleText: 'Every hour at :00',
      lastRun: { status: 'nothing_new' },
    });
  });

  it('skips rows with errors and lists them, below the threshold', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const lines = csv(2, 11).split('\r\n');
    lines[3] = `not-an-email,Lead,not-a-date,physical_store`;
    files.set('/some-bad.csv', lines.join('\r\n'));
    const id = await newSource(agent, accountId, '/some-bad.csv');
    await runScheduled(agent, runner, id, setClock);
    const [run] = (await agent.get(`/api/sources/${id}/runs`)).json().runs;
    expect(run).toMatchObject({ status: 'sent', sent: 9, rowsSkipped: 1 });
    expect(run.skippedRows[0].rowNumber).toBe(4);
    expect(sentIds(graph)).toHaveLength(9);
  });

  it('sends nothing, pauses and mails the owner when a mapped column vanished or too many rows are bad', async () => {
    const { agent, email } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/broken.csv', csv(2, 5));
    const id = await newSource(agent, accountId, '/broken.csv');
    await runScheduled(agent, runner, id, setClock);
    expect(sentIds(graph)).toHaveLength(4);
    graph.reset();

    files.set('/broken.csv', csv(2, 9, 'E-mail,Event,When,Source'));
    await runScheduled(agent, runner, id, setClock);
    expect(sentIds(graph)).toHaveLength(0);
    const detail = (await agent.get(`/api/sources/${id}`)).json();
    expect(detail).toMatchObject({ status: 'paused', nextRunAt: null, lastRun: { status: 'paused' } });
    expect(detail.pauseReason).toContain('Email');
    const mail = ctx.mailer.last(email)!;
    expect(mail.subject).toBe('Backsignal paused your source "Leads sheet": mapped columns are gone');
    expect(mail.text).toContain('map the new column names');
    expect(mail.text).toContain('Email');

    // A paused source is not run by the schedule.
    clock = new Date(clock.getTime() + 2 * 3600_000);
    expect(await tick(runner)).toEqual([]);

    // Too many bad rows among the new ones: rows 2-4 broken, 6-9 new (5 was sent): 3 of 7 is over 20%.
    const lines = csv(2, 9).split('\r\n');
    for (const i of [1, 2, 3]) lines[i] = `nobody,Lead,yesterday,physical_store`;
    files.set('/broken.csv', lines.join('\r\n'));
    expect((await agent.post(`/api/sources/${id}/resume`)).statusCode).toBe(200);
    await runScheduled(agent, runner, id, setClock);
    expect(sentIds(graph)).toHaveLength(0);
    const paused = (await agent.get(`/api/sources/${id}`)).json();
    expect(paused.status).toBe('paused');
    expect(paused.pauseReason).toBe(
      '3 of 7 new rows (43%) have errors, more than the 20% this source allows.',
    );
  });

  it('pauses every source of an account whose token expired, with one mail', async () => {
    const { agent, email } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent, 'EAAB-expired-token-999');
    files.set('/t1.csv', csv(2, 3));
    const a = await newSource(agent, accountId, '/t1.csv');
    const b = await newSource(agent, accountId, '/t1.csv', {
      name: 'Second sheet',
      schedule: { every: 'day', time: '08:00' },
    });
    const before = ctx.mailer.sent.filter((m) => m.to === email).length;
    await runScheduled(agent, runner, a, setClock);
    for (const id of [a, b]) expect((await agent.get(`/api/sources/${id}`)).json().status).toBe('paused');
    const mails = ctx.mailer.sent.filter((m) => m.to === email).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Leads sheet, Second sheet');
    // "Run now" on the other source finds the account needing a new token: still no second mail.
    expect((await agent.post(`/api/sources/${b}/run`)).statusCode).toBe(202);
    await tick(runner);
    expect(ctx.mailer.sent.filter((m) => m.to === email).slice(before)).toHaveLength(1);
  });

  it('runs a source once however many workers claim at the same time, and "Run now" once', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await newSource(agent, accountId, '/none.csv');
    const next = new Date((await agent.get(`/api/sources/${id}`)).json().nextRunAt);
    const claims = await Promise.all([1, 2, 3].map(() => claimDueRuns(ctx.db, next, 10)));
    const mine = claims.flat().filter((c) => c.source.id === id);
    expect(mine).toHaveLength(1);
    // While it runs, "Run now" waits for it rather than starting a second run.
    await agent.post(`/api/sources/${id}/run`);
    expect((await claimDueRuns(ctx.db, next, 10)).filter((c) => c.source.id === id)).toHaveLength(0);
    // The next due time moved on by an hour.
    expect((await agent.get(`/api/sources/${id}`)).json().nextRunAt).toBe(
      new Date(next.getTime() + 3600_000).toISOString(),
    );
    await ctx.db.query(`update source_runs set status = 'failed' where source_id = $1`, [id]);
    const manual = (await claimDueRuns(ctx.db, next, 10)).filter((c) => c.source.id === id);
    expect(manual.map((c) => c.trigger)).toEqual(['manual']);
  });

  it('closes the run of a crashed worker and runs the source again', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/crash.csv', csv(2, 4));
    const id = await newSource(agent, accountId, '/crash.csv');
    const next = new Date((await agent.get(`/api/sources/${id}`)).json().nextRunAt);
    // A worker claims the run, then dies before doing anything: its heartbeat stops.
    const [claimed] = await claimDueRuns(ctx.db, next, 10);
    expect(claimed!.source.id).toBe(id);
    await ctx.db.query(`update source_runs set heartbeat_at = now() - interval '11 minutes' where id = $1`, [
      claimed!.runId,
    ]);
    expect((await agent.post(`/api/sources/${id}/run`)).statusCode).toBe(202);
    clock = new Date(next.getTime() + 60_000);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id, status: 'sent' })]);
    const runs = (await agent.get(`/api/sources/${id}/runs`)).json().runs;
    expect(runs.map((r: { status: string }) => r.status)).toEqual(['sent', 'failed']);
    expect(runs[1].message).toBe(INTERRUPTED);
    expect(sentIds(graph)).toHaveLength(3);
  });

  it("sends nothing while an earlier run's send is still going, then reads the file again", async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/busy.csv', csv(2, 4));
    const id = await newSource(agent, accountId, '/busy.csv');
    expect((await agent.post(`/api/sources/${id}/run`)).statusCode).toBe(202);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id, status: 'sent' })]);
    const sent = sentIds(graph).length;
    // That run's worker died mid-send; the send sweeper resumed its send, which is running elsewhere.
    await ctx.db.query(
      `update send_runs set status = 'running', finished_at = null
       where id = (select send_run_id from source_runs where source_id = $1)`,
      [id],
    );
    files.set('/busy.csv', csv(2, 6));
    expect((await agent.post(`/api/sources/${id}/run`)).statusCode).toBe(202);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id, status: 'nothing_new' })]);
    const runs = (await agent.get(`/api/sources/${id}/runs`)).json().runs as {
      status: string;
      message: string;
    }[];
    expect(runs.find((r) => r.status === 'nothing_new')?.message).toBe(SEND_IN_PROGRESS);
    expect(sentIds(graph)).toHaveLength(sent);
    await ctx.db.query(
      `update send_runs set status = 'completed', finished_at = now()
       where id in (select send_run_id from source_runs where source_id = $1)`,
      [id],
    );
    expect((await agent.post(`/api/sources/${id}/run`)).statusCode).toBe(202);
    expect(await tick(runner)).toEqual([expect.objectContaining({ sourceId: id, status: 'sent' })]);
    // Only the two new rows: the first three were already in the ledger.
    expect(sentIds(graph)).toHaveLength(sent + 2);
  });

  it('deletes a source with its runs', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await newSource(agent, accountId, '/a.csv');
    expect((await agent.delete(`/api/sources/${id}`)).statusCode).toBe(200);
    expect((await agent.get(`/api/sources/${id}`)).statusCode).toBe(404);
  });
});
