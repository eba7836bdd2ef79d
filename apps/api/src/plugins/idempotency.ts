import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_HEADER } from '@backsignal/contracts';
import type { Db } from '../db/db.ts';
import { AppError } from '../errors/app-error.ts';
import { idempotencyRepo } from '../modules/api-keys/idempotency.repo.ts';
import { currentApiKey } from './api-key-auth.ts';

/** How long a key's first answer is kept and replayed. */
export const IDEMPOTENCY_KEPT_MS = 24 * 60 * 60 * 1000;
/** A call still running after this long is taken for dead (its process ended): a retry runs it again. */
const RUNNING_AT_MOST_MS = 15 * 60 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

/**
 * What makes two calls "the same request": method, path and JSON body. A multipart upload's file is not read
 * before the call runs, so for it the path alone counts (decision 0113).
 */
function fingerprint(request: FastifyRequest): string {
  const multipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
  const body = multipart ? '' : JSON.stringify(request.body ?? null);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

/**
 * `Idempotency-Key` on the POSTs of an `apiKey` scope (decision 0113). The first call with a key claims it and its
 * answer is stored (not a 5xx or a 429: those a retry should run again); a retry within 24 hours gets that answer
 * with `Idempotent-Replayed: true` and starts nothing; the same key with another request is a 422; a retry while
 * the first call still runs is a 409.
 */
export function registerIdempotency(app: FastifyInstance, deps: { db: Db; now: () => Date }) {
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY.test(header)) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID.',
        { 'Idempotency-Key': 'Invalid key.' },
      );
    }
    const keyId = currentApiKey(request).id;
    const print = fingerprint(request);
    const now = deps.now();
    const claimed = await idempotencyRepo.claim(
      deps.db,
      keyId,
      header,
      print,
      now,
      new Date(now.getTime() - IDEMPOTENCY_KEPT_MS),
      new Date(now.getTime() - RUNNING_AT_MOST_MS),
    );
    if (claimed) {
      request.idempotencyKey = header;
      return;
    }
    const first = await idempotencyRepo.find(deps.db, keyId, header);
    if (!first) throw new AppError('CONFLICT', 'This request is being retried too quickly. Try again.');
    if (first.fingerprint !== print) {
      throw new AppError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was already used for another request. Use a new key for a new request.',
        { 'Idempotency-Key': 'Already used for another request.' },
      );
    }
    if (first.status === null) {
      throw new AppError(
        'CONFLICT',
        'A request with this Idempotency-Key is still running. Retry once it has finished.',
      );
    }
    reply.header('idempotent-replayed', 'true');
    if (first.content_type) reply.type(first.content_type);
    return reply.code(first.status).send(first.body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === null) return payload;
    request.idempotencyKey = null;
    const keyId = currentApiKey(request).id;
    const status = reply.statusCode;
    if (status >= 500 || status === 429 || typeof payload !== 'string') {
      await idempotencyRepo.release(deps.db, keyId, key);
    } else {
      const type = reply.getHeader('content-type');
      await idempotencyRepo.complete(deps.db, keyId, key, {
        status,
        body: payload,
        contentType: typeof type === 'string' ? type : null,
      });
    }
    return payload;
  });
}
