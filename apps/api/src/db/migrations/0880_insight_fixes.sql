-- Issue 33: what was fixed automatically, counted per send (decision 0123). Validation corrects values row by row;
-- each sent event carries a fix code (core's fixCode: a bit per group of fields with a corrected value), and a
-- batch committed as sent sums its events' codes into these columns in the same statement. Null for batches sent
-- before this migration: their corrections were never counted.
alter table send_batches add column fixed_email integer;
alter table send_batches add column fixed_phone integer;
alter table send_batches add column fixed_name integer;
alter table send_batches add column fixed_date_of_birth integer;
alter table send_batches add column fixed_address integer;
alter table send_batches add column fixed_event_time integer;
alter table send_batches add column fixed_value integer;
alter table send_batches add column fixed_other integer;

-- The run-end statement sums its sent batches' columns into the day's counters: `fixes_counted` is how many sent
-- events had their corrections counted (batches with non-null fixed_*), `fixed_*` how many of them had a value of
-- the group corrected. Rows counted before stay 0 in all nine: the screen tells "not counted" from "nothing
-- needed fixing" by fixes_counted, as it tells identifiers by `keyed`.
alter table insight_days add column fixes_counted integer not null default 0;
alter table insight_days add column fixed_email integer not null default 0;
alter table insight_days add column fixed_phone integer not null default 0;
alter table insight_days add column fixed_name integer not null default 0;
alter table insight_days add column fixed_date_of_birth integer not null default 0;
alter table insight_days add column fixed_address integer not null default 0;
alter table insight_days add column fixed_event_time integer not null default 0;
alter table insight_days add column fixed_value integer not null default 0;
alter table insight_days add column fixed_other integer not null default 0;

-- The weekly rollups (migration 0870) hold the same counters: a week stays the sum of its days.
alter table insight_weeks add column fixes_counted integer not null default 0;
alter table insight_weeks add column fixed_email integer not null default 0;
alter table insight_weeks add column fixed_phone integer not null default 0;
alter table insight_weeks add column fixed_name integer not null default 0;
alter table insight_weeks add column fixed_date_of_birth integer not null default 0;
alter table insight_weeks add column fixed_address integer not null default 0;
alter table insight_weeks add column fixed_event_time integer not null default 0;
alter table insight_weeks add column fixed_value integer not null default 0;
alter table insight_weeks add column fixed_other integer not null default 0;
