import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun, saveAccount, testPixelId } from './delivery.test-helpers.ts';

let ctx: TestContext;
let graph: FakeGraph;
const queued: { name: string; data: { runId: string } }[] = [];
const queue = {
  send: async (name: string, data: { runId: string }) => void queued.push({ name, data }),
} as unknown as PgBoss;

beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  graph = await startFakeGraph({ tokens: ['EAAB-good-token-123456'] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});
beforeEach(() => graph.reset());

const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
function csv(rows: number, poison: number[] = []) {
  const lines = ['Email,Event,When,Source'];
  for (let i = 0; i < rows; i++) {
    const row = i + 2;
    lines.push(
      `${poison.includes(row) ? '=cmd|evil' : ''}user${row}@example.com,${poison.includes(row) ? 'PoisonRow' : 'Lead'},${when},physical_store`,
    );
  }
  return lines.join('\r\n');
}
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };
/** Meta's answer to a token it no longer accepts. */
const EXPIRED = {
  kind: 'graph' as const,
  code: 190,
  subcode: 463,
  status: 401,
  message: 'Session has expired.',
};

async function prepared(agent: Agent, content: string) {
  const up = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile('leads.csv', content, 'text/csv'),
  });
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
  await agent.get(`/api/uploads/${id}/validate`);
  expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
  expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
  return id;
}

const account = saveAccount;

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }), { concurrency: 2 });

