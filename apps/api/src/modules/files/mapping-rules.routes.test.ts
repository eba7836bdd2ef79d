import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

/** Issue 29: Meta's per-source rules said once for the file, and the refund rows' per-file choice (decision 0098). */
let ctx: TestContext;
const NOW = new Date('2026-11-22T12:00:00Z');
beforeAll(async () => {
  ctx = await createTestContext({ deps: { now: () => NOW } });
});
afterAll(() => ctx.close());

const HEADER = 'Email,Event,When,Source,Value,Currency,UA';
const MAPPING = {
  Email: 'email',
  Event: 'event_name',
  When: 'event_time',
  Source: 'action_source',
  Value: 'value',
  Currency: 'currency',
  UA: 'client_user_agent',
};
const line = (i: number, source: string, value = '20.00') =>
  `p${i}@example.com,Purchase,2026-11-21T10:00:00Z,${source},${value},USD,Mozilla/5.0`;

async function mappedFile(
  agent: Agent,
  lines: string[],
  mapping: Record<string, string> = MAPPING,
  hardcodedValues: Record<string, string> = {},
) {
  const csv = [HEADER, ...lines].join('\r\n');
  const id = (
    await agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('orders.csv', csv) })
  ).json().file.id as string;
  const r = await agent.patch(`/api/uploads/${id}/status`, {
    status: 'mapped',
    mappings: mapping,
    hardcodedValues,
  });
  expect(r.statusCode).toBe(200);
  return id;
}
const choose = (agent: Agent, id: string, payload: unknown, opts: { xsrf?: boolean } = {}) =>
  agent.request({
    method: 'PUT',
    url: `/api/uploads/${id}/refund-rows`,
    payload: payload as object,
    ...opts,
  });

describe('website events without event_source_url', () => {
  it('every row website: one file-level message, not an error on each of the 22 rows', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(
      agent,
      Array.from({ length: 22 }, (_, i) => line(i, 'website')),
    );
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v.error).toBe(
      'Every row is a website event. Meta needs event_source_url for website events: map a column or set a fixed value for event_source_url.',
    );
    // Nothing to skip or continue with: the mapping is what needs fixing.
    expect(
      (await agent.patch(`/api/uploads/${id}/status`, { status: 'validated', skipErrorRows: true }))
        .statusCode,
    ).toBe(409);
  });

  it('a fixed website action_source: the same message', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const { Source: _source, ...rest } = MAPPING;
    const id = await mappedFile(agent, [line(1, ''), line(2, '')], rest, { action_source: 'website' });
    expect((await agent.get(`/api/uploads/${id}/validate`)).json().error).toMatch(
      /^Every row is a website event\. .*set a fixed value for event_source_url\.$/,
    );
  });

  it('mixed sources: the website rows without a URL stay row errors', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, [
      line(1, 'website'),
      line(2, 'physical_store'),
      line(3, 'physical_store'),
    ]);
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v.error).toBeUndefined();
    expect(v.rowsWithErrors).toBe(1);
    expect(v.rows[0].errors).toEqual([
      { field: 'event_source_url', message: 'Website events need event_source_url.' },
    ]);
  });
});

describe('refund rows (negative Purchase values)', () => {
  const FILE = [
    line(1, 'physical_store'),
    line(2, 'physical_store', '-20.00'),
    line(3, 'physical_store', '-5'),
    line(4, 'physical_store'),
  ];

  it('are counted, and continuing waits for the choice', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, FILE);
    const v = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(v).toMatchObject({ rowsChecked: 4, rowsWithErrors: 0, refundRows: 2, refundChoice: 'ask' });
    const blocked = await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      'Choose whether to skip or send the 2 Purchase rows with a negative value (refunds) before continuing.',
    );
  });

  it('skip: prepare, preview and the summary leave them out and say how many', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, FILE);
    await agent.get(`/api/uploads/${id}/validate`);
    const r = await choose(agent, id, { choice: 'skip' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ choice: 'skip', refundRows: 2 });
    expect((await agent.get(`/api/uploads/${id}/validate`)).json().refundChoice).toBe('skip');
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
    const prepared = (await agent.get(`/api/uploads/${id}/prepare`)).json();
    expect(prepared).toEqual({
      totalCount: 2,
      status: 'prepared',
      skippedErrorRows: 0,
      skippedRefundRows: 2,
    });
    const full = JSON.parse((await agent.get(`/api/uploads/${id}/preview/full`)).body) as {
      custom_data: { value: number };
    }[];
    expect(full.map((e) => e.custom_data.value)).toEqual([20, 20]);
  });

  it('send: they go out with their negative value; changing the mapping asks again', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, FILE);
    await agent.get(`/api/uploads/${id}/validate`);
    expect((await choose(agent, id, { choice: 'send' })).statusCode).toBe(200);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
    const prepared = (await agent.get(`/api/uploads/${id}/prepare`)).json();
    expect(prepared).toMatchObject({ totalCount: 4, skippedRefundRows: 0 });
    const full = JSON.parse((await agent.get(`/api/uploads/${id}/preview/full`)).body) as {
      custom_data: { value: number };
    }[];
    expect(full.map((e) => e.custom_data.value)).toEqual([20, -20, -5, 20]);

    // Another mapping is another file to judge: the choice no longer holds.
    await agent.patch(`/api/uploads/${id}/status`, {
      status: 'mapped',
      mappings: { ...MAPPING, UA: '' },
      hardcodedValues: { client_user_agent: 'Mozilla/5.0' },
    });
    const again = (await agent.get(`/api/uploads/${id}/validate`)).json();
    expect(again).toMatchObject({ refundRows: 2, refundChoice: 'ask' });
  });

  it('PUT refund-rows: 400 for a bad choice, 401, 403 without XSRF, 404 for another user’s file', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mappedFile(agent, FILE);
    const bad = await choose(agent, id, { choice: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Choose skip or send for the refund rows\./);
    expect((await choose(agent, id, {})).statusCode).toBe(400);
    expect((await choose(new Agent(ctx.app), id, { choice: 'skip' })).statusCode).toBe(401);
    expect((await choose(agent, id, { choice: 'skip' }, { xsrf: false })).statusCode).toBe(403);
    const other = await loggedInAgent(ctx.app, ctx.db);
    const missing = await choose(other.agent, id, { choice: 'skip' });
    expect(missing.statusCode).toBe(404);
    const none = await choose(agent, '00000000-0000-0000-0000-000000000000', { choice: 'skip' });
    expect({ ...none.json(), requestId: '' }).toEqual({ ...missing.json(), requestId: '' });
  });
});
