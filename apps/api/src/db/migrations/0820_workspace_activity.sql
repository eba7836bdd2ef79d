-- Issue 31: what happened in a workspace and who did it, for its owners and admins (decision 0106). Append-only.
-- The actor's id has no foreign key and their label is copied at write time, so the log still reads, and still
-- filters by person, after the user is deleted; a null actor is the schedule (a source's scheduled run).
-- Subjects are names people gave (a file, a pixel account, a source), details small counts: never a customer's
-- value. `at` is kept to the millisecond so a page's cursor (at, id) round-trips through JavaScript exactly.
create table workspace_activity (
  id bigint generated always as identity primary key,
  workspace_id uuid not null references workspaces (id) on delete cascade,
  at timestamptz not null default date_trunc('milliseconds', now()),
  actor_user_id uuid,
  actor_label text not null,
  kind text not null,
  subject text,
  details jsonb not null default '{}',
  ip text
);
create index workspace_activity_workspace_at_idx on workspace_activity (workspace_id, at desc, id desc);
-- The retention job deletes by age across all workspaces.
create index workspace_activity_at_idx on workspace_activity (at);

-- When the member's last sign-in entry was written: one per member and workspace in 12 hours. Apart from
-- last_active_at, which the members list keeps to the minute.
alter table workspace_members add column signed_in_at timestamptz;
