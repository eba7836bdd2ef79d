import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountCreate,
  PixelAccount,
  SourceRunSummary,
  SourceSummary,
  TemplateDetail,
  TemplateSummary,
  V1ListQuery,
  V1Message,
  V1TokenReplace,
  v1Page,
} from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { notFound } from '../../errors/app-error.ts';
import { perKeyLimit } from '../../lib/per-user-limit.ts';
import { needScope } from '../../plugins/api-key-auth.ts';
import { currentWorkspace } from '../../plugins/workspace.ts';
import { logActivity } from '../activity/activity.http.ts';
import { pixelsRepo } from '../pixels/pixels.repo.ts';
import * as pixels from '../pixels/pixels.service.ts';
import { RUN_NOW_PER_MINUTE } from '../sources/sources.routes.ts';
import * as sources from '../sources/sources.service.ts';
import { templatesRepo } from '../templates/templates.repo.ts';
import { pageOf } from './v1-page.ts';

const Id = z.object({ id: z.string().uuid() });
const named = (p: { name: string; pixelId: string }) => p.name || p.pixelId;

/** Pixel accounts, templates and sources through the API: the screens' services, scopes for roles. */
export const v1CatalogRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const { db, config } = deps;
    const ws = (r: FastifyRequest) => currentWorkspace(r).id;
    const read = needScope('read');
    const send = needScope('send');
    const admin = needScope('admin');

    app.get(
      '/api/v1/pixel-accounts',
      { onRequest: read, schema: { querystring: V1ListQuery, response: { 200: v1Page(PixelAccount) } } },
      async (request) =>
        pageOf((await pixelsRepo.list(db, ws(request))).map(pixels.presentAccount), request.query),
    );

    app.post(
      '/api/v1/pixel-accounts',
      { onRequest: admin, schema: { body: AccountCreate, response: { 201: PixelAccount } } },
      async (request, reply) => {
        const account = await pixels.createAccount(db, config, ws(request), request.body);
        await logActivity(db, request, 'pixel.added', named(account), { pixelId: account.pixelId });
        return reply.status(201).send(account);
      },
    );

    app.put(
      '/api/v1/pixel-accounts/:id/token',
      { onRequest: admin, schema: { params: Id, body: V1TokenReplace, response: { 200: PixelAccount } } },
      async (request) => {
        const account = await pixels.updateAccount(db, config, ws(request), request.params.id, request.body);
        await logActivity(db, request, 'pixel.token_replaced', named(account), { pixelId: account.pixelId });
        return account;
      },
    );

    app.get(
      '/api/v1/templates',
      { onRequest: read, schema: { querystring: V1ListQuery, response: { 200: v1Page(TemplateSummary) } } },
      async (request) => pageOf(await templatesRepo.list(db, ws(request)), request.query),
    );

    app.get(
      '/api/v1/templates/:id',
      { onRequest: read, schema: { params: Id, response: { 200: TemplateDetail } } },
      async (request) => {
        const t = await templatesRepo.find(db, ws(request), request.params.id);
        if (!t) throw notFound('Template not found.');
        return t;
      },
    );

    app.get(
      '/api/v1/sources',
      { onRequest: read, schema: { querystring: V1ListQuery, response: { 200: v1Page(SourceSummary) } } },
      async (request) => pageOf(await sources.listSources(deps, ws(request)), request.query),
    );

    app.get(
      '/api/v1/sources/:id/runs',
      {
        onRequest: read,
        schema: { params: Id, querystring: V1ListQuery, response: { 200: v1Page(SourceRunSummary) } },
      },
      async (request) =>
        pageOf(await sources.sourceRuns(deps, ws(request), request.params.id), request.query),
    );

    const nameOf = async (request: FastifyRequest, id: string) =>
      (await sources.ownSource(deps, ws(request), id)).name;

    app.post(
      '/api/v1/sources/:id/run',
      {
        onRequest: send,
        config: perKeyLimit(RUN_NOW_PER_MINUTE),
        schema: { params: Id, response: { 202: V1Message } },
      },
      async (request, reply) => {
        await sources.requestRun(deps, ws(request), request.params.id);
        await logActivity(db, request, 'source.run_requested', await nameOf(request, request.params.id));
        return reply.status(202).send({ message: 'The source will run in a few seconds.' });
      },
    );

    app.post(
      '/api/v1/sources/:id/pause',
      { onRequest: send, schema: { params: Id, response: { 200: V1Message } } },
      async (request) => {
        await sources.pauseSource(deps, ws(request), request.params.id);
        await logActivity(db, request, 'source.paused', await nameOf(request, request.params.id));
        return { message: 'Source paused' };
      },
    );

    app.post(
      '/api/v1/sources/:id/resume',
      { onRequest: send, schema: { params: Id, response: { 200: V1Message } } },
      async (request) => {
        await sources.resumeSource(deps, ws(request), request.params.id);
        await logActivity(db, request, 'source.resumed', await nameOf(request, request.params.id));
        return { message: 'Source resumed' };
      },
    );
  };
