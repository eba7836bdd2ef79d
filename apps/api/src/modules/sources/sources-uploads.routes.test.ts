import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { fakeServer } from '../../../test/fake-http.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import type { RunnerDeps } from './source-run.ts';
import {
  leadsCsv as csv,
  runScheduled,
  saveAccount,
  sentIds,
  sourceInput,
  sourceRunner,
  TOKEN,
} from './sources.test-helpers.ts';

// Issue 29: the threshold weighs new rows, runs that send nothing keep no upload, a source's uploads are its own
// group (and can go with it), Meta's errors and the pause mail in plain words.
let ctx: TestContext;
let graph: FakeGraph;
let sheet: { url: string; close: () => Promise<void> };
let clock = new Date();
const files = new Map<string, string>();
let runner: RunnerDeps;
const setClock = (d: Date) => (clock = d);

beforeAll(async () => {
  ctx = await createTestContext();
  graph = await startFakeGraph({ tokens: [TOKEN] });
  sheet = await fakeServer((req, res) => {
    const body = files.get(req.url.split('?')[0]!);
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
afterEach(async () => {
  await ctx.db.query(`update sources set status = 'paused', run_requested_at = null`);
});

async function newSource(agent: Agent, accountId: string, path: string, extra: object = {}) {
  const res = await agent.post(
    '/api/sources',
    sourceInput(
      accountId,
      { kind: 'csv_url', url: `${sheet.url}${path}`, auth: 'none' },
      { name: 'Shop orders', ...extra },
    ),
  );
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}
const runs = async (agent: Agent, id: string) => (await agent.get(`/api/sources/${id}/runs`)).json().runs;
const broken = (n: number) => `buyer${n}-at-example,Lead,someday,physical_store`;

describe('the error threshold weighs new rows', () => {
  it('pauses when the rows a sheet grew by all fail, though they are few of the whole file', async () => {
    const { agent, email } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/grown.csv', csv(2, 21));
    const id = await newSource(agent, accountId, '/grown.csv');
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'sent' }),
    ]);
    expect(sentIds(graph)).toHaveLength(20);
    graph.reset();

    // The export broke: two new rows, both unreadable. 2 of 22 rows is under 20%, but 2 of 2 new rows is all.
    files.set('/grown.csv', [csv(2, 21), broken(1), broken(2)].join('\r\n'));
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'paused' }),
    ]);
    expect(sentIds(graph)).toHaveLength(0);
    const detail = (await agent.get(`/api/sources/${id}`)).json();
    expect(detail.status).toBe('paused');
    expect(detail.pauseReason).toBe(
      '2 of 2 new rows (100%) have errors, more than the 20% this source allows.',
    );
    const [run] = await runs(agent, id);
    expect(run).toMatchObject({ status: 'paused', rowsRead: 22, rowsSkipped: 2 });
    expect(run.skippedRows.map((r: { rowNumber: number }) => r.rowNumber)).toEqual([22, 23]);

    // The mail names the cause and what to do, not "the columns probably changed".
    const mail = ctx.mailer.last(email)!;
    expect(mail.subject).toBe('Backsignal paused your source "Shop orders": too many rows have errors');
    expect(mail.text).toContain('2 of 2 new rows (100%) have errors');
    expect(mail.text).toContain('Correct them in the file');
    expect(mail.text).not.toContain('columns probably changed');

    // Fixed in the export: the two rows go out.
    files.set('/grown.csv', csv(2, 23));
    expect((await agent.post(`/api/sources/${id}/resume`)).statusCode).toBe(200);
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'sent' }),
    ]);
    expect(sentIds(graph)).toHaveLength(2);
  });

  it('does not count again the rows with errors an earlier run let through', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/steady.csv', [csv(2, 10), broken(1)].join('\r\n'));
    const id = await newSource(agent, accountId, '/steady.csv');
    // First run: 1 of 10 rows (10%), under the threshold: 9 sent, the bad one skipped.
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'sent' }),
    ]);
    // Unchanged: the bad row is not new, nothing is: the source stays active.
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'nothing_new' }),
    ]);
    // One good and one bad new row: 1 of 2 new rows is over 20%.
    files.set('/steady.csv', [csv(2, 11), broken(1), broken(2)].join('\r\n'));
    expect(await runScheduled(agent, runner, id, setClock)).toEqual([
      expect.objectContaining({ status: 'paused' }),
    ]);
    expect((await agent.get(`/api/sources/${id}`)).json().pauseReason).toBe(
      '1 of 2 new rows (50%) have errors, more than the 20% this source allows.',
    );
  });
});

describe('runs that send nothing keep no upload', () => {
  it('drops the upload of a run with nothing new or one that paused, and keeps the run', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/quiet.csv', [csv(2, 10), broken(1)].join('\r\n'));
    const id = await newSource(agent, accountId, '/quiet.csv');
    await runScheduled(agent, runner, id, setClock);
    // Nothing new, though the file has a row with errors (that row was the reason it stayed before).
    await runScheduled(agent, runner, id, setClock);
    // Columns gone: paused, nothing sent.
    files.set('/quiet.csv', csv(2, 12, 'Mail,Event,When,Source'));
    await runScheduled(agent, runner, id, setClock);

    const list = await runs(agent, id);
    expect(list.map((r: { status: string }) => r.status)).toEqual(['paused', 'nothing_new', 'sent']);
    expect(list[0]).toMatchObject({ uploadId: null, rowsRead: 11 });
    expect(list[1]).toMatchObject({ uploadId: null, rowsRead: 10, rowsSkipped: 1, alreadyDelivered: 9 });
    expect(list[1].skippedRows).toHaveLength(1);
    expect(list[2].uploadId).toEqual(expect.any(String));
    const uploads = (await agent.get(`/api/sources/${id}/uploads`)).json();
    expect(uploads.total).toBe(1);
    expect(uploads.uploads.map((u: { id: string }) => u.id)).toEqual([list[2].uploadId]);
    expect((await agent.get('/api/sources')).json().sources[0].uploadCount).toBe(1);
  });
});

