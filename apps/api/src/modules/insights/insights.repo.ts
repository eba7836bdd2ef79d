import { INSIGHT_MATCH_KEYS, type InsightMatchKey } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';

/** What the screen asks for: a workspace's days (UTC, both ends included), optionally one pixel or source. */
export interface InsightsFilter {
  workspaceId: string;
  from: string;
  to: string;
  pixelId: string | null;
  /** A source's id, 'manual' for files uploaded by hand, or null for all. */
  source: string | null;
}

/** The shared where clause over a counters table (alias c) and its parameters ($1…$5). */
function where(f: InsightsFilter, withPixel = true): { sql: string; params: unknown[] } {
  const sql = [`c.workspace_id = $1 and c.day between $2::date and $3::date`];
  if (withPixel) sql.push('($4::text is null or c.pixel_id = $4)');
  sql.push(`($5::text is null or ($5 = 'manual' and c.source_id is null) or c.source_id::text = $5)`);
  return { sql: sql.join(' and '), params: [f.workspaceId, f.from, f.to, f.pixelId, f.source] };
}

const KEY_SUMS = INSIGHT_MATCH_KEYS.map((k) => `sum(c.with_${k}) as ${k}`).join(', ');

const day = (d: unknown): string =>
  d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10);
const num = (v: unknown): number => Number(v ?? 0);

/** One day of one stack (a pixel id, or a source's id with 'manual' for uploads): its counters summed. */
export interface DayRow {
  day: string;
  stack: string;
  sent: number;
  failed: number;
  skipped: number;
  keyed: number;
  tenths: number;
  keys: Record<InsightMatchKey, number>;
}

export interface FailureRow {
  verdict: string | null;
  error_code: number | null;
  error_subcode: number | null;
  error_title: string | null;
  error_message: string | null;
  error_raw: string | null;
  upload_id: string;
  file_name: string | null;
  day: string;
  events: number;
}

