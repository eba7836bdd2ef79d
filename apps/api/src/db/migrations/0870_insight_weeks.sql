-- Issue 33: weekly rollups of the Insights counters, for ranges longer than INSIGHT_DAILY_MAX_DAYS, and source runs
-- as a row per day and source (decision 0122).
-- A year of days is 365 rows per pixel and source; its weeks are 53, so a year's view reads a seventh of the rows.
-- Weeks are ISO weeks: `week` is the Monday (UTC) that starts it. Written by the same statements as the days, so a
-- week is always the sum of its days (retention subtracts the days it deletes, insights-counters.repo.ts).
-- The Monday is date arithmetic (isodow): date_trunc on a date would go through timestamptz, in the session's zone.

create table insight_weeks (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  week date not null check (extract(isodow from week) = 1),
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
create unique index insight_weeks_key on insight_weeks (workspace_id, week, pixel_id, source_id) nulls not distinct;
create index insight_weeks_week_idx on insight_weeks (week);

-- Source runs per day × source with a counter per outcome, replacing 0830's row per outcome: half the rows to read
-- (a source that runs hourly has a sent and a nothing-new row most days), and the same per week.
create table insight_source_days (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  day date not null,
  source_id uuid not null,
  sent integer not null default 0,
  nothing_new integer not null default 0,
  paused integer not null default 0,
  failed integer not null default 0
);
create unique index insight_source_days_key on insight_source_days (workspace_id, day, source_id);
create index insight_source_days_day_idx on insight_source_days (day);

create table insight_source_weeks (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  week date not null check (extract(isodow from week) = 1),
  source_id uuid not null,
  sent integer not null default 0,
  nothing_new integer not null default 0,
  paused integer not null default 0,
  failed integer not null default 0
);
create unique index insight_source_weeks_key on insight_source_weeks (workspace_id, week, source_id);
create index insight_source_weeks_week_idx on insight_source_weeks (week);

-- Every day counted so far, in its week.
insert into insight_weeks (workspace_id, week, pixel_id, source_id, sent, failed, skipped, keyed, score_tenths,
                           with_email, with_phone, with_name, with_address, with_external_id)
select workspace_id, day - (extract(isodow from day)::int - 1), pixel_id, source_id, sum(sent), sum(failed),
       sum(skipped), sum(keyed), sum(score_tenths), sum(with_email), sum(with_phone), sum(with_name),
       sum(with_address), sum(with_external_id)
  from insight_days
 group by 1, 2, 3, 4;

insert into insight_source_days (workspace_id, day, source_id, sent, nothing_new, paused, failed)
select workspace_id, day, source_id, coalesce(sum(runs) filter (where status = 'sent'), 0),
       coalesce(sum(runs) filter (where status = 'nothing_new'), 0), coalesce(sum(runs) filter (where status = 'paused'), 0),
       coalesce(sum(runs) filter (where status = 'failed'), 0)
  from insight_source_runs
 group by 1, 2, 3;

insert into insight_source_weeks (workspace_id, week, source_id, sent, nothing_new, paused, failed)
select workspace_id, day - (extract(isodow from day)::int - 1), source_id, sum(sent), sum(nothing_new), sum(paused),
       sum(failed)
  from insight_source_days
 group by 1, 2, 3;

drop table insight_source_runs;
