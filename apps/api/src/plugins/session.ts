import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WORKSPACE_HEADER } from '@backsignal/contracts';
import { AppError } from '../errors/app-error.ts';
import type { Config } from '../config/env.ts';
import type { Db } from '../db/db.ts';
import {
  createSession,
  endSession,
  resolveSession,
  SESSION_ABSOLUTE_MS,
  type ActiveSession,
  type SessionUser,
} from '../modules/sessions/sessions.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: ActiveSession | null;
  }
}

const SLUG = /^[a-z0-9-]{1,80}$/;

/**
 * The workspace slug the request names in its header: null for none (the user's current one), undefined for one
 * that cannot be a slug (no workspace is that).
 */
export function requestedWorkspace(request: FastifyRequest): string | null | undefined {
  const header = request.headers[WORKSPACE_HEADER];
  const slug = typeof header === 'string' && header !== '' ? header : null;
  return slug === null || SLUG.test(slug) ? slug : undefined;
}

export const sessionCookieName = (config: Config) =>
  config.secureCookies ? '__Host-bs_session' : 'bs_session';

/** Loads the session named by the cookie on every request. Handlers use the helpers below to change it. */
export function registerSession(
  app: FastifyInstance,
  deps: { db: Db; config: Config; now: () => Date },
): void {
  const name = sessionCookieName(deps.config);
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    // An API key's call never rides a session, nor keeps one alive (decision 0113).
    if (request.routeOptions.config?.apiKey) return;
    const token = request.cookies[name];
    request.session = token
      ? await resolveSession(deps.db, token, deps.now(), requestedWorkspace(request))
      : null;
  });
}

export function sessionCookieOptions(config: Config) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.secureCookies,
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  };
}

/** Ends any current session and starts a fresh one (fixation-safe rotation at login). */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { db: Db; config: Config; now: () => Date },
  user: SessionUser,
): Promise<void> {
  if (request.session) await endSession(deps.db, request.session.tokenHash);
  const { token, tokenHash } = await createSession(deps.db, user.id, deps.now());
  reply.setCookie(sessionCookieName(deps.config), token, sessionCookieOptions(deps.config));
  request.session = { tokenHash, user };
}

export async function stopSession(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { db: Db; config: Config },
) {
  if (request.session) await endSession(deps.db, request.session.tokenHash);
  // Same attributes as when set: a browser ignores a __Host- cookie's removal unless it is Secure too.
  const { maxAge: _keep, ...attributes } = sessionCookieOptions(deps.config);
  reply.clearCookie(sessionCookieName(deps.config), attributes);
  request.session = null;
}

/** preHandler: any logged-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.session) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
}

/** preHandler: a logged-in user whose email is verified (every app route). */
export async function requireVerifiedUser(request: FastifyRequest): Promise<void> {
  if (!request.session) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  if (!request.session.user.emailVerified) {
    throw new AppError('EMAIL_NOT_VERIFIED', 'Please verify your email address to continue.');
  }
}

/** The current user; only call after a guard. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.session) throw new AppError('UNAUTHENTICATED', 'Please log in to continue.');
  return request.session.user;
}
