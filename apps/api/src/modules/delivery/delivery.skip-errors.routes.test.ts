import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun } from './delivery.test-helpers.ts';

/** A file sent without the rows with errors the user chose to skip (docs/decisions/0055). */
let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => {} } as unknown as PgBoss;

beforeAll(async () => {
  ctx = await createTestContext({ deps: { queue } });
  graph = await startFakeGraph({ tokens: ['EAAB-good-token-123456'] });
});
afterAll(async () => {
  await graph.close();
  await ctx.close();
});

const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();

describe('sending with the rows with errors skipped', () => {
  it('sends only the other rows, and the summary counts the skipped ones from the first poll', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const lines = ['Email,Event,When,Source'];
    for (let i = 2; i <= 11; i++)
      lines.push(`${i % 4 === 0 ? 'no-email' : `user${i}@example.com`},Lead,${when},physical_store`);
    const up = await agent.request({
      method: 'POST',
      url: '/api/upload',
      ...multipartFile('leads.csv', lines.join('\r\n')),
    });
    const id = up.json().file.id as string;
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' },
      hardcodedValues: {},
    });
    // Rows 4 and 8 have no usable identifier.
    expect((await agent.get(`/api/uploads/${id}/validate`)).json().rowsWithErrors).toBe(2);
    await agent.patch(`/api/uploads/${id}/status`, { status: 'validated', skipErrorRows: true });
    expect((await agent.get(`/api/uploads/${id}/prepare`)).json()).toMatchObject({
      totalCount: 8,
      skippedErrorRows: 2,
    });
    const accountId = (
      await agent.post('/api/meta/accounts', { pixelId: '123456789', accessToken: 'EAAB-good-token-123456' })
    ).json().id as string;
    const res = await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect(res.statusCode).toBe(202);

    const running = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(running.errorRowsSkipped).toBe(2);
    expect(running.progress).toMatchObject({ totalEvents: 8, eventsRemaining: 8 });

    const run = appEngineRun(() => ({ ctx, graphUrl: graph.url }), {
      backoff: { maxAttempts: 3, baseMs: 1, capMs: 5 },
    });
    const status = await run(res.json().runId as string);
    expect(status).toBe('completed');
    const done = (await agent.get(`/api/uploads/${id}/summary`)).json();
    expect(done).toMatchObject({ totalSent: 8, totalFailed: 0, errorRowsSkipped: 2 });
    // The skipped rows stay downloadable once the file is sent.
    const skipped = await agent.get(`/api/uploads/${id}/skipped-rows.csv`);
    expect(skipped.statusCode).toBe(200);
    expect(skipped.body.trim().split('\r\n')).toHaveLength(3);
  });
});
