import type { Queryable } from '../../db/db.ts';

/**
 * The delivery ledger: which events each pixel already received, the truth deduplication reads. It is the pixel's
 * record whichever workspace sent (two workspaces sending to one pixel never double-send), so lookups name no
 * workspace (decision 0103).
 *
 * One index probe per distinct id on the key's (pixel, event_id) prefix. `event_id = any($3)` let a planner
 * without fresh statistics (a never-analysed ledger, autovacuum off) scan the pixel's whole history through the
 * pixel prefix and filter row by row: 150 ms a call at 300k rows, growing with the ledger. The lateral
 * subquery with `offset 0` cannot be flattened into a hash join, so each id is a nested-loop index lookup
 * whatever the statistics (docs/decisions/0080-send-path-performance.md).
 */
export const DELIVERED_BEFORE_SQL = `select l.event_name as n, l.event_id as i, l.test as t
  from (select distinct unnest($2::text[]) as id) as q
  cross join lateral (select d.event_name, d.event_id, d.test from delivery_ledger d
    where d.pixel_id = $1 and d.event_id = q.id
      and ($3::timestamptz is null or d.delivered_at < $3) offset 0) as l`;

export const ledgerRepo = {
  /** Whether the pixel received any live event before `before`: if not, a run skips nothing. */
  async anyLiveDelivery(db: Queryable, pixelId: string, before: Date): Promise<boolean> {
    const { rows } = await db.query<{ ok: boolean }>(
      `select exists (select 1 from delivery_ledger where pixel_id = $1 and not test and delivered_at < $2) as ok`,
      [pixelId, before],
    );
    return rows[0]!.ok;
  },

  /**
   * Event ids (with names) from `ids` delivered live to the pixel before `before` (what a run skips), and
   * those delivered only as test events (never skipped: Meta's test tool is not the live dataset's record).
   * A later live delivery turns a test entry live, dated then, so a run created earlier keeps seeing it as test.
   */
  async deliveredBefore(
    db: Queryable,
    pixelId: string,
    ids: string[],
    before: Date | null,
  ): Promise<{ live: Set<string>; test: Set<string> }> {
    const live = new Set<string>();
    const test = new Set<string>();
    if (!ids.length) return { live, test };
    const { rows } = await db.query<{ n: string; i: string; t: boolean }>(DELIVERED_BEFORE_SQL, [
      pixelId,
      ids,
      before,
    ]);
    for (const r of rows) (r.t ? test : live).add(ledgerKey(r.n, r.i));
    return { live, test };
  },
};

export const ledgerKey = (name: string, id: string) => `${name}\u0000${id}`;
