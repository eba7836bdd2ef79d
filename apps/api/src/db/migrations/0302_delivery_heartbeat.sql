-- A worker sending a run touches heartbeat_at every few seconds. A 'running' run whose heartbeat and batches
-- have been quiet for longer than the batch lease has lost its worker (crash, kill -9): every worker's sweeper
-- re-queues it, instead of it waiting for pg-boss's 6-hour job expiry.
alter table send_runs add column heartbeat_at timestamptz;
