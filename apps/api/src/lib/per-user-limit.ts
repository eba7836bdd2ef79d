import type { FastifyRequest } from 'fastify';

/**
 * Route config for a per-user rate limit (security.md §2.9: upload, validate, prepare and send each have one):
 * at most `max` calls a minute per account, far above what a person clicking through the workflow makes, so
 * only a script meets it. Each route counts on its own.
 */
export const perUserLimit = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => `user|${request.session?.user.id ?? `ip:${request.ip}`}`,
  },
});

/** The same per-route limit for a /api/v1 route, per API key (on top of the key's overall limit). */
export const perKeyLimit = (max: number) => ({
  rateLimit: {
    max,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => `key|${request.apiKey?.id ?? `ip:${request.ip}`}`,
  },
});
