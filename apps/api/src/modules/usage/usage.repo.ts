import type { Queryable } from '../../db/db.ts';

export type UsageAction = 'upload' | 'validate' | 'prepare' | 'send';

export const usageRepo = {
  /** Holds the account's row until the transaction ends, so two requests cannot both take the last of a quota. */
  async lockUser(db: Queryable, workspaceId: string): Promise<void> {
    await db.query('select 1 from users where id = $1 for update', [workspaceId]);
  },
  async usedSince(db: Queryable, workspaceId: string, action: UsageAction, since: Date): Promise<number> {
    const r = await db.query<{ used: string }>(
      'select coalesce(sum(amount), 0)::text as used from usage_events where workspace_id = $1 and action = $2 and at > $3',
      [workspaceId, action, since],
    );
    return Number(r.rows[0]!.used);
  },
  /** When the oldest entries since `since` add up to at least `amount`: once they age out, that much is free. */
  async freedAfter(
    db: Queryable,
    workspaceId: string,
    action: UsageAction,
    since: Date,
    amount: number,
  ): Promise<Date | null> {
    const r = await db.query<{ at: Date }>(
      `select at from (
         select at, sum(amount) over (order by at, id) as freed from usage_events
         where workspace_id = $1 and action = $2 and at > $3
       ) t where freed >= $4 order by at limit 1`,
      [workspaceId, action, since, amount],
    );
    return r.rows[0] ? new Date(r.rows[0].at) : null;
  },
  async record(
    db: Queryable,
    workspaceId: string,
    action: UsageAction,
    amount: number,
    at: Date,
  ): Promise<void> {
    await db.query('insert into usage_events (workspace_id, action, amount, at) values ($1, $2, $3, $4)', [
      workspaceId,
      action,
      amount,
      at,
    ]);
  },
  async prune(db: Queryable, before: Date): Promise<void> {
    await db.query('delete from usage_events where at <= $1', [before]);
  },
};
