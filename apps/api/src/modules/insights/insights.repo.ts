import {
  INSIGHT_FIX_GROUPS,
  INSIGHT_MATCH_KEYS,
  type InsightFixGroup,
  type InsightMatchKey,
  type InsightsSourceRuns,
} from '@backsignal/contracts';
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

const RUN_SUMS = (['sent', 'nothing_new', 'paused', 'failed'] as const)
  .map((status) => `sum(c.runs) filter (where c.status = '${status}') as ${status}`)
  .join(', ');
const KEY_SUMS = INSIGHT_MATCH_KEYS.map((k) => `sum(c.with_${k}) as ${k}`).join(', ');
const FIXED_SUMS = INSIGHT_FIX_GROUPS.map((g) => `sum(c.fixed_${g}) as fixed_${g}`).join(', ');

/**
 * A row's day as text: a driver's date would be a Date object per row (a year of source runs is 73,000 of them)
 * only to be written back as text.
 */
const DAY = `to_char(c.day, 'YYYY-MM-DD')`;
const num = (v: unknown): number => Number(v ?? 0);

const keyCounts = (r: Record<string, unknown>) =>
  Object.fromEntries(INSIGHT_MATCH_KEYS.map((k) => [k, num(r[k])])) as Record<InsightMatchKey, number>;

const fixedCounts = (r: Record<string, unknown>) =>
  Object.fromEntries(INSIGHT_FIX_GROUPS.map((g) => [g, num(r[`fixed_${g}`])])) as Record<
    InsightFixGroup,
    number
  >;

/** A source's keyed events and how many carried each identifier, on one day or (day null) before a split. */
export interface KeySums {
  source: string;
  day: string | null;
  keyed: number;
  keys: Record<InsightMatchKey, number>;
}

/** Sent events of one day and stack. */
export interface VolumeRow {
  day: string;
  stack: string;
  sent: number;
}

/** One day's counters but sent events, summed over the filter's pixels and sources. */
export interface DayTotals {
  day: string;
  failed: number;
  skipped: number;
  keyed: number;
  tenths: number;
  keys: Record<InsightMatchKey, number>;
  /** Sent events whose corrections were counted, and of those how many had a value of each group fixed. */
  fixesCounted: number;
  fixed: Record<InsightFixGroup, number>;
}

/** One source's runs on one day, as the screen shows them. */
export interface SourceRunsDay {
  source: string;
  day: InsightsSourceRuns['days'][number];
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
  /** Sent events per day and stack (a pixel id, or a source's id with 'manual' for uploads), where any. */
  async volume(db: Queryable, f: InsightsFilter, stack: 'pixel' | 'source'): Promise<VolumeRow[]> {
    const w = where(f);
    const key = stack === 'pixel' ? 'c.pixel_id' : `coalesce(c.source_id::text, 'manual')`;
    const { rows } = await db.query<Record<string, unknown>>(
      `select ${DAY} as day, ${key} as stack, sum(c.sent) as sent
         from insight_days c where ${w.sql} group by c.day, 2 having sum(c.sent) > 0`,
      w.params,
    );
    return rows.map((r) => ({ day: r.day as string, stack: r.stack as string, sent: num(r.sent) }));
  },

  /**
   * The other counters per day. Apart from `volume`: only sent events are charted per stack, and the rest summed
   * per stack too was four times the text to read back (decision 0110).
   */
  async dayTotals(db: Queryable, f: InsightsFilter): Promise<DayTotals[]> {
    const w = where(f);
    const { rows } = await db.query<Record<string, unknown>>(
      `select ${DAY} as day, sum(c.failed) as failed, sum(c.skipped) as skipped, sum(c.keyed) as keyed,
              sum(c.score_tenths) as tenths, ${KEY_SUMS}, sum(c.fixes_counted) as fixes_counted, ${FIXED_SUMS}
         from insight_days c where ${w.sql} group by c.day`,
      w.params,
    );
    return rows.map((r) => ({
      day: r.day as string,
      failed: num(r.failed),
      skipped: num(r.skipped),
      keyed: num(r.keyed),
      tenths: num(r.tenths),
      keys: keyCounts(r),
      fixesCounted: num(r.fixes_counted),
      fixed: fixedCounts(r),
    }));
  },

  /**
   * Keyed events and their identifiers per source: summed over the days before `split` (day null), and per day
   * from `split` on, where a fall is looked for (insights.key-falls.ts). One pass over the range's rows.
   */
  async keySums(db: Queryable, f: InsightsFilter, split: string): Promise<KeySums[]> {
    const w = where(f);
    const { rows } = await db.query<Record<string, unknown>>(
      `select coalesce(c.source_id::text, 'manual') as source, case when c.day >= $6::date then ${DAY} end as day,
              sum(c.keyed) as keyed, ${KEY_SUMS}
         from insight_days c where ${w.sql} and c.keyed > 0 group by 1, 2`,
      [...w.params, split],
    );
    return rows.map((r) => ({
      source: r.source as string,
      day: r.day as string | null,
      keyed: num(r.keyed),
      keys: keyCounts(r),
    }));
  },

  /** Failed events per reason and send, with the send's file name while the upload is kept. */
  async failures(db: Queryable, f: InsightsFilter): Promise<FailureRow[]> {
    const w = where(f);
    const { rows } = await db.query<Record<string, unknown>>(
      `select c.verdict, c.error_code, c.error_subcode, c.error_title, c.error_message, min(c.error_raw) as error_raw,
              c.upload_id, max(u.file_name) as file_name, to_char(max(c.day), 'YYYY-MM-DD') as day, sum(c.events) as events
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
      day: r.day as string,
      events: num(r.events),
    }));
  },

  /**
   * Source runs per day and source, a count per outcome; with a pixel, only the sources that send to it now.
   * One row per day and source rather than per outcome: half the rows to read back.
   */
  async sourceRuns(db: Queryable, f: InsightsFilter): Promise<SourceRunsDay[]> {
    const w = where(f, false);
    const { rows } = await db.query<Record<string, unknown>>(
      `select ${DAY} as day, c.source_id::text as source, ${RUN_SUMS} from insight_source_runs c
        where ${w.sql} and ($4::text is null or exists (select 1 from sources s join pixel_accounts p
          on p.id = s.pixel_account_id where s.id = c.source_id and p.pixel_id = $4))
        group by c.day, c.source_id`,
      w.params,
    );
    return rows.map((r) => ({
      source: r.source as string,
      day: {
        day: r.day as string,
        sent: num(r.sent),
        nothing_new: num(r.nothing_new),
        paused: num(r.paused),
        failed: num(r.failed),
      },
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
