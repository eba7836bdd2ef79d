import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { type Agent, loggedInAgent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';
import { pruneExpired } from '../accounts/housekeeping.ts';

// security.md §2.9: upload, validate, prepare and send each have a per-user quota, counted over the last 24
// hours in the database. Tiny quotas here: 600 bytes of uploads and 5 rows per action a day.
let ctx: TestContext;
const queue = { send: async () => 'job' } as unknown as PgBoss;
beforeAll(async () => {
  ctx = await createTestContext({
    env: { QUOTA_UPLOAD_MB_PER_DAY: String(600 / 1024 / 1024), QUOTA_ROWS_PER_DAY: '5' },
    deps: { queue },
  });
});
afterAll(() => ctx.close());

const HOUR = 3600_000;
const when = new Date(Date.now() - 24 * HOUR).toISOString();
const MAPPING = { Email: 'email', Event: 'event_name', When: 'event_time', Source: 'action_source' };
const csv = (rows: number) =>
  ['Email,Event,When,Source']
    .concat(Array.from({ length: rows }, (_, i) => `user${i}@example.com,Lead,${when},physical_store`))
    .join('\r\n');

const upload = (agent: Agent, content: string | Uint8Array) =>
  agent.request({ method: 'POST', url: '/api/upload', ...multipartFile('leads.csv', content) });

/** Time passes for the quota only (sessions would expire if the app's clock moved). */
const age = (userId: string, ms: number) =>
  ctx.db.query(`update usage_events set at = at - ($2 * interval '1 millisecond') where workspace_id = $1`, [
    userId,
    ms,
  ]);

async function mapped(agent: Agent, rows: number) {
  const id = (await upload(agent, csv(rows))).json().file.id as string;
  const res = await agent.patch(`/api/uploads/${id}/status`, { status: 'mapped', mappings: MAPPING });
  expect(res.statusCode).toBe(200);
  return id;
}

describe('upload quota', () => {
  const content = `Email\r\n${'a@example.com\r\n'.repeat(16)}a@b`;

  it('takes files until the day’s bytes are used, then says when to come back', async () => {
    expect(content.length).toBe(250);
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    expect((await upload(agent, content)).statusCode).toBe(201);
    expect((await upload(agent, content)).statusCode).toBe(201);
    // 500 of 600 bytes used: a file that starts under the quota is taken whole.
    expect((await upload(agent, content)).statusCode).toBe(201);
    const refused = await upload(agent, content);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Daily limit reached: at most 1 KB of uploads in 24 hours. Please try again in 24 hours.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);

    // Twelve hours on, the first file is still in the window; the corrected-file upload counts too.
    await age(userId, 12 * HOUR);
    const fixed = await agent.request({
      method: 'POST',
      url: `/api/uploads/${(await agent.get('/api/uploads')).json().uploads[0].id}/fixed`,
      ...multipartFile('fixed.csv', content),
    });
    expect(fixed.statusCode).toBe(429);
    expect(fixed.json().message).toContain('Please try again in 12 hours.');
    expect(Number(fixed.headers['retry-after'])).toBeLessThanOrEqual(12 * 3600);

    // Once the first file is 24 hours old, there is room again.
    await age(userId, 12 * HOUR + 1000);
    expect((await upload(agent, content)).statusCode).toBe(201);
  });

  it('counts a refused file’s bytes, and one account’s use is not another’s', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const png = new Uint8Array(700).fill(7);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await upload(agent, png)).statusCode).toBe(400);
    expect((await upload(agent, content)).statusCode).toBe(429);

    const other = await loggedInAgent(ctx.app, ctx.db);
    expect((await upload(other.agent, content)).statusCode).toBe(201);
  });
});

describe('row quotas: validate, prepare, send', () => {
  it('counts a validation and its report as validated rows', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent, 3);
    expect((await agent.get(`/api/uploads/${id}/validate`)).statusCode).toBe(200);
    const again = await agent.get(`/api/uploads/${id}/validate`);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe(
      'Daily limit reached: at most 5 rows validated in 24 hours. Please try again in 24 hours.',
    );
    expect((await agent.get(`/api/uploads/${id}/validate/report.csv`)).statusCode).toBe(429);
  });

  it('judges concurrent calls one after another, so they cannot both take the last of a quota', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    // Two files: two calls on one file share its one validation job (docs/decisions/0091), counted once.
    const [a, b] = [await mapped(agent, 3), await mapped(agent, 3)];
    const codes = (
      await Promise.all([agent.get(`/api/uploads/${a}/validate`), agent.get(`/api/uploads/${b}/validate`)])
    ).map((r) => r.statusCode);
    expect(codes.sort()).toEqual([200, 429]);
  });

  it('counts prepare and the full preview download as prepared rows, apart from validation', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent, 3);
    expect((await agent.get(`/api/uploads/${id}/validate`)).statusCode).toBe(200);
    expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
    expect((await agent.get(`/api/uploads/${id}/prepare`)).statusCode).toBe(200);
    const full = await agent.get(`/api/uploads/${id}/preview/full`);
    expect(full.statusCode).toBe(429);
    expect(full.json().message).toContain('at most 5 rows prepared');
  });

  it('refuses a send over the quota and leaves the file prepared', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const account = await agent.post('/api/meta/accounts', {
      name: 'Main',
      pixelId: '123456789',
      accessToken: 'EAAB-good-token-123456',
    });
    const accountId = (account.json().account?.id ?? account.json().id) as string;
    // Prepared files straight in the table: the validate and prepare quotas are not what this test is about.
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids)
      await ctx.db.query(
        `insert into uploads (id, workspace_id, file_name, status, complete, headers, row_count)
         values ($1, $2, 'leads.csv', 'prepared', true, '["Email"]', 3)`,
        [id, userId],
      );
    const send = (id: string) => agent.post(`/api/uploads/${id}/send`, { selectedAccountId: accountId });
    expect((await send(ids[0]!)).statusCode).toBe(202);
    const refused = await send(ids[1]!);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain('at most 5 events sent');
    expect((await agent.get(`/api/uploads/${ids[1]}`)).json().status).toBe('prepared');
  });

  it('says so when one file alone is over the daily quota', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const id = await mapped(agent, 6);
    const res = await agent.get(`/api/uploads/${id}/validate`);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe('This file alone is over the daily limit of 5 rows validated.');
    expect(res.headers['retry-after']).toBeUndefined();
  });
});

it('housekeeping forgets usage older than the 24-hour window', async () => {
  const { userId } = await loggedInAgent(ctx.app, ctx.db);
  const now = new Date();
  await ctx.db.query(
    `insert into usage_events (workspace_id, action, amount, at) values ($1, 'send', 1, $2), ($1, 'send', 2, $3)`,
    [userId, new Date(now.getTime() - 25 * HOUR), new Date(now.getTime() - HOUR)],
  );
  await pruneExpired(ctx.db, now);
  const left = await ctx.db.query<{ amount: string }>(
    'select amount from usage_events where workspace_id = $1',
    [userId],
  );
  expect(left.rows.map((r) => Number(r.amount))).toEqual([2]);
});
