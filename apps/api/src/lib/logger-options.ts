import type { FastifyRequest } from 'fastify';
import { isSecretParam } from '@backsignal/contracts';

const PARAM = /([?&])([^=&#]*)=([^&#]*)/g;

/**
 * A URL with the value of every secret query parameter cut out: one-time tokens of verification and reset
 * links, and any other name the sources' list holds (SECRET_QUERY_PARAMS).
 */
export const redactUrl = (url: string) =>
  url.replace(PARAM, (all, sep: string, name: string) =>
    isSecretParam(name) ? `${sep}${name}=[redacted]` : all,
  );

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
