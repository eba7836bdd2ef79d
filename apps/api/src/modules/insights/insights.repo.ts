import {
  INSIGHT_FIX_GROUPS,
  INSIGHT_MATCH_KEYS,
  type InsightFixGroup,
  type InsightMatchKey,
} from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { RUN_COUNTERS, weekOf } from './insights-counters.repo.ts';
import type { Span } from './insights-span.ts';

/** What the screen asks for: a workspace's buckets of days (UTC), optionally one pixel or source. */
export interface InsightsFilter {
  workspaceId: string;
  span: Span;
  pixelId: string | null;
  /** A source's id, 'manual' for files uploaded by hand, or null for all. */
  source: string | null;
}

const TABLES = {
  days: ['insight_days', 'insight_weeks'],
  /** The days' counters of all pixels and sources together, for a view without a filter (migration 0890). */
  workspace: ['insight_workspace_days', 'insight_workspace_weeks'],
  source_runs: ['insight_source_days', 'insight_source_weeks'],
} as const;

/**
 * The filter's counter rows (alias c: `i`, the bucket's index, then `cols`), and the statement's parameters. A bar
 * per day reads the days; a bar per week reads whole weeks from the weekly table and the cut weeks at the range's
 * ends from the days (decision 0122), so a year reads ~53 rows per pixel and source, not 365.
 */
function counted(f: InsightsFilter, kind: keyof typeof TABLES, cols: string, since?: string) {
  const [days, weeks] = TABLES[kind];
  const { span } = f;
  const params: unknown[] = [f.workspaceId, span.from, span.to, f.pixelId, f.source];
  const scope =
    kind === 'workspace'
      ? // No pixel or source: a filter has to read the rows per pixel and source.
        '$4::text is null and $5::text is null'
      : [
          kind === 'days'
            ? '($4::text is null or c.pixel_id = $4)'
            : // A source's runs under a pixel: the sources that send to it now.
              `($4::text is null or exists (select 1 from sources s join pixel_accounts p on p.id = s.pixel_account_id
                                             where s.id = c.source_id and p.pixel_id = $4))`,
          `($5::text is null or ($5 = 'manual' and c.source_id is null) or c.source_id = nullif($5, 'manual')::uuid)`,
        ].join(' and ');
  if (span.bucket === 'day') {
    // `since`: the rows from a later day, their buckets still counted from the range's first.
    if (since) params.push(since);
    return {
      sql: `select c.day - $2::date as i, ${cols} from ${days} c
             where c.workspace_id = $1 and c.day between $${since ? 6 : 2}::date and $3::date and ${scope}`,
      params,
    };
  }
  params.push(span.firstMonday, span.wholeFrom, span.wholeTo);
  return {
    sql: `select (c.week - $6::date) / 7 as i, ${cols} from ${weeks} c
           where c.workspace_id = $1 and c.week between $7::date and $8::date and ${scope}
          union all
          select (${weekOf('c.day')} - $6::date) / 7, ${cols} from ${days} c
           where c.workspace_id = $1 and (c.day between $2::date and $7::date - 1 or c.day between $8::date + 7 and $3::date)
             and ${scope}`,
    params,
  };
}

/**
 * A series' (bucket, counts…) points as one text, "i:n,i:n", in one row per series: a row per point cost Node four
 * times the statement's own time to read (18,000 rows for 90 days of 100 sources' runs; decision 0122).
 */
const POINTS = (...cols: string[]) => `string_agg(concat_ws(':', ${cols.join(', ')}), ',')`;
/**
 * Adds each point's counts into `into` (one array per count, one number per bucket). Read a character at a time:
 * splitting 13,500 points into arrays of strings was the server's busiest function in the bench's profile.
 */
function addPoints(text: string, into: number[][]) {
  let k = -1; // -1 while reading the bucket's index, then the count's position
  let bucket = 0;
  let n = 0;
  for (let p = 0; p <= text.length; p++) {
    const c = p < text.length ? text.charCodeAt(p) : 44; // the end ends the last point, as a comma
    // Counts are never negative (a week loses only what its days counted).
    if (c >= 48 && c <= 57) n = n * 10 + c - 48;
    else {
      if (k < 0) bucket = n;
      else into[k]![bucket]! += n;
      n = 0;
      k = c === 44 ? -1 : k + 1;
    }
  }
}
const zeros = (n: number) => new Array<number>(n).fill(0);

