import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  InvitationAccept,
  InvitationCreate,
  MemberRoleUpdate,
  type InvitationAccepted,
  type InvitationList,
  type InvitationPreview,
  type MemberList,
  type PendingInvitation,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { clientAddress } from '../../lib/client-address.ts';
import { usersRepo } from '../accounts/users.repo.ts';
import { logActivity } from '../activity/activity.http.ts';
import { actorLabel, recordActivity } from '../activity/activity.service.ts';
import { currentUser, requireUser, requireVerifiedUser } from '../../plugins/session.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import * as members from './members.service.ts';

const UserParam = z.object({ userId: z.uuid({ error: 'Member not found.' }) });
const InvitationParam = z.object({ id: z.uuid({ error: 'Invitation not found.' }) });

const actor = (request: FastifyRequest): members.Actor => ({
  user: currentUser(request),
  workspace: currentWorkspace(request),
});

/**
 * Members of the request's workspace and invitations to it (`/api/workspace/members`, `/api/workspace/invitations`,
 * named by x-workspace like every workspace route), and the invited side (`/api/invitations/*`), which names no
 * workspace: the link's token does (decision 0105).
 */
export const memberRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(deps.db);
    /** How the log names a member the request acts on: their label as the user is now. */
    const personLabel = async (userId: string) => {
      const u = await usersRepo.findById(deps.db, userId);
      return u ? actorLabel(u) : null;
    };

    app.get(
      '/api/workspace/members',
      { preValidation: need('viewer') },
      async (request): Promise<MemberList> => members.listMembers(deps, actor(request)),
    );

    app.patch(
      '/api/workspace/members/:userId',
      { preValidation: need('admin'), schema: { params: UserParam, body: MemberRoleUpdate } },
      async (request) => {
        await members.changeRole(deps, actor(request), request.params.userId, request.body.role);
        await logActivity(deps.db, request, 'member.role_changed', await personLabel(request.params.userId), {
          role: request.body.role,
        });
        return { message: 'Role changed.' };
      },
    );

    // An admin removes others; anyone may remove themself (the same as leaving).
    app.delete(
      '/api/workspace/members/:userId',
      { preValidation: need('viewer'), schema: { params: UserParam } },
      async (request) => {
        const removed = await personLabel(request.params.userId);
        await members.removeMember(deps, actor(request), request.params.userId);
        await logActivity(deps.db, request, 'member.removed', removed);
        return { message: 'Member removed.' };
      },
    );

    app.post('/api/workspace/leave', { preValidation: need('viewer') }, async (request) => {
      const a = actor(request);
      await members.removeMember(deps, a, a.user.id);
      await logActivity(deps.db, request, 'member.removed', actorLabel(a.user));
      return { message: `You left ${a.workspace.name}.` };
    });

    app.get(
      '/api/workspace/invitations',
      { preValidation: need('admin') },
      async (request): Promise<InvitationList> => ({
        invitations: await members.listInvitations(deps, actor(request)),
      }),
    );

    app.post(
      '/api/workspace/invitations',
      { preValidation: need('admin'), schema: { body: InvitationCreate } },
      async (request, reply) => {
        const invitation: PendingInvitation = await members.invite(deps, actor(request), request.body);
        await logActivity(deps.db, request, 'member.invited', invitation.email, { role: invitation.role });
        return reply.status(201).send({ invitation, message: `Invitation sent to ${invitation.email}.` });
      },
    );

    app.post(
      '/api/workspace/invitations/:id/resend',
      { preValidation: need('admin'), schema: { params: InvitationParam } },
      async (request) => {
        const invitation = await members.resend(deps, actor(request), request.params.id);
        return { invitation, message: `Invitation sent again to ${invitation.email}.` };
      },
    );

    app.delete(
      '/api/workspace/invitations/:id',
      { preValidation: need('admin'), schema: { params: InvitationParam } },
      async (request) => {
        await members.revoke(deps, actor(request), request.params.id);
        return { message: 'Invitation revoked.' };
      },
    );

    // The token travels in the query string, which the logs redact (never in the path).
    app.get(
      '/api/invitations/preview',
      { preValidation: requireUser, schema: { querystring: InvitationAccept } },
      async (request): Promise<InvitationPreview> =>
        members.preview(deps, currentUser(request), request.query.token),
    );

    app.post(
      '/api/invitations/accept',
      {
        preValidation: requireVerifiedUser,
        schema: { body: InvitationAccept },
        config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
      },
      async (request): Promise<InvitationAccepted> => {
        const user = currentUser(request);
        const workspace = await members.accept(deps, user, request.body.token);
        // Not a workspace route (the link names the workspace), so recorded here, best effort like logActivity.
        await recordActivity(deps.db, {
          workspaceId: workspace.id,
          actorUserId: user.id,
          actorLabel: actorLabel(user),
          kind: 'member.joined',
          subject: null,
          details: { role: workspace.role },
          ip: clientAddress(request.ip),
        }).catch((err: unknown) => request.log.error({ err }, 'activity entry not written'));
        return { workspace, message: `You joined ${workspace.name}.` };
      },
    );
  };
