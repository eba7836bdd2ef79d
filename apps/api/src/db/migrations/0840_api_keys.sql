-- Issue 32: API keys of a workspace (decision 0113). Only the key's SHA-256 is kept; `prefix` is its first
-- characters, shown so a person can tell keys apart. A key acts in its workspace with the role its scope stands
-- for, and only while its creator is still an owner or admin there (checked on every call, like revocation).
create table api_keys (
  id uuid primary key,
  workspace_id uuid not null references workspaces (id) on delete cascade,
  name text not null,
  scope text not null check (scope in ('read', 'send', 'admin')),
  key_hash text not null unique,
  prefix text not null,
  created_by uuid not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz
);
create index api_keys_workspace_idx on api_keys (workspace_id, created_at desc);

-- Idempotency-Key of a v1 POST (kept 24 hours): the first call's answer, replayed to a retry with the same key
-- and body; a row without `status` is a call still running. Per API key: two programs never share an answer.
create table api_idempotency (
  key_id uuid not null references api_keys (id) on delete cascade,
  idem_key text not null,
  fingerprint text not null,
  status int,
  body text,
  content_type text,
  created_at timestamptz not null default now(),
  primary key (key_id, idem_key)
);
create index api_idempotency_created_idx on api_idempotency (created_at);