const KEY_SUMS = INSIGHT_MATCH_KEYS.map((k) => `sum(c.with_${k}) as ${k}`).join(', ');
const KEY_COLS = INSIGHT_MATCH_KEYS.map((k) => `c.with_${k}`).join(', ');
const FIXED = INSIGHT_FIX_GROUPS.map((g) => `fixed_${g}`);
const FIX_COLS = ['fixes_counted', ...FIXED].map((c) => `c.${c}`).join(', ');
const FIX_SUMS = ['fixes_counted', ...FIXED].map((c) => `sum(c.${c}) as ${c}`).join(', ');
const num = (v: unknown): number => Number(v ?? 0);
const stackKey = (v: unknown) => (v as string | null) ?? 'manual';

const keyCounts = (r: Record<string, unknown>) =>
  Object.fromEntries(INSIGHT_MATCH_KEYS.map((k) => [k, num(r[k])])) as Record<InsightMatchKey, number>;
const fixedCounts = (r: Record<string, unknown>) =>
  Object.fromEntries(INSIGHT_FIX_GROUPS.map((g) => [g, num(r[`fixed_${g}`])])) as Record<
    InsightFixGroup,
    number
  >;

/** A source's keyed events and how many carried each identifier, in one bucket or (day null) before a split. */
export interface KeySums {
  source: string;
  /** The bucket's first day, or null: the buckets before the split. */
  day: string | null;
  keyed: number;
  keys: Record<InsightMatchKey, number>;
}

/** A stack's sent events, one number per bucket. */
export interface StackSeries {
  stack: string;
  sent: number[];
}

/** One bucket's counters but sent events, summed over the filter's pixels and sources. */
export interface BucketTotals {
  i: number;
  failed: number;
  skipped: number;
  keyed: number;
  tenths: number;
  keys: Record<InsightMatchKey, number>;
  /** Sent events whose corrections were counted (decision 0123), and of those how many had each group fixed. */
  fixesCounted: number;
  fixed: Record<InsightFixGroup, number>;
}

/** A source's runs per outcome, one number per bucket. */
export interface SourceRunsRow {
  source: string;
  runs: Record<(typeof RUN_COUNTERS)[number], number[]>;
}

/** A failure reason (the summary's group) and the sends that had it. */
export interface FailureReason {
  verdict: string | null;
  error_code: number | null;
  error_subcode: number | null;
  error_title: string | null;
  error_message: string | null;
  error_raw: string | null;
  events: number;
  sends: { uploadId: string; events: number; day: string }[];
}

/** A reason's runs ("upload events day", …) as its sends: a file sent again is one send, its last day. */
function bySend(runs: string) {
  const sends = new Map<string, { uploadId: string; events: number; day: string }>();
  for (const run of runs.split(',')) {
    const [uploadId, events, day] = run.split(' ') as [string, string, string];
    const s = sends.get(uploadId);
    if (!s) sends.set(uploadId, { uploadId, events: Number(events), day });
    else {
      s.events += Number(events);
      if (day > s.day) s.day = day;
    }
  }
  return [...sends.values()];
}

