import type { Queryable } from '../../db/db.ts';
import type { WorkspaceRole } from '@backsignal/contracts';

export interface MemberRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: WorkspaceRole;
  joinedAt: Date;
  lastActiveAt: Date | null;
}

export interface InvitationRow {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: WorkspaceRole;
  invitedBy: string | null;
  createdAt: Date;
  lastSentAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
}

const INVITATION_COLUMNS = `i.id, i.workspace_id as "workspaceId", w.name as "workspaceName", i.email, i.role,
  nullif(btrim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "invitedBy",
  i.created_at as "createdAt", i.last_sent_at as "lastSentAt", i.expires_at as "expiresAt",
  i.accepted_at as "acceptedAt", i.revoked_at as "revokedAt"`;
const INVITATION_FROM = `workspace_invitations i join workspaces w on w.id = i.workspace_id
  left join users u on u.id = i.invited_by`;

/** Members of a workspace and its invitations (migrations 0800, 0810). */
export const membersRepo = {
  async list(db: Queryable, workspaceId: string): Promise<MemberRow[]> {
    const r = await db.query<MemberRow>(
      `select u.id as "userId", u.first_name as "firstName", u.last_name as "lastName", u.email, m.role,
              m.created_at as "joinedAt", m.last_active_at as "lastActiveAt"
         from workspace_members m join users u on u.id = m.user_id
        where m.workspace_id = $1
        order by array_position(array['owner', 'admin', 'member', 'viewer'], m.role),
                 lower(u.first_name), lower(u.last_name), u.id`,
      [workspaceId],
    );
    return r.rows;
  },

  async find(db: Queryable, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
    const r = await db.query<MemberRow>(
      `select u.id as "userId", u.first_name as "firstName", u.last_name as "lastName", u.email, m.role,
              m.created_at as "joinedAt", m.last_active_at as "lastActiveAt"
         from workspace_members m join users u on u.id = m.user_id
        where m.workspace_id = $1 and m.user_id = $2`,
      [workspaceId, userId],
    );
    return r.rows[0];
  },

  async isMemberByEmail(db: Queryable, workspaceId: string, email: string): Promise<boolean> {
    const r = await db.query(
      `select 1 from workspace_members m join users u on u.id = m.user_id
        where m.workspace_id = $1 and lower(u.email) = lower($2)`,
      [workspaceId, email],
    );
    return r.rows.length > 0;
  },

  /** Holds the workspace's row until the transaction ends: member and invitation changes take turns. */
  async lockWorkspace(db: Queryable, workspaceId: string): Promise<void> {
    await db.query('select 1 from workspaces where id = $1 for update', [workspaceId]);
  },

  /**
   * Locks the workspace's row for the rest of the transaction and answers how many owners it has: two owners
   * demoting each other at once wait for one another, so the last owner is always counted right.
   */
  async lockOwners(db: Queryable, workspaceId: string): Promise<number> {
    await membersRepo.lockWorkspace(db, workspaceId);
    const r = await db.query<{ n: number }>(
      `select count(*)::int as n from workspace_members where workspace_id = $1 and role = 'owner'`,
      [workspaceId],
    );
    return r.rows[0]!.n;
  },

  async setRole(db: Queryable, workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
    await db.query('update workspace_members set role = $3 where workspace_id = $1 and user_id = $2', [
      workspaceId,
      userId,
      role,
    ]);
  },

  async remove(db: Queryable, workspaceId: string, userId: string): Promise<void> {
    await db.query('delete from workspace_members where workspace_id = $1 and user_id = $2', [
      workspaceId,
      userId,
    ]);
  },

  /** Adds the member, or answers false when they already are one. */
  async add(db: Queryable, workspaceId: string, userId: string, role: WorkspaceRole): Promise<boolean> {
    const r = await db.query(
      `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, $3)
       on conflict (workspace_id, user_id) do nothing`,
      [workspaceId, userId, role],
    );
    return r.rowCount > 0;
  },

  // Invitations

  async insertInvitation(
    db: Queryable,
    i: {
      id: string;
      workspaceId: string;
      email: string;
      role: WorkspaceRole;
      tokenHash: string;
      invitedBy: string;
      at: Date;
      expiresAt: Date;
    },
  ): Promise<void> {
    await db.query(
      `insert into workspace_invitations
         (id, workspace_id, email, role, token_hash, invited_by, created_at, last_sent_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
      [i.id, i.workspaceId, i.email, i.role, i.tokenHash, i.invitedBy, i.at, i.expiresAt],
    );
  },

  /** Invitations neither accepted nor revoked, expired ones included, newest first. */
  async openInvitations(db: Queryable, workspaceId: string): Promise<InvitationRow[]> {
    const r = await db.query<InvitationRow>(
      `select ${INVITATION_COLUMNS} from ${INVITATION_FROM}
        where i.workspace_id = $1 and i.accepted_at is null and i.revoked_at is null
        order by i.created_at desc, i.id`,
      [workspaceId],
    );
    return r.rows;
  },

  async findInvitation(db: Queryable, workspaceId: string, id: string): Promise<InvitationRow | undefined> {
    const r = await db.query<InvitationRow>(
      `select ${INVITATION_COLUMNS} from ${INVITATION_FROM} where i.workspace_id = $1 and i.id = $2`,
      [workspaceId, id],
    );
    return r.rows[0];
  },

  async findInvitationByToken(db: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
    const r = await db.query<InvitationRow>(
      `select ${INVITATION_COLUMNS} from ${INVITATION_FROM} where i.token_hash = $1`,
      [tokenHash],
    );
    return r.rows[0];
  },

  /** Invitations still waiting at `now`: what the pending limit counts. */
  async countPending(db: Queryable, workspaceId: string, now: Date): Promise<number> {
    const r = await db.query<{ n: number }>(
      `select count(*)::int as n from workspace_invitations
        where workspace_id = $1 and accepted_at is null and revoked_at is null and expires_at > $2`,
      [workspaceId, now],
    );
    return r.rows[0]!.n;
  },

  async hasPendingFor(db: Queryable, workspaceId: string, email: string, now: Date): Promise<boolean> {
    const r = await db.query(
      `select 1 from workspace_invitations
        where workspace_id = $1 and lower(email) = lower($2)
          and accepted_at is null and revoked_at is null and expires_at > $3`,
      [workspaceId, email, now],
    );
    return r.rows.length > 0;
  },

  /** A new link for the invitation: the old one stops working. */
  async renewInvitation(
    db: Queryable,
    id: string,
    r: { tokenHash: string; at: Date; expiresAt: Date },
  ): Promise<void> {
    await db.query(
      'update workspace_invitations set token_hash = $2, last_sent_at = $3, expires_at = $4 where id = $1',
      [id, r.tokenHash, r.at, r.expiresAt],
    );
  },

  async revokeInvitation(db: Queryable, id: string, at: Date): Promise<boolean> {
    const r = await db.query(
      `update workspace_invitations set revoked_at = $2
        where id = $1 and accepted_at is null and revoked_at is null`,
      [id, at],
    );
    return r.rowCount > 0;
  },

  /**
   * Marks the invitation used, if it still can be, in one statement: a link works once, even when opened twice
   * at the same moment.
   */
  async consumeInvitation(db: Queryable, id: string, userId: string, now: Date): Promise<boolean> {
    const r = await db.query(
      `update workspace_invitations set accepted_at = $3, accepted_by = $2
        where id = $1 and accepted_at is null and revoked_at is null and expires_at > $3`,
      [id, userId, now],
    );
    return r.rowCount > 0;
  },

  async recordMail(db: Queryable, workspaceId: string, at: Date): Promise<void> {
    await db.query('insert into workspace_invitation_mails (workspace_id, sent_at) values ($1, $2)', [
      workspaceId,
      at,
    ]);
  },

  /** The invitation mails sent since `since`, oldest first (the oldest tells when the next may go). */
  async mailsSince(db: Queryable, workspaceId: string, since: Date): Promise<Date[]> {
    const r = await db.query<{ sent_at: Date }>(
      `select sent_at from workspace_invitation_mails where workspace_id = $1 and sent_at > $2
        order by sent_at`,
      [workspaceId, since],
    );
    return r.rows.map((x) => x.sent_at);
  },

  async pruneMails(db: Queryable, before: Date): Promise<void> {
    await db.query('delete from workspace_invitation_mails where sent_at < $1', [before]);
  },
};
