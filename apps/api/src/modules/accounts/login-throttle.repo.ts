import type { Queryable } from '../../db/db.ts';

export const loginThrottleRepo = {
  async countSince(db: Queryable, keys: string[], since: Date): Promise<Record<string, number>> {
    const r = await db.query<{ key: string; n: number }>(
      'select key, count(*)::int as n from login_failures where key = any($1) and at > $2 group by key',
      [keys, since],
    );
    return Object.fromEntries(r.rows.map((x) => [x.key, x.n]));
  },
  async record(db: Queryable, keys: string[], at: Date) {
    await db.query('insert into login_failures (key, at) select unnest($1::text[]), $2', [keys, at]);
  },
  async clear(db: Queryable, key: string) {
    await db.query('delete from login_failures where key = $1', [key]);
  },
  async prune(db: Queryable, before: Date) {
    await db.query('delete from login_failures where at < $1', [before]);
  },
};
