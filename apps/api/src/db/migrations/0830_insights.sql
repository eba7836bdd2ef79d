-- Issue 33: Insights. Daily counters written by the statement that ends a send run or a source run, so the
-- Insights screen reads a few hundred rows per pixel and source, never a run's batches or the ledger
-- (decision 0110). Days are UTC dates of when the run ended. Counters have no foreign key to runs or sources:
-- they outlive a deleted file or source, and go with their workspace or after RETENTION_DAYS.

-- What a sent batch's events carried (core's matchCode): events counted, the sum of their match estimates in
-- tenths, and how many carried each identifier. Null for batches sent before this migration (unknown).
alter table send_batches add column match_events integer;
alter table send_batches add column match_tenths integer;
alter table send_batches add column with_email integer;
alter table send_batches add column with_phone integer;
alter table send_batches add column with_name integer;
alter table send_batches add column with_address integer;
alter table send_batches add column with_external_id integer;

-- Events per day × pixel × source (null: a file uploaded by hand), one counter per outcome (sent, failed, skipped)
-- and per identifier group: `keyed` is how many sent events had their identifiers counted (runs from before this
-- migration did not), `score_tenths` the sum of their match estimates, `with_*` how many carried each group.
-- One wide row rather than a row per outcome and per identifier: the screen reads a ninth of the rows (decision
-- 0110, the bench's figures). Integers (a day's events stay far below 2^31): their sums are bigint, not numeric.
create table insight_days (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  day date not null,
  pixel_id text not null,
  source_id uuid,
  sent integer not null default 0,
  failed integer not null default 0,
  skipped integer not null default 0,
  keyed integer not null default 0,
  score_tenths integer not null default 0,
  with_email integer not null default 0,
  with_phone integer not null default 0,
  with_name integer not null default 0,
  with_address integer not null default 0,
  with_external_id integer not null default 0
);
create unique index insight_days_key on insight_days (workspace_id, day, pixel_id, source_id) nulls not distinct;

-- Failed events per run and reason (the summary's groups: verdict, code, subcode, title, message), so a reason
-- links to the sends that had it. One insert per run when it ends.
create table insight_failures (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  day date not null,
  pixel_id text not null,
  source_id uuid,
  run_id uuid not null,
  upload_id uuid not null,
  verdict text,
  error_code integer,
  error_subcode integer,
  error_title text,
  error_message text,
  error_raw text,
  events integer not null
);
create index insight_failures_day_idx on insight_failures (workspace_id, day);
create index insight_failures_retention_idx on insight_failures (day);

-- Source runs per day × source × outcome.
create table insight_source_runs (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  day date not null,
  source_id uuid not null,
  status text not null check (status in ('sent', 'nothing_new', 'paused', 'failed')),
  runs integer not null default 0
);
create unique index insight_source_runs_key on insight_source_runs (workspace_id, day, source_id, status);

-- Retention deletes by day across all workspaces.
create index insight_days_day_idx on insight_days (day);
create index insight_source_runs_day_idx on insight_source_runs (day);

-- Backfill from the runs kept so far: every finished live run (a test send's events are not conversions) counted
-- as its statement would have counted it; identifiers are unknown before this migration (keyed and with_* stay 0).
insert into insight_days (workspace_id, day, pixel_id, source_id, sent, failed, skipped)
select r.workspace_id, (coalesce(r.finished_at, r.updated_at) at time zone 'UTC')::date, r.pixel_id,
       (select sr.source_id from source_runs sr where sr.send_run_id = r.id limit 1) as source_id,
       sum(o.sent), sum(o.failed), sum(r.skipped_events)
  from send_runs r
  cross join lateral (
    select coalesce((select sum(b.event_count) from send_batches b where b.run_id = r.id and b.status = 'sent'), 0) as sent,
           -- A first half held until its sibling settles counts as open, as the summary counts it (HELD_FIRST_HALF).
           coalesce((select sum(f.event_count) from send_batches f
                      where f.run_id = r.id and f.status = 'failed' and not (
      f.status = 'failed' and f.verdict = 'bad_rows' and f.part like '%0' and f.event_count > 1
      and not f.failed_whole
      and exists (select 1 from send_batches p where p.run_id = f.run_id and p.idx = f.idx and p.part = left(f.part, -1)
        and p.status = 'split' and p.error_code is not distinct from f.error_code
        and p.error_subcode is not distinct from f.error_subcode))), 0) as failed
  ) o
 where r.status <> 'running' and r.test_event_code is null and o.sent + o.failed + r.skipped_events > 0
 group by 1, 2, 3, 4;

insert into insight_failures (workspace_id, day, pixel_id, source_id, run_id, upload_id, verdict, error_code,
                              error_subcode, error_title, error_message, error_raw, events)
select r.workspace_id, (coalesce(r.finished_at, r.updated_at) at time zone 'UTC')::date, r.pixel_id,
       (select sr.source_id from source_runs sr where sr.send_run_id = r.id limit 1),
       r.id, r.upload_id, b.verdict, b.error_code, b.error_subcode, b.error_title, b.error_message, min(b.error_raw),
       sum(b.event_count)
  from send_runs r join send_batches b on b.run_id = r.id and b.status = 'failed'
 where r.status <> 'running' and r.test_event_code is null
   and not exists (select 1 from send_batches f where f.id = b.id and f.status = 'failed' and f.verdict = 'bad_rows' and f.part like '%0' and f.event_count > 1
      and not f.failed_whole
      and exists (select 1 from send_batches p where p.run_id = f.run_id and p.idx = f.idx and p.part = left(f.part, -1)
        and p.status = 'split' and p.error_code is not distinct from f.error_code
        and p.error_subcode is not distinct from f.error_subcode))
 group by r.id, b.verdict, b.error_code, b.error_subcode, b.error_title, b.error_message;

insert into insight_source_runs (workspace_id, day, source_id, status, runs)
select workspace_id, (coalesce(finished_at, started_at) at time zone 'UTC')::date, source_id, status, count(*)
  from source_runs
 where status <> 'running'
 group by 1, 2, 3, 4;
