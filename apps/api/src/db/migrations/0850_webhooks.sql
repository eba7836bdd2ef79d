-- Issue 32: webhooks (decision 0117). An endpoint is a workspace's URL subscribed to event types, with a signing
-- secret sealed like pixel tokens (AES-256-GCM, the workspace and endpoint bound as additional data). During a
-- rotation the previous secret stays until prev_secret_until, and messages carry both signatures.
-- failing_since: the first failed attempt of the current run of failures (cleared by a success); three days of
-- it disable the endpoint.
create table webhook_endpoints (
  id uuid primary key,
  workspace_id uuid not null references workspaces (id) on delete cascade,
  url text not null,
  description text not null default '',
  events text[] not null,
  enabled boolean not null default true,
  disabled_reason text,
  secret_ciphertext bytea not null,
  secret_iv bytea not null,
  secret_tag bytea not null,
  key_version integer not null,
  prev_secret_ciphertext bytea,
  prev_secret_iv bytea,
  prev_secret_tag bytea,
  prev_key_version integer,
  prev_secret_until timestamptz,
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_workspace_idx on webhook_endpoints (workspace_id, created_at);

-- The outbox and the delivery log in one: a row per message per endpoint, inserted in the transaction (mostly the
-- statement) of the change it tells about, then claimed by a worker under a lease (claim_token, lease_until).
-- message_id is the webhook-id header: the same on every attempt and on a redelivery. data holds ids, counts and
-- statuses, never a customer's value; response_body is the receiver's answer, cut to 1 KB.
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  message_id text not null default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  workspace_id uuid not null references workspaces (id) on delete cascade,
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  event_type text not null,
  data jsonb not null,
  occurred_at timestamptz not null default date_trunc('milliseconds', now()),
  created_at timestamptz not null default now(),
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  claim_token uuid,
  lease_until timestamptz,
  last_attempt_at timestamptz,
  response_status integer,
  duration_ms integer,
  response_body text,
  error text
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at desc);
-- The retention job deletes by age across all workspaces.
create index webhook_deliveries_created_idx on webhook_deliveries (created_at);
