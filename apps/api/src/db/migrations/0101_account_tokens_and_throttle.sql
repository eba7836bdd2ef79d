-- Single-use verification and reset tokens, stored as SHA-256 only.
create table email_tokens (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('verify', 'reset')),
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index email_tokens_user_idx on email_tokens (user_id, purpose);

-- Failed logins per key ('email:…' or 'ip:…') for throttling that works across instances.
create table login_failures (
  id bigserial primary key,
  key text not null,
  at timestamptz not null default now()
);
create index login_failures_key_at_idx on login_failures (key, at);
