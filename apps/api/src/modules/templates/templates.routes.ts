import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TemplateCreate, TemplateUpdate, type TemplateDetail } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { templatesRepo } from './templates.repo.ts';

const Id = z.object({ id: z.string().max(64) });
const TAKEN = 'You already have a template with this name. Choose another name.';
const missing = () => notFound('Template not found.');

/** Saved mapping templates (spec §7): data access is all there is, so routes call the repository directly. */
export const templateRoutes =
  ({ db }: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(db);
    app.addHook('preValidation', need('viewer'));

    app.get('/api/mappings', async (request) => templatesRepo.list(db, currentWorkspace(request).id));

    app.get('/api/mappings/:id', { schema: { params: Id } }, async (request): Promise<TemplateDetail> => {
      const t = await templatesRepo.find(db, currentWorkspace(request).id, request.params.id);
      if (!t) throw missing();
      return t;
    });

    app.post(
      '/api/mappings',
      { preValidation: need('member'), schema: { body: TemplateCreate } },
      async (request, reply) => {
        const id = randomUUID();
        const ok = await templatesRepo.insert(db, {
          id,
          workspaceId: currentWorkspace(request).id,
          ...request.body,
        });
        if (!ok) throw new AppError('CONFLICT', TAKEN);
        return reply.status(201).send({ id, name: request.body.name, message: 'Mapping saved as new!' });
      },
    );

    app.patch(
      '/api/mappings/:id',
      { preValidation: need('member'), schema: { params: Id, body: TemplateUpdate } },
      async (request) => {
        const workspaceId = currentWorkspace(request).id;
        const { name, mappings, hardcoded } = request.body;
        if (
          mappings !== undefined &&
          !(await templatesRepo.updateContent(db, workspaceId, request.params.id, mappings, hardcoded ?? {}))
        )
          throw missing();
        if (name !== undefined) {
          const r = await templatesRepo.rename(db, workspaceId, request.params.id, name);
          if (r === 'missing') throw missing();
          if (r === 'taken') throw new AppError('CONFLICT', TAKEN);
          if (mappings === undefined) return { message: 'Mapping renamed!' };
        }
        return { message: 'Template updated!' };
      },
    );

    app.delete(
      '/api/mappings/:id',
      { preValidation: need('admin'), schema: { params: Id } },
      async (request) => {
        if (!(await templatesRepo.delete(db, currentWorkspace(request).id, request.params.id)))
          throw missing();
        return { message: 'Mapping deleted!' };
      },
    );
  };
