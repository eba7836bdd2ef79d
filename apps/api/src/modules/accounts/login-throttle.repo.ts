import type { Queryable } from '../../db/db.ts';

export const loginThrottleRepo = {
  async countSince(db: Queryable, keys: string[], since: Date): Promise<Record<string, number>> {
    const r = await db.query<{ key: string; n: number }>(
      'select key, count(*)::int as n from login_failures where key = any($1) and at > $2 group by key',
      [keys, since],
    );
    return Object.fromEntries(r.rows.map((x) => [x.key, x.n]));
  },
  /** Records one attempt per key and answers the row ids, so a successful attempt can take them back. */
  async record(db: Queryable, keys: string[], at: Date): Promise<string[]> {
    const r = await db.query<{ id: string }>(
      'insert into login_failures (key, at) select unnest($1::text[]), $2 returning id::text',
      [keys, at],
    );
    return r.rows.map((x) => x.id);
  },
  async forget(db: Queryable, ids: string[]) {
    await db.query('delete from login_failures where id = any($1::bigint[])', [ids]);
  },
  async clear(db: Queryable, key: string) {
    await db.query('delete from login_failures where key = $1', [key]);
  },
  async prune(db: Queryable, before: Date) {
    await db.query('delete from login_failures where at < $1', [before]);
  },
};
