import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { fakeServer } from '../../../test/fake-http.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import type { RunnerDeps } from './source-run.ts';
import {
  MAPPING,
  runScheduled,
  saveAccount,
  sourceInput,
  sourceRunner,
  TOKEN,
} from './sources.test-helpers.ts';

/** A scheduled run has nobody to ask about refund rows: it skips them and says how many (decision 0098). */
let ctx: TestContext;
let graph: FakeGraph;
let sheet: { url: string; close: () => Promise<void> };
let clock = new Date();
let runner: RunnerDeps;
const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
const CSV = [
  'Email,Event,When,Source,Value,Currency',
  `a@example.com,Purchase,${when},physical_store,30.00,USD`,
  `b@example.com,Purchase,${when},physical_store,-30.00,USD`,
  `c@example.com,Purchase,${when},physical_store,12,USD`,
].join('\r\n');

beforeAll(async () => {
  ctx = await createTestContext();
  graph = await startFakeGraph({ tokens: [TOKEN] });
  sheet = await fakeServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(CSV);
  });
  runner = sourceRunner(ctx, graph, () => clock);
});
afterAll(async () => {
  await sheet.close();
  await graph.close();
  await ctx.close();
});

describe('refund rows in a scheduled run', () => {
  it('are skipped, not sent, and the run says how many', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const accountId = await saveAccount(agent);
    const res = await agent.post(
      '/api/sources',
      sourceInput(
        accountId,
        { kind: 'csv_url', url: `${sheet.url}/orders.csv`, auth: 'none' },
        { mappings: { ...MAPPING, Value: 'value', Currency: 'currency' } },
      ),
    );
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    await runScheduled(agent, runner, id, (d) => (clock = d));
    const [run] = (await agent.get(`/api/sources/${id}/runs`)).json().runs;
    expect(run).toMatchObject({
      status: 'sent',
      sent: 2,
      message: '1 Purchase row with a negative value (refunds) skipped, not sent.',
    });
    expect(graph.requests.flatMap((r) => r.events)).toHaveLength(2);
    const summary = (await agent.get(`/api/uploads/${run.uploadId}/summary`)).json();
    expect(summary).toMatchObject({ totalSent: 2, refundRowsSkipped: 1 });
  });
});
