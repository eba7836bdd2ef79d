-- Uploaded files: metadata here, bytes in upload_chunks so any instance can stream them.
create table uploads (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  file_name text not null,
  status text not null default 'uploaded'
    check (status in ('uploaded', 'mapped', 'validated', 'prepared', 'submitted')),
  -- False while the bytes are still arriving; such rows are invisible and swept if the upload dies.
  complete boolean not null default false,
  size_bytes bigint not null default 0,
  row_count integer not null default 0,
  encoding text not null default 'utf-8',
  delimiter text not null default ',',
  headers jsonb not null default '[]',
  samples jsonb not null default '{}',
  date_orders jsonb not null default '{}',
  mappings jsonb not null default '{}',
  hardcoded_values jsonb not null default '{}',
  settings jsonb,
  mapping_saved boolean not null default false,
  -- Fingerprint of file + mapping + settings of the last clean validation ('validated' needs it to match).
  clean_fingerprint text,
  file_version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index uploads_user_created_idx on uploads (user_id, created_at desc);

create table upload_chunks (
  upload_id uuid not null references uploads (id) on delete cascade,
  seq integer not null,
  data bytea not null,
  primary key (upload_id, seq)
);

create table mapping_templates (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  name text not null,
  mappings jsonb not null default '{}',
  hardcoded jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index mapping_templates_user_name_key on mapping_templates (user_id, lower(name));

-- Access tokens are AES-256-GCM encrypted; the owner and id are bound as additional data.
create table pixel_accounts (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  name text not null default '',
  pixel_id text not null,
  token_ciphertext bytea not null,
  token_iv bytea not null,
  token_tag bytea not null,
  key_version integer not null,
  token_last4 text not null,
  status text not null default 'active' check (status in ('active', 'reconnect_needed')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index pixel_accounts_user_idx on pixel_accounts (user_id, created_at);
