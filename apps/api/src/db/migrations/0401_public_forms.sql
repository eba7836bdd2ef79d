-- Contact messages, waitlist sign-ups and audit requests, in one table: one rate limit, one retention rule.
create table public_submissions (
  id uuid primary key,
  kind text not null check (kind in ('contact', 'automation_waitlist', 'audit', 'lead_ai_waitlist')),
  user_id uuid references users (id) on delete cascade,
  email text not null,
  ip text not null,
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index public_submissions_ip_idx on public_submissions (ip, created_at);
create index public_submissions_email_idx on public_submissions (lower(email), created_at);

-- A captcha token is accepted once (stored as its SHA-256).
create table used_captcha_tokens (
  token_hash text primary key,
  used_at timestamptz not null default now()
);

create table analytics_events (
  id bigserial primary key,
  name text not null,
  props jsonb not null default '{}',
  path text not null,
  occurred_at timestamptz not null,
  user_id uuid references users (id) on delete set null,
  received_at timestamptz not null default now()
);
create index analytics_events_name_idx on analytics_events (name, occurred_at);
