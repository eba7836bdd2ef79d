-- Issue 31: who asked for a source's "Run now", so the run's outcome and its send are theirs in the activity log
-- and the mail about a send that failed reaches them too. Cleared with run_requested_at when a run claims it; a
-- scheduled run has none (the log's actor is then the schedule).
alter table sources add column run_requested_by uuid references users (id) on delete set null;
