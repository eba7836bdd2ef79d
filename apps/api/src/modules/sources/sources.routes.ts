import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DeleteSourceQuery, ListQuery, SourceInput, TestFetchRequest } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { currentUser } from '../../plugins/session.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import * as sources from './sources.service.ts';
import { logActivity } from '../activity/activity.http.ts';

const Id = z.object({ id: z.string().max(64) });
export const RUN_NOW_PER_MINUTE = 6;

/** Automatic imports (issue 23): sources, their runs, pause/resume/run now, and "Test fetch". */
export const sourceRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(deps.db);
    app.addHook('preValidation', need('viewer'));
    const uid = (request: Parameters<typeof currentWorkspace>[0]) => currentWorkspace(request).id;
    const nameOf = async (request: FastifyRequest, id: string) =>
      (await sources.ownSource(deps, uid(request), id)).name;

    app.get('/api/sources', async (request) => ({ sources: await sources.listSources(deps, uid(request)) }));

    app.post(
      '/api/sources',
      { preValidation: need('admin'), schema: { body: SourceInput } },
      async (request, reply) => {
        const id = await sources.createSource(deps, uid(request), request.body);
        await logActivity(deps.db, request, 'source.created', request.body.name);
        return reply.status(201).send({ id, message: 'Source saved' });
      },
    );

    app.post(
      '/api/sources/test-fetch',
      {
        preValidation: need('admin'),
        schema: { body: TestFetchRequest },
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      },
      async (request) => sources.testFetch(deps, uid(request), request.body),
    );

    app.get('/api/sources/:id', { schema: { params: Id } }, async (request) =>
      sources.sourceDetail(deps, uid(request), request.params.id),
    );

    app.patch(
      '/api/sources/:id',
      { preValidation: need('admin'), schema: { params: Id, body: SourceInput } },
      async (request) => {
        await sources.updateSource(deps, uid(request), request.params.id, request.body);
        await logActivity(deps.db, request, 'source.edited', request.body.name);
        return { message: 'Source saved' };
      },
    );

    app.delete(
      '/api/sources/:id',
      { preValidation: need('admin'), schema: { params: Id, querystring: DeleteSourceQuery } },
      async (request) => {
        const withUploads = request.query.deleteUploads === 'true';
        const name = await nameOf(request, request.params.id);
        const n = await sources.deleteSource(deps, uid(request), request.params.id, withUploads);
        await logActivity(deps.db, request, 'source.deleted', name, { filesDeleted: n });
        return {
          message: withUploads ? `Source and ${n} ${n === 1 ? 'file' : 'files'} deleted` : 'Source deleted',
          uploadsDeleted: n,
        };
      },
    );

    app.get('/api/sources/:id/uploads', { schema: { params: Id, querystring: ListQuery } }, async (request) =>
      sources.sourceUploads(deps, uid(request), request.params.id, request.query),
    );

    app.get('/api/sources/:id/runs', { schema: { params: Id } }, async (request) => ({
      runs: await sources.sourceRuns(deps, uid(request), request.params.id),
    }));

    app.post(
      '/api/sources/:id/pause',
      { preValidation: need('member'), schema: { params: Id } },
      async (request) => {
        await sources.pauseSource(deps, uid(request), request.params.id);
        await logActivity(deps.db, request, 'source.paused', await nameOf(request, request.params.id));
        return { message: 'Source paused' };
      },
    );

    app.post(
      '/api/sources/:id/resume',
      { preValidation: need('member'), schema: { params: Id } },
      async (request) => {
        await sources.resumeSource(deps, uid(request), request.params.id);
        await logActivity(deps.db, request, 'source.resumed', await nameOf(request, request.params.id));
        return { message: 'Source resumed' };
      },
    );

    // "Run now" 6 times a minute per source: a click a person makes, not a loop that keeps the scheduler busy.
    app.post(
      '/api/sources/:id/run',
      {
        preValidation: need('member'),
        schema: { params: Id },
        config: {
          rateLimit: {
            max: RUN_NOW_PER_MINUTE,
            timeWindow: '1 minute',
            keyGenerator: (request: FastifyRequest) =>
              `run-now|${(request.params as { id?: string }).id ?? ''}|${request.session?.user.id ?? request.ip}`,
          },
        },
      },
      async (request, reply) => {
        await sources.requestRun(deps, uid(request), request.params.id, currentUser(request).id);
        await logActivity(deps.db, request, 'source.run_requested', await nameOf(request, request.params.id));
        return reply.status(202).send({ message: 'The source will run in a few seconds.' });
      },
    );
  };
