import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  WorkspaceCreate,
  WorkspaceDelete,
  WorkspaceSlugUpdate,
  WorkspaceUpdate,
  type WorkspaceList,
  type WorkspaceSummary,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { notFound } from '../../errors/app-error.ts';
import { currentUser, requireVerifiedUser } from '../../plugins/session.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { workspacesRepo } from './workspaces.repo.ts';
import { logActivity } from '../activity/activity.http.ts';
import { changeSlug, createForUser, deleteWorkspace } from './workspaces.service.ts';

const Open = z.object({ slug: z.string().max(80) });

/**
 * The user's workspaces (`/api/workspaces`) and the one a request acts in (`/api/workspace`, named by the
 * x-workspace header like every workspace route).
 */
export const workspaceRoutes =
  ({ db }: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(db);

    app.get(
      '/api/workspaces',
      { preValidation: requireVerifiedUser },
      async (request): Promise<WorkspaceList> => {
        const id = currentUser(request).id;
        const [workspaces, current] = await Promise.all([
          workspacesRepo.listForUser(db, id),
          workspacesRepo.membership(db, id, null),
        ]);
        return { workspaces, current: current?.slug ?? null };
      },
    );

    app.post(
      '/api/workspaces',
      {
        preValidation: requireVerifiedUser,
        schema: { body: WorkspaceCreate },
        config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
      },
      async (request, reply) => {
        const workspace = await createForUser(db, currentUser(request).id, request.body.name);
        return reply.status(201).send({ workspace, message: 'Workspace created.' });
      },
    );

    // Remembers the workspace the user opened, where the app lands next time.
    app.put(
      '/api/workspaces/current',
      { preValidation: requireVerifiedUser, schema: { body: Open } },
      async (request, reply) => {
        const user = currentUser(request);
        const w = await workspacesRepo.membership(db, user.id, request.body.slug);
        if (!w) throw notFound('Workspace not found.');
        await workspacesRepo.setCurrent(db, user.id, w.id);
        return reply.status(204).send();
      },
    );

    app.get('/api/workspace', { preValidation: need('viewer') }, async (request): Promise<WorkspaceSummary> =>
      currentWorkspace(request),
    );

    app.patch(
      '/api/workspace',
      { preValidation: need('owner'), schema: { body: WorkspaceUpdate } },
      async (request) => {
        await workspacesRepo.rename(db, currentWorkspace(request).id, request.body.name);
        await logActivity(db, request, 'workspace.renamed', request.body.name);
        return { message: 'Workspace renamed.' };
      },
    );

    // Limited: whether a slug is taken is all an owner learns of other workspaces, and not in bulk.
    app.patch(
      '/api/workspace/slug',
      {
        preValidation: need('owner'),
        schema: { body: WorkspaceSlugUpdate },
        config: { rateLimit: { max: 20, timeWindow: '1 hour' } },
      },
      async (request) => {
        const w = currentWorkspace(request);
        const { slug } = request.body;
        if (await changeSlug(db, w, slug))
          await logActivity(db, request, 'workspace.slug_changed', slug, { from: w.slug });
        return { slug, message: 'Workspace address changed.' };
      },
    );

    app.delete(
      '/api/workspace',
      { preValidation: need('owner'), schema: { body: WorkspaceDelete } },
      async (request) => {
        await deleteWorkspace(db, currentWorkspace(request), request.body.confirm);
        return { message: 'Workspace deleted.' };
      },
    );
  };