export const insightsRepo = {
  async days(db: Queryable, f: InsightsFilter, stack: 'pixel' | 'source'): Promise<DayRow[]> {
    const w = where(f);
    const key = stack === 'pixel' ? 'c.pixel_id' : `coalesce(c.source_id::text, 'manual')`;
    const { rows } = await db.query<Record<string, unknown>>(
      `select c.day, ${key} as stack, sum(c.sent) as sent, sum(c.failed) as failed, sum(c.skipped) as skipped,
              sum(c.keyed) as keyed, sum(c.score_tenths) as tenths, ${KEY_SUMS}
         from insight_days c where ${w.sql} group by c.day, 2`,
      w.params,
    );
    return rows.map((r) => ({
      day: day(r.day),
      stack: r.stack as string,
      sent: num(r.sent),
      failed: num(r.failed),
      skipped: num(r.skipped),
      keyed: num(r.keyed),
      tenths: num(r.tenths),
      keys: Object.fromEntries(INSIGHT_MATCH_KEYS.map((k) => [k, num(r[k])])) as Record<
        InsightMatchKey,
        number
      >,
    }));
  },

  /**
   * Per source and identifier whose share fell from `split` on and stayed down: its share of keyed events before
   * `split`, the day the fall began (each day since below half that share) and the share since, aggregated in the
   * database.
   */
  async keyShares(
    db: Queryable,
    f: InsightsFilter,
    split: string,
  ): Promise<
    {
      source: string;
      key: string;
      keyedBefore: number;
      before: number;
      keyedAfter: number;
      after: number;
      lowSince: string | null;
    }[]
  > {
    const w = where(f);
    const { rows } = await db.query<Record<string, unknown>>(
      `with keyed as (
         select c.day, coalesce(c.source_id::text, 'manual') as source, sum(c.keyed) as keyed, ${KEY_SUMS}
           from insight_days c where ${w.sql} and c.keyed > 0 group by 1, 2),
       grid as (
         select k.day, k.source, m.match_key, k.keyed, m.events
           from keyed k cross join lateral (values ('email', k.email), ('phone', k.phone), ('name', k.name),
             ('address', k.address), ('external_id', k.external_id)) as m (match_key, events)),
       before as (
         select source, match_key, sum(keyed) as keyed, sum(events) as events
           from grid where day < $6::date group by source, match_key),
       marked as (
         select g.*, b.keyed as keyed_before, b.events as before,
                g.events * 2 * b.keyed < g.keyed * b.events as low
           from grid g join before b on b.source = g.source and b.match_key = g.match_key
          where g.day >= $6::date),
       -- The first low day after the last day that was not: the share fell and stayed down.
       fell as (
         select source, match_key, min(day) filter (where low and day > coalesce(last_high, $6::date - 1)) as low_since
           from (select m.*, max(day) filter (where not low) over (partition by source, match_key) as last_high
                   from marked m) x
          group by source, match_key)
       select f.source, f.match_key, f.low_since, min(m.keyed_before) as keyed_before, min(m.before) as before,
              sum(m.keyed) as keyed_after, sum(m.events) as after
         from fell f join marked m on m.source = f.source and m.match_key = f.match_key and m.day >= f.low_since
        group by f.source, f.match_key, f.low_since`,
      [...w.params, split],
    );
    return rows.map((r) => ({
      source: r.source as string,
      key: r.match_key as string,
      keyedBefore: num(r.keyed_before),
      before: num(r.before),
      keyedAfter: num(r.keyed_after),
      after: num(r.after),
      lowSince: r.low_since ? day(r.low_since) : null,
    }));
  },

  /** Failed events per reason and send, with the send's file name while the upload is kept. */
  async failures(db: Queryable, f: InsightsFilter): Promise<FailureRow[]> {
    const w = where(f);
    const { rows } = await db.query<Record<string, unknown>>(
      `select c.verdict, c.error_code, c.error_subcode, c.error_title, c.error_message, min(c.error_raw) as error_raw,
              c.upload_id, max(u.file_name) as file_name, max(c.day) as day, sum(c.events) as events
         from insight_failures c left join uploads u on u.id = c.upload_id and u.workspace_id = c.workspace_id
        where ${w.sql}
        group by c.verdict, c.error_code, c.error_subcode, c.error_title, c.error_message, c.upload_id`,
      w.params,
    );
    return rows.map((r) => ({
      verdict: (r.verdict as string | null) ?? null,
      error_code: (r.error_code as number | null) ?? null,
      error_subcode: (r.error_subcode as number | null) ?? null,
      error_title: (r.error_title as string | null) ?? null,
      error_message: (r.error_message as string | null) ?? null,
      error_raw: (r.error_raw as string | null) ?? null,
      upload_id: r.upload_id as string,
      file_name: (r.file_name as string | null) ?? null,
      day: day(r.day),
      events: num(r.events),
    }));
  },

  /** Source runs per day and outcome; with a pixel, only the sources that send to it now. */
  async sourceRuns(
    db: Queryable,
    f: InsightsFilter,
  ): Promise<{ day: string; source: string; status: string; runs: number }[]> {
    const w = where(f, false);
    const { rows } = await db.query<Record<string, unknown>>(
      `select c.day, c.source_id::text as source, c.status, sum(c.runs) as runs from insight_source_runs c
        where ${w.sql} and ($4::text is null or exists (select 1 from sources s join pixel_accounts p
          on p.id = s.pixel_account_id where s.id = c.source_id and p.pixel_id = $4))
        group by c.day, c.source_id, c.status`,
      w.params,
    );
    return rows.map((r) => ({
      day: day(r.day),
      source: r.source as string,
      status: r.status as string,
      runs: num(r.runs),
    }));
  },

  /** The workspace's pixel accounts (pixel id → name) and sources, for labels and the filters. */
  async names(db: Queryable, workspaceId: string) {
    const [pixels, sources] = await Promise.all([
      db.query<{ pixel_id: string; name: string }>(
        `select pixel_id, min(name) as name from pixel_accounts where workspace_id = $1 group by pixel_id`,
        [workspaceId],
      ),
      db.query<{
        id: string;
        name: string;
        status: 'active' | 'paused';
        next_run_at: Date | null;
        pixel_id: string | null;
      }>(
        `select s.id, s.name, s.status, s.next_run_at, p.pixel_id from sources s
           left join pixel_accounts p on p.id = s.pixel_account_id where s.workspace_id = $1`,
        [workspaceId],
      ),
    ]);
    return { pixels: pixels.rows, sources: sources.rows };
  },
};
