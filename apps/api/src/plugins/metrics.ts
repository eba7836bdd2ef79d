import type { FastifyInstance } from 'fastify';
import { httpDuration, httpRequests } from '../lib/metrics.ts';

/**
 * Counts and times every answer by its route pattern (`/api/uploads/:id`), never its path, so ids do not
 * become labels; a request that matched no route counts as `unmatched`.
 */
export function registerHttpMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}
