import type { FastifyPluginAsync } from 'fastify';
import type { ResolvedDeps } from '../../deps.ts';
import { openApiDocument, type V1Registry } from './openapi.ts';

/** GET /api/v1/openapi.json: public, like any API's reference; built once, after every v1 route is registered. */
export const openApiRoutes =
  (deps: ResolvedDeps, registry: V1Registry): FastifyPluginAsync =>
  async (app) => {
    let doc: string | null = null;
    app.get('/api/v1/openapi.json', async (_request, reply) => {
      doc ??= JSON.stringify(openApiDocument(registry, deps.config.appUrl));
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(doc);
    });
  };
