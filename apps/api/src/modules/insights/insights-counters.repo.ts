import { INSIGHT_FIX_GROUPS } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { HELD_FIRST_HALF } from '../delivery/delivery-batches.repo.ts';

/**
 * Insights' daily counters (migration 0830, decision 0110), written by the statements that end runs: each
 * function answers CTEs to append to a statement whose `ended` CTE returns the ended send run (all its columns),
 * or whose `ended` CTE returns the ended source runs. The counters move in the same statement as the run's status,
 * so a run is counted once, whichever worker ends it, and never when the statement does not end it.
 */
const DAY = `(d.finished_at at time zone 'UTC')::date`;
const SOURCE = '(select sr.source_id from source_runs sr where sr.send_run_id = d.id limit 1)';
// A test send's events go to Events Manager's test tab: they are not conversions.
const LIVE = 'd.test_event_code is null';

// What was fixed automatically (decision 0123): the counter columns, their sums over the run's sent batches (a
// batch's fixed_* are all null when its corrections were not counted, so fixed_other tells counted batches), and
// the sums added to a row already there.
const FIXED = INSIGHT_FIX_GROUPS.map((g) => `fixed_${g}`);
const FIXED_COLUMNS = ['fixes_counted', ...FIXED].join(', ');
const FIXED_SUMS = [
  'coalesce(sum(b.event_count) filter (where b.fixed_other is not null), 0) as fixes_counted',
  ...FIXED.map((c) => `coalesce(sum(b.${c}), 0) as ${c}`),
].join(', ');
const FIXED_VALUES = ['s.fixes_counted', ...FIXED.map((c) => `s.${c}`)].join(', ');
const fixedAdded = (table: string) =>
  ['fixes_counted', ...FIXED].map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');

export const insightsCounters = {
  /** CTEs (`, name as (…)` each) counting an ended send run's events, identifiers and failure reasons. */
  runEndedCtes(): string {
    return `,
      insight_counts as (
        insert into insight_days (workspace_id, day, pixel_id, source_id, sent, failed, skipped, keyed, score_tenths,
                                  with_email, with_phone, with_name, with_address, with_external_id, ${FIXED_COLUMNS})
        select d.workspace_id, ${DAY}, d.pixel_id, ${SOURCE}, s.sent, f.failed, d.skipped_events, s.keyed, s.tenths,
               s.email, s.phone, s.name, s.address, s.external_id, ${FIXED_VALUES}
          from ended d
          cross join lateral (
            select coalesce(sum(b.event_count), 0) as sent, coalesce(sum(b.match_events), 0) as keyed,
                   coalesce(sum(b.match_tenths), 0) as tenths, coalesce(sum(b.with_email), 0) as email,
                   coalesce(sum(b.with_phone), 0) as phone, coalesce(sum(b.with_name), 0) as name,
                   coalesce(sum(b.with_address), 0) as address, coalesce(sum(b.with_external_id), 0) as external_id,
                   ${FIXED_SUMS}
              from send_batches b where b.run_id = d.id and b.status = 'sent') s
          cross join lateral (
            select coalesce(sum(f.event_count), 0) as failed from send_batches f
             where f.run_id = d.id and f.status = 'failed' and not (${HELD_FIRST_HALF})) f
         where ${LIVE} and s.sent + f.failed + d.skipped_events > 0
        on conflict (workspace_id, day, pixel_id, source_id) do update
          set sent = insight_days.sent + excluded.sent, failed = insight_days.failed + excluded.failed,
              skipped = insight_days.skipped + excluded.skipped, keyed = insight_days.keyed + excluded.keyed,
              score_tenths = insight_days.score_tenths + excluded.score_tenths,
              with_email = insight_days.with_email + excluded.with_email,
              with_phone = insight_days.with_phone + excluded.with_phone,
              with_name = insight_days.with_name + excluded.with_name,
              with_address = insight_days.with_address + excluded.with_address,
              with_external_id = insight_days.with_external_id + excluded.with_external_id,
              ${fixedAdded('insight_days')}),
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

  /** A CTE counting the source runs the statement's `ended` CTE ended (workspace_id, source_id, status, finished_at). */
  sourceRunsEndedCte(): string {
    return `,
      insight_runs as (
        insert into insight_source_runs (workspace_id, day, source_id, status, runs)
        select d.workspace_id, ${DAY}, d.source_id, d.status, count(*) from ended d
         group by d.workspace_id, ${DAY}, d.source_id, d.status
        on conflict (workspace_id, day, source_id, status) do update
          set runs = insight_source_runs.runs + excluded.runs)`;
  },

  /** RETENTION_DAYS: counters of days before `before` go, as the runs they counted do. */
  async deleteBefore(db: Queryable, before: Date): Promise<number> {
    let n = 0;
    for (const table of ['insight_days', 'insight_failures', 'insight_source_runs']) {
      const r = await db.query(
        `delete from ${table} where day < ($1::timestamptz at time zone 'UTC')::date`,
        [before],
      );
      n += r.rowCount ?? 0;
    }
    return n;
  },
};
