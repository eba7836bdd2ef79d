import type { Queryable } from '../../db/db.ts';

export interface AnalyticsEventRow {
  name: string;
  props: object;
  path: string;
  ts: number;
}

export const analyticsRepo = {
  /**
   * Counts `n` more events against the address's window and says whether they fit under `max`. One atomic
   * statement, so concurrent posts on several instances cannot overshoot: past the limit nothing is counted.
   */
  async take(
    db: Queryable,
    addressHash: string,
    windowStart: Date,
    n: number,
    max: number,
  ): Promise<boolean> {
    if (n > max) return false;
    const r = await db.query(
      `insert into analytics_limits (address_hash, window_start, events) values ($1, $2, $3)
       on conflict (address_hash, window_start) do update set events = analytics_limits.events + excluded.events
         where analytics_limits.events + excluded.events <= $4
       returning events`,
      [addressHash, windowStart, n, max],
    );
    return r.rows.length === 1;
  },
  async insert(db: Queryable, events: AnalyticsEventRow[], receivedAt: Date) {
    await db.query(
      `insert into analytics_events (name, props, path, occurred_at, user_id, received_at)
       select n, p::jsonb, pa, to_timestamp(t / 1000.0), null, $5
         from unnest($1::text[], $2::text[], $3::text[], $4::float8[]) as x(n, p, pa, t)`,
      [
        events.map((e) => e.name),
        events.map((e) => JSON.stringify(e.props)),
        events.map((e) => e.path),
        events.map((e) => e.ts),
        receivedAt,
      ],
    );
  },
  /** Anonymous events received before `before`, and limit windows that ended before `windowsBefore`. */
  async prune(db: Queryable, before: Date, windowsBefore: Date): Promise<number> {
    const r = await db.query('delete from analytics_events where user_id is null and received_at < $1', [
      before,
    ]);
    await db.query('delete from analytics_limits where window_start < $1', [windowsBefore]);
    return r.rowCount ?? 0;
  },
};
