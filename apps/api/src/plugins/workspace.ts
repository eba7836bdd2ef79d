import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { roleAtLeast, type WorkspaceRole, type WorkspaceSummary } from '@backsignal/contracts';
import type { Db } from '../db/db.ts';
import { AppError, notFound } from '../errors/app-error.ts';
import { workspacesRepo } from '../modules/workspaces/workspaces.repo.ts';
import { noteWorkspaceSignIn } from '../modules/activity/activity.sign-in.ts';
import { currentUser, requestedWorkspace, requireVerifiedUser } from './session.ts';

declare module 'fastify' {
  interface FastifyRequest {
    workspace: WorkspaceSummary | null;
  }
}

/**
 * The workspace a request acts in: the one its header names (the web app sends the slug of the address it shows),
 * else the user's current one. Membership is read on every request, so a removed member is refused at once, in
 * every open session. A workspace the user is not in answers 404 like one that does not exist: a slug is no
 * oracle for other customers' names.
 */
async function resolveWorkspace(db: Db, request: FastifyRequest): Promise<WorkspaceSummary> {
  if (request.workspace) return request.workspace;
  const user = currentUser(request);
  const slug = requestedWorkspace(request);
  if (slug === undefined) throw notFound('Workspace not found.');
  // Read with the session in the same statement (plugins/session.ts); asked again only for a session that was not.
  const session = request.session!;
  const found =
    session.workspace !== undefined && session.workspaceSlug === slug
      ? session.workspace
      : await workspacesRepo.membership(db, user.id, slug);
  if (!found) throw notFound(slug === null ? 'You are not in any workspace yet.' : 'Workspace not found.');
  const { stale, ...w } = found;
  // The members list shows last activity to the minute: one write a minute per member, not one per request.
  if (stale) await workspacesRepo.touchActive(db, w.id, user.id);
  request.workspace = w;
  await noteWorkspaceSignIn(db, request, w.id);
  return w;
}

/**
 * preValidation factory: a verified user who is a member of the request's workspace with at least `min`. The API
 * refuses by role whatever the screen shows, and before it reads the body: a viewer's write is a 403 whatever it
 * carries, and nothing of a route's body rules is told to someone who may not call it.
 */
export function roleGuard(db: Db) {
  return (min: WorkspaceRole): preValidationAsyncHookHandler =>
    async function requireRole(request) {
      await requireVerifiedUser(request);
      const w = await resolveWorkspace(db, request);
      if (!roleAtLeast(w.role, min)) throw new AppError('FORBIDDEN', forbiddenMessage(min));
    };
}

const forbiddenMessage = (min: WorkspaceRole) =>
  min === 'member'
    ? 'Your role in this workspace can only view. Ask an admin for the Member role.'
    : min === 'admin'
      ? 'Only admins and owners of this workspace can do this.'
      : min === 'owner'
        ? 'Only owners of this workspace can do this.'
        : 'You are not a member of this workspace.';

/** The request's workspace; only call after a role guard. */
export function currentWorkspace(request: FastifyRequest): WorkspaceSummary {
  if (!request.workspace) throw new Error('currentWorkspace called before a role guard');
  return request.workspace;
}
