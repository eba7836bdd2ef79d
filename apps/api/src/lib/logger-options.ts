import type { FastifyRequest } from 'fastify';

/** Query parameters that carry a one-time secret (verification and reset links). */
const SECRET_PARAMS = /([?&](?:token)=)[^&#]*/gi;

export const redactUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[redacted]');

/**
 * Pino options for the API: secrets never reach the logs, neither in headers (session cookie, XSRF token)
 * nor in URLs (a logged verification link would let anyone who reads the logs verify or reset the account).
 */
export function loggerOptions(level: string) {
  return {
    level,
    redact: ['req.headers.cookie', 'req.headers["x-xsrf-token"]', 'req.headers.authorization'],
    serializers: {
      req: (req: FastifyRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}
