import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { AppError } from '../errors/app-error.ts';
import type { Config } from '../config/env.ts';
import { hmac, safeEqual } from '../lib/tokens.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false for public, credential-less endpoints (waitlist, audit) where there is no session to ride; true on
     * a GET that changes state or spends quota (spec routes kept as GET), so a cross-site navigation or an
     * image tag, which carry the Lax cookie but no header, cannot trigger it.
     */
    xsrf?: boolean;
  }
}

/**
 * Signed double-submit token (OWASP): `random.hmac(secret, random.binding)`, the binding being the session
 * (or 'anon'). A token minted for another session, or a cookie planted from a sibling domain, fails.
 */
export function registerXsrf(app: FastifyInstance, config: Config): void {
  const binding = (request: FastifyRequest) => request.session?.tokenHash ?? 'anon';
  const mint = (b: string) => {
    const nonce = randomBytes(18).toString('base64url');
    return `${nonce}.${hmac(config.sessionSecret, `${nonce}.${b}`)}`;
  };
  const valid = (token: string | undefined, b: string) => {
    if (!token) return false;
    const [nonce, mac] = token.split('.');
    return !!nonce && !!mac && safeEqual(mac, hmac(config.sessionSecret, `${nonce}.${b}`));
  };

  app.addHook('onRequest', async (request) => {
    // A program's call with an API key carries no cookie a cross-site page could ride (decision 0113).
    if (request.routeOptions.config?.apiKey) return;
    const setting = request.routeOptions.config?.xsrf;
    if (UNSAFE.has(request.method) ? setting === false : setting !== true) return;
    const header = request.headers[XSRF_HEADER];
    const cookie = request.cookies[XSRF_COOKIE];
    if (typeof header !== 'string' || header !== cookie || !valid(header, binding(request))) {
      throw new AppError('XSRF_INVALID', 'Your session has expired. Please refresh the page and try again.');
    }
  });

  // Issue a fresh token whenever the cookie is missing or belongs to another session (login, logout, expiry).
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.config?.apiKey || request.url.startsWith('/api/v1/')) return;
    if (request.url.startsWith('/api/') || request.url.startsWith('/auth/')) {
      if (!valid(request.cookies[XSRF_COOKIE], binding(request))) {
        reply.setCookie(XSRF_COOKIE, mint(binding(request)), {
          path: '/',
          httpOnly: false,
          sameSite: 'lax',
          secure: config.secureCookies,
        });
      }
    }
  });
}
