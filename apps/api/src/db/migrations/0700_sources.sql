-- Automatic imports (issue 23): a source is fetched on a schedule and each fetch goes through the upload
-- pipeline and the delivery engine. The secret (token, password) is sealed like pixel access tokens.
create table sources (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  kind text not null check (kind in ('csv_url', 'sftp', 's3')),
  -- Everything needed to connect except the secret: url, auth kind, header name, username.
  connection jsonb not null,
  secret_ciphertext bytea,
  secret_iv bytea,
  secret_tag bytea,
  secret_key_version integer,
  mappings jsonb not null default '{}',
  hardcoded_values jsonb not null default '{}',
  settings jsonb not null,
  pixel_account_id uuid references pixel_accounts (id) on delete set null,
  test_event_code text,
  schedule jsonb not null,
  time_zone text not null,
  error_threshold double precision not null default 0.2,
  status text not null default 'active' check (status in ('active', 'paused')),
  pause_reason text,
  -- The scheduler's claim: the earliest due active source is taken under FOR UPDATE SKIP LOCKED.
  next_run_at timestamptz,
  -- "Run now": taken by the next scheduler tick, whatever the status.
  run_requested_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index sources_user_idx on sources (user_id, created_at);
create index sources_due_idx on sources (next_run_at) where status = 'active';
create index sources_account_idx on sources (pixel_account_id);

create table source_runs (
  id uuid primary key,
  source_id uuid not null references sources (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  trigger text not null check (trigger in ('schedule', 'manual')),
  status text not null default 'running' check (status in ('running', 'sent', 'nothing_new', 'paused', 'failed')),
  due_at timestamptz,
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now(),
  finished_at timestamptz,
  upload_id uuid references uploads (id) on delete set null,
  send_run_id uuid references send_runs (id) on delete set null,
  rows_read integer not null default 0,
  rows_skipped integer not null default 0,
  skipped_rows jsonb not null default '[]',
  message text
);
-- One run at a time per source, whatever the number of workers.
create unique index source_runs_one_running on source_runs (source_id) where status = 'running';
create index source_runs_source_idx on source_runs (source_id, started_at desc);

-- Files (SFTP) and objects (S3) already processed: name+size+mtime or key+etag.
create table source_seen (
  source_id uuid not null references sources (id) on delete cascade,
  item_key text not null,
  seen_at timestamptz not null default now(),
  primary key (source_id, item_key)
);
