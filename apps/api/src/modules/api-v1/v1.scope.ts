import type { FastifyPluginAsync } from 'fastify';
import type { ResolvedDeps } from '../../deps.ts';
import { registerIdempotency } from '../../plugins/idempotency.ts';
import type { ApiKeyScope } from '@backsignal/contracts';
import type { V1Registry, V1Route } from './openapi.ts';

/**
 * The public API's scope (decision 0113): every route registered in it is an `apiKey` route (bearer key, no
 * cookie, no XSRF, v1 error shape), and its POSTs honour Idempotency-Key. A v1 module is a plugin in `modules`;
 * each route lands in `registry`, which the OpenAPI document is generated from.
 */
export const apiV1 =
  (
    deps: ResolvedDeps,
    modules: ((deps: ResolvedDeps) => FastifyPluginAsync)[],
    registry?: V1Registry,
  ): FastifyPluginAsync =>
  async (instance) => {
    instance.addHook('onRoute', (route) => {
      route.config = { ...route.config, apiKey: true };
      if (route.method === 'HEAD') return;
      const guards = [route.onRequest ?? []].flat() as { scope?: ApiKeyScope }[];
      registry?.routes.push({
        method: String(route.method),
        url: route.url,
        scope: guards.find((g) => g.scope)?.scope ?? null,
        upload: route.config.uploadBody === true,
        schema: (route.schema ?? {}) as V1Route['schema'],
      });
    });
    registerIdempotency(instance, deps);
    for (const m of modules) await instance.register(m(deps));
  };
