-- Issue 33: a workspace's counters per day and per week, all pixels and sources together (decision 0122). The
-- Insights screen's totals per bar, without a filter (the view most open), read a row per day instead of one per
-- day, pixel and source (150 for 50 pixels and 100 sources). Written by the statement that ends a run beside
-- insight_days and insight_weeks, so each row is the sum of its workspace's rows there.

create table insight_workspace_days (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  day date not null,
  sent integer not null default 0,
  failed integer not null default 0,
  skipped integer not null default 0,
  keyed integer not null default 0,
  score_tenths integer not null default 0,
  with_email integer not null default 0,
  with_phone integer not null default 0,
  with_name integer not null default 0,
  with_address integer not null default 0,
  with_external_id integer not null default 0,
  fixes_counted integer not null default 0,
  fixed_email integer not null default 0,
  fixed_phone integer not null default 0,
  fixed_name integer not null default 0,
  fixed_date_of_birth integer not null default 0,
  fixed_address integer not null default 0,
  fixed_event_time integer not null default 0,
  fixed_value integer not null default 0,
  fixed_other integer not null default 0,
  primary key (workspace_id, day)
);
create index insight_workspace_days_day_idx on insight_workspace_days (day);

create table insight_workspace_weeks (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  week date not null check (extract(isodow from week) = 1),
  sent integer not null default 0,
  failed integer not null default 0,
  skipped integer not null default 0,
  keyed integer not null default 0,
  score_tenths integer not null default 0,
  with_email integer not null default 0,
  with_phone integer not null default 0,
  with_name integer not null default 0,
  with_address integer not null default 0,
  with_external_id integer not null default 0,
  fixes_counted integer not null default 0,
  fixed_email integer not null default 0,
  fixed_phone integer not null default 0,
  fixed_name integer not null default 0,
  fixed_date_of_birth integer not null default 0,
  fixed_address integer not null default 0,
  fixed_event_time integer not null default 0,
  fixed_value integer not null default 0,
  fixed_other integer not null default 0,
  primary key (workspace_id, week)
);
create index insight_workspace_weeks_week_idx on insight_workspace_weeks (week);

insert into insight_workspace_days (workspace_id, day, sent, failed, skipped, keyed, score_tenths, with_email, with_phone, with_name, with_address, with_external_id, fixes_counted, fixed_email, fixed_phone, fixed_name, fixed_date_of_birth, fixed_address, fixed_event_time, fixed_value, fixed_other)
select workspace_id, day, sum(sent), sum(failed), sum(skipped), sum(keyed), sum(score_tenths), sum(with_email), sum(with_phone), sum(with_name), sum(with_address), sum(with_external_id), sum(fixes_counted), sum(fixed_email), sum(fixed_phone), sum(fixed_name), sum(fixed_date_of_birth), sum(fixed_address), sum(fixed_event_time), sum(fixed_value), sum(fixed_other) from insight_days group by 1, 2;

insert into insight_workspace_weeks (workspace_id, week, sent, failed, skipped, keyed, score_tenths, with_email, with_phone, with_name, with_address, with_external_id, fixes_counted, fixed_email, fixed_phone, fixed_name, fixed_date_of_birth, fixed_address, fixed_event_time, fixed_value, fixed_other)
select workspace_id, week, sum(sent), sum(failed), sum(skipped), sum(keyed), sum(score_tenths), sum(with_email), sum(with_phone), sum(with_name), sum(with_address), sum(with_external_id), sum(fixes_counted), sum(fixed_email), sum(fixed_phone), sum(fixed_name), sum(fixed_date_of_birth), sum(fixed_address), sum(fixed_event_time), sum(fixed_value), sum(fixed_other) from insight_weeks group by 1, 2;