describe('send, summary, delivered count and failed-rows download', () => {
  it('sends a prepared file in the background and summarises it', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(agent, csv(250));
    const pixelId = testPixelId();
    const accountId = await account(agent, undefined, pixelId);
    expect((await agent.get(`/api/uploads/${id}/delivered?accountId=${accountId}`)).json()).toEqual({
      alreadyDelivered: 0,
      alreadyDeliveredTest: 0,
    });

    const res = await agent.post(`/api/uploads/${id}/send`, {
      selectedAccountId: accountId,
      testEventCode: ' TEST42 ',
    });
    expect(res.statusCode).toBe(202);
    const { runId } = res.json();
    expect(queued.at(-1)).toEqual({ name: 'send-run', data: { runId } });
    expect((await agent.get(`/api/uploads/${id}`)).json().status).toBe('submitted');

    const running = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(running).toMatchObject({
      status: 'running',
      totalBatches: 0,
      pixelAccount: { name: 'Main store', pixelId },
      testEventCode: 'TEST42',
    });
    // The prepared count is known before a single batch is cut: progress is honest from the first poll.
    expect(running.progress).toMatchObject({ totalEvents: 250, eventsSent: 0, eventsRemaining: 250 });

    expect(await work(runId)).toBe('completed');
    const done = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(done).toMatchObject({
      status: 'completed',
      totalBatches: 3,
      totalSent: 250,
      totalFailed: 0,
      progress: { totalEvents: 250, eventsSent: 250, eventsRemaining: 0, batchesRemaining: 0 },
    });
    expect(
      done.batches.map((b: { index: number; firstRow: number; lastRow: number; count: number }) => [
        b.index,
        b.firstRow,
        b.lastRow,
        b.count,
      ]),
    ).toEqual([
      [0, 2, 101, 100],
      [1, 102, 201, 100],
      [2, 202, 251, 50],
    ]);
    expect(graph.requests.every((r) => r.testEventCode === 'TEST42')).toBe(true);
    // Sent with a test event code: reported apart, and not skipped by a later live send.
    expect((await agent.get(`/api/uploads/${id}/delivered?accountId=${accountId}`)).json()).toEqual({
      alreadyDelivered: 0,
      alreadyDeliveredTest: 250,
    });

    // A second send of the same upload is refused: it is submitted now.
    const again = await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Cannot submit: data not in the right state');
  });

  it('isolates a bad row, reports it and offers its original CSV row with the reason', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(agent, csv(120, [50]));
    const accountId = await account(agent);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    expect(await work(runId)).toBe('completed_with_errors');
    const s = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(s).toMatchObject({ status: 'completed_with_errors', totalSent: 119, totalFailed: 1 });
    const failed = s.batches.filter((b: { status: string }) => b.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      firstRow: 50,
      lastRow: 50,
      count: 1,
      explanation: { metaTitle: 'Invalid parameter' },
    });
    expect(JSON.parse(failed[0].errorMessage).error.code).toBe(100);
    // The batch the bad row was isolated from says it no longer carries that row.
    const rest = s.batches.find(
      (b: { status: string; firstRow: number; lastRow: number }) =>
        b.status === 'sent' && b.firstRow < 50 && b.lastRow > 50,
    );
    expect(rest).toMatchObject({
      rowsNotInBatch: [50],
      rowsNotInBatchCount: 1,
      count: rest.lastRow - rest.firstRow,
    });

    const dl = await agent.get(`/api/uploads/${id}/batches/${failed[0].batchId}/download-original`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toBe(
      `attachment; filename="failed-rows-batch-${failed[0].index + 1}.csv"`,
    );
    const lines = dl.body.trim().split('\r\n');
    expect(lines[0]).toBe('"Email","Event","When","Source","reason"');
    expect(lines).toHaveLength(2);
    // Formula-leading cells are neutralised for spreadsheets.
    expect(lines[1]).toMatch(/^"'=cmd\|evil/);
    expect(lines[1]).toContain('Meta rejected these rows');

    // Sent batches are not offered for download.
    const sent = s.batches.find((b: { status: string }) => b.status === 'sent');
    const refused = await agent.get(`/api/uploads/${id}/batches/${sent.batchId}/download-original`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Only the rows of a failed batch can be downloaded.');
    expect(
      (await agent.get(`/api/uploads/${id}/batches/${crypto.randomUUID()}/download-original`)).statusCode,
    ).toBe(404);
  });

  it('keeps the polled summary small while sending: totals plus failed batches only', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(agent, csv(300, [50]));
    const accountId = await account(agent);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    let mid: {
      status: string;
      batchesListed: string;
      batches: { status: string; firstRow: number }[];
      totalBatches: number;
    } | null = null;
    expect(
      await work(runId, {
        concurrency: 1,
        onPoint: async (point, batch) => {
          if (point === 'before-send' && batch.idx === 2 && !mid)
            mid = (await agent.get(`/api/uploads/${id}/summary`)).json();
        },
      }),
    ).toBe('completed_with_errors');
    expect(mid).toMatchObject({ status: 'running', batchesListed: 'failed', totalBatches: 4 });
    expect(mid!.batches.map((b) => [b.status, b.firstRow])).toEqual([['failed', 50]]);
    const done = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(done).toMatchObject({
      status: 'completed_with_errors',
      batchesListed: 'all',
      totalBatches: 4,
      nextBatchOffset: null,
    });
    // Failed first, each with its number in file order.
    expect(done.batches.map((b: { status: string; index: number }) => [b.status, b.index])).toEqual([
      ['failed', 1],
      ['sent', 0],
      ['sent', 2],
      ['sent', 3],
    ]);
  });

  // 205 one-event batches through the real pipeline: past 30 s with the suite twice on a busy 2-core machine.
  it('pages the batch list of a finished run with more than 200 batches', { timeout: 120_000 }, async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(agent, csv(205, [150]));
    const accountId = await account(agent);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    expect(await work(runId, { batchSize: 1, concurrency: 4 })).toBe('completed_with_errors');
    const first = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(first).toMatchObject({ totalBatches: 205, nextBatchOffset: 200 });
    expect(first.batches).toHaveLength(200);
    expect(first.batches[0]).toMatchObject({ status: 'failed', firstRow: 150, index: 148 });
    const second = (await agent.get(`/api/uploads/${id}/summary?batchOffset=200`)).json();
    expect(second).toMatchObject({ nextBatchOffset: null });
    expect(second.batches).toHaveLength(5);
    const indexes = [...first.batches, ...second.batches]
      .map((b: { index: number }) => b.index)
      .sort((a: number, b: number) => a - b);
    expect(indexes).toEqual(Array.from({ length: 205 }, (_, i) => i));
  });

  it('stops a run whose file the pipeline refuses, and the summary says why in plain words', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(agent, csv(20));
    const accountId = await account(agent);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    // The mapping no longer matches the file's headers (as if edited under a running send).
    await ctx.db.query(`update uploads set mappings = $2 where id = $1`, [
      id,
      JSON.stringify({ Gone: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' }),
    ]);
    expect(await work(runId)).toBe('stopped');
    const s = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(s).toMatchObject({
      status: 'stopped',
      stopReason: 'internal',
      stopExplanation: { title: 'Backsignal could not finish sending' },
    });
    expect(s.stopExplanation.explanation).toMatch(/^The file could not be read for sending: /);
    expect(graph.requests).toHaveLength(0);
  });

  it('counts a run stopped after its file was read from the plan: repeats and delivered events are not "not sent"', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await account(agent);
    const lines = (users: number[]) =>
      [
        'Email,Event,When,Source',
        ...users.map((u) => `user${u}@example.com,Lead,${when},physical_store`),
      ].join('\r\n');
    const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
    // users 2–51 reach the pixel live first.
    const before = await prepared(agent, lines(range(2, 50)));
    const first = (await agent.post(`/api/uploads/${before}/send`, { selectedAccountId: accountId })).json();
    expect(await work(first.runId)).toBe('completed');

    // 320 rows: users 2–301, then users 100–119 again (left out as repeats). 50 are skipped, 250 to send.
    const id = await prepared(agent, lines([...range(2, 300), ...range(100, 20)]));
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    // Until the file is read, the prepared count (every row) is all that is known.
    expect((await agent.get(`/api/uploads/${id}/summary`)).json().progress).toMatchObject({
      totalEvents: 320,
      eventsSkipped: null,
    });
    graph.reset();
    // One batch at a time: the file is read to its end before the second batch goes out and is refused.
    const status = await work(runId, {
      concurrency: 1,
      onPoint: (point, batch) => {
        if (point === 'before-send' && batch.idx === 1) graph.inject(EXPIRED);
      },
    });
    expect(status).toBe('stopped');
    const s = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(s).toMatchObject({ status: 'stopped', stopReason: 'token', totalSent: 100, totalFailed: 100 });
    expect(s.progress).toMatchObject({
      totalEvents: 250,
      eventsSent: 100,
      eventsFailed: 100,
      eventsRemaining: 50,
      eventsSkipped: 50,
      batchesRemaining: 1,
    });
    // Sent + failed + not sent + skipped: the file's 300 distinct events.
    const p = s.progress;
    expect(p.eventsSent + p.eventsFailed + p.eventsRemaining + p.eventsSkipped).toBe(300);
  });

  it('does not count what a run stopped before its file was read to the end did not send', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(agent, csv(600));
    const accountId = await account(agent);
    const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
    graph.inject(EXPIRED);
    // One batch at a time: the first is refused while the engine holds only the file's first 500 events.
    expect(await work(runId, { concurrency: 1 })).toBe('stopped');
    const s = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(s).toMatchObject({ status: 'stopped', stopReason: 'token', totalSent: 0, totalFailed: 100 });
    // The 600 prepared rows may hold repeats: no total or remainder is made up. Nothing was skipped: this pixel
    // never received a live event of this user before the run.
    expect(s.progress).toMatchObject({
      totalEvents: null,
      eventsSent: 0,
      eventsFailed: 100,
      eventsRemaining: null,
      eventsSkipped: 0,
    });
  });

  it('refuses files that are not prepared, accounts of others, bad bodies, strangers and missing XSRF', async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(a.agent, csv(3));
    const accountA = await account(a.agent);
    const accountB = await account(b.agent);

    const missing = await a.agent.post(`/api/uploads/${id}/send`, { testEventCode: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please select or save an account first');
    const foreign = await a.agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountB });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Please select or save an account first');
    expect((await b.agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountB })).statusCode).toBe(
      404,
    );
    expect((await b.agent.get(`/api/uploads/${id}/summary`)).statusCode).toBe(404);
    expect(
      (await a.agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountA }, { xsrf: false }))
        .statusCode,
    ).toBe(403);
    expect(
      (await new Agent(ctx.app).post(`/api/uploads/${id}/send`, { selectedAccountId: accountA })).statusCode,
    ).toBe(401);
    expect((await new Agent(ctx.app).get(`/api/uploads/${id}/summary`)).statusCode).toBe(401);
    // Not sent yet: no summary.
    expect((await a.agent.get(`/api/uploads/${id}/summary`)).statusCode).toBe(409);

    const up = await a.agent.request({
      method: 'POST',
      url: '/api/upload',
      ...multipartFile('raw.csv', csv(2), 'text/csv'),
    });
    const raw = await a.agent.post(`/api/uploads/${up.json().file.id}/send`, { selectedAccountId: accountA });
    expect(raw.statusCode).toBe(409);
    expect(raw.json().message).toBe('Cannot submit: data not in the right state');
  });
});
