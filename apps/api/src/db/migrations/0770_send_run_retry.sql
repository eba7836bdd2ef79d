-- A retry of a stopped send (token, permission or pixel refused): a new run on the same upload that sends only the
-- events the pixel's ledger lacks. `retry_of` links it to the run it retries; one retry per run, so a double click
-- starts one. `read_at` is the "now" the file is read at: a retry reads it as the first run did (its created_at),
-- so it cuts the same events whatever the day. Null = the run's own created_at.
alter table send_runs add column retry_of uuid references send_runs (id) on delete set null;
alter table send_runs add column read_at timestamptz;
create unique index send_runs_one_retry on send_runs (retry_of) where retry_of is not null;
