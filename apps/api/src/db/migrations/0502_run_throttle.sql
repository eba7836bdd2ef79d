-- Throttling is a property of the pixel and token, not of one batch: the first rate-limit answer (codes 4, 17, 32,
-- 613, 80003/80004, HTTP 429) sets a run-level "not before" that every worker of the run waits for before it
-- claims or sends a batch (decision 0030). throttled_since starts the current streak of throttling (cleared by a
-- batch Meta accepts): past the give-up time, throttled batches fail instead of waiting on. throttle_count makes
-- the wait grow with each new wave of refusals.
alter table send_runs
  add column throttled_until timestamptz,
  add column throttled_since timestamptz,
  add column throttle_count integer not null default 0;
