-- Issue 31: a send that ends with failed events, or stops, is mailed to the workspace's owners and admins and to
-- the member who started it. The statement that ends the run sets notice_due; whichever worker claims it first
-- (clearing it) mails, so a run is mailed at most once. Runs that ended before this migration are not mailed.
alter table send_runs add column notice_due boolean not null default false;
create index send_runs_notice_due_idx on send_runs (id) where notice_due;
