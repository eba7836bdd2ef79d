import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { startFakeGraph, type FakeGraph } from '../../../../../e2e/fake-graph/fake-graph.ts';
import { appEngineRun } from './delivery.test-helpers.ts';

// GET /api/uploads/:id/suggested-account (docs/decisions/0099): the send step preselects the account last used
// successfully for a file like this one, never one whose last test or send failed, else none.

let ctx: TestContext;
let graph: FakeGraph;
const queue = { send: async () => null } as unknown as PgBoss;
const GOOD = 'EAAB-good-token-123456';
const OTHER_GOOD = 'EAAB-other-token-654321';

beforeAll(async () => {
  graph = await startFakeGraph({ tokens: [GOOD, OTHER_GOOD] });
  ctx = await createTestContext({ env: { META_GRAPH_URL: graph.url }, deps: { queue } });
});
afterAll(async () => {
  await ctx.close();
  await graph.close();
});

const when = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };

/** A prepared file; `shape` changes its header row (another export) by naming its first column. */
async function prepared(agent: Agent, tag: string, emailHeader = 'Email') {
  const lines = [`${emailHeader},Event,When,Source`];
  for (let i = 0; i < 3; i++) lines.push(`${tag}${i}@example.com,Lead,${when},physical_store`);
  const up = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile('leads.csv', lines.join('\r\n'), 'text/csv'),
  });
  const id = up.json().file.id as string;
  const mappings = { ...MAPPING, [emailHeader]: 'email' };
  if (emailHeader !== 'Email') delete (mappings as Record<string, string>).Email;
  await agent.patch(`/api/uploads/${id}/status`, { status: 'mapped', mappings, hardcodedValues: {} });
  await agent.get(`/api/uploads/${id}/validate`);
  await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
  expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
  return id;
}

const work = appEngineRun(() => ({ ctx, graphUrl: graph.url }));

async function accountWith(agent: Agent, name: string, token: string) {
  return (await agent.post('/api/meta/accounts', { name, pixelId: '123456789', accessToken: token })).json()
    .id as string;
}

async function sendWith(agent: Agent, id: string, accountId: string) {
  const { runId } = (await agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId })).json();
  return work(runId);
}

const suggested = async (agent: Agent, id: string) =>
  (await agent.get(`/api/uploads/${id}/suggested-account`)).json().accountId as string | null;

describe('the account the send step preselects', () => {
  it('is the last one used successfully for a file with the same columns, and none after a failure', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const shop = await accountWith(agent, 'Shop', GOOD);
    const crm = await accountWith(agent, 'CRM', OTHER_GOOD);
    const first = await prepared(agent, 'a');
    // Nothing sent yet: no preselection (the old screen picked the first saved account).
    expect(await suggested(agent, first)).toBeNull();
    expect(await sendWith(agent, first, crm)).toBe('completed');

    const second = await prepared(agent, 'b');
    expect(await suggested(agent, second)).toBe(crm);
    // Another export (other columns) has no history: none.
    const other = await prepared(agent, 'c', 'E-mail');
    expect(await suggested(agent, other)).toBeNull();

    // CRM's last test fails (its token was replaced by one Meta refuses): not preselected any more.
    await agent.patch(`/api/meta/accounts/${crm}`, { accessToken: 'EAAB-refused-token-000' });
    expect((await agent.post(`/api/meta/accounts/${crm}/test`, {})).json().ok).toBe(false);
    expect(await suggested(agent, second)).toBeNull();
    // A passing test after that makes it good again.
    await agent.patch(`/api/meta/accounts/${crm}`, { accessToken: OTHER_GOOD });
    expect((await agent.post(`/api/meta/accounts/${crm}/test`, {})).json().ok).toBe(true);
    expect(await suggested(agent, second)).toBe(crm);

    // A send with Shop completes: Shop is the last used now.
    expect(await sendWith(agent, second, shop)).toBe('completed');
    const third = await prepared(agent, 'd');
    expect(await suggested(agent, third)).toBe(shop);
    // Shop's next send stops on a refused token: never preselected after that, even once the token is replaced,
    // until a send or test with it succeeds. CRM, used successfully before for these columns, is.
    await agent.patch(`/api/meta/accounts/${shop}`, { accessToken: 'EAAB-refused-token-111' });
    expect(await sendWith(agent, third, shop)).toBe('stopped');
    const fourth = await prepared(agent, 'e');
    expect(await suggested(agent, fourth)).toBe(crm);
    await agent.patch(`/api/meta/accounts/${shop}`, { accessToken: GOOD });
    expect(await suggested(agent, fourth)).toBe(crm);
    await agent.delete(`/api/meta/accounts/${crm}`);
    expect(await suggested(agent, fourth)).toBeNull();
    expect((await agent.post(`/api/meta/accounts/${shop}/test`, {})).json().ok).toBe(true);
    expect(await suggested(agent, fourth)).toBe(shop);
  });

  it("answers 401 logged out, 404 for another user's file and 400 for a bad id", async () => {
    const a = await loggedInAgent(ctx.app, ctx.db);
    const b = await loggedInAgent(ctx.app, ctx.db);
    const id = await prepared(a.agent, 'g');
    expect((await new Agent(ctx.app).get(`/api/uploads/${id}/suggested-account`)).statusCode).toBe(401);
    expect((await b.agent.get(`/api/uploads/${id}/suggested-account`)).statusCode).toBe(404);
    expect((await a.agent.get('/api/uploads/nope/suggested-account')).statusCode).toBe(400);
    expect((await a.agent.get(`/api/uploads/${id}/suggested-account`)).json()).toEqual({ accountId: null });
  });
});
