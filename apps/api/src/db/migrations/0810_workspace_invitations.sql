-- Issue 31: invitations to a workspace by e-mail (decision 0105). Only the SHA-256 of a link's token is stored,
-- like email_tokens. Accepted and revoked rows stay (with their hash), so an old link says what became of it.
create table workspace_invitations (
  id uuid primary key,
  workspace_id uuid not null references workspaces (id) on delete cascade,
  email text not null,
  role text not null check (role in ('owner', 'admin', 'member', 'viewer')),
  token_hash text not null,
  invited_by uuid references users (id) on delete set null,
  created_at timestamptz not null,
  last_sent_at timestamptz not null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references users (id) on delete set null,
  revoked_at timestamptz
);
create unique index workspace_invitations_token_key on workspace_invitations (token_hash);
create index workspace_invitations_open_idx on workspace_invitations (workspace_id, lower(email))
  where accepted_at is null and revoked_at is null;

-- Every invitation mail sent (new or resent): a workspace may send 20 an hour. Rows older than the hour are
-- pruned by housekeeping.
create table workspace_invitation_mails (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  sent_at timestamptz not null
);
create index workspace_invitation_mails_idx on workspace_invitation_mails (workspace_id, sent_at);
