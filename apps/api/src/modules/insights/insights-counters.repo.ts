import { INSIGHT_FIX_GROUPS, INSIGHT_RUN_OUTCOMES } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { HELD_FIRST_HALF } from '../delivery/delivery-batches.repo.ts';

/**
 * Insights' counters (migrations 0830 and 0870, decisions 0110 and 0122), written by the statements that end runs:
 * each function answers CTEs to append to a statement whose `ended` CTE returns the ended send run (all its
 * columns), or whose `ended` CTE returns the ended source runs. The counters move in the same statement as the
 * run's status, so a run is counted once, whichever worker ends it, and never when the statement does not end it.
 * Every count goes to its day and to its week (the Monday of its ISO week), so a week is the sum of its days, and
 * the same to the workspace's day and week (all pixels and sources: migration 0890).
 */
const DAY = `(d.finished_at at time zone 'UTC')::date`;
const SOURCE = '(select sr.source_id from source_runs sr where sr.send_run_id = d.id limit 1)';
// A test send's events go to Events Manager's test tab: they are not conversions.
const LIVE = 'd.test_event_code is null';
/** The Monday of a date's ISO week; date_trunc would go through timestamptz, in the session's time zone. */
export const weekOf = (day: string) => `(${day} - (extract(isodow from ${day})::int - 1))`;

/**
 * What was fixed automatically (migration 0880, decision 0123): `fixes_counted` sent events whose corrections were
 * counted, and `fixed_<group>` how many of them had a value of the group corrected.
 */
const FIXED = INSIGHT_FIX_GROUPS.map((g) => `fixed_${g}` as const);
const FIX_COUNTERS = ['fixes_counted', ...FIXED] as const;

/** insight_days' and insight_weeks' counters, in the order the run's values are selected. */
export const DAY_COUNTERS = [
  'sent',
  'failed',
  'skipped',
  'keyed',
  'score_tenths',
  'with_email',
  'with_phone',
  'with_name',
  'with_address',
  'with_external_id',
  ...FIX_COUNTERS,
] as const;

/**
 * The run's sent batches' fix counts. A batch's fixed_* are all null when its events came without fix codes (sent
 * before migration 0880): it adds nothing to any of them, fixes_counted included.
 */
const FIXED_SUMS = [
  'coalesce(sum(b.event_count) filter (where b.fixed_other is not null), 0) as fixes_counted',
  ...FIXED.map((c) => `coalesce(sum(b.${c}), 0) as ${c}`),
].join(', ');

/** insight_source_days' and insight_source_weeks' counters: runs per outcome, a column each. */
export const RUN_COUNTERS = INSIGHT_RUN_OUTCOMES;

const KEY = {
  days: ['day', 'pixel_id', 'source_id'],
  weeks: ['week', 'pixel_id', 'source_id'],
  source_days: ['day', 'source_id'],
  source_weeks: ['week', 'source_id'],
  workspace_days: ['day'],
  workspace_weeks: ['week'],
} as const;

/** An upsert adding `counters` of the rows `select` answers (its key columns, then the counters) to `table`. */
function addTo(table: keyof typeof KEY, counters: readonly string[], select: string): string {
  const cols = ['workspace_id', ...KEY[table], ...counters];
  return `insert into insight_${table} (${cols.join(', ')}) ${select}
        on conflict (workspace_id, ${KEY[table].join(', ')}) do update
          set ${counters.map((c) => `${c} = insight_${table}.${c} + excluded.${c}`).join(', ')}`;
}

const sums = (counters: readonly string[]) => counters.map((c) => `sum(${c})`).join(', ');

