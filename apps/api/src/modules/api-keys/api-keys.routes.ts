import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiKeyCreate, type ApiKeyCreated, type ApiKeyList } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { currentUser } from '../../plugins/session.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { logActivity } from '../activity/activity.http.ts';
import * as keys from './api-keys.service.ts';

const Id = z.object({ id: z.string().uuid() });

/** Settings → API keys (decision 0113): owners and admins list, create and revoke the workspace's keys. */
export const apiKeyRoutes =
  ({ db, now }: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    app.addHook('preValidation', roleGuard(db)('admin'));

    app.get('/api/workspace/api-keys', async (request): Promise<ApiKeyList> => {
      return { keys: await keys.listKeys(db, currentWorkspace(request).id) };
    });

    app.post(
      '/api/workspace/api-keys',
      { schema: { body: ApiKeyCreate }, config: { rateLimit: { max: 20, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const created = await keys.createKey(
          db,
          currentWorkspace(request).id,
          currentUser(request).id,
          request.body,
        );
        await logActivity(db, request, 'api_key.created', created.key.name, { scope: created.key.scope });
        reply.header('cache-control', 'no-store');
        return reply.status(201).send(created satisfies ApiKeyCreated);
      },
    );

    app.delete('/api/workspace/api-keys/:id', { schema: { params: Id } }, async (request) => {
      const name = await keys.revokeKey(db, currentWorkspace(request).id, request.params.id, now());
      await logActivity(db, request, 'api_key.revoked', name);
      return { message: 'API key revoked' };
    });
  };