describe("a source's uploads", () => {
  it('are listed under the source, not among the files uploaded by hand', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const manual = await agent.request({
      method: 'POST',
      url: '/api/upload',
      ...multipartFile('by-hand.csv', csv(2, 3)),
    });
    expect(manual.statusCode).toBe(201);
    files.set('/mine.csv', csv(2, 4));
    const id = await newSource(agent, accountId, '/mine.csv');
    await runScheduled(agent, runner, id, setClock);
    files.set('/mine.csv', csv(2, 6));
    await runScheduled(agent, runner, id, setClock);

    const dashboard = (await agent.get('/api/uploads')).json();
    expect(dashboard.total).toBe(1);
    expect(dashboard.uploads.map((u: { fileName: string }) => u.fileName)).toEqual(['by-hand.csv']);
    const group = (await agent.get(`/api/sources/${id}/uploads?limit=1`)).json();
    expect(group.total).toBe(2);
    expect(group.uploads).toHaveLength(1);
    expect(group.uploads[0]).toMatchObject({
      status: 'submitted',
      rowCount: 5,
      delivery: { status: 'completed', sent: 2, failed: 0 },
    });
    expect(group.uploads[0].fileName).toMatch(/^Shop orders /);
  });

  it('answers 401, 403, 400 and 404 as the other source endpoints', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const id = await newSource(agent, accountId, '/none.csv');
    expect((await new Agent(ctx.app).get(`/api/sources/${id}/uploads`)).statusCode).toBe(401);
    expect((await new Agent(ctx.app).delete(`/api/sources/${id}?deleteUploads=true`)).statusCode).toBe(401);
    const { agent: unverified } = await loggedInAgent(ctx.app, ctx.db, { verified: false });
    expect((await unverified.get(`/api/sources/${id}/uploads`)).statusCode).toBe(403);
    expect((await agent.get(`/api/sources/${id}/uploads?limit=0`)).statusCode).toBe(400);
    expect((await agent.delete(`/api/sources/${id}?deleteUploads=yes`)).statusCode).toBe(400);
    const { agent: other } = await loggedInAgent(ctx.app, ctx.db);
    expect((await other.get(`/api/sources/${id}/uploads`)).statusCode).toBe(404);
    expect((await other.delete(`/api/sources/${id}?deleteUploads=true`)).statusCode).toBe(404);
    expect((await agent.get(`/api/sources/${id}`)).statusCode).toBe(200);
  });

  it('go with the source only when asked; otherwise they join the files uploaded by hand', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    // Rows of their own: both run in one tick, and a row the other sent first would leave one with nothing new.
    files.set('/keep.csv', csv(2, 4));
    files.set('/drop.csv', csv(10, 13));
    const keep = await newSource(agent, accountId, '/keep.csv', { name: 'Keep' });
    const drop = await newSource(agent, accountId, '/drop.csv', { name: 'Drop' });
    for (const id of [keep, drop]) await runScheduled(agent, runner, id, setClock);
    expect((await agent.get('/api/uploads')).json().total).toBe(0);

    const kept = await agent.delete(`/api/sources/${keep}`);
    expect(kept.json()).toEqual({ message: 'Source deleted', uploadsDeleted: 0 });
    const dropped = await agent.delete(`/api/sources/${drop}?deleteUploads=true`);
    expect(dropped.json()).toEqual({ message: 'Source and 1 file deleted', uploadsDeleted: 1 });
    const left = (await agent.get('/api/uploads')).json();
    expect(left.uploads.map((u: { fileName: string }) => u.fileName)).toEqual([
      expect.stringMatching(/^Keep /),
    ]);
  });
});

describe("Meta's errors in the run history", () => {
  it('says in plain words that Meta refused the token, never its JSON', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent, 'EAAB-expired-token-999');
    files.set('/expired.csv', csv(2, 3));
    const id = await newSource(agent, accountId, '/expired.csv');
    await runScheduled(agent, runner, id, setClock);
    const [run] = await runs(agent, id);
    expect(run.status).toBe('paused');
    expect(run.message).toMatch(/^Access token expired or invalid\. /);
    expect(run.message).toContain('resume the source');
    expect(run.message).not.toMatch(/[{}]|"error"|fbtrace/);
  });

  it('shows a raw Graph answer stored by an older run in plain words', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    files.set('/old.csv', csv(2, 3));
    const id = await newSource(agent, accountId, '/old.csv');
    await runScheduled(agent, runner, id, setClock);
    const raw = JSON.stringify({
      error: {
        message: 'Unsupported post request.',
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
      },
    });
    await ctx.db.query('update source_runs set message = $2 where source_id = $1', [id, raw]);
    const [run] = await runs(agent, id);
    expect(run.message).toContain('Meta said: "Unsupported post request."');
    expect(run.message).not.toContain('{');
  });
});
