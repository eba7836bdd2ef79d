import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountCreate, AccountUpdate } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import * as pixels from './pixels.service.ts';
import { pixelsRepo } from './pixels.repo.ts';

const Id = z.object({ id: z.string().max(64) });

export const pixelRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const { db, config } = deps;
    const need = roleGuard(deps.db);
    app.addHook('preValidation', need('viewer'));

    app.get('/api/meta/accounts', async (request) =>
      (await pixelsRepo.list(db, currentWorkspace(request).id)).map(pixels.presentAccount),
    );

    app.post(
      '/api/meta/accounts',
      { preValidation: need('admin'), schema: { body: AccountCreate } },
      async (request, reply) => {
        const account = await pixels.createAccount(db, config, currentWorkspace(request).id, request.body);
        return reply.status(201).send({ ...account, message: 'Account saved' });
      },
    );

    app.patch(
      '/api/meta/accounts/:id',
      { preValidation: need('admin'), schema: { params: Id, body: AccountUpdate } },
      async (request) => ({
        ...(await pixels.updateAccount(
          db,
          config,
          currentWorkspace(request).id,
          request.params.id,
          request.body,
        )),
        message: 'Account saved',
      }),
    );

    app.post(
      '/api/meta/accounts/:id/test',
      {
        preValidation: need('admin'),
        schema: { params: Id },
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      },
      async (request) =>
        pixels.testConnection(db, config, deps.fetch, currentWorkspace(request).id, request.params.id),
    );

    app.delete(
      '/api/meta/accounts/:id',
      { preValidation: need('admin'), schema: { params: Id } },
      async (request) => {
        await pixels.deleteAccount(db, currentWorkspace(request).id, request.params.id);
        return { message: 'Account deleted' };
      },
    );
  };
