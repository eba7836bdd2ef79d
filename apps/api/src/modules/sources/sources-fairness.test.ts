import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { fakeServer } from '../../../test/fake-http.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { tick, type ClaimedRun } from './scheduler.ts';
import { MAX_SOURCES_PER_WORKSPACE } from './sources.service.ts';
import { RUN_NOW_PER_MINUTE } from './sources.routes.ts';
import { leadsCsv, saveAccount, sourceInput, sourceRunner, TOKEN } from './sources.test-helpers.ts';

/**
 * Issue 30: one account's hanging sources must not hold back another account's schedule. A sheet server drips:
 * account A's files never finish until the test lets them; account B's file answers at once.
 */
let ctx: TestContext;
let graph: FakeGraph;
let sheet: Awaited<ReturnType<typeof fakeServer>>;
const held: (() => void)[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  graph = await startFakeGraph({ tokens: [TOKEN] });
  sheet = await fakeServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    if (req.url.startsWith('/drip')) {
      res.write('Email,Event,When,Source\r\n');
      await new Promise<void>((release) => held.push(release));
    }
    res.end(
      leadsCsv(1, 3)
        .split('\r\n')
        .slice(req.url.startsWith('/drip') ? 1 : 0)
        .join('\r\n'),
    );
  });
});
afterAll(async () => {
  held.forEach((release) => release());
  await sheet.close();
  await graph.close();
  await ctx.close();
});

const due = async (id: string, at: Date) =>
  ctx.db.query('update sources set next_run_at = $2 where id = $1', [id, at]);

it("runs another account's due source while one account's sources hang, one hanging run per account", async () => {
  const a = await loggedInAgent(ctx.app, ctx.db);
  const b = await loggedInAgent(ctx.app, ctx.db);
  const aAccount = await saveAccount(a.agent);
  const hanging: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await a.agent.post(
      '/api/sources',
      sourceInput(aAccount, { kind: 'csv_url', url: `${sheet.url}/drip/${i}.csv`, auth: 'none' }),
    );
    hanging.push(res.json().id);
  }
  const quick = (
    await b.agent.post(
      '/api/sources',
      sourceInput(await saveAccount(b.agent), { kind: 'csv_url', url: `${sheet.url}/b.csv`, auth: 'none' }),
    )
  ).json().id as string;
  const now = new Date();
  // A's three were due first; B's comes after them in the queue.
  for (const [i, id] of hanging.entries()) await due(id, new Date(now.getTime() - 60_000 + i));
  await due(quick, new Date(now.getTime() - 1000));

  const started: ClaimedRun[] = [];
  const running = async (userId: string) =>
    (
      await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from source_runs where workspace_id = $1 and status = 'running'`,
        [userId],
      )
    ).rows[0]!.n;
  let mostOfA = 0;
  const pass = tick(
    sourceRunner(ctx, graph, () => now),
    {
      concurrency: 2,
      onStart: (c) => {
        started.push(c);
        void running(a.userId).then((n) => (mostOfA = Math.max(mostOfA, n)));
      },
    },
  );
  // B's run starts and finishes while A's first file is still dripping: it did not wait for A's timeouts.
  await vi.waitFor(
    async () => {
      const r = await ctx.db.query<{ status: string }>(
        'select status from source_runs where source_id = $1',
        [quick],
      );
      expect(r.rows[0]?.status).toBe('sent');
    },
    // Three pipeline passes and a send: seconds, or more on a busy machine; the wait is for the condition.
    { timeout: 90_000, interval: 100 },
  );
  expect(held.length).toBe(1);
  expect(started.map((c) => c.source.workspaceId)).toEqual([a.userId, b.userId]);
  // Now A's files finish, one at a time.
  while (started.length < 4 || held.length) {
    held.shift()?.();
    await new Promise((r) => setTimeout(r, 20));
  }
  await pass;
  expect(mostOfA).toBeLessThanOrEqual(1);
  expect(started.filter((c) => c.source.workspaceId === a.userId)).toHaveLength(3);
}, 180_000);

it(`keeps at most ${MAX_SOURCES_PER_WORKSPACE} sources per account, and "Run now" ${RUN_NOW_PER_MINUTE} times a minute per source`, async () => {
  const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
  const account = await saveAccount(agent);
  const input = sourceInput(account, { kind: 'csv_url', url: `${sheet.url}/b.csv`, auth: 'none' });
  const first = (await agent.post('/api/sources', input)).json().id as string;
  // The rest straight into the table: 99 more through the API would only slow the test.
  await ctx.db.query(
    `insert into sources (id, workspace_id, name, kind, connection, settings, schedule, time_zone)
     select gen_random_uuid(), $1, 'copy ' || n, 'csv_url', connection, settings, schedule, time_zone
       from sources, generate_series(2, $2) as n where id = $3`,
    [userId, MAX_SOURCES_PER_WORKSPACE, first],
  );
  const refused = await agent.post('/api/sources', input);
  expect(refused.statusCode).toBe(409);
  expect(refused.json().message).toBe(
    `You have ${MAX_SOURCES_PER_WORKSPACE} sources, the most one workspace can keep. Delete one you no longer use first.`,
  );

  const codes: number[] = [];
  for (let i = 0; i <= RUN_NOW_PER_MINUTE; i++)
    codes.push((await agent.post(`/api/sources/${first}/run`, {})).statusCode);
  expect(codes).toEqual([...Array(RUN_NOW_PER_MINUTE).fill(202), 429]);
  // Another source of the same account has its own count.
  const other = (await agent.get('/api/sources'))
    .json()
    .sources.find((s: { id: string }) => s.id !== first).id;
  expect((await agent.post(`/api/sources/${other}/run`, {})).statusCode).toBe(202);
});
