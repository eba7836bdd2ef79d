import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/context.ts';
import { Agent, loggedInAgent } from '../../../test/agent.ts';
import { bearer, createApiKey } from '../../../test/api-key.ts';
import { Writable } from 'node:stream';
import { loggerOptions } from '../../lib/logger-options.ts';
import { tokenHash } from '../../lib/tokens.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { API_KEY_REQUESTS_PER_MINUTE: '5' } });
});
afterAll(() => ctx.close());

const whoami = (secret: string, more: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: bearer(secret, more) });

describe('API keys in settings', () => {
  it('an owner creates a key, sees it once, and the list shows only its prefix', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db, { firstName: 'Olive' });
    const r = await agent.post('/api/workspace/api-keys', { name: 'Nightly CRM export', scope: 'send' });
    expect(r.statusCode).toBe(201);
    expect(r.headers['cache-control']).toBe('no-store');
    const { key, secret, message } = r.json();
    expect(message).toMatch(/will not be shown again/);
    expect(secret).toMatch(/^bsk_[A-Za-z0-9_-]{32}$/);
    expect(key).toMatchObject({ name: 'Nightly CRM export', scope: 'send', lastUsedAt: null, active: true });
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix).toHaveLength(12);
    const list = await agent.get('/api/workspace/api-keys');
    expect(list.json().keys).toEqual([key]);
    expect(list.body).not.toContain(secret);
    // Only the hash is stored.
    const stored = await ctx.db.query<{ key_hash: string }>('select key_hash from api_keys where id = $1', [
      key.id,
    ]);
    expect(stored.rows[0]!.key_hash).toBe(tokenHash(secret));
    expect(JSON.stringify(stored.rows)).not.toContain(secret);
    const log = await agent.get('/api/workspace/activity');
    expect(log.json().entries[0]).toMatchObject({ kind: 'api_key.created', subject: 'Nightly CRM export' });
  });

  it('refuses a key without a name or with an unknown scope, with the field', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const noName = await agent.post('/api/workspace/api-keys', { name: ' ', scope: 'send' });
    expect([noName.statusCode, noName.json().fields]).toEqual([400, { name: 'Name is required.' }]);
    const badScope = await agent.post('/api/workspace/api-keys', { name: 'x', scope: 'root' });
    expect([badScope.statusCode, badScope.json().fields]).toEqual([
      400,
      { scope: 'Choose a scope: read, send or admin.' },
    ]);
  });

  it('a revoked key is refused on its next call', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const { secret, id } = await createApiKey(agent, 'read');
    expect((await whoami(secret)).statusCode).toBe(200);
    const del = await agent.delete(`/api/workspace/api-keys/${id}`);
    expect([del.statusCode, del.json().message]).toEqual([200, 'API key revoked']);
    const after = await whoami(secret);
    expect([after.statusCode, after.json().code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await agent.get('/api/workspace/api-keys')).json().keys).toEqual([]);
    expect((await agent.delete(`/api/workspace/api-keys/${id}`)).statusCode).toBe(404);
  });

  it('a key stops working when its creator is no longer an owner or admin', async () => {
    const owner = await loggedInAgent(ctx.app, ctx.db);
    const admin = await loggedInAgent(ctx.app, ctx.db);
    await ctx.db.query(
      `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'admin')`,
      [owner.userId, admin.userId],
    );
    const slug = (await owner.agent.get('/api/workspace')).json().slug;
    const { secret } = await createApiKey(admin.agent, 'send', { workspace: slug });
    expect((await whoami(secret)).json().workspace.slug).toBe(slug);
    await owner.agent.patch(`/api/workspace/members/${admin.userId}`, { role: 'member' });
    expect((await whoami(secret)).statusCode).toBe(401);
    const list = (await owner.agent.get('/api/workspace/api-keys')).json().keys;
    expect(list[0].active).toBe(false);
  });
});

describe('bearer authentication on /api/v1', () => {
  it('answers the key’s workspace and records its last use and address', async () => {
    const { agent, userId } = await loggedInAgent(ctx.app, ctx.db);
    const { secret, id } = await createApiKey(agent, 'admin', { name: 'CI' });
    const r = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/workspace',
      headers: bearer(secret),
      remoteAddress: '203.0.113.7',
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      workspace: { id: userId, slug: expect.any(String), name: 'Test' },
      key: { id, name: 'CI', scope: 'admin' },
    });
    // No cookie of any kind is set on a program's call.
    expect(r.headers['set-cookie']).toBeUndefined();
    const [k] = (await agent.get('/api/workspace/api-keys')).json().keys;
    expect(k.lastUsedIp).toBe('203.0.113.7');
    expect(k.lastUsedAt).not.toBeNull();
  });

  it('refuses a missing, malformed or unknown key with the v1 error shape', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer bsk_nope' }]) {
      const r = await ctx.app.inject({ method: 'GET', url: '/api/v1/workspace', headers });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({
        code: 'UNAUTHENTICATED',
        message: expect.stringContaining('Authorization: Bearer <key>'),
        docs: 'http://localhost:3000/settings/api-docs#description/errors',
        requestId: expect.any(String),
      });
    }
  });

  it('a session cookie does not open /api/v1', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    expect((await agent.get('/api/v1/workspace')).statusCode).toBe(401);
  });

  it('limits calls per key with 429 and Retry-After, each key on its own', async () => {
    const { agent } = await loggedInAgent(ctx.app, ctx.db);
    const a = await createApiKey(agent, 'read', { name: 'a' });
    const b = await createApiKey(agent, 'read', { name: 'b' });
    for (let i = 0; i < 5; i++) expect((await whoami(a.secret)).statusCode).toBe(200);
    const limited = await whoami(a.secret);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', docs: expect.any(String) });
    expect((await whoami(b.secret)).statusCode).toBe(200);
  });

  it('an unknown /api/v1 path answers the v1 shape', async () => {
    const r = await ctx.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ code: 'NOT_FOUND', docs: expect.any(String) });
  });

  it('a member or viewer cannot manage keys', async () => {
    const owner = await loggedInAgent(ctx.app, ctx.db);
    const m = await loggedInAgent(ctx.app, ctx.db);
    await ctx.db.query(
      `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'member')`,
      [owner.userId, m.userId],
    );
    const slug = (await owner.agent.get('/api/workspace')).json().slug;
    const r = await m.agent.post(
      '/api/workspace/api-keys',
      { name: 'x', scope: 'read' },
      {
        headers: { 'x-workspace': slug },
      },
    );
    expect(r.statusCode).toBe(403);
    expect((await new Agent(ctx.app).get('/api/workspace/api-keys')).statusCode).toBe(401);
  });
});

describe('logs', () => {
  it('never hold a key: not as it is created, nor in a bearer header, nor when refused', async () => {
    let out = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const logged = await createTestContext({ deps: { logger: { ...loggerOptions('trace'), stream } } });
    try {
      const { agent } = await loggedInAgent(logged.app, logged.db);
      const { secret } = await createApiKey(agent, 'send');
      const ok = await logged.app.inject({
        method: 'GET',
        url: '/api/v1/workspace',
        headers: bearer(secret),
      });
      expect(ok.statusCode).toBe(200);
      await logged.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: bearer(`${secret}x`) });
      expect(out).toContain('/api/v1/workspace');
      expect(out).not.toContain(secret.slice(4));
    } finally {
      await logged.close();
    }
  });
});
