import type { Queryable } from '../../db/db.ts';

export const loginThrottleRepo = {
  /** Counts each key's failures after its own moment (keys have windows of different lengths). */
  async countSince(db: Queryable, windows: { key: string; since: Date }[]): Promise<Record<string, number>> {
    const r = await db.query<{ key: string; n: number }>(
      `select w.key, count(*)::int as n
         from unnest($1::text[], $2::timestamptz[]) as w (key, since)
         join login_failures f on f.key = w.key and f.at > w.since
        group by w.key`,
      [windows.map((w) => w.key), windows.map((w) => w.since.toISOString())],
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
  async clear(db: Queryable, keys: string[]) {
    await db.query('delete from login_failures where key = any($1)', [keys]);
  },
  async prune(db: Queryable, before: Date) {
    await db.query('delete from login_failures where at < $1', [before]);
  },
};