export const insightsRepo = {
  /** Sent events per bucket of each stack (a pixel id, or a source's id with 'manual' for uploads) that sent any. */
  async volume(db: Queryable, f: InsightsFilter, stack: 'pixel' | 'source'): Promise<StackSeries[]> {
    const c = counted(f, 'days', `c.${stack}_id as stack, c.sent`);
    const { rows } = await db.query<{ stack: string | null; points: string }>(
      `select c.stack, ${POINTS('c.i', 'c.sent')} as points from (${c.sql}) c group by 1 having sum(c.sent) > 0`,
      c.params,
    );
    return rows.map((r) => {
      const sent = zeros(f.span.starts.length);
      addPoints(r.points, [sent]);
      return { stack: stackKey(r.stack), sent };
    });
  },

  /**
   * The other counters per bucket. Apart from `volume`: only sent events are charted per stack, and the rest summed
   * per stack too was four times the text to read back (decision 0110).
   */
  async bucketTotals(db: Queryable, f: InsightsFilter): Promise<BucketTotals[]> {
    const c = counted(
      f,
      f.pixelId || f.source ? 'days' : 'workspace',
      `c.failed, c.skipped, c.keyed, c.score_tenths, ${KEY_COLS}, ${FIX_COLS}`,
    );
    const { rows } = await db.query<Record<string, unknown>>(
      `select c.i, sum(c.failed) as failed, sum(c.skipped) as skipped, sum(c.keyed) as keyed,
              sum(c.score_tenths) as tenths, ${KEY_SUMS}, ${FIX_SUMS}
         from (${c.sql}) c group by 1`,
      c.params,
    );
    return rows.map((r) => ({
      i: r.i as number,
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
   * Keyed events and their identifiers per source: summed over the buckets from `since` to `split` (day null), and
   * per bucket from `split` on, where a fall is looked for (insights.key-falls.ts). One pass over those rows.
   */
  async keySums(db: Queryable, f: InsightsFilter, split: string, since?: string): Promise<KeySums[]> {
    const c = counted(f, 'days', `c.source_id, c.keyed, ${KEY_COLS}`, since);
    const { rows } = await db.query<Record<string, unknown>>(
      `select c.source_id, case when c.i >= $${c.params.length + 1} then c.i end as i, sum(c.keyed) as keyed, ${KEY_SUMS}
         from (${c.sql}) c where c.keyed > 0 group by 1, 2`,
      [...c.params, f.span.starts.indexOf(split)],
    );
    return rows.map((r) => ({
      source: stackKey(r.source_id),
      day: r.i === null ? null : f.span.starts[r.i as number]!,
      keyed: num(r.keyed),
      keys: keyCounts(r),
    }));
  },

  /**
   * Failed events per reason (the summary's groups) over the range, with every send that had it. A reason's runs
   * come as one text and are added up per send here: a year can hold thousands, ranking them per reason in SQL
   * sorted them by the reason's five columns, and grouping them per send there hashed those columns twice
   * (decision 0122). The service keeps the 10 sends with the most.
   */
  async failures(db: Queryable, f: InsightsFilter): Promise<FailureReason[]> {
    const { rows } = await db.query<Record<string, unknown>>(
      `select c.verdict, c.error_code, c.error_subcode, c.error_title, c.error_message, min(c.error_raw) as error_raw,
              sum(c.events) as events,
              string_agg(c.upload_id::text || ' ' || c.events::text || ' ' || to_char(c.day, 'YYYY-MM-DD'), ',') as sends
         from insight_failures c
        where c.workspace_id = $1 and c.day between $2::date and $3::date
          and ($4::text is null or c.pixel_id = $4)
          and ($5::text is null or ($5 = 'manual' and c.source_id is null) or c.source_id = nullif($5, 'manual')::uuid)
        group by 1, 2, 3, 4, 5`,
      [f.workspaceId, f.span.from, f.span.to, f.pixelId, f.source],
    );
    return rows.map((r) => ({
      verdict: (r.verdict as string | null) ?? null,
      error_code: (r.error_code as number | null) ?? null,
      error_subcode: (r.error_subcode as number | null) ?? null,
      error_title: (r.error_title as string | null) ?? null,
      error_message: (r.error_message as string | null) ?? null,
      error_raw: (r.error_raw as string | null) ?? null,
      events: num(r.events),
      sends: bySend(r.sends as string),
    }));
  },

  /** The names of the workspace's files among `ids` (a deleted one has none). */
  async fileNames(db: Queryable, workspaceId: string, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const { rows } = await db.query<{ id: string; file_name: string }>(
      'select id, file_name from uploads where workspace_id = $1 and id = any($2::uuid[])',
      [workspaceId, ids],
    );
    return new Map(rows.map((r) => [r.id, r.file_name]));
  },

  /** Source runs per bucket of each source that ran, a count per outcome. */
  async sourceRuns(db: Queryable, f: InsightsFilter): Promise<SourceRunsRow[]> {
    const c = counted(f, 'source_runs', `c.source_id, ${RUN_COUNTERS.map((o) => `c.${o}`).join(', ')}`);
    const { rows } = await db.query<{ source_id: string; points: string }>(
      `select c.source_id, ${POINTS('c.i', ...RUN_COUNTERS.map((o) => `c.${o}`))} as points
         from (${c.sql}) c group by 1`,
      c.params,
    );
    return rows.map((r) => {
      const counts = RUN_COUNTERS.map(() => zeros(f.span.starts.length));
      addPoints(r.points, counts);
      return {
        source: r.source_id,
        runs: Object.fromEntries(RUN_COUNTERS.map((o, k) => [o, counts[k]!])) as SourceRunsRow['runs'],
      };
    });
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