export const insightsCounters = {
  /** CTEs (`, name as (…)` each) counting an ended send run's events, identifiers and failure reasons. */
  runEndedCtes(): string {
    return `,
      insight_run as (
        select d.workspace_id, ${DAY} as day, d.pixel_id, ${SOURCE} as source_id, s.sent, f.failed,
               d.skipped_events as skipped, s.keyed, s.score_tenths, s.with_email, s.with_phone, s.with_name,
               s.with_address, s.with_external_id, ${FIX_COUNTERS.map((c) => `s.${c}`).join(', ')}
          from ended d
          cross join lateral (
            select coalesce(sum(b.event_count), 0) as sent, coalesce(sum(b.match_events), 0) as keyed,
                   coalesce(sum(b.match_tenths), 0) as score_tenths, coalesce(sum(b.with_email), 0) as with_email,
                   coalesce(sum(b.with_phone), 0) as with_phone, coalesce(sum(b.with_name), 0) as with_name,
                   coalesce(sum(b.with_address), 0) as with_address,
                   coalesce(sum(b.with_external_id), 0) as with_external_id, ${FIXED_SUMS}
              from send_batches b where b.run_id = d.id and b.status = 'sent') s
          cross join lateral (
            select coalesce(sum(f.event_count), 0) as failed from send_batches f
             where f.run_id = d.id and f.status = 'failed' and not (${HELD_FIRST_HALF})) f
         where ${LIVE} and s.sent + f.failed + d.skipped_events > 0),
      insight_counts as (
        ${addTo('days', DAY_COUNTERS, `select workspace_id, day, pixel_id, source_id, ${sums(DAY_COUNTERS)} from insight_run group by 1, 2, 3, 4`)}),
      insight_week_counts as (
        ${addTo('weeks', DAY_COUNTERS, `select workspace_id, ${weekOf('day')}, pixel_id, source_id, ${sums(DAY_COUNTERS)} from insight_run group by 1, 2, 3, 4`)}),
      insight_workspace_counts as (
        ${addTo('workspace_days', DAY_COUNTERS, `select workspace_id, day, ${sums(DAY_COUNTERS)} from insight_run group by 1, 2`)}),
      insight_workspace_week_counts as (
        ${addTo('workspace_weeks', DAY_COUNTERS, `select workspace_id, ${weekOf('day')}, ${sums(DAY_COUNTERS)} from insight_run group by 1, 2`)}),
      insight_reasons as (
        insert into insight_failures (workspace_id, day, pixel_id, source_id, run_id, upload_id, verdict, error_code,
                                      error_subcode, error_title, error_message, error_raw, events)
        select d.workspace_id, ${DAY}, d.pixel_id, ${SOURCE}, d.id, d.upload_id, f.verdict, f.error_code,
               f.error_subcode, f.error_title, f.error_message, min(f.error_raw), sum(f.event_count)
          from ended d join send_batches f on f.run_id = d.id and f.status = 'failed' and not (${HELD_FIRST_HALF})
         where ${LIVE}
         group by d.workspace_id, d.finished_at, d.pixel_id, d.id, d.upload_id, f.verdict, f.error_code,
                  f.error_subcode, f.error_title, f.error_message)`;
  },

  /** CTEs counting the source runs the statement's `ended` CTE ended (workspace_id, source_id, status, finished_at). */
  sourceRunsEndedCte(): string {
    const outcomes = RUN_COUNTERS.map((o) => `count(*) filter (where d.status = '${o}')`).join(', ');
    return `,
      insight_runs as (
        ${addTo('source_days', RUN_COUNTERS, `select d.workspace_id, ${DAY}, d.source_id, ${outcomes} from ended d group by 1, 2, 3`)}),
      insight_run_weeks as (
        ${addTo('source_weeks', RUN_COUNTERS, `select d.workspace_id, ${weekOf(DAY)}, d.source_id, ${outcomes} from ended d group by 1, 2, 3`)})`;
  },

  /**
   * A workspace's weekly and all-pixels rollups again from its days, as the run-end statements keep them: for days
   * written straight to the tables (tests, the bench's generated year, a journey's history moved back in time).
   */
  async rebuildRollups(db: Queryable, workspaceId: string): Promise<void> {
    const day = DAY_COUNTERS.join(', ');
    const run = RUN_COUNTERS.join(', ');
    for (const t of ['weeks', 'workspace_days', 'workspace_weeks', 'source_weeks'])
      await db.query(`delete from insight_${t} where workspace_id = $1`, [workspaceId]);
    const from = (table: string, keys: string) =>
      `select workspace_id, ${keys}, ${sums(table.includes('source') ? RUN_COUNTERS : DAY_COUNTERS)}
         from ${table} where workspace_id = $1 group by workspace_id, ${keys}`;
    await db.query(
      `insert into insight_weeks (workspace_id, week, pixel_id, source_id, ${day})
       ${from('insight_days', `${weekOf('day')}, pixel_id, source_id`)}`,
      [workspaceId],
    );
    await db.query(
      `insert into insight_workspace_days (workspace_id, day, ${day}) ${from('insight_days', 'day')}`,
      [workspaceId],
    );
    await db.query(
      `insert into insight_workspace_weeks (workspace_id, week, ${day}) ${from('insight_days', weekOf('day'))}`,
      [workspaceId],
    );
    await db.query(
      `insert into insight_source_weeks (workspace_id, week, source_id, ${run})
       ${from('insight_source_days', `${weekOf('day')}, source_id`)}`,
      [workspaceId],
    );
  },

  /**
   * RETENTION_DAYS: counters of days before `before` go, as the runs they counted do. A week keeps the days of it
   * that stay: what its deleted days counted is taken off it, so it stays the sum of its days.
   */
  async deleteBefore(db: Queryable, before: Date): Promise<number> {
    const cutoff = `($1::timestamptz at time zone 'UTC')::date`;
    const weekly = async (days: string, weeks: string, keys: string[], counters: readonly string[]) => {
      const group = ['workspace_id', 'week', ...keys];
      const r = await db.query(
        `with gone as (delete from ${days} where day < ${cutoff} returning *),
              lost as (select ${group.join(', ')}, ${counters.map((c) => `sum(${c}) as ${c}`).join(', ')}
                         from (select *, ${weekOf('day')} as week from gone) g group by ${group.join(', ')}),
              taken as (update ${weeks} w set ${counters.map((c) => `${c} = w.${c} - l.${c}`).join(', ')} from lost l
                         where ${group.map((k) => `w.${k} is not distinct from l.${k}`).join(' and ')})
         select count(*)::int as n from gone`,
        [before],
      );
      // Whole weeks before the cutoff are all zeros by now.
      await db.query(`delete from ${weeks} where week + 6 < ${cutoff}`, [before]);
      return (r.rows[0] as { n: number }).n;
    };
    let n = await weekly('insight_days', 'insight_weeks', ['pixel_id', 'source_id'], DAY_COUNTERS);
    n += await weekly('insight_source_days', 'insight_source_weeks', ['source_id'], RUN_COUNTERS);
    n += await weekly('insight_workspace_days', 'insight_workspace_weeks', [], DAY_COUNTERS);
    const r = await db.query(`delete from insight_failures where day < ${cutoff}`, [before]);
    return n + (r.rowCount ?? 0);
  },
};
