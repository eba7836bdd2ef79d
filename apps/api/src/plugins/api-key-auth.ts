import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { SCOPE_ROLE, roleAtLeast, type ApiKeyScope } from '@backsignal/contracts';
import type { Config } from '../config/env.ts';
import type { Db } from '../db/db.ts';
import { AppError } from '../errors/app-error.ts';
import { clientAddress } from '../lib/client-address.ts';
import { keyRateLimiter } from '../lib/key-rate-limit.ts';
import { authenticate } from '../modules/api-keys/api-keys.service.ts';

/** The API key a request was made with: who acts, with what scope. */
export interface ApiKeyActor {
  id: string;
  name: string;
  scope: ApiKeyScope;
  /** The owner or admin who created it: the person a send it starts is recorded for. */
  createdBy: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyActor | null;
  }
  interface FastifyContextConfig {
    /**
     * The route is called by programs with `Authorization: Bearer <key>` (every /api/v1 route): no session
     * cookie is read, no XSRF token asked or set, and a call without a valid key is a 401.
     */
    apiKey?: boolean;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const unauthenticated = () =>
  new AppError(
    'UNAUTHENTICATED',
    'Missing or invalid API key. Send it as "Authorization: Bearer <key>"; an owner or admin creates keys in Settings → API keys.',
  );

/**
 * Resolves the key of every `apiKey` route before anything else runs (decision 0113): the key is looked up by
 * its hash on every call, so a revoked key, or one whose creator lost the admin role, is refused at once. The
 * request then carries the key's workspace like a member's, with the role its scope stands for, so the role
 * guards' `currentWorkspace(request)` and the services work unchanged. Each key has its own rate limit.
 */
export function registerApiKeyAuth(app: FastifyInstance, deps: { db: Db; config: Config; now: () => Date }) {
  const limit = keyRateLimiter(deps.config.apiKeyRequestsPerMinute);
  app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config?.apiKey) return;
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (!token) throw unauthenticated();
    const key = await authenticate(deps.db, token, clientAddress(request.ip), deps.now());
    if (!key) throw unauthenticated();
    const wait = limit(key.id);
    if (wait > 0) {
      throw new AppError(
        'RATE_LIMITED',
        `Too many requests with this API key. Try again in ${wait} seconds.`,
        undefined,
        wait,
      );
    }
    request.apiKey = { id: key.id, name: key.name, scope: key.scope, createdBy: key.created_by };
    request.workspace = {
      id: key.workspace_id,
      slug: key.workspace_slug,
      name: key.workspace_name,
      role: SCOPE_ROLE[key.scope],
    };
  });
}

const SCOPE_MESSAGE: Record<ApiKeyScope, string> = {
  read: 'This API key cannot read this workspace.',
  send: 'This API key can only read. Create a key with the send or admin scope to upload and send.',
  admin: 'Only an API key with the admin scope can do this.',
};

/**
 * onRequest hook of an `apiKey` route: the key's scope is at least `min` (read < send < admin), refused before
 * the body is read. After it, `currentWorkspace(request)` is the key's workspace and `currentApiKey(request)` the key.
 */
export function needScope(min: ApiKeyScope): onRequestAsyncHookHandler & { scope: ApiKeyScope } {
  const guard: onRequestAsyncHookHandler = async function requireScope(request) {
    const key = currentApiKey(request);
    if (!roleAtLeast(SCOPE_ROLE[key.scope], SCOPE_ROLE[min]))
      throw new AppError('FORBIDDEN', SCOPE_MESSAGE[min]);
  };
  // Readable from the route: the OpenAPI document says which scope each route needs.
  return Object.assign(guard, { scope: min });
}

/** The request's API key; only call on an `apiKey` route. */
export function currentApiKey(request: FastifyRequest): ApiKeyActor {
  if (!request.apiKey) throw unauthenticated();
  return request.apiKey;
}

/** The person an action is recorded for: the signed-in user, or the creator of the key the call was made with. */
export function actingUserId(request: FastifyRequest): string {
  const id = request.session?.user.id ?? request.apiKey?.createdBy;
  if (!id) throw unauthenticated();
  return id;
}
