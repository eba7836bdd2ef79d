import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountCreate, AccountUpdate } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import * as pixels from './pixels.service.ts';
import { pixelsRepo } from './pixels.repo.ts';
import { logActivity } from '../activity/activity.http.ts';

/** A pixel account as the activity log names it: its label, else its pixel id. */
const named = (p: { name: string; pixelId: string }) => p.name || p.pixelId;

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
        await logActivity(db, request, 'pixel.added', named(account), { pixelId: account.pixelId });
        return reply.status(201).send({ ...account, message: 'Account saved' });
      },
    );

    app.patch(
      '/api/meta/accounts/:id',
      { preValidation: need('admin'), schema: { params: Id, body: AccountUpdate } },
      async (request) => {
        const account = await pixels.updateAccount(
          db,
          config,
          currentWorkspace(request).id,
          request.params.id,
          request.body,
        );
        const kind = request.body.accessToken ? 'pixel.token_replaced' : 'pixel.edited';
        await logActivity(db, request, kind, named(account), { pixelId: account.pixelId });
        return { ...account, message: 'Account saved' };
      },
    );

    app.post(
      '/api/meta/accounts/:id/test',
      {
        preValidation: need('admin'),
        schema: { params: Id },
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      },
      async (request) => {
        const ws = currentWorkspace(request).id;
        const result = await pixels.testConnection(db, config, deps.fetch, ws, request.params.id);
        const p = await pixelsRepo.find(db, ws, request.params.id);
        if (p)
          await logActivity(db, request, 'pixel.tested', named(p), { pixelId: p.pixelId, ok: result.ok });
        return result;
      },
    );

    app.delete(
      '/api/meta/accounts/:id',
      { preValidation: need('admin'), schema: { params: Id } },
      async (request) => {
        const p = await pixelsRepo.find(db, currentWorkspace(request).id, request.params.id);
        await pixels.deleteAccount(db, currentWorkspace(request).id, request.params.id);
        if (p) await logActivity(db, request, 'pixel.removed', named(p), { pixelId: p.pixelId });
        return { message: 'Account deleted' };
      },
    );
  };
