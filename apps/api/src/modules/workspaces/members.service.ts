import { randomUUID } from 'node:crypto';
import {
  ROLE_LABELS,
  roleAtLeast,
  type InvitationPreview,
  type MemberList,
  type PendingInvitation,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { newToken, tokenHash } from '../../lib/tokens.ts';
import { invitationMail } from '../accounts/account-mails.ts';
import type { SessionUser } from '../sessions/sessions.service.ts';
import { membersRepo, type InvitationRow } from './members.repo.ts';
import { workspacesRepo } from './workspaces.repo.ts';

type Deps = Pick<ResolvedDeps, 'db' | 'mailer' | 'config' | 'now'>;

/** Who acts: the user and their membership of the workspace they act in. */
export interface Actor {
  user: SessionUser;
  workspace: WorkspaceSummary;
}

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const MAX_PENDING_INVITATIONS = 50;
export const MAX_INVITATION_MAILS_PER_HOUR = 20;
export const INVITATION_MAIL_WINDOW_MS = 60 * 60 * 1000;
/** One invitation's mail may be sent again this long after the last one. */
export const RESEND_AFTER_MS = 5 * 60 * 1000;

const LAST_OWNER =
  'A workspace needs at least one owner. Make someone else owner first, or delete the workspace.';
const NOT_OWNERS = 'Only owners can change, remove or invite owners.';

const inviterName = (u: SessionUser) => `${u.firstName} ${u.lastName}`.trim() || u.email;

function pendingView(i: InvitationRow, now: Date): PendingInvitation {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy,
    createdAt: i.createdAt.toISOString(),
    lastSentAt: i.lastSentAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
    expired: i.expiresAt.getTime() <= now.getTime(),
  };
}

/** Every member reads names and roles; addresses, activity and invitations are for admins and owners. */
export async function listMembers(deps: Deps, actor: Actor): Promise<MemberList> {
  const manager = roleAtLeast(actor.workspace.role, 'admin');
  const rows = await membersRepo.list(deps.db, actor.workspace.id);
  const members = rows.map((m) => ({
    userId: m.userId,
    firstName: m.firstName,
    lastName: m.lastName,
    role: m.role,
    you: m.userId === actor.user.id,
    ...(manager && {
      email: m.email,
      joinedAt: m.joinedAt.toISOString(),
      lastActiveAt: m.lastActiveAt?.toISOString() ?? null,
    }),
  }));
  if (!manager) return { members };
  return { members, invitations: await listInvitations(deps, actor) };
}

export async function listInvitations(deps: Deps, actor: Actor): Promise<PendingInvitation[]> {
  const now = deps.now();
  return (await membersRepo.openInvitations(deps.db, actor.workspace.id)).map((i) => pendingView(i, now));
}

/** An admin manages everyone but owners; only an owner hands out, changes or takes away the owner role. */
function requireManages(actor: Actor, ...roles: WorkspaceRole[]): void {
  if (actor.workspace.role !== 'owner' && roles.includes('owner'))
    throw new AppError('FORBIDDEN', NOT_OWNERS);
}

/**
 * Refuses a mail past the workspace's hourly budget (new invitations and resends alike), telling when the next
 * may go.
 */
async function checkMailBudget(db: Queryable, workspaceId: string, now: Date): Promise<void> {
  const sent = await membersRepo.mailsSince(
    db,
    workspaceId,
    new Date(now.getTime() - INVITATION_MAIL_WINDOW_MS),
  );
  if (sent.length < MAX_INVITATION_MAILS_PER_HOUR) return;
  const wait = sent[sent.length - MAX_INVITATION_MAILS_PER_HOUR]!.getTime() + INVITATION_MAIL_WINDOW_MS;
  throw new AppError(
    'RATE_LIMITED',
    `This workspace has sent ${MAX_INVITATION_MAILS_PER_HOUR} invitations in the last hour. Please try again later.`,
    undefined,
    Math.max(1, Math.ceil((wait - now.getTime()) / 1000)),
  );
}

async function mailInvitation(
  deps: Deps,
  actor: Actor,
  to: { email: string; role: WorkspaceRole; token: string },
): Promise<void> {
  const mail = invitationMail(to.email, {
    inviter: inviterName(actor.user),
    workspace: actor.workspace.name,
    role: ROLE_LABELS[to.role].toLowerCase(),
    link: `${deps.config.appUrl}/invite?token=${to.token}`,
  });
  try {
    await deps.mailer.send(mail);
  } catch {
    throw new AppError(
      'UPSTREAM_FAILED',
      'The invitation is saved but its email could not be sent. Try Resend in a moment.',
    );
  }
}

