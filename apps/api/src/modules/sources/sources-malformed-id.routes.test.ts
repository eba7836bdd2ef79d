import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';

/** Issue 30: an id that is not a UUID is an object that does not exist (404), never a database error (500). */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const SOURCE = {
  name: 'x',
  connection: { kind: 'csv_url', url: 'https://example.com/a.csv', auth: 'none' },
  mappings: {},
  hardcodedValues: {},
  settings: {},
  pixelAccountId: null,
  schedule: { every: 'day', at: '06:00' },
  timeZone: 'UTC',
};

it.each([
  ['GET', ''],
  ['PATCH', ''],
  ['DELETE', ''],
  ['GET', '/uploads'],
  ['GET', '/runs'],
  ['POST', '/pause'],
  ['POST', '/resume'],
  ['POST', '/run'],
])('%s /api/sources/<not-a-uuid>%s answers 404', async (method, tail) => {
  const { agent } = await loggedInAgent(ctx.app, ctx.db);
  for (const id of ['not-a-uuid', '123', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', '%27%20or%201=1']) {
    const res = await agent.request({
      method: method as 'GET',
      url: `/api/sources/${id}${tail}`,
      ...(method === 'PATCH' ? { payload: SOURCE } : {}),
    });
    // A PATCH body the schema refuses would answer 400 before the id is looked at; either way never a 500.
    expect(res.statusCode, `${method} ${id}${tail}: ${res.body}`).toBe(
      method === 'PATCH' && res.statusCode === 400 ? 400 : 404,
    );
  }
});
