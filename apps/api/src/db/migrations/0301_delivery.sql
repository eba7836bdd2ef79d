-- Delivery: one send run per click on Send, its batches (the unit of work, claim and retry) and a per-pixel
-- ledger of delivered events. Counts are derived from committed batch rows, never from counters, so a
-- batch counts only once its outcome is committed.
create table send_runs (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  upload_id uuid not null references uploads (id) on delete cascade,
  pixel_account_id uuid references pixel_accounts (id) on delete set null,
  -- Copied at send time: the summary still names the account after it is edited or deleted.
  pixel_id text not null,
  account_name text not null default '',
  test_event_code text,
  skip_delivered boolean not null default true,
  status text not null default 'running'
    check (status in ('running', 'completed', 'completed_with_errors', 'stopped')),
  stop_reason text check (stop_reason in ('token', 'permission', 'pixel', 'internal')),
  stop_error text,
  -- Set once a worker has read the whole file: the totals are then final.
  planned boolean not null default false,
  total_events integer,
  skipped_events integer not null default 0,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index send_runs_upload_idx on send_runs (upload_id, created_at desc);
create index send_runs_user_idx on send_runs (user_id);
create index send_runs_running_idx on send_runs (status) where status = 'running';

-- A batch is what the core batcher cut at index `idx`; a batch Meta rejected whole is split into children
-- (`part` is the path: '' the original, then '0'/'1' halves, 'x' a row Meta named) so leaves are what count.
create table send_batches (
  id uuid primary key,
  run_id uuid not null references send_runs (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  idx integer not null,
  part text not null default '',
  row_numbers integer[] not null,
  first_row integer not null,
  last_row integer not null,
  event_count integer not null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'split')),
  attempts integer not null default 0,
  -- A worker owns a 'sending' batch until lease_until; after that any worker may take it over.
  lease_token uuid,
  lease_until timestamptz,
  events_received integer,
  fbtrace_id text,
  verdict text,
  error_code integer,
  error_subcode integer,
  error_title text,
  error_message text,
  -- Meta's whole answer (or our cause) for the explanation shown on the summary.
  error_raw text,
  -- sha256 of the events JSON: a resumed worker checks it re-read the same batch.
  payload_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (run_id, idx, part)
);
create index send_batches_open_idx on send_batches (run_id, idx) where status in ('pending', 'sending');

create table delivery_ledger (
  user_id uuid not null references users (id) on delete cascade,
  pixel_id text not null,
  event_name text not null,
  event_id text not null,
  test boolean not null default false,
  run_id uuid references send_runs (id) on delete set null,
  delivered_at timestamptz not null default now(),
  primary key (user_id, pixel_id, event_id, event_name)
);
