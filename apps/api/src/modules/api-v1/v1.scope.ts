import type { FastifyPluginAsync } from 'fastify';
import type { ResolvedDeps } from '../../deps.ts';
import { registerIdempotency } from '../../plugins/idempotency.ts';

/**
 * The public API's scope (decision 0113): every route registered in it is an `apiKey` route (bearer key, no
 * cookie, no XSRF, v1 error shape), and its POSTs honour Idempotency-Key. A v1 module is a plugin in `modules`.
 */
export const apiV1 =
  (deps: ResolvedDeps, modules: ((deps: ResolvedDeps) => FastifyPluginAsync)[]): FastifyPluginAsync =>
  async (instance) => {
    instance.addHook('onRoute', (route) => {
      route.config = { ...route.config, apiKey: true };
    });
    registerIdempotency(instance, deps);
    for (const m of modules) await instance.register(m(deps));
  };
