import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { loggedInAgent } from '../../../test/agent.ts';
import { pruneExpired } from './housekeeping.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const count = async (sql: string, params: unknown[] = []) =>
  (await ctx.db.query<{ n: number }>(sql, params)).rows[0]!.n;

it('deletes expired sessions, links and old login failures, and keeps live ones', async () => {
  const { userId } = await loggedInAgent(ctx.app, ctx.db);
  const now = new Date();
  const hour = 3600_000;
  await ctx.db.query(
    `insert into sessions (token_hash, user_id, expires_at, last_seen_at) values
       ('expired', $1, $2, $3), ('idle', $1, $4, $5)`,
    [
      userId,
      new Date(now.getTime() - hour),
      now,
      new Date(now.getTime() + hour),
      new Date(now.getTime() - 3 * hour),
    ],
  );
  await ctx.db.query(
    `insert into email_tokens (token_hash, user_id, purpose, expires_at) values ('old', $1, 'reset', $2), ('live', $1, 'verify', $3)`,
    [userId, new Date(now.getTime() - 1000), new Date(now.getTime() + hour)],
  );
  // An account's failures count for an hour, so one 30 minutes old still protects it.
  await ctx.db.query(
    `insert into login_failures (key, at) values ('ip:old', $1), ('ip:new', $2), ('email:half-hour', $3)`,
    [new Date(now.getTime() - 2 * hour), now, new Date(now.getTime() - hour / 2)],
  );

  await pruneExpired(ctx.db, now);

  expect(await count(`select count(*)::int as n from sessions where token_hash in ('expired', 'idle')`)).toBe(
    0,
  );
  expect(await count('select count(*)::int as n from sessions where user_id = $1', [userId])).toBe(1);
  expect(await count(`select count(*)::int as n from email_tokens where token_hash = 'old'`)).toBe(0);
  expect(await count(`select count(*)::int as n from email_tokens where token_hash = 'live'`)).toBe(1);
  expect(
    await count(
      `select count(*)::int as n from login_failures where key in ('ip:old', 'ip:new', 'email:half-hour')`,
    ),
  ).toBe(2);
});
