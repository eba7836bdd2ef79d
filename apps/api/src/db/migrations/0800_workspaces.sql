-- Issue 31: a workspace owns what an account owned (uploads, templates, pixel accounts, sources, runs, usage);
-- users are its members with a role. Every existing account gets its first workspace with the account's own id,
-- so each owned row's user_id is already its workspace's id: the owned tables only rename the column and point
-- its foreign key at workspaces. No row is copied, rewritten or dropped (decision 0103).
create table workspaces (
  id uuid primary key,
  name text not null,
  slug text not null,
  created_at timestamptz not null default now()
);
create unique index workspaces_slug_key on workspaces (slug);

create table workspace_members (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
  created_at timestamptz not null default now(),
  last_active_at timestamptz,
  primary key (workspace_id, user_id)
);
create index workspace_members_user_idx on workspace_members (user_id);

-- The workspace a user last opened: where the app lands after login.
alter table users add column current_workspace_id uuid references workspaces (id) on delete set null;

-- Slugs: the company (or the person's name) in lower-case words, then 8 hex digits of the id; the whole id's hex
-- where two accounts would still share one.
insert into workspaces (id, name, slug, created_at)
select id, name,
       case when count(*) over (partition by short) > 1 then base || '-' || hex else short end,
       created_at
  from (
    select id, created_at, name, base, hex, base || '-' || left(hex, 8) as short
      from (
        select id, created_at,
               coalesce(nullif(btrim(company), ''), btrim(first_name || ' ' || last_name)) as name,
               coalesce(nullif(left(btrim(regexp_replace(lower(
                 coalesce(nullif(btrim(company), ''), first_name || ' ' || last_name)), '[^a-z0-9]+', '-', 'g'),
                 '-'), 40), ''), 'workspace') as base,
               replace(id::text, '-', '') as hex
          from users
      ) named
  ) slugged;

insert into workspace_members (workspace_id, user_id, role, created_at)
select id, id, 'owner', created_at from users;

update users set current_workspace_id = id;

-- The owned tables: user_id becomes workspace_id, referencing workspaces with the same cascade.
alter table uploads rename column user_id to workspace_id;
alter table uploads drop constraint uploads_user_id_fkey;
alter table uploads add constraint uploads_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

alter table mapping_templates rename column user_id to workspace_id;
alter table mapping_templates drop constraint mapping_templates_user_id_fkey;
alter table mapping_templates add constraint mapping_templates_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

alter table pixel_accounts rename column user_id to workspace_id;
alter table pixel_accounts drop constraint pixel_accounts_user_id_fkey;
alter table pixel_accounts add constraint pixel_accounts_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

alter table send_runs rename column user_id to workspace_id;
alter table send_runs drop constraint send_runs_user_id_fkey;
alter table send_runs add constraint send_runs_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;
-- Who started a send (mail about it goes to them too); null for a source's scheduled run.
alter table send_runs add column started_by uuid references users (id) on delete set null;
update send_runs set started_by = workspace_id;

alter table send_batches rename column user_id to workspace_id;
alter table send_batches drop constraint send_batches_user_id_fkey;
alter table send_batches add constraint send_batches_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

alter table usage_events rename column user_id to workspace_id;
alter table usage_events drop constraint usage_events_user_id_fkey;
alter table usage_events add constraint usage_events_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

alter table sources rename column user_id to workspace_id;
alter table sources drop constraint sources_user_id_fkey;
alter table sources add constraint sources_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

alter table source_runs rename column user_id to workspace_id;
alter table source_runs drop constraint source_runs_user_id_fkey;
alter table source_runs add constraint source_runs_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

alter table upload_jobs rename column user_id to workspace_id;
alter table upload_jobs drop constraint upload_jobs_user_id_fkey;
alter table upload_jobs add constraint upload_jobs_workspace_id_fkey
  foreign key (workspace_id) references workspaces (id) on delete cascade;

-- The ledger is the pixel's record, whichever workspace sent: two workspaces sending to one pixel must never
-- double-send. The key's columns are the same, reordered so a lookup by pixel and event id needs no workspace;
-- every existing row stays (the old key was unique, so the reordered one is too).
alter table delivery_ledger rename column user_id to workspace_id;
alter table delivery_ledger drop constraint delivery_ledger_pkey;
alter table delivery_ledger add primary key (pixel_id, event_id, event_name, workspace_id);
