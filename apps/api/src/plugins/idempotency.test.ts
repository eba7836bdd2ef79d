import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertUser, openTestDb, testConfig } from '../../test/context.ts';
import type { Db } from '../db/db.ts';
import type { ResolvedDeps } from '../deps.ts';
import { AppError } from '../errors/app-error.ts';
import { memoryMailer } from '../integrations/mailer.ts';
import { apiV1 } from '../modules/api-v1/v1.scope.ts';
import { createKey } from '../modules/api-keys/api-keys.service.ts';
import { pruneExpired } from '../modules/accounts/housekeeping.ts';
import { registerApiKeyAuth, needScope } from './api-key-auth.ts';
import { registerErrorHandler } from './error-handler.ts';
import { IDEMPOTENCY_KEPT_MS } from './idempotency.ts';

// A v1 scope of test routes on the real plugins: a counter that must not move on a replay, and an admin-only call.
let db: Db;
let drop: () => Promise<void>;
let app: FastifyInstance;
let offset = 0;
let started = 0;
let release: (() => void) | null = null;

const testRoutes = (): FastifyPluginAsync => async (instance) => {
  const r = instance.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/v1/things',
    {
      onRequest: needScope('send'),
      schema: { body: z.object({ n: z.number(), slow: z.boolean().optional() }) },
    },
    async (request, reply) => {
      started += 1;
      if (request.body.slow) await new Promise<void>((done) => (release = done));
      if (request.body.n < 0)
        throw new AppError('VALIDATION_FAILED', 'n must be positive.', { n: 'Too small.' });
      if (request.body.n === 500) throw new Error('boom');
      return reply.status(201).send({ started, n: request.body.n });
    },
  );
  r.post('/api/v1/admin-only', { onRequest: needScope('admin') }, async () => ({ ok: true }));
};

beforeAll(async () => {
  ({ db, drop } = await openTestDb());
  const config = testConfig();
  const deps: ResolvedDeps = {
    config,
    db,
    mailer: memoryMailer(),
    now: () => new Date(Date.now() + offset),
    fetch: globalThis.fetch,
  };
  app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, undefined, undefined, 'https://example.test/docs');
  app.decorateRequest('workspace', null);
  app.decorateRequest('session', null);
  registerApiKeyAuth(app, deps);
  await app.register(apiV1(deps, [testRoutes]));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await drop();
});

async function key(scope: 'read' | 'send' | 'admin' = 'send') {
  const user = randomUUID();
  await insertUser(db, user, `${user}@example.com`);
  return (await createKey(db, user, user, { name: 'k', scope })).secret;
}

const post = (secret: string, body: unknown, idem?: string, url = '/api/v1/things') =>
  app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers: { authorization: `Bearer ${secret}`, ...(idem ? { 'idempotency-key': idem } : {}) },
  });

describe('Idempotency-Key', () => {
  it('a retry answers the first answer and starts nothing again', async () => {
    const secret = await key();
    const first = await post(secret, { n: 1 }, 'abc-1');
    expect(first.statusCode).toBe(201);
    const before = started;
    const again = await post(secret, { n: 1 }, 'abc-1');
    expect(started).toBe(before);
    expect([again.statusCode, again.body]).toEqual([201, first.body]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toContain('application/json');
    // Without a key, or with another, the call runs.
    await post(secret, { n: 1 });
    await post(secret, { n: 1 }, 'abc-2');
    expect(started).toBe(before + 2);
  });

  it('refuses the same key with another body', async () => {
    const secret = await key();
    await post(secret, { n: 1 }, 'k');
    const r = await post(secret, { n: 2 }, 'k');
    expect(r.statusCode).toBe(422);
    expect(r.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'Idempotency-Key' });
  });

  it('keys are per API key: another key with the same Idempotency-Key runs its own call', async () => {
    const a = await key();
    const b = await key();
    const ra = await post(a, { n: 1 }, 'shared');
    const rb = await post(b, { n: 1 }, 'shared');
    expect(rb.json().started).toBe(ra.json().started + 1);
  });

  it('replays a refusal (4xx) but runs again after a failure on our side (5xx)', async () => {
    const secret = await key();
    const bad = await post(secret, { n: -1 }, 'neg');
    expect(bad.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'n',
      docs: 'https://example.test/docs#description/errors',
    });
    const before = started;
    expect((await post(secret, { n: -1 }, 'neg')).body).toBe(bad.body);
    expect(started).toBe(before);
    expect((await post(secret, { n: 500 }, 'err')).statusCode).toBe(500);
    expect((await post(secret, { n: 500 }, 'err')).statusCode).toBe(500);
    expect(started).toBe(before + 2);
  });

  it('a retry while the first call runs is a 409, and starts nothing', async () => {
    const secret = await key();
    const first = post(secret, { n: 3, slow: true }, 'slow');
    while (!release) await new Promise((r) => setTimeout(r, 5));
    const before = started;
    const during = await post(secret, { n: 3, slow: true }, 'slow');
    expect([during.statusCode, during.json().code]).toEqual([409, 'CONFLICT']);
    expect(started).toBe(before);
    release!();
    release = null;
    expect((await first).statusCode).toBe(201);
  });

  it('is kept 24 hours, then the key may be used again', async () => {
    const secret = await key();
    const first = await post(secret, { n: 7 }, 'day');
    offset = IDEMPOTENCY_KEPT_MS + 1000;
    try {
      const later = await post(secret, { n: 7 }, 'day');
      expect(later.json().started).toBe(first.json().started + 1);
      await pruneExpired(db, new Date(Date.now() + 2 * IDEMPOTENCY_KEPT_MS + 1000));
      const rows = await db.query('select 1 from api_idempotency where idem_key = $1', ['day']);
      expect(rows.rows).toEqual([]);
    } finally {
      offset = 0;
    }
  });

  it('refuses a malformed key', async () => {
    const secret = await key();
    const r = await post(secret, { n: 1 }, 'x'.repeat(256));
    expect([r.statusCode, r.json().field]).toEqual([400, 'Idempotency-Key']);
  });
});

describe('scopes', () => {
  it('read < send < admin, refused 403 before the body is read', async () => {
    const read = await key('read');
    const send = await key('send');
    const admin = await key('admin');
    expect((await post(read, 'not json at all')).json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await post(send, { n: 1 })).statusCode).toBe(201);
    expect((await post(send, {}, undefined, '/api/v1/admin-only')).statusCode).toBe(403);
    expect((await post(admin, {}, undefined, '/api/v1/admin-only')).statusCode).toBe(200);
  });
});