export async function invite(
  deps: Deps,
  actor: Actor,
  input: { email: string; role: WorkspaceRole },
): Promise<PendingInvitation> {
  requireManages(actor, input.role);
  const now = deps.now();
  const ws = actor.workspace.id;
  const token = newToken();
  const id = randomUUID();
  // Checked and written under the workspace's lock: two invitations at once cannot both pass a limit.
  await deps.db.transaction(async (tx) => {
    await membersRepo.lockWorkspace(tx, ws);
    if (await membersRepo.isMemberByEmail(tx, ws, input.email))
      throw new AppError('CONFLICT', `${input.email} is already a member of this workspace.`, {
        email: 'Already a member.',
      });
    if (await membersRepo.hasPendingFor(tx, ws, input.email, now))
      throw new AppError('CONFLICT', `${input.email} is already invited. Resend the invitation instead.`, {
        email: 'Already invited.',
      });
    if ((await membersRepo.countPending(tx, ws, now)) >= MAX_PENDING_INVITATIONS) throw tooManyPending();
    await checkMailBudget(tx, ws, now);
    await membersRepo.insertInvitation(tx, {
      id,
      workspaceId: ws,
      email: input.email,
      role: input.role,
      tokenHash: tokenHash(token),
      invitedBy: actor.user.id,
      at: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    await membersRepo.recordMail(tx, ws, now);
  });
  await mailInvitation(deps, actor, { email: input.email, role: input.role, token });
  return pendingView((await membersRepo.findInvitation(deps.db, ws, id))!, now);
}

const tooManyPending = () =>
  new AppError(
    'CONFLICT',
    `A workspace can have at most ${MAX_PENDING_INVITATIONS} pending invitations. Revoke some first.`,
  );

async function openInvitation(deps: Deps, actor: Actor, id: string): Promise<InvitationRow> {
  const i = await membersRepo.findInvitation(deps.db, actor.workspace.id, id);
  if (!i) throw notFound('Invitation not found.');
  if (i.acceptedAt) throw new AppError('INVALID_STATE', 'This invitation was already accepted.');
  if (i.revokedAt) throw new AppError('INVALID_STATE', 'This invitation was revoked.');
  return i;
}

/** A new link, valid 7 days from now; the old link stops working. An expired invitation can be renewed so. */
export async function resend(deps: Deps, actor: Actor, id: string): Promise<PendingInvitation> {
  const i = await openInvitation(deps, actor, id);
  requireManages(actor, i.role);
  const now = deps.now();
  const next = i.lastSentAt.getTime() + RESEND_AFTER_MS;
  if (next > now.getTime())
    throw new AppError(
      'RATE_LIMITED',
      'This invitation was sent moments ago. Please wait a few minutes before sending it again.',
      undefined,
      Math.ceil((next - now.getTime()) / 1000),
    );
  const ws = actor.workspace.id;
  const token = newToken();
  await deps.db.transaction(async (tx) => {
    await membersRepo.lockWorkspace(tx, ws);
    const expired = i.expiresAt.getTime() <= now.getTime();
    if (expired && (await membersRepo.countPending(tx, ws, now)) >= MAX_PENDING_INVITATIONS)
      throw tooManyPending();
    await checkMailBudget(tx, ws, now);
    await membersRepo.renewInvitation(tx, i.id, {
      tokenHash: tokenHash(token),
      at: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    await membersRepo.recordMail(tx, ws, now);
  });
  await mailInvitation(deps, actor, { email: i.email, role: i.role, token });
  return pendingView((await membersRepo.findInvitation(deps.db, ws, i.id))!, now);
}

export async function revoke(deps: Deps, actor: Actor, id: string): Promise<void> {
  const i = await openInvitation(deps, actor, id);
  requireManages(actor, i.role);
  if (!(await membersRepo.revokeInvitation(deps.db, i.id, deps.now())))
    throw new AppError('INVALID_STATE', 'This invitation was already accepted or revoked.');
}

/** Changes a member's role; an owner stays as long as they are not the last. */
export async function changeRole(
  deps: Deps,
  actor: Actor,
  userId: string,
  role: WorkspaceRole,
): Promise<void> {
  const ws = actor.workspace.id;
  await deps.db.transaction(async (tx) => {
    const owners = await membersRepo.lockOwners(tx, ws);
    const m = await membersRepo.find(tx, ws, userId);
    if (!m) throw notFound('Member not found.');
    requireManages(actor, m.role, role);
    if (m.role === role) return;
    if (m.role === 'owner' && owners <= 1) throw new AppError('INVALID_STATE', LAST_OWNER);
    await membersRepo.setRole(tx, ws, userId, role);
  });
}

/** Removes a member (or, for their own id, lets them leave); the last owner stays. */
export async function removeMember(deps: Deps, actor: Actor, userId: string): Promise<void> {
  const ws = actor.workspace.id;
  const self = userId === actor.user.id;
  if (!self && !roleAtLeast(actor.workspace.role, 'admin'))
    throw new AppError('FORBIDDEN', 'Only admins and owners of this workspace can do this.');
  await deps.db.transaction(async (tx) => {
    const owners = await membersRepo.lockOwners(tx, ws);
    const m = await membersRepo.find(tx, ws, userId);
    if (!m) throw notFound('Member not found.');
    if (!self) requireManages(actor, m.role);
    if (m.role === 'owner' && owners <= 1)
      throw new AppError('INVALID_STATE', self ? `You are the last owner. ${LAST_OWNER}` : LAST_OWNER);
    await membersRepo.remove(tx, ws, userId);
  });
}

const INVALID_LINK = 'This invitation link is not valid. It may have been replaced by a newer one.';
const OTHER_ADDRESS =
  'This invitation is for another email address. Log in with the address the invitation was sent to.';

function stateOf(i: InvitationRow, now: Date): InvitationPreview['state'] {
  if (i.acceptedAt) return 'accepted';
  if (i.revokedAt) return 'revoked';
  if (i.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

/** The invitation behind a link, for the address it was sent to only. */
async function invitationFor(deps: Deps, user: SessionUser, token: string): Promise<InvitationRow> {
  const i = await membersRepo.findInvitationByToken(deps.db, tokenHash(token));
  if (!i) throw notFound(INVALID_LINK);
  if (i.email.toLowerCase() !== user.email.toLowerCase()) throw new AppError('FORBIDDEN', OTHER_ADDRESS);
  return i;
}

export async function preview(deps: Deps, user: SessionUser, token: string): Promise<InvitationPreview> {
  const i = await invitationFor(deps, user, token);
  return {
    workspaceName: i.workspaceName,
    invitedBy: i.invitedBy,
    email: i.email,
    role: i.role,
    expiresAt: i.expiresAt.toISOString(),
    state: stateOf(i, deps.now()),
    alreadyMember: !!(await membersRepo.find(deps.db, i.workspaceId, user.id)),
  };
}

/**
 * Joins the workspace with the invitation's role and makes it the user's current one. The user must be logged
 * in with the invited address, verified (the route's guard): the link alone proves nothing about the account.
 */
export async function accept(deps: Deps, user: SessionUser, token: string): Promise<WorkspaceSummary> {
  const i = await invitationFor(deps, user, token);
  const now = deps.now();
  const state = stateOf(i, now);
  if (state === 'accepted') throw new AppError('INVALID_STATE', 'This invitation was already used.');
  if (state === 'revoked')
    throw new AppError('INVALID_STATE', 'This invitation was revoked. Ask for a new one.');
  if (state === 'expired')
    throw new AppError('INVALID_STATE', 'This invitation has expired. Ask for a new one.');
  if (await membersRepo.find(deps.db, i.workspaceId, user.id))
    throw new AppError('CONFLICT', `You are already a member of ${i.workspaceName}.`);
  await deps.db.transaction(async (tx) => {
    if (!(await membersRepo.consumeInvitation(tx, i.id, user.id, now)))
      throw new AppError('INVALID_STATE', 'This invitation was already used.');
    if (!(await membersRepo.add(tx, i.workspaceId, user.id, i.role)))
      throw new AppError('CONFLICT', `You are already a member of ${i.workspaceName}.`);
    await workspacesRepo.setCurrent(tx, user.id, i.workspaceId);
  });
  const joined = await workspacesRepo.listForUser(deps.db, user.id);
  return joined.find((w) => w.id === i.workspaceId)!;
}
