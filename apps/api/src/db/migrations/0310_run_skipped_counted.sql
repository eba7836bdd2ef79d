-- Events already delivered that a run will skip, counted before its batches are planned (a quick read of the
-- file when the pixel has live deliveries), so the summary shows them as skipped from the start.
alter table send_runs add column skipped_counted boolean not null default false;
