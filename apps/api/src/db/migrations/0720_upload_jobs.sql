-- Validation and prepare of a file run as background jobs (issue 22 item 8, docs/decisions/0091): one row per
-- upload and kind, replaced by the next run. The request that starts a job answers at once; the page polls it.
create table upload_jobs (
  id uuid primary key,
  upload_id uuid not null references uploads (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('validate', 'prepare')),
  status text not null default 'running' check (status in ('running', 'done', 'failed')),
  stage text not null default 'queued' check (stage in ('queued', 'reading', 'finishing', 'finished')),
  -- The upload's fingerprint (content, mapping, settings) the job ran on: a result for another one is stale.
  fingerprint text not null,
  -- The claim: the worker holding this token runs the job; a takeover writes a new one, so the old worker's
  -- late writes (progress, result) match no row.
  claim_token text not null,
  attempts integer not null default 1,
  -- The daily quota is counted once per job, however many workers run it.
  quota_taken boolean not null default false,
  rows_done integer not null default 0,
  rows_total integer not null,
  result jsonb,
  error jsonb,
  heartbeat_at timestamptz not null default now(),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (upload_id, kind)
);
create index upload_jobs_running_idx on upload_jobs (heartbeat_at) where status = 'running';
create index upload_jobs_user_idx on upload_jobs (user_id);
