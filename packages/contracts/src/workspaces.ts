import { z } from 'zod';
import { WORKSPACE_ROLES } from './workspace-roles.ts';

export { ROLE_LABELS, roleAtLeast, WORKSPACE_HEADER, WORKSPACE_ROLES } from './workspace-roles.ts';
export const WorkspaceRole = z.enum(WORKSPACE_ROLES);
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;

export const WorkspaceSummary = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  role: WorkspaceRole,
});
export type WorkspaceSummary = z.infer<typeof WorkspaceSummary>;

/** GET /api/workspaces: the user's workspaces, and the one the app opens when the address names none. */
export const WorkspaceList = z.object({
  workspaces: z.array(WorkspaceSummary),
  current: z.string().nullable(),
});
export type WorkspaceList = z.infer<typeof WorkspaceList>;

const workspaceName = z
  .string({ error: 'Workspace name is required.' })
  .trim()
  .min(1, 'Workspace name is required.')
  .max(80, 'Workspace name must be at most 80 characters.');

export const WorkspaceCreate = z.object({ name: workspaceName });
export type WorkspaceCreate = z.infer<typeof WorkspaceCreate>;

export const WorkspaceUpdate = z.object({ name: workspaceName });
export type WorkspaceUpdate = z.infer<typeof WorkspaceUpdate>;

/** A workspace's address segment (`/w/<slug>`): what an owner may choose, as a slug the app makes would be. */
export const WORKSPACE_SLUG = /^[a-z0-9](?:[a-z0-9-]{1,58}[a-z0-9])$/;
export const SLUG_FORMAT =
  'Use 3 to 60 lower-case letters, digits and hyphens, starting and ending with a letter or digit.';

/** PATCH /api/workspace/slug (owner): the workspace's new address. */
export const WorkspaceSlugUpdate = z.object({
  slug: z
    .string({ error: 'Address is required.' })
    .trim()
    .min(1, 'Address is required.')
    .max(60, SLUG_FORMAT)
    .regex(WORKSPACE_SLUG, SLUG_FORMAT),
});
export type WorkspaceSlugUpdate = z.infer<typeof WorkspaceSlugUpdate>;

/** Deleting a workspace: its name typed again, as the confirmation. */
export const WorkspaceDelete = z.object({ confirm: z.string().max(200) });
export type WorkspaceDelete = z.infer<typeof WorkspaceDelete>;

/** Lower-case words of a name joined by '-', at most 40 characters ('workspace' when none). */
export function slugBase(name: string): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return base || 'workspace';
}

// Members and invitations (issue 31, decision 0105).

const inviteEmail = z
  .string({ error: 'Email is required.' })
  .trim()
  .min(1, 'Email is required.')
  .max(254, 'Email is too long.')
  .email('Please enter a valid email address.')
  .transform((v) => v.toLowerCase());

const roleField = z.enum(WORKSPACE_ROLES, { error: 'Choose a role: viewer, member, admin or owner.' });

/**
 * A member as the members list shows them. Every member sees names and roles; e-mail and last activity only
 * reach admins and owners (decision 0105).
 */
export const WorkspaceMember = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: WorkspaceRole,
  you: z.boolean(),
  email: z.string().optional(),
  joinedAt: z.string().optional(),
  lastActiveAt: z.string().nullable().optional(),
});
export type WorkspaceMember = z.infer<typeof WorkspaceMember>;

/** An invitation not yet accepted or revoked; `expired` ones stay listed so they can be resent or revoked. */
export const PendingInvitation = z.object({
  id: z.string(),
  email: z.string(),
  role: WorkspaceRole,
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  lastSentAt: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
});
export type PendingInvitation = z.infer<typeof PendingInvitation>;

/** GET /api/workspace/members: `invitations` only for admins and owners. */
export const MemberList = z.object({
  members: z.array(WorkspaceMember),
  invitations: z.array(PendingInvitation).optional(),
});
export type MemberList = z.infer<typeof MemberList>;

/** GET /api/workspace/invitations (admins and owners). */
export const InvitationList = z.object({ invitations: z.array(PendingInvitation) });
export type InvitationList = z.infer<typeof InvitationList>;

/** POST /api/workspace/invitations. Only an owner may invite as owner. */
export const InvitationCreate = z.object({ email: inviteEmail, role: roleField });
export type InvitationCreate = z.infer<typeof InvitationCreate>;

/** PATCH /api/workspace/members/:userId. */
export const MemberRoleUpdate = z.object({ role: roleField });
export type MemberRoleUpdate = z.infer<typeof MemberRoleUpdate>;

const invitationToken = z
  .string({ error: 'The invitation link is incomplete.' })
  .min(1, 'The invitation link is incomplete.')
  .max(200, 'The invitation link is not valid.');

/** POST /api/invitations/accept; GET /api/invitations/preview?token= */
export const InvitationAccept = z.object({ token: invitationToken });
export type InvitationAccept = z.infer<typeof InvitationAccept>;

export const INVITATION_STATES = ['pending', 'accepted', 'revoked', 'expired'] as const;

/**
 * What the accept page shows the invited address (GET /api/invitations/preview): another account learns only
 * that the invitation is for another address (403).
 */
export const InvitationPreview = z.object({
  workspaceName: z.string(),
  invitedBy: z.string().nullable(),
  email: z.string(),
  role: WorkspaceRole,
  expiresAt: z.string(),
  state: z.enum(INVITATION_STATES),
  alreadyMember: z.boolean(),
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;

/** POST /api/invitations/accept: the workspace joined. */
export const InvitationAccepted = z.object({ workspace: WorkspaceSummary, message: z.string() });
export type InvitationAccepted = z.infer<typeof InvitationAccepted>;
