import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { V1Whoami } from '@backsignal/contracts';
import { currentApiKey, needScope } from '../../plugins/api-key-auth.ts';
import { currentWorkspace } from '../../plugins/workspace.ts';

/** Which workspace a key acts in: the call a client makes first, to check its key. */
export const v1WorkspaceRoutes = (): FastifyPluginAsync => async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/v1/workspace',
    { onRequest: needScope('read'), schema: { response: { 200: V1Whoami } } },
    async (request): Promise<V1Whoami> => {
      const { id, slug, name } = currentWorkspace(request);
      const key = currentApiKey(request);
      return { workspace: { id, slug, name }, key: { id: key.id, name: key.name, scope: key.scope } };
    },
  );
};
