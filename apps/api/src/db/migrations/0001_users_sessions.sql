-- Accounts and cookie sessions. Ranges per area: 01xx auth, 02xx workflow, 03xx delivery, 04xx public site.
create table users (
  id uuid primary key,
  email text not null,
  first_name text not null,
  last_name text not null default '',
  company text not null default '',
  role text not null default '',
  password_hash text not null,
  email_verified boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));

-- Only a SHA-256 of the session token is stored: a database leak does not yield live sessions.
create table sessions (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_user_id_idx on sessions (user_id);
